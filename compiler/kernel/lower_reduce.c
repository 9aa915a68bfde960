/* lower_reduce.c: reductions and scans along any axis, of one block or of
 * a tuple of blocks, with a builtin combiner (tl.sum, tl.max, tl.min,
 * tl.xor_sum, tl.cumsum, tl.cumprod) or a @jit combine function (the
 * nest's region, inlined at every combination).
 *
 * Both follow the bits of the value's layout along the axis:
 *   1. registers: each thread combines the elements it holds, in
 *      increasing coordinate order;
 *   2. lanes: one warp shuffle per lane bit along the axis;
 *   3. warps: when warps split the axis, each warp's partial goes through
 *      the shared pool and every thread combines the warps' in order.
 *
 * Reductions work in the value's own layout: the lanes fold as a
 * butterfly, after which every lane holds the total (each step combines
 * the same two partials, in swapped operand order on the two sides, as
 * Triton's reductions do: combine functions are taken to be commutative).
 * The result is in the slice layout of the input, replicated over the
 * threads that differed only along the axis; a rank-1 input gives a
 * scalar.
 *
 * Scans keep the operand order of a sequential scan, so a non-commutative
 * associative combine (a linear recurrence) is exact: the value moves to a
 * layout where each thread holds a run of consecutive elements along the
 * axis, then lanes and warps follow in coordinate order; the shuffles
 * carry each segment's total and every thread gathers the totals of the
 * segments before its own. `reverse` scans run the same schedule with
 * coordinates mirrored: out[i] = combine(combine(x[n-1], x[n-2]) ..., x[i]).
 *
 * Floating-point sums are combined in another order than the
 * interpreter's, so they may differ in the last bits (tests state their
 * tolerance); integer and min/max results are exact. */
#include "lower.h"

#include <string.h>

enum { MAX_TUPLE = 8 };

/* What is combined: the instruction, its operand count and dtypes. */
typedef struct Comb {
    const MtInst *in;
    uint32_t n;
    MtDtype dt[MAX_TUPLE];
} Comb;

/* A scalar local initialised with e (so later steps read it once). */
static const KExpr *local(Lw *L, MtDtype dt, const KExpr *e, const char *prefix)
{
    if (e->op == K_CONST || e->op == K_VAR)
        return e;
    KVarId v = k_var(L->c, L->kf, KV_LOCAL, dt, 0, lw_name(L, prefix));
    k_decl(&L->b, v, e);
    return k_ref(L->c, L->kf, v);
}

static KOp builtin_op(int op, MtDtype dt)
{
    bool flt = mt_dtype_info(dt)->cls == MT_DC_FLOAT;
    switch (op) {
    case OP_SUM:
    case OP_CUMSUM: return K_ADD;
    case OP_CUMPROD: return K_MUL;
    case OP_MAX: return flt ? K_FMAX : K_MAX;
    case OP_MIN: return flt ? K_FMIN : K_MIN;
    default: return K_BXOR;   /* OP_XOR_SUM */
    }
}

/* out = combine(a, b): an expression for a builtin combiner, locals for a
 * combine function. */
static void combine(Lw *L, const Comb *cb, const KExpr *const *a, const KExpr *const *b, const KExpr **out)
{
    MtCtx *c = L->c;
    if (!cb->in->nest) {
        MtDtype dt = cb->dt[0];
        out[0] = k_op(c, builtin_op(cb->in->op, dt), dt, a[0], b[0], NULL);
        return;
    }
    const KExpr *args[2 * MAX_TUPLE];
    for (uint32_t i = 0; i < cb->n; i++) {
        args[i] = a[i];
        args[cb->n + i] = b[i];
    }
    const MtInst *y = lw_inline_combine(L, &cb->in->nest->body[0], args);
    for (uint32_t i = 0; i < cb->n; i++)
        out[i] = local(L, cb->dt[i], k_cast(c, cb->dt[i], y ? lw_get(L, y->args[i], NULL).u : a[i]), "acc");
}

/* Each value read more than once becomes a local. */
static void localize(Lw *L, const Comb *cb, const KExpr **v, const char *prefix)
{
    for (uint32_t i = 0; i < cb->n; i++)
        v[i] = local(L, cb->dt[i], v[i], prefix);
}

