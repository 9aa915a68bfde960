/* kir.c: building the kernel layer. Constructors fold what is known at
 * build time in integer index arithmetic (0 + x, 1 * x, constant with
 * constant), so register loops over constant offsets print readably and
 * the backends see simple trees. */
#include "kir.h"

#include <string.h>

KFunc *k_func_new(MtCtx *c, const char *name)
{
    KFunc *f = mt_arena_alloc(&c->arena, sizeof *f);
    f->name = name;
    KVar none = {.name = ""};
    mt_vec_push(&c->arena, &f->vars, none);
    f->programs_per_block = 1;
    f->shared_align = 16;
    return f;
}

KVarId k_var(MtCtx *c, KFunc *f, KVarKind kind, MtDtype dt, uint32_t n, const char *name)
{
    KVar v = {.name = name, .kind = (uint8_t)kind, .dt = (uint8_t)dt, .n = n};
    mt_vec_push(&c->arena, &f->vars, v);
    if (dt == MT_DT_F16)
        f->uses_f16 = true;
    if (dt == MT_DT_BF16)
        f->uses_bf16 = true;
    return f->vars.n - 1;
}

KVarId k_param(MtCtx *c, KFunc *f, const char *name, MtDtype dt, bool ptr)
{
    KVarId v = k_var(c, f, KV_PARAM, dt, 0, name);
    f->vars.v[v].ptr = ptr;
    mt_vec_push(&c->arena, &f->params, v);
    return v;
}

static KExpr *node(MtCtx *c, KOp op, MtDtype dt)
{
    KExpr *e = mt_arena_alloc(&c->arena, sizeof *e);
    e->op = (uint8_t)op;
    e->dt = (uint8_t)dt;
    return e;
}

const KExpr *k_const(MtCtx *c, MtDtype dt, MtConst k)
{
    KExpr *e = node(c, K_CONST, dt);
    e->u.c = k;
    return e;
}

const KExpr *k_int(MtCtx *c, MtDtype dt, int64_t i)
{
    MtConst k = {.kind = CST_INT, .i = i, .f = (double)i};
    return k_const(c, dt, k);
}

const KExpr *k_ref(MtCtx *c, const KFunc *f, KVarId v)
{
    KExpr *e = node(c, K_VAR, (MtDtype)f->vars.v[v].dt);
    e->u.var = v;
    return e;
}

const KExpr *k_elem(MtCtx *c, const KFunc *f, KVarId v, const KExpr *index)
{
    KExpr *e = node(c, K_ELEM, (MtDtype)f->vars.v[v].dt);
    e->u.var = v;
    e->nargs = 1;
    e->a[0] = index;
    return e;
}

const KExpr *k_special(MtCtx *c, KSpecial s)
{
    KExpr *e = node(c, K_SPECIAL, MT_DT_I32);
    e->u.special = (uint8_t)s;
    return e;
}

static bool is_compare(KOp op) { return op >= K_LT && op <= K_NE; }

const KExpr *k_op(MtCtx *c, KOp op, MtDtype dt, const KExpr *a0, const KExpr *a1, const KExpr *a2)
{
    KExpr *e = node(c, op, is_compare(op) ? MT_DT_I1 : dt);
    if (is_compare(op)) {
        /* dt is the operands' dtype: the MLIR backend and the simulator
         * pick signed, unsigned or float predicates from it */
        if (a0->dt != dt || (a1 && a1->dt != dt))
            mt_ice(c, (MtSpan){0}, "kernel layer: a comparison's operands differ from its operand dtype");
        e->u.cmp_dt = (uint8_t)dt;
    }
    e->a[0] = a0;
    e->a[1] = a1;
    e->a[2] = a2;
    e->nargs = (uint8_t)(a2 ? 3 : a1 ? 2 : 1);
    return e;
}

const KExpr *k_cast(MtCtx *c, MtDtype dt, const KExpr *x)
{
    if (x->dt == dt)
        return x;
    int64_t v;
    if (k_is_const(x, &v) && mt_dtype_info(dt)->cls != MT_DC_FLOAT && mt_dtype_info(dt)->bits >= 32)
        return k_int(c, dt, v);
    KExpr *e = node(c, K_CAST, dt);
    e->nargs = 1;
    e->a[0] = x;
    return e;
}

const KExpr *k_cast_rounding(MtCtx *c, MtDtype dt, const KExpr *x, int rounding)
{
    if (x->dt == dt || !rounding)
        return k_cast(c, dt, x);
    KExpr *e = node(c, K_CAST, dt);
    e->nargs = 1;
    e->a[0] = x;
    e->u.mode = (uint8_t)rounding;
    return e;
}

const KExpr *k_bitcast(MtCtx *c, MtDtype dt, const KExpr *x)
{
    if (x->dt == dt)
        return x;
    KExpr *e = node(c, K_BITCAST, dt);
    e->nargs = 1;
    e->a[0] = x;
    return e;
}

const KExpr *k_math(MtCtx *c, int opcode, MtDtype dt, const KExpr *const *args, int n)
{
    KExpr *e = node(c, K_MATH, dt);
    e->u.math = (uint16_t)opcode;
    e->nargs = (uint8_t)n;
    for (int i = 0; i < n; i++)
        e->a[i] = args[i];
    return e;
}

