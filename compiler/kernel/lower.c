/* lower.c: the fast lowering's driver (see lower.h): the launch shape,
 * which values are cheap and where the others live, thread coordinates,
 * and the lowering of parameters, program ids, elementwise operations,
 * factories, expand_dims and runtime loops. Loads and stores, reductions,
 * tl.dot, atomics and conversions have files of their own.
 *
 * requires: verified, optimised SSA; produces: a KFunc in the arena, or
 * E0603 diagnostics for what this lowering does not handle yet. */
#include "lower.h"

#include <stdarg.h>
#include <string.h>

void lw_fail(Lw *L, const MtInst *in, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    MtDiagRec *d = mt_vdiag(L->c, MT_SEV_ERROR, in ? in->span : (MtSpan){0}, "E0603", fmt, ap);
    va_end(ap);
    if (in)
        mt_note_inline(L->c, d, in->inl);
    L->failed = true;
}

const char *lw_name(Lw *L, const char *prefix) { return mt_sprintf(L->c, "%s%u", prefix, L->next_name++); }

const MtLinear *lw_layout(Lw *L, MtLinear l)
{
    MtLinear *p = mt_arena_alloc(&L->c->arena, sizeof *p);
    *p = l;
    return p;
}

MtDtype lw_dtype(const MtType *t)
{
    const MtType *e = mt_ty_elem(t);
    return e->kind == TY_PTR ? MT_DT_I64 : (MtDtype)e->dtype;
}

static bool is_block(const MtType *t) { return t && t->kind == TY_BLOCK; }

/* A pointer block is laid out for the accesses it makes: 16-byte vectors
 * of its pointee (eight halves, four floats). */
const MtLinear *lw_default_layout(Lw *L, const MtType *t)
{
    const MtType *e = mt_ty_elem(t);
    int esize = mt_ty_info(e->kind == TY_PTR ? e->elem : e)->size;
    return lw_layout(L, mt_ll_default(t->rank, t->shape, esize, L->warps));
}

/* ---- thread coordinates ---------------------------------------------------------- */

/* The part of a coordinate that comes from the thread: the sum of the
 * basis vectors of its set lane and warp bits, written as runs of
 * consecutive bits ((lane >> 2) & 7) * 4. */
static const KExpr *thread_base(Lw *L, const MtLinear *ll, int d)
{
    MtCtx *c = L->c;
    const KExpr *sum = k_int(c, MT_DT_I32, 0);
    for (int kind = 0; kind < 2; kind++) {
        int nb = kind ? ll->nwarp : MT_LL_LANES;
        const KExpr *src = kind ? L->warp : L->lane;
        for (int i = 0; i < nb;) {
            int32_t v = kind ? ll->warp[i][d] : ll->lane[i][d];
            if (!v) {
                i++;
                continue;
            }
            int j = i + 1;
            while (j < nb && (kind ? ll->warp[j][d] : ll->lane[j][d]) == v << (j - i))
                j++;
            const KExpr *bits = src;
            if (i)
                bits = k_op(c, K_SHR, MT_DT_I32, bits, k_int(c, MT_DT_I32, i), NULL);
            if (j < (kind ? 32 : MT_LL_LANES) || i)
                bits = k_op(c, K_BAND, MT_DT_I32, bits, k_int(c, MT_DT_I32, (1 << (j - i)) - 1), NULL);
            sum = k_add(c, sum, k_mul(c, bits, k_int(c, MT_DT_I32, v)));
            i = j;
        }
    }
    return sum;
}

/* The thread base of (ll, d) as a prologue variable, computed once. */
static const KExpr *base_of(Lw *L, const MtLinear *ll, int d)
{
    LBase key = {.nwarp = ll->nwarp};
    for (int i = 0; i < MT_LL_LANES; i++)
        key.lane[i] = ll->lane[i][d];
    for (int i = 0; i < ll->nwarp; i++)
        key.warp[i] = ll->warp[i][d];
    for (uint32_t i = 0; i < L->bases.n; i++) {
        const LBase *b = &L->bases.v[i];
        if (b->nwarp == key.nwarp && !memcmp(b->lane, key.lane, sizeof key.lane) &&
            !memcmp(b->warp, key.warp, sizeof key.warp))
            return b->ref;
    }
    const KExpr *e = thread_base(L, ll, d);
    if (e->op != K_CONST && e->op != K_VAR) {
        KVarId v = k_var(L->c, L->kf, KV_LOCAL, MT_DT_I32, 0, lw_name(L, "base"));
        KBuilder pb = {.c = L->c, .f = L->kf, .block = &L->kf->prologue};
        k_decl(&pb, v, e);
        e = k_ref(L->c, L->kf, v);
    }
    key.ref = e;
    mt_vec_push(&L->c->arena, &L->bases, key);
    return e;
}

const KExpr *lw_coord(Lw *L, const MtLinear *ll, int d, uint32_t r)
{
    int32_t off[MT_LL_MAX_RANK];
    mt_ll_reg_offset(ll, r, off);
    /* basis vectors are distinct powers of two below the shape: no wrap */
    return k_add(L->c, base_of(L, ll, d), k_int(L->c, MT_DT_I32, off[d]));
}

const KExpr *lw_owner(Lw *L, const MtLinear *ll)
{
    MtCtx *c = L->c;
    int32_t lanes = 0, warps = 0;
    for (int i = 0; i < MT_LL_LANES; i++)
        if (mt_ll_lane_broadcast(ll, i))
            lanes |= 1 << i;
    for (int i = 0; i < ll->nwarp; i++)
        if (mt_ll_warp_broadcast(ll, i))
            warps |= 1 << i;
    const KExpr *own = NULL;
    if (lanes)
        own = k_op(c, K_EQ, MT_DT_I32, k_op(c, K_BAND, MT_DT_I32, L->lane, k_int(c, MT_DT_I32, lanes), NULL),
                   k_int(c, MT_DT_I32, 0), NULL);
    if (warps) {
        const KExpr *w = k_op(c, K_EQ, MT_DT_I32, k_op(c, K_BAND, MT_DT_I32, L->warp, k_int(c, MT_DT_I32, warps), NULL),
                              k_int(c, MT_DT_I32, 0), NULL);
        own = own ? k_op(c, K_LAND, MT_DT_I1, own, w, NULL) : w;
    }
    return own;
}

/* ---- values ------------------------------------------------------------------------- */

void lw_scratch_begin(Lw *L) { L->scratch_top = L->scratch_floor; }

KVarId lw_shared(Lw *L, MtDtype dt, uint32_t n, const char *prefix, const KExpr **base)
{
    return lw_shared_aligned(L, dt, n, 16, prefix, base);
}

