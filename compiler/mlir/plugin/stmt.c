/* stmt.c: kernel-layer statements as operations, and the kernel itself.
 *
 * The module is
 *     module attributes {gpu.container_module} {
 *       gpu.module @<kernel>_module {
 *         llvm.mlir.global internal @mt_smem() {addr_space = 3 ...}   (the shared pool; arrays are views)
 *         gpu.func @<kernel>(<parameters>, mt_grid_x, mt_grid_y, mt_grid_z) kernel
 *             attributes {known_block_size = array<i32: threads, 1, 1>} { ... }
 *       }
 *     }
 * with the parameters in the kernel layer's launch order (pointers as
 * !llvm.ptr, the program grid last), so the PTX takes exactly the CUDA
 * backend's arguments and the runtime launches both alike.
 *
 * Statements: an assignment replaces the register's SSA value (emit.h);
 * a masked store or vector access is an scf.if around the memory
 * operation, which is not evaluated for masked-out lanes; `if` is scf.if,
 * a counted loop whose bound the body cannot change is scf.for, any other
 * loop scf.while (C re-tests its condition on every iteration). The
 * registers a region assigns and that were declared outside it are its
 * results (scf.if) or loop-carried values (iter_args), found by a scan of
 * the region before it is built. An atomic assigns its old value to a
 * register (atomic.c). A barrier is __syncthreads
 * (nvvm.barrier0), or __syncwarp (nvvm.bar.warp.sync) when a block's
 * programs are one warp or less each, as the CUDA printer decides. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <mlir-c/Dialect/LLVM.h>

#include "emit.h"

static void block(Em *e, const KBlock *b);

/* ---- which registers live in memory ------------------------------------------------ */

static void scan_expr(Em *e, const KExpr *x)
{
    if (!x)
        return;
    int64_t i;
    if (x->op == K_ELEM && k_var_at(e->f, x->u.var)->kind == KV_REGS && !k_is_const(x->a[0], &i))
        e->in_memory[x->u.var] = true;
    for (int a = 0; a < x->nargs; a++)
        scan_expr(e, x->a[a]);
}

static void scan_block(Em *e, const KBlock *b)
{
    for (uint32_t i = 0; i < b->n; i++) {
        const KStmt *s = b->v[i];
        int64_t c;
        switch ((KStmtKind)s->kind) {
        case KST_DECL:
        case KST_SET:
            if (s->u.set.index && k_var_at(e->f, s->u.set.var)->kind == KV_REGS && !k_is_const(s->u.set.index, &c))
                e->in_memory[s->u.set.var] = true;
            scan_expr(e, s->u.set.index);
            scan_expr(e, s->u.set.value);
            break;
        case KST_STORE:
            scan_expr(e, s->u.store.index);
            scan_expr(e, s->u.store.value);
            scan_expr(e, s->u.store.mask);
            break;
        case KST_VLOAD:
        case KST_VSTORE:
            scan_expr(e, s->u.vec.index);
            scan_expr(e, s->u.vec.mask);
            for (uint32_t k = 0; s->u.vec.other && k < s->u.vec.vec; k++)
                scan_expr(e, s->u.vec.other[k]);
            break;
        case KST_IF:
            scan_expr(e, s->u.if_.cond);
            scan_block(e, &s->u.if_.then);
            scan_block(e, &s->u.if_.els);
            break;
        case KST_FOR:
            scan_expr(e, s->u.for_.start);
            scan_expr(e, s->u.for_.stop);
            scan_block(e, &s->u.for_.body);
            break;
        case KST_WHILE:
            scan_expr(e, s->u.while_.cond);
            scan_block(e, &s->u.while_.body);
            break;
        case KST_MMA:
            scan_expr(e, s->u.mma.index);
            break;
        case KST_LDMATRIX:
            scan_expr(e, s->u.ldm.row_at);
            break;
        case KST_ATOMIC: {
            const KAtomic *a = &s->u.atomic;
            if (a->dst_index && k_var_at(e->f, a->dst)->kind == KV_REGS && !k_is_const(a->dst_index, &c))
                e->in_memory[a->dst] = true;
            const KExpr *x[] = {a->index, a->value, a->cmp, a->mask, a->dst_index};
            for (uint32_t k = 0; k < sizeof x / sizeof *x; k++)
                scan_expr(e, x[k]);
            break;
        }
        case KST_BARRIER:
        case KST_CP_ASYNC: /* tensor cores: never in an MLIR kernel */
        case KST_CP_COMMIT:
        case KST_CP_WAIT:
        case KST_PROXY_FENCE:
        case KST_WGMMA:
        case KST_WGMMA_FENCE:
        case KST_WGMMA_COMMIT:
        case KST_WGMMA_WAIT:
        case KST_BLANK: break;
        }
    }
}

