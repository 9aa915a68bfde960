/* expr.c: kernel-layer expressions as arith, math, llvm and nvvm operations.
 *
 * Each node becomes the operations the CUDA printer's C++ expression
 * compiles to, so both backends compute the same bits:
 *   - integer arithmetic wraps in the dtype's width; division, remainder
 *     and shifts of 8- and 16-bit integers are done in i32 as C promotes
 *     them (shifting by 8 gives 0, not poison);
 *   - max/min are the seeds' compare-and-select (a NaN in the first
 *     operand wins, equal values give the second); fmax/fmin are IEEE
 *     maxNum/minNum (arith.maxnumf);
 *   - f16/bf16 add, subtract, multiply, divide and compare in their own
 *     precision (as cuda_fp16.h's operators), while math functions, fma,
 *     abs, fmod, fmax and fmin go through f32 and round back;
 *   - math functions (math.def) call the libdevice function that NVRTC
 *     calls for the CUDA backend's function (expf: __nv_expf); fmod too
 *     (LLVM's frem on the GPU is not C's fmod); fma, abs, fmax and fmin
 *     are math and arith ops, exact;
 *   - a select, && or || whose operand reads global memory evaluates that
 *     operand only when chosen (scf.if), as C's ?:, && and || do: the
 *     masked-out lanes of a tl.load must not touch memory;
 *   - warp shuffles are nvvm.shfl.sync bfly on 32-bit words: narrower
 *     values travel in the low bits, 64-bit ones as two halves, as
 *     __shfl_xor_sync does. */
#include <stdio.h>
#include <string.h>

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <mlir-c/Dialect/LLVM.h>

#include "emit.h"

static const char *const math_name[OPC_COUNT_] = {
#define MATH(id, name, nargs, dtypes, api, c32, c64, chalf, cuda32, cuda64, params, doc) [OP_##id] = name,
#include "ssa/math.def"
#undef MATH
};
static const char *const math_cuda32[OPC_COUNT_] = {
#define MATH(id, name, nargs, dtypes, api, c32, c64, chalf, cuda32, cuda64, params, doc) [OP_##id] = cuda32,
#include "ssa/math.def"
#undef MATH
};
static const char *const math_cuda64[OPC_COUNT_] = {
#define MATH(id, name, nargs, dtypes, api, c32, c64, chalf, cuda32, cuda64, params, doc) [OP_##id] = cuda64,
#include "ssa/math.def"
#undef MATH
};

bool ex_may_fault(const KExpr *x)
{
    if (!x)
        return false;
    if (x->op == K_LOAD)
        return true;
    for (int i = 0; i < x->nargs; i++)
        if (ex_may_fault(x->a[i]))
            return true;
    return false;
}

MlirValue ex_as(Em *e, const KExpr *x, MtDtype dt) { return conv(e, ex(e, x), (MtDtype)x->dt, dt); }

/* ---- memory --------------------------------------------------------------------- */

MlirValue elem_addr(Em *e, KVarId v, MlirValue index, MtDtype index_dt)
{
    const KVar *x = k_var_at(e->f, v);
    MlirType elem = ty_mem(e, (MtDtype)x->dt);
    if (dt_is_unsigned(index_dt))   /* C converts an unsigned index without its sign */
        index = conv(e, index, index_dt, MT_DT_U64);
    if (x->kind == KV_PARAM)
        return gep(e, e->param[v], elem, ty_ptr(e, 0), false, index);
    MlirType arr = mlirLLVMArrayTypeGet(elem, x->n);
    if (x->kind == KV_SHARED) {
        /* a view of the block's shared pool at its byte offset */
        MlirNamedAttribute na =
            named(e, "global_name", mlirFlatSymbolRefAttrGet(e->ctx, mlirStringRefCreateFromCString("mt_smem")));
        MlirValue pool = op_value(e, "llvm.mlir.addressof", ty_ptr(e, 3), 0, NULL, 1, &na);
        MlirValue view = gep(e, pool, ty_of(e, MT_DT_I8), ty_ptr(e, 3), false, c_int(e, MT_DT_I32, x->offset));
        return gep(e, view, elem, ty_ptr(e, 3), false, index);
    }
    return gep(e, e->mem[v], arr, ty_ptr(e, 0), true, index);
}