/* A 32-bit or wider shuffle (bool and small integers travel as i32). */
static const KExpr *shuffle(Lw *L, MtDtype dt, const KExpr *x, uint32_t mask)
{
    MtCtx *c = L->c;
    if (mt_dtype_info(dt)->cls != MT_DC_FLOAT && mt_dtype_info(dt)->size < 4)
        return k_cast(c, dt, k_shfl_xor(c, k_cast(c, MT_DT_I32, x), mask));
    return k_shfl_xor(c, x, mask);
}

static Comb comb_of(Lw *L, const MtInst *in)
{
    Comb cb = {.in = in};
    if (!in->nest) {
        cb.n = 1;
        cb.dt[0] = lw_dtype(in->ty);
        return cb;
    }
    cb.n = in->nargs;
    for (uint32_t i = 0; i < cb.n; i++)
        cb.dt[i] = lw_dtype(mt_val_ty(L->f, in->nest->results[i]));
    return cb;
}

static MtVal result_of(const MtInst *in, uint32_t i) { return in->nest ? in->nest->results[i] : in->dst; }

/* Register bits of ll along the axis (mask), and the registers in
 * increasing coordinate order along it within each group of registers
 * that differ only in those bits. */
static uint32_t axis_reg_mask(const MtLinear *ll, int axis)
{
    uint32_t m = 0;
    for (int i = 0; i < ll->nreg; i++)
        if (ll->reg[i][axis])
            m |= 1u << i;
    return m;
}

/* The registers of group `rest` (the bits outside the axis mask), in
 * increasing coordinate order along the axis. */