KVarId lw_shared_aligned(Lw *L, MtDtype dt, uint32_t n, uint32_t align, const char *prefix, const KExpr **base)
{
    uint32_t esize = (uint32_t)mt_dtype_info(dt)->size, unit = align / esize;
    if (L->programs > 1)
        n = (n + unit - 1) / unit * unit;
    KVarId sm = k_var(L->c, L->kf, KV_SHARED, dt, n * (uint32_t)L->programs, lw_name(L, prefix));
    KBuilder sb = {.c = L->c, .f = L->kf, .block = &L->kf->shared};
    k_decl(&sb, sm, NULL);
    uint64_t at = (L->scratch_top + align - 1) & ~(uint64_t)(align - 1);
    if (align > L->kf->shared_align)
        L->kf->shared_align = align;
    L->kf->vars.v[sm].offset = (uint32_t)at;
    L->scratch_top = at + (uint64_t)n * (uint64_t)L->programs * mt_dtype_info(dt)->size;
    if (L->scratch_top > L->kf->shared_bytes)
        L->kf->shared_bytes = L->scratch_top;
    *base = k_mul(L->c, L->slot, k_int(L->c, MT_DT_I32, n));
    return sm;
}

KVarId lw_shared_keep(Lw *L, MtDtype dt, uint32_t n, uint32_t align, const char *prefix, const KExpr **base)
{
    L->scratch_top = L->scratch_floor;
    KVarId sm = lw_shared_aligned(L, dt, n, align, prefix, base);
    L->scratch_floor = L->scratch_top;
    return sm;
}

LVal lw_new_regs(Lw *L, MtDtype dt, const MtLinear *ll, const char *prefix)
{
    LVal v = {.kind = LV_REGS, .ll = ll};
    v.regs = k_var(L->c, L->kf, KV_REGS, dt, mt_ll_nregs(ll), lw_name(L, prefix));
    k_decl(&L->b, v.regs, NULL);
    return v;
}

const KExpr *lw_elem(Lw *L, const LVal *lv, const MtLinear *as, uint32_t r)
{
    if (lv->kind == LV_UNIFORM)
        return lv->u;
    uint32_t idx = r;
    if (as && !mt_ll_equal(as, lv->ll)) {
        uint32_t *map = mt_arena_alloc(&L->c->arena, mt_ll_nregs(as) * sizeof *map);
        if (!mt_ll_reg_map(lv->ll, as, map))
            mt_ice(L->c, (MtSpan){0}, "fast lowering: a register read across layouts");
        idx = map[r];
    }
    return k_elem(L->c, L->kf, lv->regs, k_int(L->c, MT_DT_I32, idx));
}

static LVal uniform(const KExpr *e, KVarId base)
{
    LVal v = {.kind = LV_UNIFORM, .u = e, .base = base};
    return v;
}

static const KExpr *const_expr(Lw *L, MtVal v)
{
    const MtValue *x = &L->f->vals[v];
    return k_const(L->c, lw_dtype(x->ty), x->cst);
}

static LVal compute(Lw *L, const MtInst *in, const MtLinear *ll);

static LVal *memo_find(Lw *L, MtVal v, const MtLinear *ll)
{
    for (uint32_t i = L->memo.n; i-- > 0;)
        if (L->memo.v[i].v == v && mt_ll_equal(L->memo.v[i].ll, ll))
            return &L->memo.v[i].val;
    return NULL;
}

static void memo_add(Lw *L, MtVal v, const MtLinear *ll, LVal val)
{
    LMemo m = {.v = v, .ll = ll, .val = val, .depth = L->depth};
    mt_vec_push(&L->c->arena, &L->memo, m);
}

LVal lw_get_any(Lw *L, MtVal v)
{
    const MtType *t = mt_val_ty(L->f, v);
    if (!is_block(t))
        return lw_get(L, v, NULL);
    return lw_get(L, v, L->home[v] ? L->home[v] : lw_default_layout(L, t));
}

LVal lw_get(Lw *L, MtVal v, const MtLinear *ll)
{
    const MtValue *x = &L->f->vals[v];
    if (x->kind == VK_CONST)
        return uniform(const_expr(L, v), 0);
    if (!is_block(x->ty) || !ll)
        return L->val[v];
    /* a tile in shared memory has no layout: its consumer reads it there */
    if (L->val[v].kind == LV_UNIFORM || L->val[v].kind == LV_STAGED)
        return L->val[v];
    if (L->val[v].kind == LV_REGS && mt_ll_equal(L->val[v].ll, ll))
        return L->val[v];
    LVal *m = memo_find(L, v, ll);
    if (m)
        return *m;
    LVal r;
    if (L->cheap[v]) {
        r = compute(L, x->def, ll);
    } else if (L->val[v].kind == LV_REGS) {
        r = lw_convert(L, &L->val[v], ll, lw_dtype(x->ty));
        r.base = L->val[v].base;
    } else {
        mt_ice(L->c, x->def ? x->def->span : (MtSpan){0}, "fast lowering: a value used before it is lowered");
    }
    memo_add(L, v, ll, r);
    return r;
}

/* ---- elementwise ------------------------------------------------------------------------ */

/* The type an elementwise operation computes in (operands are converted to it). */
static MtDtype compute_type(Lw *L, const MtInst *in)
{
    const MtFunc *f = L->f;
    MtDtype rt = lw_dtype(in->ty);
    switch (mt_op_class(in->op)) {
    case OC_COMPARE: {
        /* the operands' computation type (the SSA's rule, verify.c) */
        const MtType *p = mt_ty_computation(mt_ty_elem(mt_val_ty(f, in->args[0])), false,
                                            mt_ty_elem(mt_val_ty(f, in->args[1])), false, false);
        return p ? (MtDtype)p->dtype : rt;
    }
    case OC_ARITH:
        /* the result's type: the computation type, f32 for / of integers,
         * i32 for arithmetic on bools */
        return rt == MT_DT_I1 ? MT_DT_I32 : rt;
    case OC_UNARY:
    case OC_MATH:
    case OC_CAST:
    case OC_BITWISE:
    case OC_SELECT:
    case OC_PTR:
    case OC_INDEX:
    case OC_FACTORY:
    case OC_MEMORY:
    case OC_REDUCE:
    case OC_SCAN:
    case OC_COMBINE:
    case OC_SHAPE:
    case OC_DOT:
    case OC_HINT:
    case OC_CONTROL:
    case OC_ATOMIC:
    case OC_DEBUG:
        break;
    }
    return rt;
}

static KOp kop_of(int op, bool is_bool)
{
    switch (op) {
    case OP_ADD: return K_ADD;
    case OP_SUB: return K_SUB;
    case OP_MUL: return K_MUL;
    case OP_DIV:
    case OP_FLOORDIV: return K_DIV;
    case OP_MOD: return K_REM;
    case OP_AND: return K_BAND;
    case OP_OR: return K_BOR;
    case OP_XOR: return K_BXOR;
    case OP_CMP_LT: return K_LT;
    case OP_CMP_LE: return K_LE;
    case OP_CMP_GT: return K_GT;
    case OP_CMP_GE: return K_GE;
    case OP_CMP_EQ: return K_EQ;
    case OP_CMP_NE: return K_NE;
    case OP_MAXIMUM: return K_MAX;
    case OP_MINIMUM: return K_MIN;
    case OP_SHL: return K_SHL;
    case OP_SHR: return K_SHR;
    case OP_UMULHI: return K_UMULHI;
    case OP_ABS: return K_ABS;
    case OP_NEG: return K_NEG;
    case OP_NOT: return is_bool ? K_LNOT : K_BNOT;
    case OP_SELECT: return K_SELECT;
    default: return K_COUNT_;
    }
}

