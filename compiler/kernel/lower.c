/* lower.c: the fast lowering's driver (see lower.h): the launch shape,
 * which values are cheap and where the others live, thread coordinates,
 * and the lowering of parameters, program ids, elementwise operations,
 * factories, expand_dims and runtime loops. Loads and stores, reductions,
 * tl.dot and conversions have files of their own.
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

const MtLinear *lw_default_layout(Lw *L, const MtType *t)
{
    int esize = mt_ty_elem(t)->kind == TY_PTR ? 4 : mt_ty_info(mt_ty_elem(t))->size;
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

KVarId lw_shared(Lw *L, MtDtype dt, uint32_t n, const char *prefix, const KExpr **base)
{
    KVarId sm = k_var(L->c, L->kf, KV_SHARED, dt, n * (uint32_t)L->programs, lw_name(L, prefix));
    KBuilder sb = {.c = L->c, .f = L->kf, .block = &L->kf->shared};
    k_decl(&sb, sm, NULL);
    L->kf->shared_bytes += (uint64_t)n * (uint64_t)L->programs * mt_dtype_info(dt)->size;
    *base = k_mul(L->c, L->slot, k_int(L->c, MT_DT_I32, n));
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
    if (L->val[v].kind == LV_UNIFORM)
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
    case OP_EXPAND_DIMS: {
        MtLinear sl = mt_ll_slice(ll, in->attr.axis);
        r = lw_get(L, in->args[0], lw_layout(L, sl));
        if (r.kind == LV_REGS)
            r.ll = ll;
        break;
    }
    default:
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
    case OP_EXPAND_DIMS:
        return L->cheap[in->args[0]];
    default:
        break;
    }
    if (!(mt_op_info[in->op].flags & F_ELEM) || !(mt_op_info[in->op].flags & F_PURE))
        return false;
    for (uint32_t i = 0; i < in->nargs; i++)
        if (is_block(mt_val_ty(L->f, in->args[i])) && !L->cheap[in->args[i]] &&
            L->f->vals[in->args[i]].kind != VK_CONST)
            return false;
    return true;
}

static void plan_region(Lw *L, const MtRegion *r);

static void plan_inst(Lw *L, const MtInst *in)
{
    const MtFunc *f = L->f;
    if (in->op == OP_FOR) {
        const MtForData *l = in->loop;
        for (uint32_t i = 0; i < l->ncarried; i++) {
            const MtType *t = mt_val_ty(f, l->iter_args[i]);
            if (!is_block(t))
                continue;
            const MtLinear *h = L->home[in->args[2 + i]];
            if (!L->home[l->iter_args[i]])
                L->home[l->iter_args[i]] = h ? h : lw_default_layout(L, t);
        }
        plan_region(L, &l->body);
        const MtInst *y = l->body.v[l->body.n - 1];
        for (uint32_t i = 0; i < l->ncarried; i++) {
            const MtLinear *yh = L->home[y->args[i]];
            if (yh && is_block(mt_val_ty(f, l->iter_args[i]))) {
                L->home[l->iter_args[i]] = yh;
                L->strong[l->iter_args[i]] = L->strong[y->args[i]];
            }
            L->strong[l->results[i]] = L->strong[l->iter_args[i]];
            L->home[l->results[i]] = L->home[l->iter_args[i]];
        }
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
        h = lw_dot_layout(L, in->ty);
        L->strong[in->dst] = 1;
        break;
    case OC_SHAPE: {
        const MtLinear *x = L->home[in->args[0]];
        h = x ? lw_layout(L, mt_ll_expand(x, in->attr.axis)) : NULL;
        break;
    }
    case OC_MEMORY:
        h = L->home[in->args[0]];
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

static void largest(const MtRegion *r, const MtFunc *f, int64_t *numel, bool *has_dot)
{
    for (uint32_t i = 0; i < r->n; i++) {
        const MtInst *in = r->v[i];
        if (in->op == OP_DOT)
            *has_dot = true;
        if (in->loop)
            largest(&in->loop->body, f, numel, has_dot);
        for (uint32_t k = 0; k < in->nargs; k++)
            if (in->args[k] && is_block(f->vals[in->args[k]].ty) && mt_ty_numel(f->vals[in->args[k]].ty) > *numel)
                *numel = mt_ty_numel(f->vals[in->args[k]].ty);
        if (in->ty && is_block(in->ty) && mt_ty_numel(in->ty) > *numel)
            *numel = mt_ty_numel(in->ty);
    }
}

/* Warps per program: about two 16-byte vectors per thread, 1 to 8 warps;
 * programs of one warp share a block four at a time. */