const KExpr *k_load(MtCtx *c, const KFunc *f, KVarId ptr, const KExpr *index, int vec, int lane)
{
    KExpr *e = node(c, K_LOAD, (MtDtype)f->vars.v[ptr].dt);
    e->u.var = ptr;
    e->vec = (uint8_t)vec;
    e->nargs = vec > 1 ? 2 : 1;
    e->a[0] = index;
    if (vec > 1)
        e->a[1] = k_int(c, MT_DT_I32, lane);
    return e;
}

const KExpr *k_shfl_xor(MtCtx *c, const KExpr *x, uint32_t lane_mask)
{
    KExpr *e = node(c, K_SHFL_XOR, (MtDtype)x->dt);
    e->nargs = 1;
    e->a[0] = x;
    e->u.lane_mask = lane_mask;
    return e;
}

/* Integer arithmetic in the wider of the operands' types, folded. */
static MtDtype index_type(const KExpr *a, const KExpr *b)
{
    return a->dt == MT_DT_I64 || b->dt == MT_DT_I64 ? MT_DT_I64 : MT_DT_I32;
}

const KExpr *k_add(MtCtx *c, const KExpr *a, const KExpr *b)
{
    int64_t x, y;
    MtDtype dt = index_type(a, b);
    bool ca = k_is_const(a, &x), cb = k_is_const(b, &y);
    if (ca && cb)
        return k_int(c, dt, x + y);
    if (ca && x == 0)
        return k_cast(c, dt, b);
    if (cb && y == 0)
        return k_cast(c, dt, a);
    return k_op(c, K_ADD, dt, k_cast(c, dt, a), k_cast(c, dt, b), NULL);
}

const KExpr *k_mul(MtCtx *c, const KExpr *a, const KExpr *b)
{
    int64_t x, y;
    MtDtype dt = index_type(a, b);
    bool ca = k_is_const(a, &x), cb = k_is_const(b, &y);
    if (ca && cb)
        return k_int(c, dt, x * y);
    if ((ca && x == 0) || (cb && y == 0))
        return k_int(c, dt, 0);
    if (ca && x == 1)
        return k_cast(c, dt, b);
    if (cb && y == 1)
        return k_cast(c, dt, a);
    return k_op(c, K_MUL, dt, k_cast(c, dt, a), k_cast(c, dt, b), NULL);
}

/* ---- statements ------------------------------------------------------------------ */

KStmt *k_stmt(KBuilder *b, KStmtKind kind)
{
    KStmt *s = mt_arena_alloc(&b->c->arena, sizeof *s);
    s->kind = (uint8_t)kind;
    s->span = b->span;
    s->inl = b->inl;
    mt_vec_push(&b->c->arena, b->block, s);
    return s;
}

void k_decl(KBuilder *b, KVarId v, const KExpr *init)
{
    KStmt *s = k_stmt(b, KST_DECL);
    s->u.set.var = v;
    s->u.set.value = init;
}

void k_set(KBuilder *b, KVarId v, const KExpr *index, const KExpr *value)
{
    KStmt *s = k_stmt(b, KST_SET);
    s->u.set.var = v;
    s->u.set.index = index;
    s->u.set.value = value;
}

void k_store(KBuilder *b, KVarId ptr, const KExpr *index, const KExpr *value, const KExpr *mask, int vec)
{
    KStmt *s = k_stmt(b, KST_STORE);
    s->u.store.ptr = ptr;
    s->u.store.index = index;
    s->u.store.value = value;
    s->u.store.mask = mask;
    s->u.store.vec = (uint8_t)vec;
}

void k_vload(KBuilder *b, KVarId var, uint32_t first, KVarId ptr, const KExpr *index, int vec, const KExpr *mask,
             const KExpr **other)
{
    KStmt *s = k_stmt(b, KST_VLOAD);
    s->u.vec.var = var;
    s->u.vec.first = first;
    s->u.vec.ptr = ptr;
    s->u.vec.index = index;
    s->u.vec.vec = (uint8_t)vec;
    s->u.vec.mask = mask;
    s->u.vec.other = other;
}

void k_vstore(KBuilder *b, KVarId ptr, const KExpr *index, KVarId var, uint32_t first, int vec, const KExpr *mask)
{
    KStmt *s = k_stmt(b, KST_VSTORE);
    s->u.vec.ptr = ptr;
    s->u.vec.index = index;
    s->u.vec.var = var;
    s->u.vec.first = first;
    s->u.vec.vec = (uint8_t)vec;
    s->u.vec.mask = mask;
}

void k_barrier(KBuilder *b) { k_stmt(b, KST_BARRIER); }

void k_cp_async(KBuilder *b, KVarId smem, const KExpr *smem_at, KVarId ptr, const KExpr *index, int bytes,
                const KExpr *mask)
{
    KStmt *s = k_stmt(b, KST_CP_ASYNC);
    s->u.cp.smem = smem;
    s->u.cp.smem_at = smem_at;
    s->u.cp.ptr = ptr;
    s->u.cp.index = index;
    s->u.cp.mask = mask;
    s->u.cp.bytes = (uint8_t)bytes;
}

void k_cp_commit(KBuilder *b) { k_stmt(b, KST_CP_COMMIT); }

void k_cp_wait(KBuilder *b, uint32_t pending) { k_stmt(b, KST_CP_WAIT)->u.pending = pending; }

void k_atomic(KBuilder *b, const KAtomic *a)
{
    KStmt *s = k_stmt(b, KST_ATOMIC);
    s->u.atomic = *a;
}