/* Whether elementwise() lowers op. */
static bool elementwise_lowered(int op)
{
    switch (mt_op_class(op)) {
    case OC_MATH:
    case OC_CAST:
        return true;
    default:
        return op == OP_ADDPTR || op == OP_SELECT || kop_of(op, false) != K_COUNT_;
    }
}

/* One element of an elementwise operation (elementwise_lowered) from its
 * operands' elements. */
static const KExpr *elementwise(Lw *L, const MtInst *in, const KExpr *const *a)
{
    MtCtx *c = L->c;
    MtDtype rt = lw_dtype(in->ty);
    if (in->op == OP_ADDPTR)
        return k_add(c, k_cast(c, MT_DT_I64, a[0]), k_cast(c, MT_DT_I64, a[1]));
    if (mt_op_class(in->op) == OC_MATH) {
        const KExpr *args[3];
        for (uint32_t i = 0; i < in->nargs; i++)
            args[i] = k_cast(c, rt, a[i]);
        return k_math(c, in->op, rt, args, (int)in->nargs);
    }
    if (in->op == OP_SELECT)
        return k_op(c, K_SELECT, rt, a[0], k_cast(c, rt, a[1]), k_cast(c, rt, a[2]));
    if (in->op == OP_CAST)
        return k_cast_rounding(c, rt, a[0], in->attr.mode);
    if (in->op == OP_BITCAST)
        return k_bitcast(c, rt, a[0]);
    MtDtype ct = compute_type(L, in);
    KOp op = kop_of(in->op, ct == MT_DT_I1);
    const KExpr *x = k_cast(c, ct, a[0]);
    const KExpr *y = in->nargs > 1 ? k_cast(c, ct, a[1]) : NULL;
    return k_cast(c, rt, k_op(c, op, ct, x, y, NULL));
}

/* Pointer operations keep the parameter they point into. */
static KVarId pointer_base(Lw *L, const MtInst *in, const LVal *ops)
{
    for (uint32_t i = 0; i < in->nargs; i++)
        if (mt_ty_is_ptr(mt_val_ty(L->f, in->args[i]))) {
            if (in->op == OP_SELECT && i == 2 && ops[2].base != ops[1].base)
                lw_fail(L, in, "tl.where between pointers into different arguments is not supported by the fast "
                        "lowering yet");
            return ops[i].base;
        }
    return 0;
}

/* The elementwise instruction `in` in layout ll (NULL: a scalar result). */
static LVal lower_elementwise(Lw *L, const MtInst *in, const MtLinear *ll)
{
    LVal ops[3];
    const MtLinear *as[3] = {0};
    bool all_uniform = true;
    for (uint32_t i = 0; i < in->nargs; i++) {
        const MtType *t = mt_val_ty(L->f, in->args[i]);
        if (ll && is_block(t))
            as[i] = lw_layout(L, mt_ll_project(ll, t->rank, t->shape));
        ops[i] = lw_get(L, in->args[i], as[i]);
        all_uniform &= ops[i].kind == LV_UNIFORM;
    }
    KVarId base = pointer_base(L, in, ops);
    MtDtype rt = lw_dtype(in->ty);
    if (all_uniform) {
        const KExpr *a[3];
        for (uint32_t i = 0; i < in->nargs; i++)
            a[i] = ops[i].u;
        const KExpr *e = elementwise(L, in, a);
        if (e->op != K_CONST) {
            KVarId v = k_var(L->c, L->kf, KV_LOCAL, rt, 0, lw_name(L, "s"));
            k_decl(&L->b, v, e);
            e = k_ref(L->c, L->kf, v);
        }
        return uniform(e, base);
    }
    LVal r = lw_new_regs(L, rt, ll, "v");
    r.base = base;
    for (uint32_t k = 0; k < mt_ll_nregs(ll); k++) {
        const KExpr *a[3];
        for (uint32_t i = 0; i < in->nargs; i++)
            a[i] = lw_elem(L, &ops[i], ll, k);
        k_set(&L->b, r.regs, k_int(L->c, MT_DT_I32, k), elementwise(L, in, a));
    }
    return r;
}

/* The value of a cheap instruction in layout ll (remat). */
static LVal compute(Lw *L, const MtInst *in, const MtLinear *ll)
{
    MtSpan saved = L->b.span;
    uint32_t saved_inl = L->b.inl;
    L->b.span = in->span;
    L->b.inl = in->inl;
    LVal r = {0};
    MtDtype dt = lw_dtype(in->ty);
    switch (in->op) {
    case OP_ZEROS:
        r = uniform(k_int(L->c, dt, 0), 0);
        break;
    case OP_EMPTY:
        r = uniform(k_int(L->c, dt, 0), 0);
        break;
    case OP_FULL:
        r = uniform(k_cast(L->c, dt, lw_get(L, in->args[0], NULL).u), 0);
        break;
    case OP_ARANGE:
        r = lw_new_regs(L, MT_DT_I32, ll, "v");
        for (uint32_t k = 0; k < mt_ll_nregs(ll); k++)
            k_set(&L->b, r.regs, k_int(L->c, MT_DT_I32, k),
                  k_add(L->c, k_int(L->c, MT_DT_I32, in->attr.start), lw_coord(L, ll, 0, k)));
        break;
    default:
        if (mt_op_class(in->op) == OC_SHAPE || mt_op_class(in->op) == OC_HINT)
            r = lw_shape(L, in, ll);
        else
            r = lower_elementwise(L, in, ll);
        break;
    }
    L->b.span = saved;
    L->b.inl = saved_inl;
    return r;
}

/* ---- planning: cheap values and home layouts ------------------------------------------- */

static bool cheap_op(const Lw *L, const MtInst *in)
{
    if (!in->dst || !is_block(in->ty))
        return false;
    switch (in->op) {
    case OP_ARANGE:
    case OP_ZEROS:
    case OP_FULL:
    case OP_EMPTY:
        return true;
    default:
        break;
    }
    if (mt_op_class(in->op) == OC_SHAPE || mt_op_class(in->op) == OC_HINT)
        return lw_shape_cheap(L, in);
    if (!(mt_op_info[in->op].flags & F_ELEM) || !(mt_op_info[in->op].flags & F_PURE))
        return false;
    for (uint32_t i = 0; i < in->nargs; i++)
        if (is_block(mt_val_ty(L->f, in->args[i])) && !L->cheap[in->args[i]] &&
            L->f->vals[in->args[i]].kind != VK_CONST)
            return false;
    return true;
}

