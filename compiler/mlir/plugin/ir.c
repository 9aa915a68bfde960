/* ir.c: building MLIR operations through the C API.
 *
 * Every operation is made with mlirOperationCreate from its name, operand
 * values, result types and attributes (the generic form: the C API has no
 * per-op builders for these dialects). Types and constants follow the
 * dtype table: integers are signless (signedness picks the operation, as
 * in LLVM), bool is i1 as a value and i8 in memory, f16 and bf16 are
 * MLIR's own types. Constants are hoisted to the top of the kernel's entry
 * block, one per (type, value), so the printed module reads like the
 * kernel layer without repeated literals; they dominate every use.
 *
 * Conversions follow the CUDA printer's rules exactly, because the two
 * backends must compute the same bits: integer widening by the source's
 * signedness, float-to-integer conversion toward zero, saturating, NaN to
 * 0 (LLVM's fptosi.sat, which is what PTX's cvt.rzi does), and every
 * conversion to or from f16/bf16 going through f32 as cuda_fp16.h does,
 * double rounding included. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <mlir-c/Dialect/LLVM.h>

#include "emit.h"

/* ---- dtypes --------------------------------------------------------------------- */

bool dt_is_float(MtDtype dt) { return mt_dtype_info(dt)->cls == MT_DC_FLOAT; }
bool dt_is_half(MtDtype dt) { return dt == MT_DT_F16 || dt == MT_DT_BF16; }
bool dt_is_unsigned(MtDtype dt)
{
    MtDtypeClass c = mt_dtype_info(dt)->cls;
    return c == MT_DC_UINT || c == MT_DC_BOOL;
}
unsigned dt_bits(MtDtype dt) { return mt_dtype_info(dt)->bits; }

MlirType ty_int(Em *e, unsigned bits) { return mlirIntegerTypeGet(e->ctx, bits); }

MlirType ty_ptr(Em *e, unsigned addrspace) { return mlirLLVMPointerTypeGet(e->ctx, addrspace); }

MlirType ty_of(Em *e, MtDtype dt)
{
    switch (dt) {
    case MT_DT_F16: return mlirF16TypeGet(e->ctx);
    case MT_DT_BF16: return mlirBF16TypeGet(e->ctx);
    case MT_DT_F32: return mlirF32TypeGet(e->ctx);
    case MT_DT_F64: return mlirF64TypeGet(e->ctx);
    case MT_DT_I1:
    case MT_DT_I8:
    case MT_DT_I16:
    case MT_DT_I32:
    case MT_DT_I64:
    case MT_DT_U8:
    case MT_DT_U16:
    case MT_DT_U32:
    case MT_DT_U64:
    case MT_DTYPE_COUNT: break;
    }
    return ty_int(e, dt_bits(dt) ? dt_bits(dt) : 32);
}

MlirType ty_mem(Em *e, MtDtype dt) { return dt == MT_DT_I1 ? ty_int(e, 8) : ty_of(e, dt); }

/* ---- attributes -------------------------------------------------------------------- */

MlirNamedAttribute named(Em *e, const char *name, MlirAttribute a)
{
    return mlirNamedAttributeGet(mlirIdentifierGet(e->ctx, mlirStringRefCreateFromCString(name)), a);
}

MlirAttribute attr_i64(Em *e, int64_t v) { return mlirIntegerAttrGet(ty_int(e, 64), v); }
MlirAttribute attr_i32(Em *e, int32_t v) { return mlirIntegerAttrGet(ty_int(e, 32), v); }
MlirAttribute attr_str(Em *e, const char *s) { return mlirStringAttrGet(e->ctx, mlirStringRefCreateFromCString(s)); }
MlirAttribute attr_i32s(Em *e, int n, const int32_t *v) { return mlirDenseI32ArrayGet(e->ctx, n, v); }

/* ---- operations ------------------------------------------------------------------------ */