/* A load of dt from an address (bool: a byte, true when not zero). */
static MlirValue load_elem(Em *e, MtDtype dt, MlirValue addr)
{
    MlirValue v = load_v(e, ty_mem(e, dt), addr, 0);
    return dt == MT_DT_I1 ? cmp_i(e, "ne", v, c_intw(e, 8, 0)) : v;
}

static MlirValue read_var(Em *e, const KExpr *x)
{
    KVarId v = x->u.var;
    const KVar *var = k_var_at(e->f, v);
    MtDtype dt = (MtDtype)var->dt;
    if (var->kind == KV_PARAM)
        return e->param[v];
    if (var->kind == KV_SHARED || e->in_memory[v]) {
        MlirValue idx = x->op == K_ELEM ? ex(e, x->a[0]) : c_int(e, MT_DT_I32, 0);
        return load_elem(e, dt, elem_addr(e, v, idx, x->op == K_ELEM ? (MtDtype)x->a[0]->dt : MT_DT_I32));
    }
    int64_t i = 0;
    if (x->op == K_ELEM && !k_is_const(x->a[0], &i)) {
        em_unsupported(e, "a register array read at a run-time index");
        return c_zero(e, dt);
    }
    if (i < 0 || (var->kind == KV_REGS && i >= var->n)) {
        em_unsupported(e, "a register array read out of its bounds");
        return c_zero(e, dt);
    }
    MlirValue val = e->env[e->slot[v] + (uint32_t)i];
    if (mlirValueIsNull(val))   /* read before any assignment: C's indeterminate value */
        return c_zero(e, dt);
    return val;
}

/* ---- special registers, shuffles ---------------------------------------------------- */

static MlirValue sreg(Em *e, const char *name) { return op_value(e, name, ty_int(e, 32), 0, NULL, 0, NULL); }

static MlirValue special(Em *e, KSpecial s)
{
    switch (s) {
    case KS_TID: return sreg(e, "nvvm.read.ptx.sreg.tid.x");
    case KS_BID_X: return sreg(e, "nvvm.read.ptx.sreg.ctaid.x");
    case KS_BID_Y: return sreg(e, "nvvm.read.ptx.sreg.ctaid.y");
    case KS_BID_Z: return sreg(e, "nvvm.read.ptx.sreg.ctaid.z");
    case KS_LANE: return op2(e, "arith.andi", ty_int(e, 32), sreg(e, "nvvm.read.ptx.sreg.tid.x"), c_intw(e, 32, 31));
    case KS_WARP: return op2(e, "arith.shrui", ty_int(e, 32), sreg(e, "nvvm.read.ptx.sreg.tid.x"), c_intw(e, 32, 5));
    }
    return c_intw(e, 32, 0);
}

static MlirValue shfl32(Em *e, MlirValue v, uint32_t lane_mask)
{
    if (mlirAttributeIsNull(e->shfl_bfly))
        e->shfl_bfly = mlirAttributeParseGet(e->ctx, mlirStringRefCreateFromCString("#nvvm<shfl_kind bfly>"));
    MlirValue opd[4] = {c_intw(e, 32, -1), v, c_intw(e, 32, lane_mask), c_intw(e, 32, 31)};
    MlirNamedAttribute na = named(e, "kind", e->shfl_bfly);
    return op_value(e, "nvvm.shfl.sync", mlirValueGetType(v), 4, opd, 1, &na);
}

static MlirValue shuffle(Em *e, MlirValue v, MtDtype dt, uint32_t lane_mask)
{
    unsigned bits = dt_bits(dt);
    MlirType i32 = ty_int(e, 32);
    if (dt == MT_DT_F32 || dt == MT_DT_I32 || dt == MT_DT_U32)
        return shfl32(e, v, lane_mask);
    if (bits == 64) {
        MlirType i64 = ty_int(e, 64);
        MlirValue w = dt == MT_DT_F64 ? op1(e, "arith.bitcast", i64, v) : v;
        MlirValue lo = shfl32(e, op1(e, "arith.trunci", i32, w), lane_mask);
        MlirValue hi = shfl32(e, op1(e, "arith.trunci", i32, op2(e, "arith.shrui", i64, w, c_intw(e, 64, 32))), lane_mask);
        MlirValue r = op2(e, "arith.ori", i64, op1(e, "arith.extui", i64, lo),
                          op2(e, "arith.shli", i64, op1(e, "arith.extui", i64, hi), c_intw(e, 64, 32)));
        return dt == MT_DT_F64 ? op1(e, "arith.bitcast", ty_of(e, dt), r) : r;
    }
    MlirType narrow = ty_int(e, bits);
    MlirValue w = dt_is_half(dt) ? op1(e, "arith.bitcast", narrow, v) : v;
    MlirValue r = op1(e, "arith.trunci", narrow, shfl32(e, op1(e, "arith.extui", i32, w), lane_mask));
    return dt_is_half(dt) ? op1(e, "arith.bitcast", ty_of(e, dt), r) : r;
}