static bool ssa_var(const Em *e, KVarId v)
{
    const KVar *x = k_var_at(e->f, v);
    return (x->kind == KV_LOCAL || x->kind == KV_REGS) && !e->in_memory[v];
}

/* ---- the registers a region carries --------------------------------------------------- */

typedef struct Carry {
    uint8_t *declared;        /* per variable: declared inside the region */
    uint8_t *hit;             /* per slot: assigned inside the region */
} Carry;

static void carry_slot(Em *e, Carry *c, KVarId v, int64_t i)
{
    const KVar *x = k_var_at(e->f, v);
    if (ssa_var(e, v) && i >= 0 && (x->kind == KV_LOCAL ? i == 0 : i < x->n))
        c->hit[e->slot[v] + (uint32_t)i] = 1;
}

static void carry_scan(Em *e, Carry *c, const KBlock *b)
{
    for (uint32_t i = 0; i < b->n; i++) {
        const KStmt *s = b->v[i];
        int64_t k = 0;
        switch ((KStmtKind)s->kind) {
        case KST_DECL: c->declared[s->u.set.var] = 1; break;
        case KST_SET:
            if (!s->u.set.index || k_is_const(s->u.set.index, &k))
                carry_slot(e, c, s->u.set.var, k);
            break;
        case KST_VLOAD:
            for (uint32_t j = 0; j < s->u.vec.vec; j++)
                carry_slot(e, c, s->u.vec.var, s->u.vec.first + j);
            break;
        case KST_IF:
            carry_scan(e, c, &s->u.if_.then);
            carry_scan(e, c, &s->u.if_.els);
            break;
        case KST_FOR:
            c->declared[s->u.for_.iv] = 1;
            carry_scan(e, c, &s->u.for_.body);
            break;
        case KST_WHILE: carry_scan(e, c, &s->u.while_.body); break;
        case KST_MMA:
            if (k_is_const(s->u.mma.index, &k))
                for (int j = 0; j < 4; j++)
                    carry_slot(e, c, s->u.mma.acc, k + j);
            break;
        case KST_ATOMIC:
            if (!s->u.atomic.dst_index || k_is_const(s->u.atomic.dst_index, &k))
                carry_slot(e, c, s->u.atomic.dst, k);
            break;
        case KST_STORE:
        case KST_VSTORE:
        case KST_BARRIER:
        case KST_LDMATRIX: /* tensor cores: never in an MLIR kernel */
        case KST_CP_ASYNC:
        case KST_CP_COMMIT:
        case KST_CP_WAIT:
        case KST_PROXY_FENCE:
        case KST_WGMMA:
        case KST_WGMMA_FENCE:
        case KST_WGMMA_COMMIT:
        case KST_WGMMA_WAIT:
        case KST_BLANK: break;
        }
    }
}

/* The slots assigned in blocks a and b that belong to registers declared
 * outside them, in slot order; *n receives the count (heap array). */
static uint32_t *carried(Em *e, const KBlock *a, const KBlock *b, uint32_t *n)
{
    Carry c = {calloc(e->f->vars.n + 1, 1), calloc(e->nslots + 1, 1)};
    uint32_t *out = calloc(e->nslots + 1, sizeof *out);
    *n = 0;
    if (c.declared && c.hit && out) {
        carry_scan(e, &c, a);
        if (b)
            carry_scan(e, &c, b);
        for (KVarId v = 1; v < e->f->vars.n; v++)
            if (ssa_var(e, v) && !c.declared[v]) {
                uint32_t k = k_var_at(e->f, v)->kind == KV_REGS ? k_var_at(e->f, v)->n : 1;
                for (uint32_t j = 0; j < k; j++)
                    if (c.hit[e->slot[v] + j])
                        out[(*n)++] = e->slot[v] + j;
            }
    }
    free(c.declared);
    free(c.hit);
    return out;
}

/* The current values of the carried slots (zero where none yet). */
static void carried_values(Em *e, const uint32_t *slots, uint32_t n, MlirValue *out)
{
    for (uint32_t i = 0; i < n; i++) {
        MlirValue v = e->env[slots[i]];
        out[i] = mlirValueIsNull(v) ? c_zero(e, (MtDtype)e->slot_dt[slots[i]]) : v;
    }
}