MlirOperation op_make(Em *e, const char *name, int nres, const MlirType *res, int nopd, const MlirValue *opd,
                      int nattr, const MlirNamedAttribute *attrs, int nreg, MlirRegion *regions)
{
    MlirOperationState st = mlirOperationStateGet(mlirStringRefCreateFromCString(name), e->loc);
    if (nres)
        mlirOperationStateAddResults(&st, nres, res);
    if (nopd)
        mlirOperationStateAddOperands(&st, nopd, opd);
    if (nattr)
        mlirOperationStateAddAttributes(&st, nattr, attrs);
    if (nreg)
        mlirOperationStateAddOwnedRegions(&st, nreg, regions);
    MlirOperation op = mlirOperationCreate(&st);
    mlirBlockAppendOwnedOperation(e->block, op);
    return op;
}

MlirValue op_value(Em *e, const char *name, MlirType res, int nopd, const MlirValue *opd, int nattr,
                   const MlirNamedAttribute *attrs)
{
    return mlirOperationGetResult(op_make(e, name, 1, &res, nopd, opd, nattr, attrs, 0, NULL), 0);
}

MlirValue op1(Em *e, const char *name, MlirType res, MlirValue a) { return op_value(e, name, res, 1, &a, 0, NULL); }

MlirValue op2(Em *e, const char *name, MlirType res, MlirValue a, MlirValue b)
{
    MlirValue v[2] = {a, b};
    return op_value(e, name, res, 2, v, 0, NULL);
}

MlirRegion region_new(Em *e, int nargs, const MlirType *types, MlirBlock *block)
{
    MlirRegion r = mlirRegionCreate();
    MlirLocation locs[nargs > 0 ? nargs : 1];
    for (int i = 0; i < nargs; i++)
        locs[i] = e->loc;
    *block = mlirBlockCreate(nargs, types, locs);
    mlirRegionAppendOwnedBlock(r, *block);
    return r;
}

/* ---- constants --------------------------------------------------------------------------- */

/* An arith.constant of attribute a at the top of the entry block, reusing
 * an equal one made before. */
MlirValue c_attr(Em *e, MlirType t, MlirAttribute a)
{
    for (MlirOperation o = mlirBlockGetFirstOperation(e->entry); !mlirOperationIsNull(e->last_const) &&
                                                                 !mlirOperationIsNull(o);
         o = mlirOperationGetNextInBlock(o)) {
        MlirAttribute v = mlirOperationGetAttributeByName(o, mlirStringRefCreateFromCString("value"));
        if (!mlirAttributeIsNull(v) && mlirAttributeEqual(v, a) &&
            mlirTypeEqual(mlirValueGetType(mlirOperationGetResult(o, 0)), t))
            return mlirOperationGetResult(o, 0);
        if (mlirOperationEqual(o, e->last_const))
            break;
    }
    MlirNamedAttribute na = named(e, "value", a);
    MlirOperationState st = mlirOperationStateGet(mlirStringRefCreateFromCString("arith.constant"), e->unknown);
    mlirOperationStateAddResults(&st, 1, &t);
    mlirOperationStateAddAttributes(&st, 1, &na);
    MlirOperation op = mlirOperationCreate(&st);
    if (mlirOperationIsNull(e->last_const))
        mlirBlockInsertOwnedOperation(e->entry, 0, op);
    else
        mlirBlockInsertOwnedOperationAfter(e->entry, e->last_const, op);
    e->last_const = op;
    return mlirOperationGetResult(op, 0);
}

MlirValue c_intw(Em *e, unsigned bits, int64_t v)
{
    MlirType t = ty_int(e, bits);
    if (bits < 64) {
        uint64_t m = (1ull << bits) - 1, u = (uint64_t)v & m;
        v = bits > 1 && u >> (bits - 1) ? (int64_t)(u | ~m) : (int64_t)u;
    }
    return c_attr(e, t, mlirIntegerAttrGet(t, v));
}

MlirValue c_int(Em *e, MtDtype dt, int64_t v)
{
    if (dt_is_float(dt))
        return c_float(e, dt, (double)v);
    return c_intw(e, dt_bits(dt), dt == MT_DT_I1 ? v != 0 : v);
}