static void plan_region(Lw *L, const MtRegion *r);

/* The home of carried state (a loop's or a while's argument): the initial
 * value's, until the value fed back says otherwise. */
static void plan_carried_init(Lw *L, MtVal arg, MtVal init)
{
    const MtType *t = mt_val_ty(L->f, arg);
    if (!is_block(t) || L->home[arg])
        return;
    const MtLinear *h = L->home[init];
    L->home[arg] = h ? h : lw_default_layout(L, t);
}

static void plan_carried_next(Lw *L, MtVal arg, MtVal next)
{
    if (L->home[next] && is_block(mt_val_ty(L->f, arg))) {
        L->home[arg] = L->home[next];
        L->strong[arg] = L->strong[next];
    }
}

/* Results take the home of the first value that defines them. */
static void plan_result(Lw *L, MtVal res, MtVal from)
{
    const MtType *t = mt_val_ty(L->f, res);
    if (!is_block(t))
        return;
    L->home[res] = L->home[from] ? L->home[from] : lw_default_layout(L, t);
    L->strong[res] = L->strong[from];
}

static const MtInst *terminator(const MtBody *b) { return b->insts.n ? b->insts.v[b->insts.n - 1] : NULL; }

static void plan_nest(Lw *L, const MtInst *in)
{
    MtNest *n = in->nest;
    switch (in->op) {
    case OP_IF:
        for (uint32_t k = 0; k < n->nbodies; k++)
            plan_region(L, &n->body[k].insts);
        for (uint32_t i = 0; i < n->nresults; i++)
            plan_result(L, n->results[i], terminator(&n->body[0])->args[i]);
        return;
    case OP_WHILE: {
        const MtBody *before = &n->body[0], *after = &n->body[1];
        for (uint32_t i = 0; i < before->nargs; i++)
            plan_carried_init(L, before->args[i], in->args[i]);
        plan_region(L, &before->insts);
        const MtInst *cond = terminator(before);
        for (uint32_t i = 0; i < after->nargs; i++) {
            plan_result(L, after->args[i], cond->args[1 + i]);
            plan_result(L, n->results[i], cond->args[1 + i]);
        }
        plan_region(L, &after->insts);
        const MtInst *y = terminator(after);
        for (uint32_t i = 0; i < before->nargs; i++)
            plan_carried_next(L, before->args[i], y->args[i]);
        return;
    }
    case OP_REDUCE: {
        const MtLinear *h = lw_reduce_home(L, in);
        for (uint32_t i = 0; i < n->nresults; i++)
            L->home[n->results[i]] = h;
        return;
    }
    default: { /* OP_SCAN */
        const MtLinear *h = lw_scan_home(L, mt_val_ty(L->f, in->args[0]), in->attr.axis);
        for (uint32_t i = 0; i < n->nresults; i++)
            L->home[n->results[i]] = h;
        return;
    }
    }
}

static void plan_inst(Lw *L, const MtInst *in)
{
    const MtFunc *f = L->f;
    if (in->op == OP_FOR) {
        const MtForData *l = in->loop;
        for (uint32_t i = 0; i < l->ncarried; i++)
            plan_carried_init(L, l->iter_args[i], in->args[2 + i]);
        plan_region(L, &l->body);
        const MtInst *y = l->body.v[l->body.n - 1];
        for (uint32_t i = 0; i < l->ncarried; i++) {
            plan_carried_next(L, l->iter_args[i], y->args[i]);
            L->strong[l->results[i]] = L->strong[l->iter_args[i]];
            L->home[l->results[i]] = L->home[l->iter_args[i]];
        }
        return;
    }
    if (in->nest) {
        plan_nest(L, in);
        return;
    }
    if (!in->dst || !is_block(in->ty))
        return;
    L->cheap[in->dst] = cheap_op(L, in);
    if (L->cheap[in->dst])
        return;
    const MtLinear *h = NULL;
    switch (mt_op_class(in->op)) {
    case OC_DOT:
        h = lw_dot_layout(L, in);
        L->strong[in->dst] = 1;
        break;
    case OC_SHAPE:
    case OC_HINT:
        h = lw_shape_home(L, in);
        L->strong[in->dst] = L->strong[in->args[0]];
        break;
    case OC_REDUCE:
        h = lw_reduce_home(L, in);
        break;
    case OC_SCAN:
        h = lw_scan_home(L, in->ty, in->attr.axis);
        break;
    case OC_MEMORY:
        h = L->home[in->args[0]];
        break;
    case OC_ATOMIC:
        h = lw_atomic_home(L, in);
        break;
    default:
        /* an operand's home of the result's shape, a tl.dot's first */
        if (mt_op_info[in->op].flags & F_ELEM)
            for (int want = 1; want >= 0 && !h; want--)
                for (uint32_t i = 0; i < in->nargs && !h; i++) {
                    const MtType *t = mt_val_ty(f, in->args[i]);
                    const MtLinear *oh = L->home[in->args[i]];
                    if (oh && L->strong[in->args[i]] == want && is_block(t) && t->rank == in->ty->rank &&
                        !memcmp(t->shape, in->ty->shape, sizeof t->shape)) {
                        h = oh;
                        L->strong[in->dst] = (uint8_t)want;
                    }
                }
        break;
    }
    L->home[in->dst] = h ? h : lw_default_layout(L, in->ty);
}

static void plan_region(Lw *L, const MtRegion *r)
{
    for (uint32_t i = 0; i < r->n; i++)
        plan_inst(L, r->v[i]);
}

/* ---- launch shape ---------------------------------------------------------------------- */

/* What sizes the launch: the largest block, the dots (on CUDA cores or
 * suiting the tensor cores) and whether the kernel branches. */
typedef struct Sizing {
    int64_t numel;
    bool cuda_core_dot, tensor_core_dot, warpgroup_dot, branches;
} Sizing;

static void largest(Lw *L, const MtRegion *r, Sizing *z)
{
    const MtFunc *f = L->f;
    for (uint32_t i = 0; i < r->n; i++) {
        const MtInst *in = r->v[i];
        if (in->op == OP_DOT) {
            if (lw_dot_suits_tensor_cores(L, in))
                z->tensor_core_dot = true;
            else
                z->cuda_core_dot = true;
            z->warpgroup_dot |= lw_dot_suits_warpgroups(L, in);
        }
        if (in->op == OP_IF || in->op == OP_WHILE)
            z->branches = true;
        for (uint32_t k = 0; k < mt_inst_nregions(in); k++)
            largest(L, mt_inst_region((MtInst *)in, k), z);
        for (uint32_t k = 0; k < in->nargs; k++)
            if (in->args[k] && is_block(f->vals[in->args[k]].ty) && mt_ty_numel(f->vals[in->args[k]].ty) > z->numel)
                z->numel = mt_ty_numel(f->vals[in->args[k]].ty);
        if (in->ty && is_block(in->ty) && mt_ty_numel(in->ty) > z->numel)
            z->numel = mt_ty_numel(in->ty);
    }
}