static void carried_types(Em *e, const uint32_t *slots, uint32_t n, MlirType *out)
{
    for (uint32_t i = 0; i < n; i++)
        out[i] = ty_of(e, (MtDtype)e->slot_dt[slots[i]]);
}

static MlirValue *env_save(Em *e)
{
    MlirValue *s = malloc((e->nslots + 1) * sizeof *s);
    if (s)
        memcpy(s, e->env, e->nslots * sizeof *s);
    return s;
}

static void env_restore(Em *e, const MlirValue *s)
{
    if (s)
        memcpy(e->env, s, e->nslots * sizeof *s);
}

static void yield(Em *e, const char *name, const uint32_t *slots, uint32_t n)
{
    MlirValue v[n + 1];
    carried_values(e, slots, n, v);
    op_make(e, name, 0, NULL, (int)n, v, 0, NULL, 0, NULL);
}

/* ---- assignments --------------------------------------------------------------------- */

static void assign(Em *e, KVarId v, const KExpr *index, MlirValue value)
{
    const KVar *x = k_var_at(e->f, v);
    MtDtype dt = (MtDtype)x->dt;
    if (!ssa_var(e, v)) {
        if (x->kind == KV_PARAM) {
            em_unsupported(e, "an assignment to a kernel parameter");
            return;
        }
        MlirValue idx = index ? ex(e, index) : c_int(e, MT_DT_I32, 0);
        MlirValue addr = elem_addr(e, v, idx, index ? (MtDtype)index->dt : MT_DT_I32);
        store_v(e, dt == MT_DT_I1 ? op1(e, "arith.extui", ty_int(e, 8), value) : value, addr, 0);
        return;
    }
    int64_t i = 0;
    if (index && !k_is_const(index, &i)) {
        em_unsupported(e, "a register array written at a run-time index");
        return;
    }
    if (i < 0 || (x->kind == KV_REGS ? i >= x->n : i != 0)) {
        em_unsupported(e, "a register array written out of its bounds");
        return;
    }
    uint32_t s = e->slot[v] + (uint32_t)i;
    e->env[s] = value;
    /* an operation made for this statement takes the register's name */
    if (mlirValueIsAOpResult(value)) {
        MlirOperation op = mlirOpResultGetOwner(value);
        if (mlirOperationGetNumResults(op) == 1 && mlirLocationEqual(mlirOperationGetLocation(op), e->loc)) {
            char name[160];
            em_slot_name(e, s, name, sizeof name);
            mlirOperationSetLocation(op, em_named_loc(e, name, e->loc));
        }
    }
}

/* Block arguments standing for slots take their names. */
static void name_args(Em *e, MlirBlock b, intptr_t first, const uint32_t *slots, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        char name[160];
        em_slot_name(e, slots[i], name, sizeof name);
        mlirBlockArgumentSetLocation(mlirBlockGetArgument(b, first + (intptr_t)i), em_named_loc(e, name, e->loc));
    }
}

/* ---- statements ------------------------------------------------------------------------ */

/* then() inside `scf.if cond` without results (a masked memory access). */
static void guarded(Em *e, const KExpr *mask, void (*then)(Em *, const KStmt *), const KStmt *s)
{
    if (!mask) {
        then(e, s);
        return;
    }
    MlirLocation loc = e->loc;
    MlirValue c = to_bool(e, ex(e, mask), (MtDtype)mask->dt);
    MlirBlock saved = e->block, tb;
    MlirRegion r[2] = {region_new(e, 0, NULL, &tb), mlirRegionCreate()};
    e->block = tb;
    then(e, s);
    e->loc = loc;
    op_make(e, "scf.yield", 0, NULL, 0, NULL, 0, NULL, 0, NULL);
    e->block = saved;
    op_make(e, "scf.if", 0, NULL, 1, &c, 0, NULL, 2, r);
}

static void store_body(Em *e, const KStmt *s)
{
    MtDtype dt = (MtDtype)k_var_at(e->f, s->u.store.ptr)->dt;
    MlirValue addr = elem_addr(e, s->u.store.ptr, ex(e, s->u.store.index), (MtDtype)s->u.store.index->dt);
    MlirValue v = ex_as(e, s->u.store.value, dt);
    store_v(e, dt == MT_DT_I1 ? op1(e, "arith.extui", ty_int(e, 8), v) : v, addr, 0);
}

static MlirType vec_type(Em *e, MtDtype dt, unsigned vec)
{
    int64_t shape = vec;
    return mlirVectorTypeGet(1, &shape, ty_mem(e, dt));
}

