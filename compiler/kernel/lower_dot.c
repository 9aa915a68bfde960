/* lower_dot.c: tl.dot in the fast lowering, on CUDA cores.
 *
 * The result [M, N] lives in an outer-product layout: each thread owns an
 * RM x RN micro-tile (rows mbase..mbase+RM-1, columns nbase..nbase+RN-1)
 * of registers, lanes run along N first, warps along M. The operands go
 * through shared memory: A transposed ([K][M], so a thread's RM rows at
 * one k are consecutive), B as is ([K][N]). Then, for each k in order,
 * every thread reads its RM values of A and RN values of B and does
 * RM x RN fused multiply-adds into its accumulators:
 *
 *     acc[i][j] = fma(A[k][mbase + i], B[k][nbase + j], acc[i][j])
 *
 * so each output element is a sum over increasing k from 0, with one
 * rounding per step (the interpreter rounds the product and the sum
 * separately: results may differ in the last bits). Barriers keep the
 * shared tiles from being overwritten while any thread still reads them. */
#include "lower.h"

static int32_t pow2_at_most(int64_t v, int32_t cap)
{
    int32_t p = 1;
    while (p * 2 <= v && p * 2 <= cap)
        p *= 2;
    return p;
}

const MtLinear *lw_dot_layout(Lw *L, const MtType *result)
{
    int32_t M = result->shape[0], N = result->shape[1];
    int64_t threads = 32 * (int64_t)L->warps;
    int64_t per = (int64_t)M * N / threads;
    int32_t rn = pow2_at_most(per > 1 ? per : 1, N < 8 ? N : 8);
    while (rn > 1 && (int64_t)rn * rn > per)
        rn /= 2;
    int32_t rm = (int32_t)(per / rn);
    if (rm < 1)
        rm = 1;
    if (rm > M)
        rm = M;
    int32_t tn = N / rn, t1 = tn < 32 ? tn : 32, t0 = 32 / t1;
    int32_t w0 = M / rm / t0;
    if (w0 < 1)
        w0 = 1;
    if (w0 > L->warps)
        w0 = L->warps;
    int32_t spt[2] = {rm, rn}, tpw[2] = {t0, t1}, wpc[2] = {w0, L->warps / w0};
    int8_t order[2] = {1, 0};
    return lw_layout(L, mt_ll_blocked(2, result->shape, spt, tpw, wpc, order));
}

/* Write every element of x ([rows, cols] as the SSA has it) into sm at
 * row * ld + col, or transposed at col * ld + row. */
static void stage(Lw *L, KVarId sm, const KExpr *slot, const LVal *x, const MtType *t, MtDtype dt, bool transpose)
{
    MtCtx *c = L->c;
    int32_t ld = transpose ? t->shape[0] : t->shape[1];
    if (x->kind == LV_UNIFORM) {
        /* every element is the same: each thread fills a share */
        uint32_t n = (uint32_t)mt_ty_numel(t), threads = 32u * (uint32_t)L->warps;
        for (uint32_t k = 0; k < (n + threads - 1) / threads; k++) {
            const KExpr *at = k_add(c, k_add(c, k_mul(c, L->warp, k_int(c, MT_DT_I32, 32)), L->lane),
                                    k_int(c, MT_DT_I32, (int64_t)k * threads));
            KStmt *s = k_stmt(&L->b, KST_IF);
            s->u.if_.cond = k_op(c, K_LT, MT_DT_I32, at, k_int(c, MT_DT_I32, n), NULL);
            KBlock *outer = L->b.block;
            L->b.block = &s->u.if_.then;
            k_set(&L->b, sm, k_add(c, slot, at), k_cast(c, dt, x->u));
            L->b.block = outer;
        }
        return;
    }
    for (uint32_t r = 0; r < mt_ll_nregs(x->ll); r++) {
        const KExpr *row = lw_coord(L, x->ll, 0, r), *col = lw_coord(L, x->ll, 1, r);
        const KExpr *at = transpose ? k_add(c, k_mul(c, col, k_int(c, MT_DT_I32, ld)), row)
                                    : k_add(c, k_mul(c, row, k_int(c, MT_DT_I32, ld)), col);
        k_set(&L->b, sm, k_add(c, slot, at), k_cast(c, dt, lw_elem(L, x, NULL, r)));
    }
}