/* Warps per program, 1 to 8: about two 16-byte vectors per thread; with
 * a tl.dot on CUDA cores about 32 accumulators per thread, on tensor
 * cores 128, and at least the one warpgroup of 4 warps a dot that suits
 * wgmma needs (measured on the H200, docs/benchmarks.md: a 64x128 fp32 tile
 * runs 18% faster on 8 warps than on 4, where 126 registers a thread keep
 * two blocks on an SM; a 128x128 f16 tile 43% faster on 4 warps than on
 * 8). Programs of one warp share a block four at a time (when `pack`),
 * unless the kernel branches at run time (programs of one block taking
 * different branches would meet different barriers). */
static void launch_shape(Lw *L, const MtKernelOptions *opt, bool pack)
{
    Sizing z = {.numel = 1};
    largest(L, &L->f->body, &z);
    int64_t threads = z.cuda_core_dot ? z.numel / 32 : z.tensor_core_dot ? z.numel / 128 : z.numel / 8;
    int warps = 1;
    while (warps < 8 && (int64_t)warps * 32 < threads)
        warps *= 2;
    if (z.warpgroup_dot && warps < 4)
        warps = 4;
    if (opt && opt->num_warps > 0)
        warps = opt->num_warps;
    L->warps = warps;
    L->programs = pack && warps == 1 && !z.branches ? 4 : 1;
}

/* ---- instructions ----------------------------------------------------------------------- */

static void lower_inst(Lw *L, const MtInst *in);

static void declare_scalar(Lw *L, MtVal v, const KExpr *e, KVarId base)
{
    if (e->op != K_CONST && e->op != K_VAR) {
        KVarId s = k_var(L->c, L->kf, KV_LOCAL, (MtDtype)e->dt, 0, lw_name(L, "s"));
        k_decl(&L->b, s, e);
        e = k_ref(L->c, L->kf, s);
    }
    L->val[v] = uniform(e, base);
}

static const KExpr *program_id(Lw *L, int axis)
{
    MtCtx *c = L->c;
    const KExpr *b = k_special(c, (KSpecial)(KS_BID_X + axis));
    if (axis || L->programs == 1)
        return b;
    return k_add(c, k_mul(c, b, k_int(c, MT_DT_I32, L->programs)), L->slot);
}

/* A copy of a value into fresh variables (loop-carried state). */
static LVal carried_copy(Lw *L, const LVal *init, const MtType *t, const MtLinear *ll)
{
    MtDtype dt = lw_dtype(t);
    if (!ll) {
        KVarId s = k_var(L->c, L->kf, KV_LOCAL, dt, 0, lw_name(L, "c"));
        k_decl(&L->b, s, k_cast(L->c, dt, init->u));
        return uniform(k_ref(L->c, L->kf, s), init->base);
    }
    LVal r = lw_new_regs(L, dt, ll, "c");
    r.base = init->base;
    for (uint32_t k = 0; k < mt_ll_nregs(ll); k++)
        k_set(&L->b, r.regs, k_int(L->c, MT_DT_I32, k), k_cast(L->c, dt, lw_elem(L, init, ll, k)));
    return r;
}

/* Assign a value to carried state (the yield), element by element. */
static void carried_assign(Lw *L, const LVal *dst, const LVal *src, MtDtype dt)
{
    if (dst->kind == LV_UNIFORM) {
        k_set(&L->b, dst->u->u.var, NULL, k_cast(L->c, dt, src->u));
        return;
    }
    for (uint32_t k = 0; k < mt_ll_nregs(dst->ll); k++)
        k_set(&L->b, dst->regs, k_int(L->c, MT_DT_I32, k), k_cast(L->c, dt, lw_elem(L, src, dst->ll, k)));
}

static void pop_memo(Lw *L)
{
    while (L->memo.n && L->memo.v[L->memo.n - 1].depth > L->depth)
        L->memo.n--;
}

/* Storage for values assigned in branches (an if's results, a while's
 * results), in ll (NULL: a scalar). */
static LVal declare_state(Lw *L, const MtType *t, const MtLinear *ll)
{
    MtDtype dt = lw_dtype(t);
    if (!ll) {
        KVarId s = k_var(L->c, L->kf, KV_LOCAL, dt, 0, lw_name(L, "r"));
        k_decl(&L->b, s, NULL);
        return uniform(k_ref(L->c, L->kf, s), 0);
    }
    return lw_new_regs(L, dt, ll, "r");
}

/* dst = the value v (converted to dst's layout), for state declared by
 * declare_state or carried_copy; pointers keep the parameter they point into. */
static void assign_value(Lw *L, const MtInst *at, LVal *dst, MtVal v)
{
    const MtType *t = mt_val_ty(L->f, v);
    LVal src = lw_get(L, v, is_block(t) && dst->kind == LV_REGS ? dst->ll : NULL);
    if (mt_ty_is_ptr(t)) {
        if (dst->base && dst->base != src.base)
            lw_fail(L, at, "a pointer that points into different arguments on different paths is not supported by "
                    "the fast lowering yet");
        dst->base = src.base;
    }
    carried_assign(L, dst, &src, lw_dtype(t));
}

/* Lower a region's instructions but its terminator, which it returns. */
static const MtInst *lower_body(Lw *L, const MtRegion *r)
{
    for (uint32_t i = 0; i + 1 < r->n && !L->failed; i++)
        lower_inst(L, r->v[i]);
    return r->n ? r->v[r->n - 1] : NULL;
}

/* Statements go into blk, in a region whose conversions stay inside it. */
static KBlock *enter(Lw *L, KBlock *blk)
{
    KBlock *outer = L->b.block;
    L->b.block = blk;
    L->depth++;
    return outer;
}

static void leave(Lw *L, KBlock *outer)
{
    L->depth--;
    pop_memo(L);
    L->b.block = outer;
}

static const MtLinear *state_layout(Lw *L, MtVal v) { return is_block(mt_val_ty(L->f, v)) ? L->home[v] : NULL; }

static void lower_if(Lw *L, const MtInst *in)
{
    MtNest *n = in->nest;
    LVal cond = lw_get(L, in->args[0], NULL);
    LVal *res = mt_arena_alloc(&L->c->arena, (n->nresults + 1) * sizeof *res);
    for (uint32_t i = 0; i < n->nresults; i++)
        res[i] = declare_state(L, mt_val_ty(L->f, n->results[i]), state_layout(L, n->results[i]));
    L->b.span = in->span;
    KStmt *s = k_stmt(&L->b, KST_IF);
    s->u.if_.cond = cond.u;
    for (uint32_t k = 0; k < n->nbodies && !L->failed; k++) {
        KBlock *outer = enter(L, k ? &s->u.if_.els : &s->u.if_.then);
        const MtInst *y = lower_body(L, &n->body[k].insts);
        if (y)
            L->b.span = y->span;
        for (uint32_t i = 0; y && i < n->nresults && !L->failed; i++)
            assign_value(L, y, &res[i], y->args[i]);
        leave(L, outer);
    }
    for (uint32_t i = 0; i < n->nresults; i++)
        L->val[n->results[i]] = res[i];
}