/* A vector of memory values. */
static MlirValue vec_build(Em *e, MtDtype dt, unsigned vec, const MlirValue *vals)
{
    MlirType vt = vec_type(e, dt, vec);
    MlirValue v = op_value(e, "llvm.mlir.poison", vt, 0, NULL, 0, NULL);
    for (unsigned i = 0; i < vec; i++) {
        MlirValue val = dt == MT_DT_I1 ? op1(e, "arith.extui", ty_int(e, 8), vals[i]) : vals[i];
        MlirValue opd[3] = {v, val, c_intw(e, 32, i)};
        v = op_value(e, "llvm.insertelement", vt, 3, opd, 0, NULL);
    }
    return v;
}

static void vstore_body(Em *e, const KStmt *s)
{
    const KVar *var = k_var_at(e->f, s->u.vec.var);
    MtDtype dt = (MtDtype)var->dt;
    unsigned vec = s->u.vec.vec;
    MlirValue vals[vec];
    for (unsigned i = 0; i < vec; i++) {
        KExpr ix = {.op = K_CONST, .dt = MT_DT_I32, .u.c = {.kind = CST_INT, .i = s->u.vec.first + i}};
        KExpr el = {.op = K_ELEM, .dt = (uint8_t)dt, .nargs = 1, .a = {&ix}, .u.var = s->u.vec.var};
        vals[i] = ex(e, &el);
    }
    MlirValue v = vec_build(e, dt, vec, vals);
    MlirValue addr = elem_addr(e, s->u.vec.ptr, ex(e, s->u.vec.index), (MtDtype)s->u.vec.index->dt);
    store_v(e, v, addr, vec * mt_dtype_info(dt)->size);
}

static void vload(Em *e, const KStmt *s)
{
    const KVar *var = k_var_at(e->f, s->u.vec.var);
    MtDtype dt = (MtDtype)var->dt;
    unsigned vec = s->u.vec.vec, align = vec * mt_dtype_info(dt)->size;
    MlirType vt = vec_type(e, dt, vec);
    MlirLocation loc = e->loc;
    MlirValue v;
    if (s->u.vec.mask) {
        MlirValue c = to_bool(e, ex(e, s->u.vec.mask), (MtDtype)s->u.vec.mask->dt);
        MlirBlock saved = e->block, tb, eb;
        MlirRegion r[2] = {region_new(e, 0, NULL, &tb), region_new(e, 0, NULL, &eb)};
        e->block = tb;
        MlirValue got = load_v(e, vt, elem_addr(e, s->u.vec.ptr, ex(e, s->u.vec.index), (MtDtype)s->u.vec.index->dt), align);
        op_make(e, "scf.yield", 0, NULL, 1, &got, 0, NULL, 0, NULL);
        e->block = eb;
        MlirValue other;
        if (s->u.vec.other) {
            MlirValue vals[vec];
            for (unsigned i = 0; i < vec; i++)
                vals[i] = ex_as(e, s->u.vec.other[i], dt);
            other = vec_build(e, dt, vec, vals);
        } else {
            other = c_attr(e, vt, mlirDenseElementsAttrSplatGet(vt, dt_is_float(dt)
                                                                        ? mlirFloatAttrDoubleGet(e->ctx, ty_mem(e, dt), 0.0)
                                                                        : mlirIntegerAttrGet(ty_mem(e, dt), 0)));
        }
        e->loc = loc;
        op_make(e, "scf.yield", 0, NULL, 1, &other, 0, NULL, 0, NULL);
        e->block = saved;
        v = mlirOperationGetResult(op_make(e, "scf.if", 1, &vt, 1, &c, 0, NULL, 2, r), 0);
    } else {
        v = load_v(e, vt, elem_addr(e, s->u.vec.ptr, ex(e, s->u.vec.index), (MtDtype)s->u.vec.index->dt), align);
    }
    for (unsigned i = 0; i < vec; i++) {
        MlirValue opd[2] = {v, c_intw(e, 32, i)};
        MlirValue el = op_value(e, "llvm.extractelement", ty_mem(e, dt), 2, opd, 0, NULL);
        if (dt == MT_DT_I1)
            el = cmp_i(e, "ne", el, c_intw(e, 8, 0));
        KExpr ix = {.op = K_CONST, .dt = MT_DT_I32, .u.c = {.kind = CST_INT, .i = s->u.vec.first + i}};
        assign(e, s->u.vec.var, &ix, el);
    }
}