/* ---- operators -------------------------------------------------------------------------- */

/* a0 ? a1 : a2 with the chosen operand alone evaluated (scf.if), for
 * operands that read memory. */
static MlirValue lazy_select(Em *e, MlirValue cond, const KExpr *a, const KExpr *b, MtDtype dt)
{
    MlirType t = ty_of(e, dt);
    MlirBlock saved = e->block, then_b, else_b;
    MlirRegion regions[2] = {region_new(e, 0, NULL, &then_b), region_new(e, 0, NULL, &else_b)};
    MlirValue v;
    e->block = then_b;
    v = ex_as(e, a, dt);
    op_make(e, "scf.yield", 0, NULL, 1, &v, 0, NULL, 0, NULL);
    e->block = else_b;
    v = ex_as(e, b, dt);
    op_make(e, "scf.yield", 0, NULL, 1, &v, 0, NULL, 0, NULL);
    e->block = saved;
    return mlirOperationGetResult(op_make(e, "scf.if", 1, &t, 1, &cond, 0, NULL, 2, regions), 0);
}

static MlirValue logic(Em *e, const KExpr *x)
{
    bool land = x->op == K_LAND;
    MlirValue a = to_bool(e, ex(e, x->a[0]), (MtDtype)x->a[0]->dt);
    if (ex_may_fault(x->a[1])) {
        /* a && b: a ? bool(b) : false;  a || b: a ? true : bool(b) */
        KExpr bconst = {.op = K_CONST, .dt = MT_DT_I1, .u.c = {.kind = CST_BOOL, .i = !land}};
        KExpr bcast = {.op = K_CAST, .dt = MT_DT_I1, .nargs = 1, .a = {x->a[1]}};
        return land ? lazy_select(e, a, &bcast, &bconst, MT_DT_I1) : lazy_select(e, a, &bconst, &bcast, MT_DT_I1);
    }
    MlirValue b = to_bool(e, ex(e, x->a[1]), (MtDtype)x->a[1]->dt);
    return op2(e, land ? "arith.andi" : "arith.ori", ty_int(e, 1), a, b);
}

static MlirValue compare(Em *e, const KExpr *x)
{
    MtDtype dt = (MtDtype)x->u.cmp_dt;
    MlirValue a = ex_as(e, x->a[0], dt), b = ex_as(e, x->a[1], dt);
    static const char *const fpred[] = {"olt", "ole", "ogt", "oge", "oeq", "une"};
    static const char *const spred[] = {"slt", "sle", "sgt", "sge", "eq", "ne"};
    static const char *const upred[] = {"ult", "ule", "ugt", "uge", "eq", "ne"};
    int k = x->op - K_LT;
    if (dt_is_float(dt))
        return cmp_f(e, fpred[k], a, b);
    return cmp_i(e, dt_is_unsigned(dt) ? upred[k] : spred[k], a, b);
}

/* The seeds' max/min: (a != a || a > b) ? a : b for floats, (a > b) ? a : b for integers. */
static MlirValue maxmin(Em *e, const KExpr *x, MtDtype dt)
{
    bool max = x->op == K_MAX;
    MlirValue a = ex_as(e, x->a[0], dt), b = ex_as(e, x->a[1], dt), c;
    if (dt_is_float(dt))
        c = op2(e, "arith.ori", ty_int(e, 1), cmp_f(e, "une", a, a), cmp_f(e, max ? "ogt" : "olt", a, b));
    else
        c = cmp_i(e, dt_is_unsigned(dt) ? (max ? "ugt" : "ult") : (max ? "sgt" : "slt"), a, b);
    return select_v(e, c, a, b);
}

/* f(args) for a float dtype, through f32 for f16/bf16. `libdevice` names
 * the function; `op` is a math/arith op used instead when non-NULL. */