static void launch_shape(Lw *L, const MtKernelOptions *opt)
{
    int64_t numel = 1;
    bool dot = false;
    largest(&L->f->body, L->f, &numel, &dot);
    int64_t threads = dot ? numel / 64 : numel / 8;
    int warps = 1;
    while (warps < 8 && (int64_t)warps * 32 < threads)
        warps *= 2;
    if (opt && opt->num_warps > 0)
        warps = opt->num_warps;
    L->warps = warps;
    L->programs = warps == 1 ? 4 : 1;
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

static void lower_for(Lw *L, const MtInst *in)
{
    MtCtx *c = L->c;
    const MtForData *l = in->loop;
    uint32_t n = l->ncarried;
    const KExpr *start = k_cast(c, MT_DT_I32, lw_get(L, in->args[0], NULL).u);
    const KExpr *stop = k_cast(c, MT_DT_I32, lw_get(L, in->args[1], NULL).u);
    LVal *state = mt_arena_alloc(&c->arena, (n + 1) * sizeof *state);
    for (uint32_t i = 0; i < n; i++) {
        MtVal a = l->iter_args[i];
        const MtType *t = mt_val_ty(L->f, a);
        LVal init = lw_get(L, in->args[2 + i], L->home[a]);
        state[i] = carried_copy(L, &init, t, is_block(t) ? L->home[a] : NULL);
        L->val[a] = state[i];
    }
    KVarId iv = k_var(c, L->kf, KV_LOCAL, MT_DT_I32, 0, lw_name(L, "i"));
    KStmt *s = k_stmt(&L->b, KST_FOR);
    s->u.for_.iv = iv;
    s->u.for_.start = start;
    s->u.for_.stop = stop;
    s->u.for_.step = l->step;
    L->val[l->iv] = uniform(k_ref(c, L->kf, iv), 0);
    KBlock *outer = L->b.block;
    L->b.block = &s->u.for_.body;
    L->depth++;
    const MtInst *y = l->body.v[l->body.n - 1];
    for (uint32_t i = 0; i + 1 < l->body.n && !L->failed; i++)
        lower_inst(L, l->body.v[i]);
    /* The yield is a parallel assignment: read every yielded value into
     * fresh variables before writing the state. */
    L->b.span = y->span;
    LVal *next = mt_arena_alloc(&c->arena, (n + 1) * sizeof *next);
    for (uint32_t i = 0; i < n && !L->failed; i++) {
        MtVal a = l->iter_args[i];
        const MtType *t = mt_val_ty(L->f, a);
        LVal v = lw_get(L, y->args[i], is_block(t) ? L->home[a] : NULL);
        next[i] = carried_copy(L, &v, t, is_block(t) ? L->home[a] : NULL);
    }
    for (uint32_t i = 0; i < n && !L->failed; i++)
        carried_assign(L, &state[i], &next[i], lw_dtype(mt_val_ty(L->f, l->iter_args[i])));
    L->depth--;
    pop_memo(L);
    L->b.block = outer;
    for (uint32_t i = 0; i < n; i++)
        L->val[l->results[i]] = state[i];
}

static void lower_inst(Lw *L, const MtInst *in)
{
    L->b.span = in->span;
    L->b.inl = in->inl;
    const MtFunc *f = L->f;
    if (in->op == OP_FOR) {
        lower_for(L, in);
        return;
    }
    if (in->dst && L->cheap[in->dst])
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
    case OC_COMBINE:
    case OC_HINT:
    case OC_ATOMIC:
    case OC_DEBUG:
        lw_fail(L, in, "%s is not supported by the fast CUDA lowering yet", mt_op_info[in->op].py);
        return;
    case OC_DOT:
        lw_dot(L, in);
        return;
    case OC_SHAPE: {
        LVal x = lw_get_any(L, in->args[0]);
        if (x.kind == LV_REGS)
            x.ll = L->home[in->dst];
        L->val[in->dst] = x;
        return;
    }
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
        if (in->loop && !fast_supported(L, &in->loop->body))
            return false;
        const char *why = NULL;
        if (in->loop && (in->loop->dyn_step || mt_val_ty(L->f, in->loop->iv) != &mt_ty_i32))
            why = " with a runtime step or a non-i32 induction variable";
        const MtType *x = in->nargs && in->args[0] ? mt_val_ty(L->f, in->args[0]) : NULL;
        switch (mt_op_class(in->op)) {
        case OC_SCAN:
        case OC_COMBINE:
        case OC_HINT:
        case OC_ATOMIC:
        case OC_DEBUG: why = ""; break;
        case OC_REDUCE:
            if (in->op == OP_XOR_SUM || !x || x->rank != 1 || (in->attr.flags & MT_KEEP_DIMS))
                why = "";
            break;
        case OC_SHAPE:
            if (in->op != OP_EXPAND_DIMS || !x || x->rank != 1)
                why = "";
            break;
        default: break;
        }
        if (in->nest)
            why = "";
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

KFunc *mt_kernel_lower(MtCtx *c, const MtFunc *f, const MtKernelOptions *opt)
{
    Lw L = {.c = c, .f = f};
    L.kf = k_func_new(c, f->name);
    L.b = (KBuilder){.c = c, .f = L.kf, .block = &L.kf->body};
    L.val = mt_arena_alloc(&c->arena, (f->nvals + 1) * sizeof *L.val);
    L.home = mt_arena_alloc(&c->arena, (f->nvals + 1) * sizeof *L.home);
    L.cheap = mt_arena_alloc(&c->arena, f->nvals + 1);
    L.strong = mt_arena_alloc(&c->arena, f->nvals + 1);
    if (!fast_supported(&L, &f->body))
        return NULL;
    launch_shape(&L, opt);
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
