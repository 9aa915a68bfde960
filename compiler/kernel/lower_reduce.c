/* lower_reduce.c: reductions in the fast lowering, in three stages that
 * follow the input layout's bits along the reduced dimension:
 *   1. registers: each thread combines the elements it holds, in
 *      increasing coordinate order;
 *   2. lanes: a butterfly of warp shuffles over the lane bits along the
 *      dimension (every lane ends with the same bits: each step combines
 *      the same two values, only in swapped operand order, and the
 *      combiners are commutative);
 *   3. warps: when warps split the dimension, each warp's partial goes
 *      through shared memory and every thread combines them in warp order.
 * The result is in the slice layout of the input (a scalar for a rank-1
 * input), replicated over the threads that differed only along the
 * reduced dimension. Summation order is therefore not the seed lowering's
 * tree: floating-point sums may differ from the interpreter in the last
 * bits (tests state their tolerance). */
#include "lower.h"

static const KExpr *combine(Lw *L, int op, MtDtype dt, const KExpr *a, const KExpr *b)
{
    bool flt = mt_dtype_info(dt)->cls == MT_DC_FLOAT;
    switch (op) {
    case OP_SUM: return k_op(L->c, K_ADD, dt, a, b, NULL);
    case OP_MAX: return k_op(L->c, flt ? K_FMAX : K_MAX, dt, a, b, NULL);
    default: return k_op(L->c, flt ? K_FMIN : K_MIN, dt, a, b, NULL);
    }
}

/* A scalar local initialised with e (so later steps read it once). */
static const KExpr *local(Lw *L, MtDtype dt, const KExpr *e, const char *prefix)
{
    KVarId v = k_var(L->c, L->kf, KV_LOCAL, dt, 0, lw_name(L, prefix));
    k_decl(&L->b, v, e);
    return k_ref(L->c, L->kf, v);
}

void lw_reduce(Lw *L, const MtInst *in)
{
    MtCtx *c = L->c;
    const MtType *xt = mt_val_ty(L->f, in->args[0]);
    MtDtype dt = lw_dtype(in->ty);
    int axis = 0;
    if (xt->rank != 1) {
        lw_fail(L, in, "%s over a rank-%d block is not supported by the fast lowering yet", mt_op_info[in->op].py,
                xt->rank);
        return;
    }
    LVal x = lw_get_any(L, in->args[0]);
    if (x.kind == LV_UNIFORM) {
        /* A reduction of a constant block: n copies of one value. */
        const KExpr *v = x.u;
        if (in->op == OP_SUM)
            v = k_op(c, K_MUL, dt, k_cast(c, dt, v), k_int(c, dt, xt->shape[0]), NULL);
        L->val[in->dst] = (LVal){.kind = LV_UNIFORM, .u = local(L, dt, k_cast(c, dt, v), "s")};
        return;
    }
    const MtLinear *ll = x.ll;
    /* 1. registers, in increasing coordinate order along the axis */
    uint32_t n = mt_ll_nregs(ll);
    uint32_t *order = mt_arena_alloc(&c->arena, n * sizeof *order);
    for (uint32_t r = 0; r < n; r++)
        order[r] = r;
    for (uint32_t i = 1; i < n; i++)
        for (uint32_t j = i; j > 0; j--) {
            int32_t a[MT_LL_MAX_RANK], b[MT_LL_MAX_RANK];
            mt_ll_reg_offset(ll, order[j - 1], a);
            mt_ll_reg_offset(ll, order[j], b);
            if (a[axis] <= b[axis])
                break;
            uint32_t t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    const KExpr *acc = k_cast(c, dt, lw_elem(L, &x, NULL, order[0]));
    for (uint32_t i = 1; i < n; i++)
        acc = combine(L, in->op, dt, acc, k_cast(c, dt, lw_elem(L, &x, NULL, order[i])));
    acc = local(L, dt, acc, "red");
    /* 2. lanes */
    for (int i = 0; i < MT_LL_LANES; i++)
        if (ll->lane[i][axis])
            acc = local(L, dt, combine(L, in->op, dt, acc, k_shfl_xor(c, acc, 1u << i)), "red");
    /* 3. warps */
    int nw = 0;
    const KExpr *wa = k_int(c, MT_DT_I32, 0);
    for (int i = 0; i < ll->nwarp; i++)
        if (ll->warp[i][axis]) {
            const KExpr *bit = k_op(c, K_BAND, MT_DT_I32, k_op(c, K_SHR, MT_DT_I32, L->warp, k_int(c, MT_DT_I32, i), NULL),
                                    k_int(c, MT_DT_I32, 1), NULL);
            wa = k_add(c, wa, k_mul(c, bit, k_int(c, MT_DT_I32, 1 << nw)));
            nw++;
        }
    if (nw) {
        uint32_t parts = 1u << nw;
        const KExpr *slot;
        KVarId sm = lw_shared(L, dt, parts, "red_smem", &slot);
        k_barrier(&L->b);
        KStmt *s = k_stmt(&L->b, KST_IF);
        s->u.if_.cond = k_op(c, K_EQ, MT_DT_I32, L->lane, k_int(c, MT_DT_I32, 0), NULL);
        KBlock *outer = L->b.block;
        L->b.block = &s->u.if_.then;
        k_set(&L->b, sm, k_add(c, slot, wa), acc);
        L->b.block = outer;
        k_barrier(&L->b);
        const KExpr *t = k_elem(c, L->kf, sm, slot);
        for (uint32_t w = 1; w < parts; w++)
            t = combine(L, in->op, dt, t, k_elem(c, L->kf, sm, k_add(c, slot, k_int(c, MT_DT_I32, w))));
        acc = local(L, dt, t, "red");
    }
    L->val[in->dst] = (LVal){.kind = LV_UNIFORM, .u = acc};
}