/* while: the carried state, then `go = true; while (go) { before; go = c;
 * if (c) { after; state = next } else results = the condition's values }`. */
static void lower_while(Lw *L, const MtInst *in)
{
    MtCtx *c = L->c;
    MtNest *n = in->nest;
    const MtBody *before = &n->body[0], *after = &n->body[1];
    LVal *state = mt_arena_alloc(&c->arena, (before->nargs + 1) * sizeof *state);
    LVal *res = mt_arena_alloc(&c->arena, (n->nresults + 1) * sizeof *res);
    for (uint32_t i = 0; i < before->nargs; i++) {
        MtVal a = before->args[i];
        LVal init = lw_get(L, in->args[i], state_layout(L, a));
        state[i] = carried_copy(L, &init, mt_val_ty(L->f, a), state_layout(L, a));
        L->val[a] = state[i];
    }
    for (uint32_t i = 0; i < n->nresults; i++)
        res[i] = declare_state(L, mt_val_ty(L->f, n->results[i]), state_layout(L, n->results[i]));
    KVarId go = k_var(c, L->kf, KV_LOCAL, MT_DT_I1, 0, lw_name(L, "go"));
    L->b.span = in->span;
    k_decl(&L->b, go, k_int(c, MT_DT_I1, 1));
    KStmt *w = k_stmt(&L->b, KST_WHILE);
    w->u.while_.cond = k_ref(c, L->kf, go);
    KBlock *outer = enter(L, &w->u.while_.body);
    const MtInst *cond = lower_body(L, &before->insts);
    if (!L->failed) {
        const KExpr *cv = lw_get(L, cond->args[0], NULL).u;
        L->b.span = cond->span;
        k_set(&L->b, go, NULL, cv);
        KStmt *s = k_stmt(&L->b, KST_IF);
        s->u.if_.cond = k_ref(c, L->kf, go);
        KBlock *loop = enter(L, &s->u.if_.then);
        for (uint32_t i = 0; i < after->nargs && !L->failed; i++) {
            MtVal a = after->args[i];
            L->val[a] = lw_get(L, cond->args[1 + i], state_layout(L, a));
        }
        const MtInst *y = lower_body(L, &after->insts);
        if (y && !L->failed) {
            L->b.span = y->span;
            LVal *next = mt_arena_alloc(&c->arena, (before->nargs + 1) * sizeof *next);
            for (uint32_t i = 0; i < before->nargs; i++) {
                MtVal a = before->args[i];
                LVal v = lw_get(L, y->args[i], state_layout(L, a));
                next[i] = carried_copy(L, &v, mt_val_ty(L->f, a), state_layout(L, a));
            }
            for (uint32_t i = 0; i < before->nargs; i++)
                carried_assign(L, &state[i], &next[i], lw_dtype(mt_val_ty(L->f, before->args[i])));
        }
        leave(L, loop);
        loop = enter(L, &s->u.if_.els);
        for (uint32_t i = 0; i < n->nresults && !L->failed; i++)
            assign_value(L, cond, &res[i], cond->args[1 + i]);
        leave(L, loop);
    }
    leave(L, outer);
    for (uint32_t i = 0; i < n->nresults; i++)
        L->val[n->results[i]] = res[i];
}

/* A loop with a runtime step, or an induction variable wider than i32, is
 * a while loop over the induction variable:
 *   iv = start; while (step > 0 && iv < stop) { body; iv += step }
 * counting as the interpreter does (and Triton's scf.for): a runtime step
 * of 0 or less runs no iteration. */
static KStmt *while_range(Lw *L, const MtInst *in, KVarId iv, MtDtype dt, const KExpr *start, const KExpr *stop,
                          const KExpr **step_out)
{
    MtCtx *c = L->c;
    const MtForData *l = in->loop;
    const KExpr *step = l->dyn_step ? k_cast(c, dt, lw_get(L, in->args[in->nargs - 1], NULL).u) : k_int(c, dt, l->step);
    if (step->op != K_CONST && step->op != K_VAR) {
        KVarId s = k_var(c, L->kf, KV_LOCAL, dt, 0, lw_name(L, "step"));
        k_decl(&L->b, s, step);
        step = k_ref(c, L->kf, s);
    }
    k_decl(&L->b, iv, start);
    const KExpr *i = k_ref(c, L->kf, iv);
    KStmt *w = k_stmt(&L->b, KST_WHILE);
    const KExpr *below = k_op(c, K_LT, dt, i, stop, NULL);
    w->u.while_.cond = l->dyn_step ? k_op(c, K_LAND, MT_DT_I1, k_op(c, K_GT, dt, step, k_int(c, dt, 0), NULL), below, NULL)
                                   : below;
    *step_out = step;
    return w;
}

static void lower_for(Lw *L, const MtInst *in)
{
    MtCtx *c = L->c;
    const MtForData *l = in->loop;
    uint32_t n = l->ncarried;
    MtDtype ivt = lw_dtype(mt_val_ty(L->f, l->iv));
    bool counted = !l->dyn_step && ivt == MT_DT_I32;
    const KExpr *start = k_cast(c, ivt, lw_get(L, in->args[0], NULL).u);
    const KExpr *stop = k_cast(c, ivt, lw_get(L, in->args[1], NULL).u);
    /* tiles in shared-memory stages are no state of their own: the stage
     * counter moves them (lower_pipe.c) */
    LPipe *pipe = lw_pipe_of(L, in);
    if (pipe)
        lw_pipe_enter(L, pipe);
    LVal *state = mt_arena_alloc(&c->arena, (n + 1) * sizeof *state);
    for (uint32_t i = 0; i < n; i++) {
        MtVal a = l->iter_args[i];
        const MtType *t = mt_val_ty(L->f, a);
        if (L->tile_of[a]) {
            L->val[a] = lw_pipe_value(L, pipe, a);
            continue;
        }
        LVal init = lw_get(L, in->args[2 + i], L->home[a]);
        state[i] = carried_copy(L, &init, t, is_block(t) ? L->home[a] : NULL);
        L->val[a] = state[i];
    }
    KVarId iv = k_var(c, L->kf, KV_LOCAL, ivt, 0, lw_name(L, "i"));
    KStmt *s;
    const KExpr *step = NULL;
    if (counted) {
        s = k_stmt(&L->b, KST_FOR);
        s->u.for_.iv = iv;
        s->u.for_.start = start;
        s->u.for_.stop = stop;
        s->u.for_.step = l->step;
    } else {
        s = while_range(L, in, iv, ivt, start, stop, &step);
    }
    L->val[l->iv] = uniform(k_ref(c, L->kf, iv), 0);
    KBlock *outer = enter(L, counted ? &s->u.for_.body : &s->u.while_.body);
    if (pipe)
        lw_pipe_iteration(L, pipe);
    const MtInst *y = lower_body(L, &l->body);
    /* The yield is a parallel assignment: read every yielded value into
     * fresh variables before writing the state. */
    L->b.span = y->span;
    LVal *next = mt_arena_alloc(&c->arena, (n + 1) * sizeof *next);
    for (uint32_t i = 0; i < n && !L->failed; i++) {
        MtVal a = l->iter_args[i];
        const MtType *t = mt_val_ty(L->f, a);
        if (L->tile_of[a] || (pipe && pipe->acc == a))
            continue;
        LVal v = lw_get(L, y->args[i], is_block(t) ? L->home[a] : NULL);
        next[i] = carried_copy(L, &v, t, is_block(t) ? L->home[a] : NULL);
    }
    for (uint32_t i = 0; i < n && !L->failed; i++)
        if (!L->tile_of[l->iter_args[i]] && !(pipe && pipe->acc == l->iter_args[i]))
            carried_assign(L, &state[i], &next[i], lw_dtype(mt_val_ty(L->f, l->iter_args[i])));
    if (pipe)
        lw_pipe_advance(L, pipe);
    if (!counted)
        k_set(&L->b, iv, NULL, k_op(c, K_ADD, ivt, k_ref(c, L->kf, iv), step, NULL));
    leave(L, outer);
    for (uint32_t i = 0; i < n; i++)
        L->val[l->results[i]] = state[i];
    if (pipe)
        lw_pipe_leave(L, pipe);
}