MlirValue c_float(Em *e, MtDtype dt, double v)
{
    if (!dt_is_float(dt))
        return c_intw(e, dt_bits(dt), dt == MT_DT_I1 ? v != 0 : (int64_t)v);
    /* the CUDA printer writes f32 literals (f16/bf16 ones through f32) */
    double x = dt == MT_DT_F64 ? v : (double)(float)v;
    MlirType t = ty_of(e, dt);
    return c_attr(e, t, mlirFloatAttrDoubleGet(e->ctx, t, x));
}

MlirValue c_zero(Em *e, MtDtype dt) { return dt_is_float(dt) ? c_float(e, dt, 0.0) : c_intw(e, dt_bits(dt), 0); }

/* ---- comparisons and selects ----------------------------------------------------------------- */

static int64_t predicate(const char *const *names, const char *p)
{
    for (int64_t i = 0; names[i]; i++)
        if (!strcmp(names[i], p))
            return i;
    return 0;
}

MlirValue cmp_i(Em *e, const char *pred, MlirValue a, MlirValue b)
{
    static const char *const names[] = {"eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge", NULL};
    MlirValue v[2] = {a, b};
    MlirNamedAttribute na = named(e, "predicate", attr_i64(e, predicate(names, pred)));
    return op_value(e, "arith.cmpi", ty_int(e, 1), 2, v, 1, &na);
}

MlirValue cmp_f(Em *e, const char *pred, MlirValue a, MlirValue b)
{
    static const char *const names[] = {"false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq",
                                        "ugt",   "uge", "ult", "ule", "une", "uno", "true", NULL};
    MlirValue v[2] = {a, b};
    MlirNamedAttribute na = named(e, "predicate", attr_i64(e, predicate(names, pred)));
    return op_value(e, "arith.cmpf", ty_int(e, 1), 2, v, 1, &na);
}

MlirValue select_v(Em *e, MlirValue c, MlirValue a, MlirValue b)
{
    MlirValue v[3] = {c, a, b};
    return op_value(e, "arith.select", mlirValueGetType(a), 3, v, 0, NULL);
}

/* ---- conversions ------------------------------------------------------------------------------ */

MlirValue to_bool(Em *e, MlirValue v, MtDtype from)
{
    if (from == MT_DT_I1)
        return v;
    if (dt_is_float(from))
        return cmp_f(e, "une", v, c_zero(e, from));
    return cmp_i(e, "ne", v, c_zero(e, from));
}

MlirValue call_intrinsic(Em *e, const char *name, MlirType res, int n, const MlirValue *args)
{
    int32_t seg[2] = {n, 0};
    MlirNamedAttribute na[3] = {named(e, "intrin", attr_str(e, name)), named(e, "op_bundle_sizes", attr_i32s(e, 0, NULL)),
                                named(e, "operandSegmentSizes", attr_i32s(e, 2, seg))};
    return op_value(e, "llvm.call_intrinsic", res, n, args, 3, na);
}

static MlirValue int_resize(Em *e, MlirValue v, unsigned from_bits, bool from_unsigned, unsigned to_bits)
{
    if (to_bits == from_bits)
        return v;
    if (to_bits < from_bits)
        return op1(e, "arith.trunci", ty_int(e, to_bits), v);
    return op1(e, from_unsigned ? "arith.extui" : "arith.extsi", ty_int(e, to_bits), v);
}

static MlirValue float_to_int(Em *e, MlirValue v, MtDtype from, MtDtype to)
{
    char name[64];
    snprintf(name, sizeof name, "llvm.%s.sat.i%u.f%u", dt_is_unsigned(to) ? "fptoui" : "fptosi", dt_bits(to),
             dt_bits(from));
    return call_intrinsic(e, name, ty_of(e, to), 1, &v);
}