static void if_stmt(Em *e, const KStmt *s)
{
    MlirLocation loc = e->loc;
    MlirValue c = to_bool(e, ex(e, s->u.if_.cond), (MtDtype)s->u.if_.cond->dt);
    uint32_t n;
    uint32_t *slots = carried(e, &s->u.if_.then, &s->u.if_.els, &n);
    MlirType types[n + 1];
    carried_types(e, slots, n, types);
    MlirValue *saved_env = env_save(e);
    MlirBlock saved = e->block, tb, eb;
    MlirRegion r[2] = {region_new(e, 0, NULL, &tb), mlirRegionCreate()};
    e->block = tb;
    block(e, &s->u.if_.then);
    e->loc = loc;
    yield(e, "scf.yield", slots, n);
    env_restore(e, saved_env);
    if (n || s->u.if_.els.n) {
        mlirRegionDestroy(r[1]);
        r[1] = region_new(e, 0, NULL, &eb);
        e->block = eb;
        block(e, &s->u.if_.els);
        e->loc = loc;
        yield(e, "scf.yield", slots, n);
        env_restore(e, saved_env);
    }
    e->block = saved;
    MlirOperation op = op_make(e, "scf.if", (int)n, types, 1, &c, 0, NULL, 2, r);
    for (uint32_t i = 0; i < n; i++)
        e->env[slots[i]] = mlirOperationGetResult(op, (intptr_t)i);
    free(saved_env);
    free(slots);
}

/* Whether x reads something the loop body may change (or memory). */
static bool reads_changing(Em *e, const KExpr *x, const uint32_t *slots, uint32_t n, KVarId iv)
{
    if (!x)
        return false;
    if (x->op == K_LOAD || x->op == K_SHFL_XOR)
        return true;
    if (x->op == K_VAR || x->op == K_ELEM) {
        KVarId v = x->u.var;
        const KVar *var = k_var_at(e->f, v);
        if (v == iv || var->kind == KV_SHARED || e->in_memory[v])
            return true;
        if (ssa_var(e, v))
            for (uint32_t i = 0; i < n; i++)
                if (slots[i] >= e->slot[v] && slots[i] < e->slot[v] + (var->kind == KV_REGS ? var->n : 1))
                    return true;
    }
    for (int a = 0; a < x->nargs; a++)
        if (reads_changing(e, x->a[a], slots, n, iv))
            return true;
    return false;
}

/* a < b after C's usual arithmetic conversions (integers). */
static MlirValue less(Em *e, MlirValue a, MtDtype at, MlirValue b, MtDtype bt)
{
    MtDtype ct = dt_bits(at) >= dt_bits(bt) ? at : bt;
    if (dt_bits(at) == dt_bits(bt) && dt_is_unsigned(bt))
        ct = bt;
    if (dt_bits(ct) < 32)
        ct = MT_DT_I32;
    return cmp_i(e, dt_is_unsigned(ct) ? "ult" : "slt", conv(e, a, at, ct), conv(e, b, bt, ct));
}