const MtInst *lw_inline_combine(Lw *L, const MtBody *body, const KExpr *const *args)
{
    MtSpan span = L->b.span;
    uint32_t inl = L->b.inl;
    for (uint32_t i = 0; i < body->nargs; i++)
        L->val[body->args[i]] = uniform(args[i], 0);
    const MtInst *y = lower_body(L, &body->insts);
    L->b.span = span;
    L->b.inl = inl;
    return y;
}

static void lower_inst(Lw *L, const MtInst *in)
{
    L->b.span = in->span;
    L->b.inl = in->inl;
    const MtFunc *f = L->f;
    switch (in->op) {
    case OP_FOR: lower_for(L, in); return;
    case OP_IF: lower_if(L, in); return;
    case OP_WHILE: lower_while(L, in); return;
    case OP_REDUCE: lw_reduce(L, in); return;
    case OP_SCAN: lw_scan(L, in); return;
    default: break;
    }
    if (in->dst && (L->cheap[in->dst] || L->fused[in->dst]))
        return;
    switch (mt_op_class(in->op)) {
    case OC_INDEX:
        declare_scalar(L, in->dst,
                       in->op == OP_NUM_PROGRAMS ? k_ref(L->c, L->kf, L->grid[in->attr.axis]) : program_id(L, in->attr.axis),
                       0);
        return;
    case OC_MEMORY:
        if (in->op == OP_LOAD)
            lw_load(L, in);
        else
            lw_store(L, in);
        return;
    case OC_REDUCE:
        lw_reduce(L, in);
        return;
    case OC_SCAN:
        lw_scan(L, in);
        return;
    case OC_ATOMIC:
        lw_atomic(L, in);
        return;
    case OC_DEBUG:
        /* fast_supported refuses tl.device_print; tl.device_assert is
         * checked by the interpreter only, as Triton checks it only in
         * debug mode */
        if (in->op == OP_DEBUG_BARRIER)
            lw_debug_barrier(L);
        return;
    case OC_COMBINE: /* handled above */
        return;
    case OC_DOT:
        lw_dot(L, in);
        return;
    case OC_SHAPE:
    case OC_HINT:
        if (in->dst)
            L->val[in->dst] = lw_shape(L, in, is_block(in->ty) ? L->home[in->dst] : NULL);
        return;
    case OC_FACTORY:
        /* non-block factories do not exist; block ones are cheap */
        return;
    case OC_CONTROL:
        return;
    case OC_ARITH:
    case OC_BITWISE:
    case OC_COMPARE:
    case OC_UNARY:
    case OC_MATH:
    case OC_CAST:
    case OC_SELECT:
    case OC_PTR:
        break;
    }
    if (!elementwise_lowered(in->op)) {
        lw_fail(L, in, "'%s' is not supported by the fast CUDA lowering yet; the interpreter runs it",
                mt_op_info[in->op].text);
        return;
    }
    if (!is_block(in->ty)) {
        LVal r = lower_elementwise(L, in, NULL);
        declare_scalar(L, in->dst, r.u, r.base);
        return;
    }
    L->val[in->dst] = lower_elementwise(L, in, L->home[in->dst]);
    (void)f;
}

static void lower_region(Lw *L, const MtRegion *r)
{
    for (uint32_t i = 0; i < r->n && !L->failed; i++)
        lower_inst(L, r->v[i]);
}

/* ---- entry ----------------------------------------------------------------------------- */

static void prologue(Lw *L)
{
    MtCtx *c = L->c;
    KBlock *body = L->b.block;
    L->b.block = &L->kf->prologue;
    const KExpr *tid = k_special(c, KS_TID);
    KVarId lane = k_var(c, L->kf, KV_LOCAL, MT_DT_I32, 0, "lane");
    k_decl(&L->b, lane, k_op(c, K_BAND, MT_DT_I32, tid, k_int(c, MT_DT_I32, 31), NULL));
    L->lane = k_ref(c, L->kf, lane);
    const KExpr *w = k_op(c, K_SHR, MT_DT_I32, tid, k_int(c, MT_DT_I32, 5), NULL);
    L->slot = k_int(c, MT_DT_I32, 0);
    if (L->programs > 1) {
        KVarId slot = k_var(c, L->kf, KV_LOCAL, MT_DT_I32, 0, "slot");
        k_decl(&L->b, slot, L->warps == 1 ? w : k_op(c, K_DIV, MT_DT_I32, w, k_int(c, MT_DT_I32, L->warps), NULL));
        L->slot = k_ref(c, L->kf, slot);
        w = L->warps == 1 ? k_int(c, MT_DT_I32, 0) : k_op(c, K_REM, MT_DT_I32, w, k_int(c, MT_DT_I32, L->warps), NULL);
    }
    if (w->op != K_CONST) {
        KVarId warp = k_var(c, L->kf, KV_LOCAL, MT_DT_I32, 0, "warp");
        k_decl(&L->b, warp, w);
        w = k_ref(c, L->kf, warp);
    }
    L->warp = w;
    L->b.block = body;
}

/* The language reaches further than this lowering: operations and types
 * it does not lower yet get one located E0603 (at the first of them)
 * before any planning looks at them. */