static MlirValue float_fn(Em *e, const KExpr *x, const char *op, const char *libdevice)
{
    MtDtype dt = (MtDtype)x->dt, at = dt_is_half(dt) ? MT_DT_F32 : dt;
    MlirValue args[3];
    for (int i = 0; i < x->nargs && i < 3; i++)
        args[i] = ex_as(e, x->a[i], at);
    MlirValue r = op ? op_value(e, op, ty_of(e, at), x->nargs, args, 0, NULL)
                     : call_libdevice(e, libdevice, ty_of(e, at), x->nargs, args);
    return conv(e, r, at, dt);
}

/* The libdevice function behind a CUDA math function, which NVRTC calls
 * for it: expf is __nv_expf, the rounding intrinsics __fdiv_rn and
 * __fsqrt_rn are __nv_fdiv_rn and __nv_fsqrt_rn, and the fast intrinsics
 * (__expf, __fdividef, ...) are libdevice's __nv_fast_* functions.
 * sqrtf is __nv_fsqrt_rn: __nv_sqrtf rounds correctly only where NVVM
 * reflect's __CUDA_PREC_SQRT is 1, as NVRTC sets it; MLIR's pipeline
 * leaves it 0, which makes sqrt.approx (and 1 / sqrt an rsqrt.approx). */
static void libdevice_name(const char *cuda, char *buf, size_t len)
{
    static const char *const fast[] = {"__expf", "__exp10f", "__logf",  "__log2f",     "__log10f", "__powf",
                                       "__sinf", "__cosf",   "__tanf",  "__fdividef", "__sincosf", NULL};
    if (!strcmp(cuda, "sqrtf")) {
        snprintf(buf, len, "fsqrt_rn");
        return;
    }
    bool is_fast = false;
    for (int i = 0; fast[i] && !is_fast; i++)
        is_fast = !strcmp(cuda, fast[i]);
    snprintf(buf, len, "%s%s", is_fast ? "fast_" : "", cuda + (strncmp(cuda, "__", 2) ? 0 : 2));
}

/* tl.fma of f16 or bf16 operands, as the CUDA backend's mt_fmaf_odd
 * (compiler/cuda/khalf.c): the f32 fma rounded to odd (toward zero, the
 * last bit set when inexact: the results rounded down and up differ),
 * then rounded once to the half type. fmaf would round twice. */
static MlirValue half_fma(Em *e, const KExpr *x)
{
    MtDtype dt = (MtDtype)x->dt;
    MlirType f32 = ty_of(e, MT_DT_F32), i32 = ty_int(e, 32);
    MlirValue args[3];
    for (int i = 0; i < 3; i++)
        args[i] = ex_as(e, x->a[i], MT_DT_F32);
    MlirValue rz = call_libdevice(e, "fmaf_rz", f32, 3, args);
    MlirValue rd = call_libdevice(e, "fmaf_rd", f32, 3, args);
    MlirValue ru = call_libdevice(e, "fmaf_ru", f32, 3, args);
    MlirValue odd = op1(e, "arith.bitcast", f32, op2(e, "arith.ori", i32, op1(e, "arith.bitcast", i32, rz),
                                                        c_intw(e, 32, 1)));
    MlirValue r = select_v(e, cmp_f(e, "une", rd, ru), odd, rz);
    return conv(e, r, MT_DT_F32, dt);
}

/* A math.def function: the libdevice function the CUDA backend's call
 * reaches, so both code generators compute the same bits (MLIR's math ops
 * lower to libdevice or to LLVM intrinsics by their own rules). */
static MlirValue math_fn(Em *e, const KExpr *x)
{
    MtDtype dt = (MtDtype)x->dt;
    int op = x->u.math;
    if (!dt_is_float(dt) || op < 0 || op >= OPC_COUNT_ || !math_name[op]) {
        em_unsupported(e, "a math function on a non-float value");
        return c_zero(e, dt);
    }
    if (op == OP_FMA && dt_is_half(dt))
        return half_fma(e, x);
    char name[64];
    libdevice_name(dt == MT_DT_F64 ? math_cuda64[op] : math_cuda32[op], name, sizeof name);
    return float_fn(e, x, NULL, name);
}

/* abs() of C, x < 0 ? -x : x (math.absi has no GPU lowering). */
static MlirValue int_abs(Em *e, MlirValue v, MtDtype dt)
{
    if (dt_is_unsigned(dt))
        return v;
    MlirValue neg = op2(e, "arith.subi", ty_of(e, dt), c_zero(e, dt), v);
    return select_v(e, cmp_i(e, "slt", v, c_zero(e, dt)), neg, v);
}