static void for_stmt(Em *e, const KStmt *s)
{
    MlirLocation loc = e->loc;
    KVarId iv = s->u.for_.iv;
    MtDtype ivt = (MtDtype)k_var_at(e->f, iv)->dt;
    uint32_t n;
    uint32_t *slots = carried(e, &s->u.for_.body, NULL, &n);
    bool counted = s->u.for_.step > 0 && !dt_is_unsigned(ivt) && s->u.for_.stop->dt == ivt &&
                   !reads_changing(e, s->u.for_.stop, slots, n, iv);
    MlirValue start = ex_as(e, s->u.for_.start, ivt);
    MlirValue *saved_env = env_save(e);
    MlirBlock saved = e->block, body;
    uint32_t ivslot = e->slot[iv];
    if (counted) {
        MlirValue stop = ex_as(e, s->u.for_.stop, ivt), step = c_int(e, ivt, s->u.for_.step);
        MlirType types[n + 1];
        carried_types(e, slots, n, types + 1);
        types[0] = ty_of(e, ivt);
        MlirValue opd[n + 3];
        opd[0] = start;
        opd[1] = stop;
        opd[2] = step;
        carried_values(e, slots, n, opd + 3);
        MlirRegion r = region_new(e, (int)n + 1, types, &body);
        name_args(e, body, 0, &ivslot, 1);
        name_args(e, body, 1, slots, n);
        e->block = body;
        e->env[ivslot] = mlirBlockGetArgument(body, 0);
        for (uint32_t i = 0; i < n; i++)
            e->env[slots[i]] = mlirBlockGetArgument(body, (intptr_t)i + 1);
        block(e, &s->u.for_.body);
        e->loc = loc;
        yield(e, "scf.yield", slots, n);
        env_restore(e, saved_env);
        e->block = saved;
        MlirOperation op = op_make(e, "scf.for", (int)n, types + 1, (int)n + 3, opd, 0, NULL, 1, &r);
        for (uint32_t i = 0; i < n; i++)
            e->env[slots[i]] = mlirOperationGetResult(op, (intptr_t)i);
    } else {
        /* scf.while over (iv, carried...): before: iv < stop; after: body, iv += step */
        uint32_t all[n + 1];
        all[0] = ivslot;
        memcpy(all + 1, slots, n * sizeof *slots);
        e->env[ivslot] = start;
        MlirType types[n + 2];
        carried_types(e, all, n + 1, types);
        MlirValue init[n + 2];
        carried_values(e, all, n + 1, init);
        MlirBlock before;
        MlirRegion r[2] = {region_new(e, (int)n + 1, types, &before), region_new(e, (int)n + 1, types, &body)};
        name_args(e, before, 0, all, n + 1);
        name_args(e, body, 0, all, n + 1);
        e->block = before;
        for (uint32_t i = 0; i <= n; i++)
            e->env[all[i]] = mlirBlockGetArgument(before, (intptr_t)i);
        MlirValue cond = less(e, e->env[ivslot], ivt, ex(e, s->u.for_.stop), (MtDtype)s->u.for_.stop->dt);
        MlirValue cargs[n + 2];
        cargs[0] = cond;
        carried_values(e, all, n + 1, cargs + 1);
        op_make(e, "scf.condition", 0, NULL, (int)n + 2, cargs, 0, NULL, 0, NULL);
        e->block = body;
        for (uint32_t i = 0; i <= n; i++)
            e->env[all[i]] = mlirBlockGetArgument(body, (intptr_t)i);
        block(e, &s->u.for_.body);
        e->loc = loc;
        e->env[ivslot] = op2(e, "arith.addi", ty_of(e, ivt), e->env[ivslot], c_int(e, ivt, s->u.for_.step));
        yield(e, "scf.yield", all, n + 1);
        env_restore(e, saved_env);
        e->block = saved;
        MlirOperation op = op_make(e, "scf.while", (int)n + 1, types, (int)n + 1, init, 0, NULL, 2, r);
        for (uint32_t i = 0; i < n; i++)
            e->env[slots[i]] = mlirOperationGetResult(op, (intptr_t)i + 1);
    }
    free(saved_env);
    free(slots);
}

static void while_stmt(Em *e, const KStmt *s)
{
    MlirLocation loc = e->loc;
    uint32_t n;
    uint32_t *slots = carried(e, &s->u.while_.body, NULL, &n);
    MlirType types[n + 1];
    carried_types(e, slots, n, types);
    MlirValue init[n + 1];
    carried_values(e, slots, n, init);
    MlirValue *saved_env = env_save(e);
    MlirBlock saved = e->block, before, body;
    MlirRegion r[2] = {region_new(e, (int)n, types, &before), region_new(e, (int)n, types, &body)};
    name_args(e, before, 0, slots, n);
    name_args(e, body, 0, slots, n);
    e->block = before;
    for (uint32_t i = 0; i < n; i++)
        e->env[slots[i]] = mlirBlockGetArgument(before, (intptr_t)i);
    MlirValue cargs[n + 1];
    cargs[0] = to_bool(e, ex(e, s->u.while_.cond), (MtDtype)s->u.while_.cond->dt);
    carried_values(e, slots, n, cargs + 1);
    op_make(e, "scf.condition", 0, NULL, (int)n + 1, cargs, 0, NULL, 0, NULL);
    e->block = body;
    for (uint32_t i = 0; i < n; i++)
        e->env[slots[i]] = mlirBlockGetArgument(body, (intptr_t)i);
    block(e, &s->u.while_.body);
    e->loc = loc;
    yield(e, "scf.yield", slots, n);
    env_restore(e, saved_env);
    e->block = saved;
    MlirOperation op = op_make(e, "scf.while", (int)n, types, (int)n, init, 0, NULL, 2, r);
    for (uint32_t i = 0; i < n; i++)
        e->env[slots[i]] = mlirOperationGetResult(op, (intptr_t)i);
    free(saved_env);
    free(slots);
}