void lw_dot(Lw *L, const MtInst *in)
{
    MtCtx *c = L->c;
    const MtType *at = mt_val_ty(L->f, in->args[0]), *bt = mt_val_ty(L->f, in->args[1]);
    int32_t M = at->shape[0], K = at->shape[1], N = bt->shape[1];
    MtDtype dt = lw_dtype(in->ty);
    const MtLinear *ll = L->home[in->dst];
    LVal a = lw_get_any(L, in->args[0]);
    LVal b = lw_get_any(L, in->args[1]);
    const KExpr *aslot, *bslot;
    lw_scratch_begin(L);
    KVarId as = lw_shared(L, dt, (uint32_t)(K * M), "dot_a", &aslot);
    KVarId bs = lw_shared(L, dt, (uint32_t)(K * N), "dot_b", &bslot);
    k_barrier(&L->b);
    stage(L, as, aslot, &a, at, dt, true);
    stage(L, bs, bslot, &b, bt, dt, false);
    k_barrier(&L->b);
    /* The micro-tile: the distinct row and column offsets of the registers. */
    uint32_t n = mt_ll_nregs(ll), nrow = 0, ncol = 0;
    int32_t *rows = mt_arena_alloc(&c->arena, n * sizeof *rows), *cols = mt_arena_alloc(&c->arena, n * sizeof *cols);
    uint32_t *ri = mt_arena_alloc(&c->arena, n * sizeof *ri), *ci = mt_arena_alloc(&c->arena, n * sizeof *ci);
    for (uint32_t r = 0; r < n; r++) {
        int32_t off[MT_LL_MAX_RANK];
        mt_ll_reg_offset(ll, r, off);
        uint32_t x = 0, y = 0;
        while (x < nrow && rows[x] != off[0])
            x++;
        if (x == nrow)
            rows[nrow++] = off[0];
        while (y < ncol && cols[y] != off[1])
            y++;
        if (y == ncol)
            cols[ncol++] = off[1];
        ri[r] = x;
        ci[r] = y;
    }
    LVal acc = lw_new_regs(L, dt, ll, "acc");
    for (uint32_t r = 0; r < n; r++)
        k_set(&L->b, acc.regs, k_int(c, MT_DT_I32, r), k_int(c, dt, 0));
    const KExpr *mbase = lw_coord(L, ll, 0, 0), *nbase = lw_coord(L, ll, 1, 0);
    KVarId kk = k_var(c, L->kf, KV_LOCAL, MT_DT_I32, 0, lw_name(L, "k"));
    KStmt *loop = k_stmt(&L->b, KST_FOR);
    loop->u.for_.iv = kk;
    loop->u.for_.start = k_int(c, MT_DT_I32, 0);
    loop->u.for_.stop = k_int(c, MT_DT_I32, K);
    loop->u.for_.step = 1;
    loop->u.for_.unroll = K < 8 ? -1 : 8;
    KBlock *outer = L->b.block;
    L->b.block = &loop->u.for_.body;
    const KExpr *k = k_ref(c, L->kf, kk);
    KVarId ra = k_var(c, L->kf, KV_REGS, dt, nrow, lw_name(L, "a"));
    KVarId rb = k_var(c, L->kf, KV_REGS, dt, ncol, lw_name(L, "b"));
    k_decl(&L->b, ra, NULL);
    k_decl(&L->b, rb, NULL);
    const KExpr *arow = k_add(c, aslot, k_add(c, k_mul(c, k, k_int(c, MT_DT_I32, M)), mbase));
    const KExpr *brow = k_add(c, bslot, k_add(c, k_mul(c, k, k_int(c, MT_DT_I32, N)), nbase));
    for (uint32_t i = 0; i < nrow; i++)
        k_set(&L->b, ra, k_int(c, MT_DT_I32, i), k_elem(c, L->kf, as, k_add(c, arow, k_int(c, MT_DT_I32, rows[i]))));
    for (uint32_t j = 0; j < ncol; j++)
        k_set(&L->b, rb, k_int(c, MT_DT_I32, j), k_elem(c, L->kf, bs, k_add(c, brow, k_int(c, MT_DT_I32, cols[j]))));
    for (uint32_t r = 0; r < n; r++) {
        const KExpr *idx = k_int(c, MT_DT_I32, r);
        k_set(&L->b, acc.regs, idx,
              k_op(c, K_FMA, dt, k_elem(c, L->kf, ra, k_int(c, MT_DT_I32, ri[r])),
                   k_elem(c, L->kf, rb, k_int(c, MT_DT_I32, ci[r])), k_elem(c, L->kf, acc.regs, idx)));
    }
    L->b.block = outer;
    L->val[in->dst] = acc;
}