static uint32_t group_regs(Lw *L, const MtLinear *ll, int axis, uint32_t amask, uint32_t rest, uint32_t *out)
{
    uint32_t n = 0;
    for (uint32_t r = 0; r < mt_ll_nregs(ll); r++)
        if ((r & ~amask) == rest)
            out[n++] = r;
    for (uint32_t i = 1; i < n; i++)
        for (uint32_t j = i; j > 0; j--) {
            int32_t a[MT_LL_MAX_RANK], b[MT_LL_MAX_RANK];
            mt_ll_reg_offset(ll, out[j - 1], a);
            mt_ll_reg_offset(ll, out[j], b);
            if (a[axis] <= b[axis])
                break;
            uint32_t t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    (void)L;
    return n;
}

/* Lane and warp bits along the axis, in increasing basis order. */
static int axis_bits(const int32_t (*basis)[MT_LL_MAX_RANK], int nbits, int axis, int *out)
{
    int n = 0;
    for (int i = 0; i < nbits; i++)
        if (basis[i][axis])
            out[n++] = i;
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && basis[out[j - 1]][axis] > basis[out[j]][axis]; j--) {
            int t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return n;
}

/* This thread's warp index along the axis: its warp bits along it, in order. */
static const KExpr *warp_index(Lw *L, const int *wbits, int nw)
{
    MtCtx *c = L->c;
    const KExpr *wa = k_int(c, MT_DT_I32, 0);
    for (int k = 0; k < nw; k++) {
        const KExpr *bit = k_op(c, K_BAND, MT_DT_I32, k_op(c, K_SHR, MT_DT_I32, L->warp, k_int(c, MT_DT_I32, wbits[k]), NULL),
                                k_int(c, MT_DT_I32, 1), NULL);
        wa = k_add(c, wa, k_mul(c, bit, k_int(c, MT_DT_I32, 1 << k)));
    }
    return wa;
}

/* Row-major position of the coordinates of register r of ll outside the
 * axis (the slot of its row in a per-row exchange buffer). */
static const KExpr *row_position(Lw *L, const MtLinear *ll, int axis, uint32_t r)
{
    const KExpr *at = k_int(L->c, MT_DT_I32, 0);
    for (int d = 0; d < ll->rank; d++)
        if (d != axis)
            at = k_add(L->c, k_mul(L->c, at, k_int(L->c, MT_DT_I32, ll->shape[d])), lw_coord(L, ll, d, r));
    return at;
}

static uint32_t rows_of(const MtLinear *ll, int axis)
{
    uint32_t n = 1;
    for (int d = 0; d < ll->rank; d++)
        if (d != axis)
            n *= (uint32_t)ll->shape[d];
    return n;
}

/* The lanes that write a row's exchange entry: those at the start of the
 * axis among the lanes of their warp. */
static const KExpr *lane_writer(Lw *L, const MtLinear *ll, int axis)
{
    int32_t m = 0;
    for (int i = 0; i < MT_LL_LANES; i++)
        if (ll->lane[i][axis])
            m |= 1 << i;
    return k_op(L->c, K_EQ, MT_DT_I32, k_op(L->c, K_BAND, MT_DT_I32, L->lane, k_int(L->c, MT_DT_I32, m), NULL),
                k_int(L->c, MT_DT_I32, 0), NULL);
}

/* Shared exchange buffers, one per operand, of rows x nw entries; each
 * writer stores its rows' values (vals[row group][operand]) at
 * row * nw + wa. Returns the buffers and their bases. */
static void exchange_write(Lw *L, const Comb *cb, const MtLinear *ll, int axis, uint32_t nw, const KExpr *wa,
                           uint32_t ngroups, const uint32_t *group_reg, const KExpr *const (*vals)[MAX_TUPLE],
                           KVarId *sm, const KExpr **slot)
{
    MtCtx *c = L->c;
    uint32_t rows = rows_of(ll, axis);
    lw_scratch_begin(L);
    for (uint32_t i = 0; i < cb->n; i++)
        sm[i] = lw_shared(L, cb->dt[i], rows * nw, "xchg", &slot[i]);
    k_barrier(&L->b);
    KStmt *s = k_stmt(&L->b, KST_IF);
    s->u.if_.cond = lane_writer(L, ll, axis);
    KBlock *outer = L->b.block;
    L->b.block = &s->u.if_.then;
    for (uint32_t g = 0; g < ngroups; g++) {
        const KExpr *at = k_add(c, k_mul(c, row_position(L, ll, axis, group_reg[g]), k_int(c, MT_DT_I32, nw)), wa);
        for (uint32_t i = 0; i < cb->n; i++)
            k_set(&L->b, sm[i], k_add(c, slot[i], at), vals[g][i]);
    }
    L->b.block = outer;
    k_barrier(&L->b);
}

static const KExpr *exchange_read(Lw *L, const MtLinear *ll, int axis, uint32_t nw, KVarId sm, const KExpr *slot,
                                  uint32_t reg, uint32_t w)
{
    MtCtx *c = L->c;
    const KExpr *at = k_add(c, k_mul(c, row_position(L, ll, axis, reg), k_int(c, MT_DT_I32, nw)), k_int(c, MT_DT_I32, w));
    return k_elem(c, L->kf, sm, k_add(c, slot, at));
}

/* The layout every operand of a reduction is read in: the first one's home. */
static const MtLinear *operand_layout(Lw *L, const MtInst *in, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (L->home[in->args[i]])
            return L->home[in->args[i]];
    return lw_default_layout(L, mt_val_ty(L->f, in->args[0]));
}

const MtLinear *lw_reduce_home(Lw *L, const MtInst *in)
{
    const MtType *xt = mt_val_ty(L->f, in->args[0]);
    if (xt->rank == 1 && !(in->attr.flags & MT_KEEP_DIMS))
        return NULL;
    uint32_t n = in->nest ? in->nargs : 1;
    MtLinear sl = mt_ll_slice(operand_layout(L, in, n), in->attr.axis);
    if (in->attr.flags & MT_KEEP_DIMS)
        sl = mt_ll_expand(&sl, in->attr.axis);
    return lw_layout(L, sl);
}

void lw_reduce(Lw *L, const MtInst *in)
{
    MtCtx *c = L->c;
    Comb cb = comb_of(L, in);
    int axis = in->attr.axis;
    const MtLinear *ll = operand_layout(L, in, cb.n);
    LVal x[MAX_TUPLE];
    for (uint32_t i = 0; i < cb.n; i++)
        x[i] = lw_get(L, in->args[i], ll);
    uint32_t amask = axis_reg_mask(ll, axis), nregs = mt_ll_nregs(ll);
    uint32_t ngroups = nregs >> __builtin_popcount(amask);
    uint32_t *order = mt_arena_alloc(&c->arena, nregs * sizeof *order);
    uint32_t *first = mt_arena_alloc(&c->arena, ngroups * sizeof *first);
    const KExpr *(*acc)[MAX_TUPLE] = mt_arena_alloc(&c->arena, ngroups * sizeof *acc);
    /* 1. registers; groups are numbered as the slice layout numbers its registers */
    uint32_t g = 0;
    for (uint32_t rest = 0; rest < nregs; rest++) {
        if (rest & amask)
            continue;
        uint32_t k = group_regs(L, ll, axis, amask, rest, order);
        first[g] = order[0];
        for (uint32_t i = 0; i < cb.n; i++)
            acc[g][i] = k_cast(c, cb.dt[i], lw_elem(L, &x[i], NULL, order[0]));
        for (uint32_t j = 1; j < k; j++) {
            const KExpr *e[MAX_TUPLE];
            for (uint32_t i = 0; i < cb.n; i++)
                e[i] = k_cast(c, cb.dt[i], lw_elem(L, &x[i], NULL, order[j]));
            combine(L, &cb, acc[g], e, acc[g]);
        }
        localize(L, &cb, acc[g], "red");
        g++;
    }
    /* 2. lanes: a butterfly */
    int lbits[MT_LL_LANES], wbits[MT_LL_MAX_WARP];
    int nl = axis_bits(ll->lane, MT_LL_LANES, axis, lbits);
    for (int k = 0; k < nl; k++)
        for (g = 0; g < ngroups; g++) {
            const KExpr *o[MAX_TUPLE];
            for (uint32_t i = 0; i < cb.n; i++)
                o[i] = local(L, cb.dt[i], shuffle(L, cb.dt[i], acc[g][i], 1u << lbits[k]), "sh");
            combine(L, &cb, acc[g], o, acc[g]);
            localize(L, &cb, acc[g], "red");
        }
    /* 3. warps: through the shared pool, every thread folds them in order */
    int nw = axis_bits(ll->warp, ll->nwarp, axis, wbits);
    if (nw) {
        uint32_t parts = 1u << nw;
        KVarId sm[MAX_TUPLE];
        const KExpr *slot[MAX_TUPLE];
        exchange_write(L, &cb, ll, axis, parts, warp_index(L, wbits, nw), ngroups, first,
                       (const KExpr *const(*)[MAX_TUPLE])acc, sm, slot);
        for (g = 0; g < ngroups; g++) {
            for (uint32_t i = 0; i < cb.n; i++)
                acc[g][i] = exchange_read(L, ll, axis, parts, sm[i], slot[i], first[g], 0);
            for (uint32_t w = 1; w < parts; w++) {
                const KExpr *e[MAX_TUPLE];
                for (uint32_t i = 0; i < cb.n; i++)
                    e[i] = exchange_read(L, ll, axis, parts, sm[i], slot[i], first[g], w);
                combine(L, &cb, acc[g], e, acc[g]);
            }
            localize(L, &cb, acc[g], "red");
        }
    }
    const MtLinear *home = lw_reduce_home(L, in);
    for (uint32_t i = 0; i < cb.n; i++) {
        MtVal r = result_of(in, i);
        if (!home) {
            L->val[r] = (LVal){.kind = LV_UNIFORM, .u = acc[0][i]};
            continue;
        }
        LVal v = lw_new_regs(L, cb.dt[i], home, "red");
        for (g = 0; g < ngroups; g++)
            k_set(&L->b, v.regs, k_int(c, MT_DT_I32, g), acc[g][i]);
        L->val[r] = v;
    }
}

/* ---- scans ------------------------------------------------------------------------------ */

/* The layout a scan runs in: along the axis, runs of consecutive elements
 * per thread, then the lanes, then the warps; the other dimension takes
 * the threads left over. */
const MtLinear *lw_scan_home(Lw *L, const MtType *t, int axis)
{
    int32_t n = t->shape[axis], threads = 32 * L->warps;
    int32_t spt[MT_LL_MAX_RANK], tpw[MT_LL_MAX_RANK], wpc[MT_LL_MAX_RANK];
    int8_t order[MT_LL_MAX_RANK];
    spt[axis] = n > threads ? n / threads : 1;
    tpw[axis] = n / spt[axis] < 32 ? n / spt[axis] : 32;
    wpc[axis] = n / (spt[axis] * tpw[axis]) < L->warps ? n / (spt[axis] * tpw[axis]) : L->warps;
    if (wpc[axis] < 1)
        wpc[axis] = 1;
    order[0] = (int8_t)axis;
    if (t->rank == 2) {
        int b = 1 - axis;
        spt[b] = 1;
        tpw[b] = 32 / tpw[axis];
        wpc[b] = L->warps / wpc[axis];
        order[1] = (int8_t)b;
    }
    return lw_layout(L, mt_ll_blocked(t->rank, t->shape, spt, tpw, wpc, order));
}

void lw_scan(Lw *L, const MtInst *in)
{
    MtCtx *c = L->c;
    Comb cb = comb_of(L, in);
    int axis = in->attr.axis;
    bool rev = in->attr.flags & MT_REVERSE;
    const MtLinear *ll = lw_scan_home(L, mt_val_ty(L->f, in->args[0]), axis);
    LVal x[MAX_TUPLE], out[MAX_TUPLE];
    for (uint32_t i = 0; i < cb.n; i++) {
        x[i] = lw_get(L, in->args[i], ll);
        out[i] = lw_new_regs(L, cb.dt[i], ll, "scan");
    }
    uint32_t amask = axis_reg_mask(ll, axis), nregs = mt_ll_nregs(ll);
    uint32_t ngroups = nregs >> __builtin_popcount(amask), per = 1u << __builtin_popcount(amask);
    uint32_t *regs = mt_arena_alloc(&c->arena, nregs * sizeof *regs);
    const KExpr *(*tot)[MAX_TUPLE] = mt_arena_alloc(&c->arena, ngroups * sizeof *tot);
    const KExpr *(*pre)[MAX_TUPLE] = mt_arena_alloc(&c->arena, ngroups * sizeof *pre);
    uint32_t *first = mt_arena_alloc(&c->arena, ngroups * sizeof *first);
    /* 1. registers: an inclusive scan of each thread's run, in processing order */
    uint32_t g = 0;
    for (uint32_t rest = 0; rest < nregs; rest++) {
        if (rest & amask)
            continue;
        uint32_t *run = regs + g * per;
        group_regs(L, ll, axis, amask, rest, run);
        first[g] = run[0];
        for (uint32_t j = 0; j < per; j++) {
            uint32_t r = run[rev ? per - 1 - j : j];
            const KExpr *e[MAX_TUPLE];
            for (uint32_t i = 0; i < cb.n; i++)
                e[i] = local(L, cb.dt[i], k_cast(c, cb.dt[i], lw_elem(L, &x[i], NULL, r)), "acc");
            if (j) {
                combine(L, &cb, tot[g], e, e);
                localize(L, &cb, e, "acc");
            }
            for (uint32_t i = 0; i < cb.n; i++) {
                k_set(&L->b, out[i].regs, k_int(c, MT_DT_I32, r), e[i]);
                tot[g][i] = e[i];
                pre[g][i] = e[i];
            }
        }
        g++;
    }
    /* 2. lanes, in increasing basis order: a partner's segment comes before
     * this thread's when its bit is clear where this thread's is set
     * (mirrored for reverse scans); `has` says whether anything does */
    KVarId has = k_var(c, L->kf, KV_LOCAL, MT_DT_I1, 0, lw_name(L, "has"));
    k_decl(&L->b, has, k_int(c, MT_DT_I1, 0));
    const KExpr *hasr = k_ref(c, L->kf, has);
    int lbits[MT_LL_LANES], wbits[MT_LL_MAX_WARP];
    int nl = axis_bits(ll->lane, MT_LL_LANES, axis, lbits);
    for (int k = 0; k < nl; k++) {
        const KExpr *bit = k_op(c, K_NE, MT_DT_I32,
                                k_op(c, K_BAND, MT_DT_I32, L->lane, k_int(c, MT_DT_I32, 1 << lbits[k]), NULL),
                                k_int(c, MT_DT_I32, 0), NULL);
        const KExpr *before = local(L, MT_DT_I1, rev ? k_op(c, K_LNOT, MT_DT_I1, bit, NULL, NULL) : bit, "before");
        for (g = 0; g < ngroups; g++) {
            const KExpr *o[MAX_TUPLE], *op[MAX_TUPLE], *ot[MAX_TUPLE], *to[MAX_TUPLE];
            for (uint32_t i = 0; i < cb.n; i++)
                o[i] = local(L, cb.dt[i], shuffle(L, cb.dt[i], tot[g][i], 1u << lbits[k]), "sh");
            combine(L, &cb, o, pre[g], op);
            combine(L, &cb, o, tot[g], ot);
            combine(L, &cb, tot[g], o, to);
            for (uint32_t i = 0; i < cb.n; i++) {
                const KExpr *np = k_op(c, K_SELECT, cb.dt[i], hasr, op[i], o[i]);
                pre[g][i] = local(L, cb.dt[i], k_op(c, K_SELECT, cb.dt[i], before, np, pre[g][i]), "pre");
                tot[g][i] = local(L, cb.dt[i], k_op(c, K_SELECT, cb.dt[i], before, ot[i], to[i]), "tot");
            }
        }
        k_set(&L->b, has, NULL, k_op(c, K_LOR, MT_DT_I1, hasr, before, NULL));
    }
    /* 3. warps: each warp's total through the shared pool; every thread
     * folds the totals of the warps before its own, in order */
    int nw = axis_bits(ll->warp, ll->nwarp, axis, wbits);
    if (nw) {
        uint32_t parts = 1u << nw;
        KVarId sm[MAX_TUPLE];
        const KExpr *slot[MAX_TUPLE];
        const KExpr *wa = local(L, MT_DT_I32, warp_index(L, wbits, nw), "wa");
        exchange_write(L, &cb, ll, axis, parts, wa, ngroups, first, (const KExpr *const(*)[MAX_TUPLE])tot, sm, slot);
        for (g = 0; g < ngroups; g++) {
            const KExpr *wacc[MAX_TUPLE];
            for (uint32_t k = 0; k < parts; k++) {
                uint32_t w = rev ? parts - 1 - k : k;
                const KExpr *e[MAX_TUPLE], *we[MAX_TUPLE];
                for (uint32_t i = 0; i < cb.n; i++)
                    e[i] = local(L, cb.dt[i], exchange_read(L, ll, axis, parts, sm[i], slot[i], first[g], w), "w");
                /* warp w is before this thread's when w < wa (w > wa reversed) */
                const KExpr *before = k_op(c, rev ? K_GT : K_LT, MT_DT_I32, k_int(c, MT_DT_I32, w), wa, NULL);
                if (k) {
                    combine(L, &cb, wacc, e, we);
                    for (uint32_t i = 0; i < cb.n; i++)
                        wacc[i] = local(L, cb.dt[i], k_op(c, K_SELECT, cb.dt[i], before, we[i], wacc[i]), "wacc");
                } else {
                    for (uint32_t i = 0; i < cb.n; i++)
                        wacc[i] = e[i];
                }
            }
            /* the warps before: nothing for the first warp in processing order */
            const KExpr *wbefore = k_op(c, K_NE, MT_DT_I32, wa, k_int(c, MT_DT_I32, rev ? (int64_t)parts - 1 : 0), NULL);
            const KExpr *wp[MAX_TUPLE];
            combine(L, &cb, wacc, pre[g], wp);
            for (uint32_t i = 0; i < cb.n; i++) {
                const KExpr *np = k_op(c, K_SELECT, cb.dt[i], hasr, wp[i], wacc[i]);
                pre[g][i] = local(L, cb.dt[i], k_op(c, K_SELECT, cb.dt[i], wbefore, np, pre[g][i]), "pre");
            }
            if (g + 1 == ngroups)
                k_set(&L->b, has, NULL, k_op(c, K_LOR, MT_DT_I1, hasr, wbefore, NULL));
        }
    }
    /* the segments before this thread's, in front of each inclusive value */
    if (nl || nw)
        for (g = 0; g < ngroups; g++) {
            const uint32_t *run = regs + g * per;
            for (uint32_t j = 0; j < per; j++) {
                const KExpr *e[MAX_TUPLE], *r[MAX_TUPLE];
                for (uint32_t i = 0; i < cb.n; i++)
                    e[i] = k_elem(c, L->kf, out[i].regs, k_int(c, MT_DT_I32, run[j]));
                combine(L, &cb, pre[g], e, r);
                for (uint32_t i = 0; i < cb.n; i++)
                    k_set(&L->b, out[i].regs, k_int(c, MT_DT_I32, run[j]), k_op(c, K_SELECT, cb.dt[i], hasr, r[i], e[i]));
            }
        }
    for (uint32_t i = 0; i < cb.n; i++)
        L->val[result_of(in, i)] = out[i];
}