static void decl(Em *e, const KStmt *s)
{
    KVarId v = s->u.set.var;
    const KVar *x = k_var_at(e->f, v);
    if (x->kind == KV_SHARED)
        return;   /* a module-level global (em_build) */
    if (ssa_var(e, v)) {
        uint32_t k = x->kind == KV_REGS ? x->n : 1;
        for (uint32_t j = 0; j < k; j++)
            e->env[e->slot[v] + j] = (MlirValue){NULL};
    }
    if (s->u.set.value)
        assign(e, v, NULL, ex_as(e, s->u.set.value, (MtDtype)x->dt));
}

static void stmt(Em *e, const KStmt *s)
{
    e->loc = em_stmt_loc(e, s->span, s->inl);
    switch ((KStmtKind)s->kind) {
    case KST_DECL: decl(e, s); return;
    case KST_SET:
        assign(e, s->u.set.var, s->u.set.index, ex_as(e, s->u.set.value, (MtDtype)k_var_at(e->f, s->u.set.var)->dt));
        return;
    case KST_STORE: guarded(e, s->u.store.mask, store_body, s); return;
    case KST_VLOAD: vload(e, s); return;
    case KST_VSTORE: guarded(e, s->u.vec.mask, vstore_body, s); return;
    case KST_IF: if_stmt(e, s); return;
    case KST_FOR: for_stmt(e, s); return;
    case KST_WHILE: while_stmt(e, s); return;
    case KST_BARRIER:
        if (e->f->threads / (e->f->programs_per_block ? e->f->programs_per_block : 1) <= 32) {
            MlirValue all = c_intw(e, 32, -1);
            op_make(e, "nvvm.bar.warp.sync", 0, NULL, 1, &all, 0, NULL, 0, NULL);
        } else {
            op_make(e, "nvvm.barrier0", 0, NULL, 0, NULL, 0, NULL, 0, NULL);
        }
        return;
    case KST_LDMATRIX:
    case KST_MMA:
    case KST_CP_ASYNC:
    case KST_CP_COMMIT:
    case KST_CP_WAIT:
    case KST_PROXY_FENCE:
    case KST_WGMMA:
    case KST_WGMMA_FENCE:
    case KST_WGMMA_COMMIT:
    case KST_WGMMA_WAIT:
        em_unsupported(e, "a tensor-core tl.dot (mma.sync, wgmma; the MLIR backend lowers tl.dot on CUDA cores)");
        return;
    case KST_ATOMIC:
        assign(e, s->u.atomic.dst, s->u.atomic.dst_index, em_atomic(e, &s->u.atomic));
        return;
    case KST_BLANK: return;
    }
    em_unsupported(e, "this kernel-layer statement");
}

static void block(Em *e, const KBlock *b)
{
    for (uint32_t i = 0; i < b->n && !e->failed; i++)
        stmt(e, b->v[i]);
}

/* ---- the kernel ------------------------------------------------------------------------------ */

/* The block's shared pool: one byte array every shared view points into,
 * as large as the views reach. */
static void shared_pool(Em *e)
{
    uint64_t bytes = 0;
    for (KVarId v = 1; v < e->f->vars.n; v++) {
        const KVar *x = k_var_at(e->f, v);
        uint64_t end = x->offset + (uint64_t)x->n * mt_dtype_info((MtDtype)x->dt)->size;
        if (x->kind == KV_SHARED && end > bytes)
            bytes = end;
    }
    if (!bytes)
        return;
    MlirNamedAttribute na[5] = {
        named(e, "sym_name", attr_str(e, "mt_smem")),
        named(e, "global_type", mlirTypeAttrGet(mlirLLVMArrayTypeGet(ty_of(e, MT_DT_I8), bytes))),
        named(e, "linkage", mlirLLVMLinkageAttrGet(e->ctx, MlirLLVMLinkageInternal)),
        named(e, "addr_space", attr_i32(e, 3)),
        named(e, "alignment", attr_i64(e, 16)),
    };
    MlirRegion init = mlirRegionCreate();
    op_make(e, "llvm.mlir.global", 0, NULL, 0, NULL, 5, na, 1, &init);
}