MlirValue conv(Em *e, MlirValue v, MtDtype from, MtDtype to)
{
    if (from == to)
        return v;
    if (to == MT_DT_I1)
        return to_bool(e, v, from);
    bool ff = dt_is_float(from), tf = dt_is_float(to);
    if (!ff && !tf)
        return int_resize(e, v, dt_bits(from), dt_is_unsigned(from), dt_bits(to));
    if (dt_is_half(from)) {
        /* f16/bf16 always leave through float (__half2float) */
        v = op1(e, "arith.extf", ty_of(e, MT_DT_F32), v);
        return conv(e, v, MT_DT_F32, to);
    }
    if (ff && !tf)
        return float_to_int(e, v, from, to);
    if (dt_is_half(to)) {
        /* __float2half_rn((float)x), or __double2half(x): one rounding */
        if (from != MT_DT_F64)
            v = conv(e, v, from, MT_DT_F32);
        return op1(e, "arith.truncf", ty_of(e, to), v);
    }
    if (!ff)
        return op1(e, dt_is_unsigned(from) ? "arith.uitofp" : "arith.sitofp", ty_of(e, to), v);
    return op1(e, dt_bits(to) > dt_bits(from) ? "arith.extf" : "arith.truncf", ty_of(e, to), v);
}

/* ---- calls ---------------------------------------------------------------------------------------- */

MlirValue call_libdevice(Em *e, const char *name, MlirType res, int n, const MlirValue *args)
{
    char sym[96];
    snprintf(sym, sizeof sym, "__nv_%s", name);
    bool declared = false;
    for (uint32_t i = 0; i < e->ndecls && !declared; i++)
        declared = !strcmp(e->decls[i], sym);
    if (!declared) {
        char **d = realloc(e->decls, (e->ndecls + 1) * sizeof *d);
        if (d) {
            e->decls = d;
            e->decls[e->ndecls++] = strdup(sym);
        }
        MlirType params[3];
        for (int i = 0; i < n && i < 3; i++)
            params[i] = mlirValueGetType(args[i]);
        MlirNamedAttribute na[3] = {
            named(e, "sym_name", attr_str(e, sym)),
            named(e, "function_type", mlirTypeAttrGet(mlirLLVMFunctionTypeGet(res, n, params, false))),
            named(e, "linkage", mlirLLVMLinkageAttrGet(e->ctx, MlirLLVMLinkageExternal)),
        };
        MlirBlock saved = e->block;
        MlirLocation loc = e->loc;
        e->block = e->gpu_body;
        e->loc = e->unknown;
        MlirRegion body = mlirRegionCreate();
        op_make(e, "llvm.func", 0, NULL, 0, NULL, 3, na, 1, &body);
        e->block = saved;
        e->loc = loc;
    }
    int32_t seg[2] = {n, 0};
    MlirNamedAttribute na[3] = {named(e, "callee", mlirFlatSymbolRefAttrGet(e->ctx, mlirStringRefCreateFromCString(sym))),
                                named(e, "op_bundle_sizes", attr_i32s(e, 0, NULL)),
                                named(e, "operandSegmentSizes", attr_i32s(e, 2, seg))};
    return op_value(e, "llvm.call", res, n, args, 3, na);
}

/* ---- memory ------------------------------------------------------------------------------------------ */

MlirValue gep(Em *e, MlirValue base, MlirType elem, MlirType ptr_ty, bool array, MlirValue index)
{
    /* element `index` of a pointer to elem, or of a pointer to an array: [0, index] */
    int32_t raw[2] = {0, INT32_MIN};
    MlirValue opd[2] = {base, index};
    MlirNamedAttribute na[2] = {named(e, "elem_type", mlirTypeAttrGet(elem)),
                                named(e, "rawConstantIndices", attr_i32s(e, array ? 2 : 1, array ? raw : raw + 1))};
    return op_value(e, "llvm.getelementptr", ptr_ty, 2, opd, 2, na);
}

MlirValue load_v(Em *e, MlirType t, MlirValue ptr, unsigned align)
{
    MlirNamedAttribute na = named(e, "alignment", attr_i64(e, align));
    return op_value(e, "llvm.load", t, 1, &ptr, align ? 1 : 0, &na);
}

void store_v(Em *e, MlirValue v, MlirValue ptr, unsigned align)
{
    MlirValue opd[2] = {v, ptr};
    MlirNamedAttribute na = named(e, "alignment", attr_i64(e, align));
    op_make(e, "llvm.store", 0, NULL, 2, opd, align ? 1 : 0, &na, 0, NULL);
}