/* Integer division, remainder and shifts: 8- and 16-bit operands go
 * through i32 as C's integer promotion does. */
static MlirValue int_promoted(Em *e, const KExpr *x, MtDtype dt, const char *sop, const char *uop)
{
    bool small = dt_bits(dt) < 32;
    MtDtype wt = small ? MT_DT_I32 : dt;
    bool uns = dt_is_unsigned(dt) && !small;
    MlirValue a = conv(e, ex_as(e, x->a[0], dt), dt, wt);
    MlirValue b = conv(e, ex_as(e, x->a[1], dt), dt, wt);
    const char *name = uns || (x->op == K_SHR && dt_is_unsigned(dt)) ? uop : sop;
    MlirValue r = op2(e, name, ty_of(e, wt), a, b);
    return conv(e, r, wt, dt);
}

/* tl.umulhi: the high half of the unsigned double-width product. */
static MlirValue umulhi(Em *e, const KExpr *x, MtDtype dt)
{
    unsigned n = dt_bits(dt);
    MlirType wide = ty_int(e, 2 * n);
    MlirValue a = op1(e, "arith.extui", wide, ex_as(e, x->a[0], dt));
    MlirValue b = op1(e, "arith.extui", wide, ex_as(e, x->a[1], dt));
    MlirValue p = op2(e, "arith.shrui", wide, op2(e, "arith.muli", wide, a, b), c_intw(e, 2 * n, n));
    return op1(e, "arith.trunci", ty_of(e, dt), p);
}

/* A float narrowing rounded toward zero (tl.cast's fp_downcast_rounding
 * "rtz", the CUDA printer's __float2half_rz): round to nearest, then step
 * one unit toward zero where that rounding went away from zero. Stepping
 * the bits down by one does that in a sign-magnitude encoding, and takes
 * an overflow to infinity back to the largest finite value. Wider sources
 * narrow in stages (truncation composes exactly). */
static MlirValue narrow_toward_zero(Em *e, MlirValue v, MtDtype from, MtDtype to)
{
    if (dt_is_half(from))
        return conv(e, v, from, to);
    if (dt_bits(to) >= dt_bits(from))
        return conv(e, v, from, to);
    if (from == MT_DT_F64 && to != MT_DT_F32) {
        v = narrow_toward_zero(e, v, MT_DT_F64, MT_DT_F32);
        from = MT_DT_F32;
    }
    MlirType ft = ty_of(e, from), tt = ty_of(e, to), it = ty_int(e, dt_bits(to));
    MlirValue r = op1(e, "arith.truncf", tt, v);
    MlirValue back = op1(e, "arith.extf", ft, r);
    MlirValue away = cmp_f(e, "ogt", op1(e, "math.absf", ft, back), op1(e, "math.absf", ft, v));
    MlirValue bits = op1(e, "arith.bitcast", it, r);
    MlirValue down = op1(e, "arith.bitcast", tt, op2(e, "arith.subi", it, bits, c_intw(e, dt_bits(to), 1)));
    return select_v(e, away, down, r);
}

static MlirValue binary(Em *e, const KExpr *x)
{
    MtDtype dt = (MtDtype)x->dt;
    bool f = dt_is_float(dt);
    MlirType t = ty_of(e, dt);
    const char *name = NULL;
    switch ((KOp)x->op) {
    case K_ADD: name = f ? "arith.addf" : "arith.addi"; break;
    case K_SUB: name = f ? "arith.subf" : "arith.subi"; break;
    case K_MUL: name = f ? "arith.mulf" : "arith.muli"; break;
    case K_DIV:
        if (f)
            name = "arith.divf";
        else
            return int_promoted(e, x, dt, "arith.divsi", "arith.divui");
        break;
    case K_REM:
        if (f)
            return float_fn(e, x, NULL, dt == MT_DT_F64 ? "fmod" : "fmodf");
        return int_promoted(e, x, dt, "arith.remsi", "arith.remui");
    case K_SHL: return int_promoted(e, x, dt, "arith.shli", "arith.shli");
    case K_SHR: return int_promoted(e, x, dt, "arith.shrsi", "arith.shrui");
    case K_BAND: name = "arith.andi"; break;
    case K_BOR: name = "arith.ori"; break;
    case K_BXOR: name = "arith.xori"; break;
    default: break;
    }
    if (!name || (f && (x->op == K_BAND || x->op == K_BOR || x->op == K_BXOR))) {
        em_unsupported(e, "this operator on this dtype");
        return c_zero(e, dt);
    }
    return op2(e, name, t, ex_as(e, x->a[0], dt), ex_as(e, x->a[1], dt));
}