static bool alloc_vars(Em *e)
{
    uint32_t nv = e->f->vars.n;
    e->param = calloc(nv + 1, sizeof *e->param);
    e->slot = calloc(nv + 1, sizeof *e->slot);
    e->mem = calloc(nv + 1, sizeof *e->mem);
    e->in_memory = calloc(nv + 1, sizeof *e->in_memory);
    if (!e->param || !e->slot || !e->mem || !e->in_memory)
        return false;
    scan_block(e, &e->f->prologue);
    scan_block(e, &e->f->body);
    for (KVarId v = 1; v < nv; v++) {
        const KVar *x = k_var_at(e->f, v);
        if (ssa_var(e, v)) {
            e->slot[v] = e->nslots;
            e->nslots += x->kind == KV_REGS ? x->n : 1;
        }
    }
    e->env = calloc(e->nslots + 1, sizeof *e->env);
    e->slot_dt = calloc(e->nslots + 1, 1);
    e->slot_var = calloc(e->nslots + 1, sizeof *e->slot_var);
    if (!e->env || !e->slot_dt || !e->slot_var)
        return false;
    for (KVarId v = 1; v < nv; v++)
        if (ssa_var(e, v)) {
            const KVar *x = k_var_at(e->f, v);
            uint32_t k = x->kind == KV_REGS ? x->n : 1;
            for (uint32_t j = 0; j < k; j++) {
                e->slot_dt[e->slot[v] + j] = x->dt;
                e->slot_var[e->slot[v] + j] = v;
            }
        }
    return true;
}

bool em_build(Em *e)
{
    const KFunc *f = e->f;
    if (!alloc_vars(e)) {
        em_diag(e, "E1004", (MtSpan){0}, 0, "the MLIR backend ran out of memory");
        return false;
    }
    e->loc = e->unknown;
    e->module = mlirModuleCreateEmpty(e->unknown);
    MlirOperation mod = mlirModuleGetOperation(e->module);
    mlirOperationSetAttributeByName(mod, mlirStringRefCreateFromCString("gpu.container_module"), mlirUnitAttrGet(e->ctx));

    /* gpu.module @<kernel>_module */
    char name[512];
    snprintf(name, sizeof name, "%s_module", f->name);
    e->block = mlirModuleGetBody(e->module);
    MlirBlock gb;
    MlirRegion gr = region_new(e, 0, NULL, &gb);
    MlirNamedAttribute gna = named(e, "sym_name", attr_str(e, name));
    op_make(e, "gpu.module", 0, NULL, 0, NULL, 1, &gna, 1, &gr);
    e->gpu_body = gb;
    e->block = gb;
    shared_pool(e);

    /* gpu.func: parameters in launch order, named after the kernel's */
    uint32_t np = f->params.n;
    MlirType ptypes[np + 1];
    MlirLocation plocs[np + 1];
    for (uint32_t i = 0; i < np; i++) {
        const KVar *x = k_var_at(f, f->params.v[i]);
        ptypes[i] = x->ptr ? ty_ptr(e, 0) : ty_of(e, (MtDtype)x->dt);
        plocs[i] = mlirLocationNameGet(e->ctx, mlirStringRefCreateFromCString(x->name), e->unknown);
    }
    MlirRegion fr = mlirRegionCreate();
    e->entry = mlirBlockCreate((intptr_t)np, ptypes, plocs);
    mlirRegionAppendOwnedBlock(fr, e->entry);
    for (uint32_t i = 0; i < np; i++)
        e->param[f->params.v[i]] = mlirBlockGetArgument(e->entry, (intptr_t)i);
    int32_t bs[3] = {(int32_t)f->threads, 1, 1};
    MlirNamedAttribute fna[5] = {
        named(e, "sym_name", attr_str(e, f->name)),
        named(e, "function_type", mlirTypeAttrGet(mlirFunctionTypeGet(e->ctx, (intptr_t)np, ptypes, 0, NULL))),
        named(e, "known_block_size", attr_i32s(e, 3, bs)),
        named(e, "gpu.kernel", mlirUnitAttrGet(e->ctx)),
        named(e, "workgroup_attributions", attr_i64(e, 0)),
    };
    op_make(e, "gpu.func", 0, NULL, 0, NULL, 5, fna, 1, &fr);

    /* register arrays kept in memory: allocas in the entry block */
    e->block = e->entry;
    for (KVarId v = 1; v < f->vars.n; v++)
        if (e->in_memory[v]) {
            const KVar *x = k_var_at(f, v);
            MlirValue one = c_intw(e, 32, 1);
            MlirNamedAttribute na[2] = {
                named(e, "elem_type", mlirTypeAttrGet(mlirLLVMArrayTypeGet(ty_mem(e, (MtDtype)x->dt), x->n))),
                named(e, "alignment", attr_i64(e, 16)),
            };
            e->mem[v] = op_value(e, "llvm.alloca", ty_ptr(e, 0), 1, &one, 2, na);
        }
    block(e, &f->prologue);
    block(e, &f->body);
    e->loc = e->unknown;
    op_make(e, "gpu.return", 0, NULL, 0, NULL, 0, NULL, 0, NULL);
    return !e->failed;
}