static bool fast_supported(Lw *L, const MtRegion *r)
{
    for (uint32_t i = 0; i < r->n; i++) {
        const MtInst *in = r->v[i];
        for (uint32_t k = 0; k < mt_inst_nregions(in); k++)
            if (!fast_supported(L, mt_inst_region((MtInst *)in, k)))
                return false;
        const char *why = NULL;
        if (mt_op_class(in->op) == OC_ATOMIC && (why = lw_atomic_refusal(L, in))) {
            lw_fail(L, in, "%s%s", mt_op_info[in->op].py, why);
            return false;
        }
        if ((in->op == OP_REDUCE || in->op == OP_SCAN) && in->nargs > 8)
            why = " of more than 8 blocks";
        else if (in->op == OP_IF && mt_val_ty(L->f, in->args[0])->kind == TY_BLOCK)
            why = " on a block condition";
        else if (in->op == OP_DEVICE_PRINT)
            why = "";
        for (uint32_t k = 0; !why && k < in->nargs; k++)
            if (in->args[k] && mt_ty_rank(mt_val_ty(L->f, in->args[k])) > 2)
                why = mt_sprintf(L->c, " on a rank-%d block", mt_ty_rank(mt_val_ty(L->f, in->args[k])));
        if (!why && in->ty && in->ty->rank > 2)
            why = mt_sprintf(L->c, " on a rank-%d block", in->ty->rank);
        if (why) {
            lw_fail(L, in, "%s%s is not supported by the fast CUDA lowering yet; the interpreter runs it",
                    mt_op_info[in->op].py, why);
            return false;
        }
    }
    return true;
}

static void index_defs(Lw *L, const MtRegion *r)
{
    for (uint32_t i = 0; i < r->n; i++) {
        const MtInst *in = r->v[i];
        if (in->dst)
            L->def[in->dst] = in;
        for (uint32_t k = 0; k < mt_inst_nregions(in); k++)
            index_defs(L, mt_inst_region((MtInst *)in, k));
    }
}

/* acc + tl.dot(a, b) where the dot has no other use: the dot can start
 * its accumulators from acc (tl.dot(a, b, acc), as Triton's is) instead
 * of from zero, and the add is then its result. */
static void note_sum(MtInst *in, void *ud)
{
    Lw *L = ud;
    if (in->op != OP_ADD || in->nargs != 2 || !is_block(in->ty))
        return;
    for (int k = 0; k < 2; k++) {
        const MtInst *d = L->def[in->args[k]];
        if (d && d->op == OP_DOT && d->ty == in->ty && mt_val_ty(L->f, in->args[1 - k]) == in->ty &&
            L->uses[in->args[k]] == 1)
            L->sum_of[in->args[k]] = in;
    }
}

static void find_sums(Lw *L)
{
    L->uses = mt_func_use_counts(L->c, L->f);
    mt_func_walk((MtFunc *)L->f, note_sum, L);
}

static KFunc *lower_kernel(MtCtx *c, const MtFunc *f, const MtKernelOptions *opt, bool pack)
{
    Lw L = {.c = c, .f = f};
    L.kf = k_func_new(c, f->name);
    L.b = (KBuilder){.c = c, .f = L.kf, .block = &L.kf->body};
    L.val = mt_arena_alloc(&c->arena, (f->nvals + 1) * sizeof *L.val);
    L.home = mt_arena_alloc(&c->arena, (f->nvals + 1) * sizeof *L.home);
    L.cheap = mt_arena_alloc(&c->arena, f->nvals + 1);
    L.strong = mt_arena_alloc(&c->arena, f->nvals + 1);
    L.def = mt_arena_alloc(&c->arena, (f->nvals + 1) * sizeof *L.def);
    L.sum_of = mt_arena_alloc(&c->arena, (f->nvals + 1) * sizeof *L.sum_of);
    L.fused = mt_arena_alloc(&c->arena, f->nvals + 1);
    L.tile_of = mt_arena_alloc(&c->arena, (f->nvals + 1) * sizeof *L.tile_of);
    L.tensor_cores = opt && opt->tensor_cores;
    L.sm = opt && opt->sm ? opt->sm : 90;
    index_defs(&L, &f->body);
    find_sums(&L);
    if (!fast_supported(&L, &f->body))
        return NULL;
    launch_shape(&L, opt, pack);
    L.kf->threads = (uint32_t)(32 * L.warps * L.programs);
    L.kf->programs_per_block = (uint32_t)L.programs;
    for (uint32_t i = 0; i < f->nparams; i++) {
        const MtValue *p = &f->vals[f->params[i]];
        bool ptr = p->ty->kind == TY_PTR;
        MtDtype dt = ptr ? (MtDtype)p->ty->elem->dtype : (MtDtype)p->ty->dtype;
        KVarId v = k_param(c, L.kf, p->name, dt, ptr);
        L.val[f->params[i]] = ptr ? uniform(k_int(c, MT_DT_I64, 0), v) : uniform(k_ref(c, L.kf, v), 0);
    }
    static const char *const grid_names[3] = {"mt_grid_x", "mt_grid_y", "mt_grid_z"};
    for (int d = 0; d < 3; d++)
        L.grid[d] = k_param(c, L.kf, grid_names[d], MT_DT_I32, false);
    plan_region(&L, &f->body);
    plan_region(&L, &f->body);
    lw_axis_analysis(&L);
    lw_plan_pipes(&L);
    prologue(&L);
    KBlock *outer = L.b.block;
    if (L.programs > 1) {
        /* The block's last programs may lie past the grid. */
        KStmt *s = k_stmt(&L.b, KST_IF);
        s->u.if_.cond = k_op(c, K_LT, MT_DT_I32, program_id(&L, 0), k_ref(c, L.kf, L.grid[0]), NULL);
        L.b.block = &s->u.if_.then;
    }
    lower_region(&L, &f->body);
    L.b.block = outer;
    L.kf->value_home = L.home;
    L.kf->value_cheap = L.cheap;
    L.kf->nvalues = f->nvals;
    return L.failed ? NULL : L.kf;
}

/* The static shared memory a block may declare without opting in to more
 * (CUDA's 48 KiB; ptxas refuses a kernel above it). */
enum { STATIC_SHARED_MAX = 48 * 1024 };

/* Programs of one warp share a block when their shared memory fits in it
 * together: four programs each staging a 32x64 by 64x32 f32 tl.dot need
 * 64 KiB, one needs 16. The shared pool is known once lowered, so a
 * packed kernel over the limit is lowered again a program per block (a
 * success reports nothing, so nothing is said twice; the first attempt is
 * left in the arena). One program above the limit gets its pool as
 * dynamic shared memory (a tl.dot's pipeline stages: 57 KiB for three of
 * a 128x128x32 f16 tile); a pool past what the device lets a block opt
 * into is refused by the launch, which names both sizes. */
KFunc *mt_kernel_lower(MtCtx *c, const MtFunc *f, const MtKernelOptions *opt)
{
    KFunc *kf = lower_kernel(c, f, opt, true);
    if (kf && kf->programs_per_block > 1 && kf->shared_bytes > STATIC_SHARED_MAX)
        kf = lower_kernel(c, f, opt, false);
    if (kf) {
        kf->dynamic_shared = kf->shared_bytes > STATIC_SHARED_MAX;
        k_schedule_loads(c, kf);
    }
    return kf;
}