MlirValue ex(Em *e, const KExpr *x)
{
    MtDtype dt = (MtDtype)x->dt;
    MlirType t = ty_of(e, dt);
    switch ((KOp)x->op) {
    case K_CONST:
        if (x->u.c.kind == CST_FLOAT)
            return c_float(e, dt, x->u.c.f);
        return c_int(e, dt, x->u.c.i);
    case K_VAR:
    case K_ELEM: return read_var(e, x);
    case K_SPECIAL: return special(e, (KSpecial)x->u.special);
    case K_NEG:
        if (dt_is_float(dt))
            return op1(e, "arith.negf", t, ex_as(e, x->a[0], dt));
        return op2(e, "arith.subi", t, c_zero(e, dt), ex_as(e, x->a[0], dt));
    case K_BNOT:
        if (dt_is_float(dt))
            break;
        return op2(e, "arith.xori", t, ex_as(e, x->a[0], dt), c_intw(e, dt_bits(dt), -1));
    case K_LNOT: {
        MlirValue b = to_bool(e, ex(e, x->a[0]), (MtDtype)x->a[0]->dt);
        return conv(e, op2(e, "arith.xori", ty_int(e, 1), b, c_intw(e, 1, 1)), MT_DT_I1, dt);
    }
    case K_ABS:
        if (dt_is_float(dt))
            return float_fn(e, x, "math.absf", NULL);
        return int_abs(e, ex_as(e, x->a[0], dt), dt);
    case K_ADD:
    case K_SUB:
    case K_MUL:
    case K_DIV:
    case K_REM:
    case K_BAND:
    case K_BOR:
    case K_BXOR:
    case K_SHL:
    case K_SHR: return binary(e, x);
    case K_LAND:
    case K_LOR: return conv(e, logic(e, x), MT_DT_I1, dt);
    case K_LT:
    case K_LE:
    case K_GT:
    case K_GE:
    case K_EQ:
    case K_NE: return compare(e, x);
    case K_MAX:
    case K_MIN: return maxmin(e, x, dt);
    case K_FMAX:
    case K_FMIN:
        if (!dt_is_float(dt))
            break;
        return float_fn(e, x, x->op == K_FMAX ? "arith.maxnumf" : "arith.minnumf", NULL);
    case K_FMA:
        if (!dt_is_float(dt))
            break;
        return float_fn(e, x, "math.fma", NULL);
    case K_SELECT: {
        MlirValue c = to_bool(e, ex(e, x->a[0]), (MtDtype)x->a[0]->dt);
        if (ex_may_fault(x->a[1]) || ex_may_fault(x->a[2]))
            return lazy_select(e, c, x->a[1], x->a[2], dt);
        return select_v(e, c, ex_as(e, x->a[1], dt), ex_as(e, x->a[2], dt));
    }
    case K_CAST:
        if (x->u.mode == MT_ROUND_RTZ && dt_is_float(dt) && dt_is_float((MtDtype)x->a[0]->dt))
            return narrow_toward_zero(e, ex(e, x->a[0]), (MtDtype)x->a[0]->dt, dt);
        return conv(e, ex(e, x->a[0]), (MtDtype)x->a[0]->dt, dt);
    case K_BITCAST:
        return op1(e, "arith.bitcast", t, ex(e, x->a[0]));
    case K_UMULHI: return umulhi(e, x, dt);
    case K_MATH: return math_fn(e, x);
    case K_LOAD:
        /* the CUDA printer's ptr[index]: the vector width is a hint */
        return load_elem(e, dt, elem_addr(e, x->u.var, ex(e, x->a[0]), (MtDtype)x->a[0]->dt));
    case K_SHFL_XOR: return shuffle(e, ex_as(e, x->a[0], dt), dt, x->u.lane_mask);
    case K_COUNT_: break;
    }
    em_unsupported(e, "this kernel-layer expression");
    return c_zero(e, dt);
}
