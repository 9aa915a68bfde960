/* lower_dot.c: tl.dot in the fast lowering, on tensor cores or on CUDA
 * cores.
 *
 * Tensor cores. A dot whose operands are f16 (or bf16) blocks widened to
 * f32 -- how the front end types tl.dot of two f16 blocks -- with M, N, K
 * multiples of 16, 8 and 16 runs as PTX mma.sync m16n8k16 (f32
 * accumulators). The warps split the [M, N] result into warp tiles (wm
 * along M, wn along N); each warp covers its tile with 16 x 8 mma tiles.
 * The result's layout is the accumulator fragment's, repeated over the
 * tiles: register bit 0 is column + 1, lanes 0-1 columns + 2, + 4, lanes
 * 2-4 rows + 1, + 2, + 4, register bit 1 row + 8, then register bits for
 * the warp tile's 8-column and 16-row steps, and the warp bits. The
 * operands go through shared memory as halves, A row-major [M][K + 8]
 * and B as it is, [K][N + 8] (the 8-element pads put the eight rows an
 * ldmatrix reads in distinct banks); each k-step of 16 reads every
 * fragment of the warp tile once with ldmatrix (B with .trans, two column
 * tiles at a time) and then runs its products from registers.
 * Products of halves are exact in f32; the tensor core's order of the
 * additions within one k-step of 16 is its own, so results may differ from
 * the interpreter's in the last bits.
 *
 * Warpgroups (sm_90: PTX wgmma.mma_async, code for sm_90a). A dot of
 * halves (or of TF32, below) whose program has a multiple of 4 warps runs
 * on the warpgroups (4 warps each) when they tile its result: wr of them
 * along M, wc along N, each warpgroup's tile 64 rows or a multiple of
 * them by tc columns (a multiple of 8, at most 256). Both operands are
 * read from shared memory by the tensor core itself, through descriptors, in wgmma's
 * canonical layouts with 16-byte chunks swizzled (lw_tile_index): A as it
 * is, K-major, B as it is, [K][N], N-major (the descriptor's transpose
 * bit). Each k-step of 16 is one wgmma m64nTNk16 per 64 rows of the tile;
 * the warpgroup waits for them before the accumulators are read. The
 * accumulator layout is wgmma's: as mma.sync's fragment of 16 x 8 for
 * each warp, the warp's 16 rows at 16 w of its warpgroup, the tile's
 * 8-column steps in registers, then its 64-row steps.
 *
 * TF32 (tl.dot of f32 blocks with input_precision="tf32") runs on
 * mma.sync as m16n8k8 (M, N, K multiples of 16, 8 and 8): the operands
 * are rounded to TF32 as they are staged, in f32 arrays A [M][K + 4] and
 * B transposed [N][K + 4] (the 4-element pad spreads a fragment's rows
 * over all 32 banks), or as they are read from a pipeline's stages, whose
 * fragments are read element by element. On CUDA cores a TF32 dot rounds
 * its operands the same way, so those paths compute the interpreter's
 * products.
 *
 * On the warpgroups (above) TF32 takes both of wgmma's operands K-major
 * only, and B [K][N] is not: the dot runs as its transpose C^T = B^T A^T,
 * wgmma's rows along N (64 per wgmma m64nTMk8, a multiple of 64 of them a
 * warpgroup) and its columns along M, its A being B^T in registers --
 * mma.sync m16n8k8's A fragment for each warp, its rows paired so that
 * each k of a thread is one 8-byte read from B's stage, padded [K][N + 8]
 * so that a half-warp's reads fall in distinct banks -- and its B being
 * A^T, the dot's A stage as it is ([M][K] is K-major for A^T), swizzled,
 * through a descriptor. The result layout is the transpose of the
 * accumulators', rows paired the same way. The registers of every
 * k-step are loaded before the wgmmas; with the accumulator in flight
 * (lower_pipe.c) the dot first waits for the wgmmas that read them an
 * iteration before, so the tensor core runs on through the loop's copies
 * and barrier. (Loading a k-step's registers while the earlier k-steps
 * run, a group each, measured 2-3% slower on the H200.) Here the tensor
 * core takes each f32 as it is, dropping the 13 low bits of its mantissa
 * (as Triton's TF32 does): products differ from the interpreter's, which
 * rounds, by up to a unit of TF32 (2^-10 relative) per operand.
 *
 * CUDA cores (every other dot, and every dot of the MLIR backend).
 *
 * The result [M, N] lives in an outer-product layout: each thread owns an
 * RM x RN micro-tile (rows mbase..mbase+RM-1, columns nbase..nbase+RN-1)
 * of registers, lanes run along N first, warps along M. The operands are
 * read from shared memory as they are, A [M][K + 4] (the pad moves each
 * row by four banks) and B [K][N]: a pipeline's stages when cp.async
 * copied them there (lower_pipe.c, f32 tiles on sm >= 80), else staged
 * here from registers. Then, for each k in order, every thread reads its
 * RM values of A and RN values of B and does RM x RN fused multiply-adds
 * into its accumulators:
 *
 *     acc[i][j] = fma(A[mbase + i][k], B[k][nbase + j], acc[i][j])
 *
 * A's values of a row for KV consecutive k (4 where K allows) are one
 * vector read, and B's of a row for as many consecutive columns as the
 * micro-tile has (up to 4); so each output element is a sum over
 * increasing k from 0, with one rounding per step (the interpreter rounds
 * the product and the sum separately: results may differ in the last
 * bits). Barriers keep the shared tiles from being overwritten while any
 * thread still reads them. */
#include "lower.h"

static int32_t pow2_at_most(int64_t v, int32_t cap)
{
    int32_t p = 1;
    while (p * 2 <= v && p * 2 <= cap)
        p *= 2;
    return p;
}

/* Warps along M for the tensor-core tiling: as square a warp tile as
 * the warps allow. */
static int32_t mma_warps_m(const Lw *L, int32_t M, int32_t N)
{
    int32_t best = 0, best_skew = 0;
    for (int32_t wm = 1; wm <= L->warps; wm *= 2) {
        int32_t tm = M / wm, tn = N / (L->warps / wm);
        if (tm < 16 || tn < 8)
            continue;
        int32_t skew = tm > tn ? tm / tn : tn / tm;
        if (!best || skew < best_skew)
            best = wm, best_skew = skew;
    }
    return best;
}

static int log2i(int32_t v)
{
    int r = 0;
    while ((1 << r) < v)
        r++;
    return r;
}

/* The instruction that defines v, NULL for arguments, parameters and
 * constants. */
static const MtInst *def_of(const MtFunc *f, MtVal v)
{
    const MtInst *d = v && f->vals[v].kind == VK_INST ? f->vals[v].def : NULL;
    return d && d->dst == v ? d : NULL;
}

bool mt_dot_suits_tensor_cores(const MtFunc *f, const MtInst *in, MtDtype *operand_dt)
{
    if (in->op != OP_DOT || in->nargs != 2 || lw_dtype(in->ty) != MT_DT_F32)
        return false;
    const MtType *at = mt_val_ty(f, in->args[0]);
    int32_t M = in->ty->shape[0], N = in->ty->shape[1], K = at->shape[1];
    if (in->attr.mode == MT_DOT_TF32) {
        *operand_dt = MT_DT_F32;
        return M % 16 == 0 && N % 8 == 0 && K % 8 == 0;
    }
    const MtInst *a = def_of(f, in->args[0]), *b = def_of(f, in->args[1]);
    if (!a || !b || a->op != OP_CAST || b->op != OP_CAST)
        return false;
    MtDtype da = lw_dtype(mt_val_ty(f, a->args[0])), db = lw_dtype(mt_val_ty(f, b->args[0]));
    if (da != db || (da != MT_DT_F16 && da != MT_DT_BF16))
        return false;
    *operand_dt = da;
    return M % 16 == 0 && N % 8 == 0 && K % 16 == 0;
}

/* Whether a dot multiplies f32 tiles as they are (no cast widens them)
 * in IEEE f32: on CUDA cores it can read them from a pipeline's stages. */
static bool f32_on_cuda_cores(const MtFunc *f, const MtInst *in)
{
    if (in->op != OP_DOT || in->nargs != 2 || in->attr.mode == MT_DOT_TF32 || lw_dtype(in->ty) != MT_DT_F32)
        return false;
    for (int i = 0; i < 2; i++) {
        const MtInst *d = def_of(f, in->args[i]);
        if (lw_dtype(mt_val_ty(f, in->args[i])) != MT_DT_F32 || (d && d->op == OP_CAST))
            return false;
    }
    return true;
}

const MtInst *mt_staged_dot_operand(const MtFunc *f, const MtRegion *body, MtVal v, const uint32_t *uses,
                                    int *operand, MtVal *widened)
{
    const MtInst *u = mt_region_only_user(body, v, uses);
    *widened = 0;
    if (u && u->op == OP_CAST) {
        *widened = u->dst;
        u = mt_region_only_user(body, u->dst, uses);
    }
    MtVal arg = *widened ? *widened : v;
    MtDtype dt;
    if (!u || u->op != OP_DOT || (u->args[0] != arg && u->args[1] != arg) ||
        !(mt_dot_suits_tensor_cores(f, u, &dt) || f32_on_cuda_cores(f, u)))
        return NULL;
    *operand = u->args[0] == arg ? 0 : 1;
    return u;
}

/* A 16-byte pad puts the eight rows an ldmatrix (or a TF32 A fragment)
 * reads in distinct banks; a TF32 B read as is, [K][N], takes its
 * fragment's values from four rows at once, which a 32-byte pad spreads
 * over all 32 banks. */
static int32_t dot_pitch(MtDtype dt, int32_t cols, bool b_rows)
{
    return cols + (b_rows ? 32 : 16) / (int32_t)mt_dtype_info(dt)->size;
}

static LTileShape padded_tile(MtDtype dt, int32_t rows, int32_t cols, bool b_rows)
{
    return (LTileShape){.ld = dot_pitch(dt, cols, b_rows), .rows = rows, .cols = cols,
                        .esize = (uint8_t)mt_dtype_info(dt)->size};
}

/* The swizzle width of a wgmma operand whose rows (along its contiguous
 * axis) are `bytes` long: the whole row when it is 32 or 64 bytes, else
 * atoms of 128; 0 when no canonical layout fits. */
static uint8_t swizzle_for(int64_t bytes)
{
    return bytes == 32 || bytes == 64 ? (uint8_t)bytes : bytes % 128 == 0 ? 128 : 0;
}

/* How a dot runs on the warpgroups, in the wgmma's own terms: its rows
 * are the result's M, or with `swapped` (TF32: the product runs as
 * C^T = B^T A^T) its N. */
typedef struct WgPlan {
    bool swapped;
    int32_t wr, wc;           /* warpgroups along the wgmma's rows and columns */
    int32_t tr, tc;           /* a warpgroup's tile: tr rows (64 per wgmma) by tc columns */
    uint8_t a_swizzle, b_swizzle; /* the dot's A and B tiles' (0: B read as mma.sync's, padded) */
} WgPlan;

/* Whether a dot of halves, or of TF32, runs on the warpgroups (the
 * file's comment), and how: as many warpgroups along the rows as their
 * 64-row steps allow. */
static bool wgmma_plan(const Lw *L, const MtInst *in, MtDtype dt, int warps, WgPlan *p)
{
    if (L->sm != 90 || warps % 4 || (dt != MT_DT_F16 && dt != MT_DT_BF16 && dt != MT_DT_F32))
        return false;
    const MtType *at = mt_val_ty(L->f, in->args[0]);
    int32_t M = in->ty->shape[0], N = in->ty->shape[1], K = at->shape[1], groups = warps / 4;
    int64_t esize = (int64_t)mt_dtype_info(dt)->size;
    p->swapped = dt == MT_DT_F32;
    int32_t rows = p->swapped ? N : M, cols = p->swapped ? M : N;
    p->a_swizzle = swizzle_for(K * esize);
    p->b_swizzle = p->swapped ? 0 : swizzle_for(N * esize);
    if (!p->a_swizzle || (!p->swapped && !p->b_swizzle) || K % (p->swapped ? 8 : 16))
        return false;
    p->wr = 1;
    while (p->wr * 2 <= groups && rows % (64 * p->wr * 2) == 0)
        p->wr *= 2;
    p->wc = groups / p->wr;
    p->tr = rows / p->wr;
    p->tc = cols / p->wc;
    /* an N-major B's columns split at its swizzle atoms; a K-major one's
     * at any 8 rows */
    return rows % (64 * p->wr) == 0 && cols % p->wc == 0 && p->tc % 8 == 0 && p->tc <= 256 &&
           (p->wc == 1 || p->swapped || (p->tc * esize) % p->b_swizzle == 0);
}

/* How the CUDA cores read an operand of dt: A [M][K + pad], B [K][N]. */
static LTileShape cuda_core_tile(MtDtype dt, const MtType *t, int operand)
{
    return operand ? (LTileShape){.ld = t->shape[1], .rows = t->shape[0], .cols = t->shape[1],
                                  .esize = (uint8_t)mt_dtype_info(dt)->size}
                   : padded_tile(dt, t->shape[0], t->shape[1], false);
}

LTileShape lw_dot_operand_tile(Lw *L, const MtInst *dot, int operand)
{
    MtDtype dt = MT_DT_F32;
    const MtType *t = mt_val_ty(L->f, dot->args[operand]);
    if (!lw_dot_on_tensor_cores(L, dot, &dt))
        return cuda_core_tile(MT_DT_F32, t, operand);
    WgPlan p;
    uint8_t swizzle = !wgmma_plan(L, dot, dt, L->warps, &p) ? 0 : operand ? p.b_swizzle : p.a_swizzle;
    if (swizzle)
        return (LTileShape){.rows = t->shape[0], .cols = t->shape[1], .swizzle = swizzle,
                            .esize = (uint8_t)mt_dtype_info(dt)->size};
    return padded_tile(dt, t->shape[0], t->shape[1], dt == MT_DT_F32 && operand == 1);
}

/* Swizzled, byte x of [row][col] is (the chunk bits of x XOR bits 7.. of it)
 *     x = (col e / W) (rows W) + row W + col e % W
 * which is wgmma's canonical layout on the pool's absolute addresses as
 * long as the tile starts at a multiple of 8 W bytes (lw_tile_align). */
/* x of a swizzled tile's [row][col] before the swizzle (lw_tile_index). */
static const KExpr *tile_bytes(Lw *L, const LTileShape *t, const KExpr *row, const KExpr *col)
{
    MtCtx *c = L->c;
    int32_t per = t->swizzle / t->esize;    /* elements in an atom's row */
    const KExpr *bytes = k_mul(c, k_op(c, K_BAND, MT_DT_I32, col, k_int(c, MT_DT_I32, per - 1), NULL),
                               k_int(c, MT_DT_I32, t->esize));
    return k_add(c, k_mul(c, k_op(c, K_SHR, MT_DT_I32, col, k_int(c, MT_DT_I32, log2i(per)), NULL),
                          k_int(c, MT_DT_I32, (int64_t)t->rows * t->swizzle)),
                 k_add(c, k_mul(c, row, k_int(c, MT_DT_I32, t->swizzle)), bytes));
}

/* e as base + *off, *off a constant (the base 0 when e is one). */
static const KExpr *split_offset(Lw *L, const KExpr *e, int64_t *off)
{
    if (k_is_const(e, off))
        return k_int(L->c, MT_DT_I32, 0);
    if (e->op == K_ADD && k_is_const(e->a[1], off))
        return e->a[0];
    if (e->op == K_ADD && k_is_const(e->a[0], off))
        return e->a[1];
    *off = 0;
    return e;
}

const KExpr *lw_tile_index(Lw *L, const LTileShape *t, const KExpr *at, const KExpr *row, const KExpr *col)
{
    MtCtx *c = L->c;
    if (!t->swizzle)
        return k_add(c, at, k_add(c, k_mul(c, row, k_int(c, MT_DT_I32, t->ld)), col));
    /* 8 rows further, or a whole atom of columns, is the same swizzle
     * phase: the element of (row + 8 i, col + per j) is that of (row, col)
     * plus a constant, which the copies of one thread then share */
    int64_t dr, dc, per = t->swizzle / t->esize;
    const KExpr *rb = split_offset(L, row, &dr), *cb = split_offset(L, col, &dc);
    if ((dr || dc) && t->rows % 8 == 0 && dr % 8 == 0 && dc % per == 0)
        return k_add(c, lw_tile_index(L, t, at, rb, cb),
                     k_int(c, MT_DT_I32, (dr * t->swizzle + dc / per * t->rows * t->swizzle) / t->esize));
    const KExpr *x = tile_bytes(L, t, row, col);
    const KExpr *phase = k_op(c, K_BAND, MT_DT_I32, k_op(c, K_SHR, MT_DT_I32, x, k_int(c, MT_DT_I32, 7), NULL),
                              k_int(c, MT_DT_I32, t->swizzle / 16 - 1), NULL);
    x = k_op(c, K_BXOR, MT_DT_I32, x, k_op(c, K_SHL, MT_DT_I32, phase, k_int(c, MT_DT_I32, 4), NULL), NULL);
    return k_add(c, at, k_op(c, K_SHR, MT_DT_I32, x, k_int(c, MT_DT_I32, log2i(t->esize)), NULL));
}

uint32_t lw_tile_elems(const LTileShape *t)
{
    return (uint32_t)t->rows * (uint32_t)(t->swizzle ? t->cols : t->ld);
}

uint32_t lw_tile_align(const LTileShape *t) { return t->swizzle ? 8u * t->swizzle : 16u; }

bool lw_dot_suits_tensor_cores(Lw *L, const MtInst *in)
{
    MtDtype half;
    return L->tensor_cores && mt_dot_suits_tensor_cores(L->f, in, &half);
}

/* Whether a tensor-core dot runs on the warpgroups of a program of
 * `warps` warps, and how. */
static bool warpgroup_plan(Lw *L, const MtInst *in, int warps, MtDtype *half, WgPlan *p)
{
    return L->tensor_cores && mt_dot_suits_tensor_cores(L->f, in, half) && wgmma_plan(L, in, *half, warps, p);
}

bool lw_dot_on_warpgroups(Lw *L, const MtInst *in)
{
    MtDtype half;
    WgPlan p;
    return warpgroup_plan(L, in, L->warps, &half, &p);
}

bool lw_dot_suits_warpgroups(Lw *L, const MtInst *in)
{
    MtDtype half;
    WgPlan p;
    return warpgroup_plan(L, in, 4, &half, &p);
}

/* Whether a dot runs on tensor cores: its operands suit them and the
 * program's warps tile its result. */
bool lw_dot_on_tensor_cores(Lw *L, const MtInst *in, MtDtype *half)
{
    WgPlan p;
    return L->tensor_cores && mt_dot_suits_tensor_cores(L->f, in, half) &&
           (wgmma_plan(L, in, *half, L->warps, &p) || mma_warps_m(L, in->ty->shape[0], in->ty->shape[1]) > 0);
}

bool lw_dot_reads_stages(Lw *L, const MtInst *in, MtDtype *operand_dt)
{
    if (lw_dot_on_tensor_cores(L, in, operand_dt))
        return true;
    *operand_dt = MT_DT_F32;
    return L->tensor_cores && f32_on_cuda_cores(L->f, in);
}

/* The accumulator layout of tensor-core tiles of 16 x 8 per warp (the
 * file's comment) over an M x N result: register bit 0 is column + 1,
 * lanes 0-1 columns + 2, + 4, lanes 2-4 rows + 1, + 2, + 4, register
 * bit 1 row + 8, then register bits for the 8-column steps of a tm x tn
 * tile and its 16-row steps past the first `warp_rows` (warps that split
 * the tile's rows 16 at a time: a warpgroup's 2 bits, none for
 * mma.sync), then warp bits for those, for the tiles along M and for the
 * tiles along N; with `transposed`, the layout of the transpose of that
 * result (a TF32 warpgroup dot's, whose wgmma rows are the dot's N), its
 * rows of each 16 paired as that dot loads them (transposed_fragments):
 * register bit 1 row + 1, lanes 2-4 rows + 2, + 4, + 8. */
static const MtLinear *fragment_layout(Lw *L, int32_t M, int32_t N, int32_t tm, int32_t tn, int warp_rows,
                                       bool transposed)
{
    MtLinear l = {.rank = 2, .shape = {M, N}};
    int32_t lane_row = transposed ? 2 : 1;
    int r = 0;
    l.reg[r][1] = 1, r++;
    l.reg[r][0] = transposed ? 1 : 8, r++;
    for (int32_t x = 8; x < tn; x *= 2)
        l.reg[r][1] = x, r++;
    for (int32_t x = 16 << warp_rows; x < tm; x *= 2)
        l.reg[r][0] = x, r++;
    l.nreg = (uint8_t)r;
    const int32_t lanes[MT_LL_LANES][2] = {{0, 2}, {0, 4}, {lane_row, 0}, {2 * lane_row, 0}, {4 * lane_row, 0}};
    for (int i = 0; i < MT_LL_LANES; i++)
        l.lane[i][0] = lanes[i][0], l.lane[i][1] = lanes[i][1];
    int w = 0;
    for (int32_t x = 16; x < 16 << warp_rows; x *= 2)
        l.warp[w][0] = x, w++;
    for (int32_t x = tm; x < M; x *= 2)
        l.warp[w][0] = x, w++;
    for (int32_t x = tn; x < N; x *= 2)
        l.warp[w][1] = x, w++;
    l.nwarp = (uint8_t)w;
    static const int8_t swap[2] = {1, 0};
    return lw_layout(L, transposed ? mt_ll_permute(&l, swap) : l);
}

const MtLinear *lw_dot_layout(Lw *L, const MtInst *in)
{
    const MtType *result = in->ty;
    int32_t M = result->shape[0], N = result->shape[1];
    MtDtype half;
    WgPlan p;
    if (warpgroup_plan(L, in, L->warps, &half, &p))
        return p.swapped ? fragment_layout(L, N, M, p.tr, p.tc, 2, true) : fragment_layout(L, M, N, p.tr, p.tc, 2, false);
    if (lw_dot_on_tensor_cores(L, in, &half)) {
        int32_t wm = mma_warps_m(L, M, N);
        return fragment_layout(L, M, N, M / wm, N / (L->warps / wm), 0, false);
    }
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
    /* a micro-tile of more than 4 x 4 is blocks of 4 x 4 repeated across
     * the tile: the 16-byte reads of B's row by 16 lanes are then one
     * contiguous 256 bytes, and the two rows of A the lanes of a warp read
     * at once 4 rows (16 banks) apart */
    int32_t spt[2] = {rm < 4 ? rm : 4, rn < 4 ? rn : 4}, tpw[2] = {t0, t1}, wpc[2] = {w0, L->warps / w0};
    int8_t order[2] = {1, 0};
    return lw_layout(L, mt_ll_blocked(2, result->shape, spt, tpw, wpc, order));
}

/* x rounded to TF32, as mt_float_to_tf32: the bits plus half a unit of
 * the 13 dropped ones, cut, for finite values and infinities; NaN as is. */
static const KExpr *to_tf32(MtCtx *c, const KExpr *x)
{
    const KExpr *bits = k_bitcast(c, MT_DT_U32, x);
    const KExpr *magnitude = k_op(c, K_BAND, MT_DT_U32, bits, k_int(c, MT_DT_U32, 0x7fffffff), NULL);
    const KExpr *rounded = k_op(c, K_BAND, MT_DT_U32, k_op(c, K_ADD, MT_DT_U32, bits, k_int(c, MT_DT_U32, 0x1000), NULL),
                                k_int(c, MT_DT_U32, 0xffffe000), NULL);
    return k_op(c, K_SELECT, MT_DT_F32, k_op(c, K_LE, MT_DT_U32, magnitude, k_int(c, MT_DT_U32, 0x7f800000), NULL),
                k_bitcast(c, MT_DT_F32, rounded), x);
}

/* Write every element [row][col] of x (as the SSA has it) into sm at its
 * place in tile, or with transpose at col * tile.ld + row (the tile is
 * then the transpose as stored); a uniform x fills the tile's whole span.
 * Values are converted to dt (and rounded to TF32 with tf32). */
static void stage(Lw *L, KVarId sm, const KExpr *slot, const LVal *x, const LTileShape *tile, MtDtype dt,
                  bool transpose, bool tf32)
{
    MtCtx *c = L->c;
    if (x->kind == LV_UNIFORM) {
        /* every element is the same: each thread fills a share */
        uint32_t n = lw_tile_elems(tile), threads = 32u * (uint32_t)L->warps;
        for (uint32_t k = 0; k < (n + threads - 1) / threads; k++) {
            const KExpr *at = k_add(c, k_add(c, k_mul(c, L->warp, k_int(c, MT_DT_I32, 32)), L->lane),
                                    k_int(c, MT_DT_I32, (int64_t)k * threads));
            KStmt *s = k_stmt(&L->b, KST_IF);
            s->u.if_.cond = k_op(c, K_LT, MT_DT_I32, at, k_int(c, MT_DT_I32, n), NULL);
            KBlock *outer = L->b.block;
            L->b.block = &s->u.if_.then;
            k_set(&L->b, sm, k_add(c, slot, at), tf32 ? to_tf32(c, x->u) : k_cast(c, dt, x->u));
            L->b.block = outer;
        }
        return;
    }
    for (uint32_t r = 0; r < mt_ll_nregs(x->ll); r++) {
        const KExpr *row = lw_coord(L, x->ll, 0, r), *col = lw_coord(L, x->ll, 1, r);
        const KExpr *at = transpose ? k_add(c, slot, k_add(c, k_mul(c, col, k_int(c, MT_DT_I32, tile->ld)), row))
                                    : lw_tile_index(L, tile, slot, row, col);
        const KExpr *e = lw_elem(L, x, NULL, r);
        k_set(&L->b, sm, at, tf32 ? to_tf32(c, e) : k_cast(c, dt, e));
    }
}

/* The operands x[i] that are not in a pipeline's stage (registers, or
 * uniform) staged here, into scratch shared memory laid out as tiles[i]
 * (values converted to dt, rounded to TF32 with tf32), between barriers;
 * with proxy, made visible to the tensor core's reads (wgmma). x[i]
 * becomes the staged tile. */
static void stage_held(Lw *L, LVal *x, const LTileShape *tiles, MtDtype dt, bool tf32, bool proxy)
{
    if (x[0].kind == LV_STAGED && x[1].kind == LV_STAGED)
        return;
    LVal held[2] = {x[0], x[1]};
    lw_scratch_begin(L);
    for (int i = 0; i < 2; i++)
        if (held[i].kind != LV_STAGED) {
            x[i] = (LVal){.kind = LV_STAGED, .tile = tiles[i]};
            x[i].smem = lw_shared_aligned(L, dt, lw_tile_elems(&tiles[i]), lw_tile_align(&tiles[i]),
                                          i ? "dot_b" : "dot_a", &x[i].at);
        }
    k_barrier(&L->b);
    for (int i = 0; i < 2; i++)
        if (held[i].kind != LV_STAGED)
            stage(L, x[i].smem, x[i].at, &held[i], &x[i].tile, dt, false, tf32);
    if (proxy)
        k_stmt(&L->b, KST_PROXY_FENCE);
    k_barrier(&L->b);
}

/* The dot's accumulators, in ll: the addend of the add it feeds (acc +
 * tl.dot(a, b), which is tl.dot(a, b, acc)) when that is lowered already
 * -- the add is then this dot's result -- else zero. */
static LVal start_acc(Lw *L, const MtInst *in, MtDtype dt, const MtLinear *ll)
{
    const MtInst *sum = L->sum_of[in->dst];
    MtVal addend = sum ? sum->args[sum->args[0] == in->dst] : 0;
    bool from_addend = addend && (L->cheap[addend] || L->val[addend].kind != LV_NONE);
    LVal from = from_addend ? lw_get(L, addend, ll) : (LVal){0};
    LVal acc = lw_new_regs(L, dt, ll, "acc");
    for (uint32_t r = 0; r < mt_ll_nregs(ll); r++) {
        const KExpr *idx = k_int(L->c, MT_DT_I32, r);
        k_set(&L->b, acc.regs, idx, from_addend ? lw_elem(L, &from, ll, r) : k_int(L->c, dt, 0));
    }
    if (from_addend) {
        L->fused[sum->dst] = 1;
        L->val[sum->dst] = acc;
    }
    return acc;
}

/* An A fragment (16 rows at r0) or B fragment (8 columns at c0) of TF32
 * for k-step ks, read element by element from the operands in shared
 * memory (A [M][lda]; B transposed [N][ldb] as staged here, or as is
 * [K][ldb] in a pipeline's stage: `b_rows`) in mma.sync m16n8k8's layout:
 * A's four values at rows g, g + 8 and columns t, t + 4 (g = lane / 4,
 * t = lane % 4), B's two at column g and rows t, t + 4; a stage's values
 * are rounded to TF32 as they are read (staging rounds them as it writes). */
static void tf32_fragment(Lw *L, KVarId frag, uint32_t first, KVarId sm, const KExpr *base, int32_t ld, bool is_a,
                          bool b_rows, bool round)
{
    MtCtx *c = L->c;
    const KExpr *g = k_op(c, K_SHR, MT_DT_I32, L->lane, k_int(c, MT_DT_I32, 2), NULL);
    const KExpr *t = k_op(c, K_BAND, MT_DT_I32, L->lane, k_int(c, MT_DT_I32, 3), NULL);
    const KExpr *at = b_rows ? k_add(c, base, k_add(c, k_mul(c, t, k_int(c, MT_DT_I32, ld)), g))
                             : k_add(c, base, k_add(c, k_mul(c, g, k_int(c, MT_DT_I32, ld)), t));
    for (uint32_t q = 0; q < (is_a ? 4u : 2u); q++) {
        int64_t off = is_a ? (int64_t)(q & 1) * 8 * ld + (q >> 1) * 4 : (int64_t)q * 4 * (b_rows ? ld : 1);
        const KExpr *e = k_elem(c, L->kf, sm, k_add(c, at, k_int(c, MT_DT_I32, off)));
        k_set(&L->b, frag, k_int(c, MT_DT_I32, first + q), round ? to_tf32(c, e) : e);
    }
}

/* count (2 or 4) 8 x 8 matrices of halves for this warp's lanes, lane l
 * giving the address of row l % 16 of them: base + (l % 16) * ld, plus 8
 * columns for lanes 16-31 (the next two matrices of an x4). */
static void ldmatrix(Lw *L, KVarId frag, uint32_t first, KVarId sm, const KExpr *base, int32_t ld, int count,
                     bool trans, MtDtype half)
{
    MtCtx *c = L->c;
    const KExpr *row = k_op(c, K_BAND, MT_DT_I32, L->lane, k_int(c, MT_DT_I32, 15), NULL);
    const KExpr *col = k_mul(c, k_op(c, K_SHR, MT_DT_I32, L->lane, k_int(c, MT_DT_I32, 4), NULL), k_int(c, MT_DT_I32, 8));
    KStmt *s = k_stmt(&L->b, KST_LDMATRIX);
    s->u.ldm.dst = frag;
    s->u.ldm.first = first;
    s->u.ldm.smem = sm;
    s->u.ldm.row_at = k_add(c, base, k_add(c, k_mul(c, row, k_int(c, MT_DT_I32, ld)), count == 4 ? col : k_int(c, MT_DT_I32, 0)));
    s->u.ldm.count = (uint8_t)count;
    s->u.ldm.trans = trans;
    s->u.ldm.dt = (uint8_t)half;
}

static void mma_dot(Lw *L, const MtInst *in, MtDtype half)
{
    MtCtx *c = L->c;
    const MtType *at = mt_val_ty(L->f, in->args[0]), *bt = mt_val_ty(L->f, in->args[1]);
    bool tf32 = half == MT_DT_F32;
    int32_t M = at->shape[0], K = at->shape[1], N = bt->shape[1], kstep = tf32 ? 8 : 16;
    /* A row-major [M][K + pad]; B transposed [N][K + 4] for TF32, as is
     * [K][N + 8] for halves (ldmatrix.trans transposes it); an operand in
     * a pipeline's stage (lower_pipe.c) is read where it is, row-major */
    LTileShape ta = padded_tile(half, M, K, false), tb = tf32 ? padded_tile(half, N, K, false) : padded_tile(half, K, N, false);
    int32_t wm = mma_warps_m(L, M, N), tm = M / wm, tn = N / (L->warps / wm), ni = tm / 16, nj = tn / 8;
    const MtLinear *ll = L->home[in->dst];
    /* the f32 operands, or the halves they were widened from */
    MtVal av = tf32 ? in->args[0] : L->def[in->args[0]]->args[0], bv = tf32 ? in->args[1] : L->def[in->args[1]]->args[0];
    LVal a = lw_get_any(L, av), b = lw_get_any(L, bv);
    bool a_staged = a.kind == LV_STAGED, b_staged = b.kind == LV_STAGED;
    const KExpr *aslot = a.at, *bslot = b.at;
    KVarId as = a.smem, bs = b.smem;
    int32_t lda = a_staged ? a.tile.ld : ta.ld, ldb = b_staged ? b.tile.ld : tb.ld;
    if (!a_staged || !b_staged) {
        lw_scratch_begin(L);
        if (!a_staged)
            as = lw_shared(L, half, lw_tile_elems(&ta), "dot_a", &aslot);
        if (!b_staged)
            bs = lw_shared(L, half, lw_tile_elems(&tb), "dot_b", &bslot);
        k_barrier(&L->b);
        if (!a_staged)
            stage(L, as, aslot, &a, &ta, half, false, tf32);
        if (!b_staged)
            stage(L, bs, bslot, &b, &tb, half, tf32, tf32);
        k_barrier(&L->b);
    }
    LVal acc = start_acc(L, in, MT_DT_F32, ll);
    /* the warp tile's origin: warp bits along M first, then along N */
    const KExpr *zero = k_int(c, MT_DT_I32, 0);
    const KExpr *wrow = wm == 1 ? zero
                                : k_mul(c, k_op(c, K_BAND, MT_DT_I32, L->warp, k_int(c, MT_DT_I32, wm - 1), NULL),
                                        k_int(c, MT_DT_I32, tm));
    const KExpr *wn_index = wm == 1 ? L->warp : k_op(c, K_SHR, MT_DT_I32, L->warp, k_int(c, MT_DT_I32, log2i(wm)), NULL);
    const KExpr *wcol = wm == L->warps ? zero : k_mul(c, wn_index, k_int(c, MT_DT_I32, tn));
    int nbits = log2i(nj);
    MtDtype fdt = tf32 ? MT_DT_F32 : MT_DT_U32;
    for (int32_t ks = 0; ks < K; ks += kstep) {
        /* every fragment of this k-step once, then every product */
        KVarId af = k_var(c, L->kf, KV_REGS, fdt, (uint32_t)(4 * ni), lw_name(L, "fa"));
        KVarId bf = k_var(c, L->kf, KV_REGS, fdt, (uint32_t)(2 * nj), lw_name(L, "fb"));
        k_decl(&L->b, af, NULL);
        k_decl(&L->b, bf, NULL);
        for (int32_t i = 0; i < ni; i++) {
            const KExpr *base = k_add(c, aslot, k_add(c, k_mul(c, k_add(c, wrow, k_int(c, MT_DT_I32, i * 16)),
                                                                k_int(c, MT_DT_I32, lda)),
                                                      k_int(c, MT_DT_I32, ks)));
            if (tf32)
                tf32_fragment(L, af, (uint32_t)(4 * i), as, base, lda, true, false, a_staged);
            else
                ldmatrix(L, af, (uint32_t)(4 * i), as, base, lda, 4, false, half);
        }
        for (int32_t j = 0; j < nj;) {
            const KExpr *cols = k_add(c, wcol, k_int(c, MT_DT_I32, j * 8));
            if (tf32) {
                const KExpr *col0 = b_staged ? k_add(c, k_mul(c, k_int(c, MT_DT_I32, ks), k_int(c, MT_DT_I32, ldb)), cols)
                                             : k_add(c, k_mul(c, cols, k_int(c, MT_DT_I32, ldb)), k_int(c, MT_DT_I32, ks));
                tf32_fragment(L, bf, (uint32_t)(2 * j), bs, k_add(c, bslot, col0), ldb, false, b_staged, b_staged);
                j++;
                continue;
            }
            /* two column tiles at once where there are two */
            int count = j + 1 < nj ? 4 : 2;
            ldmatrix(L, bf, (uint32_t)(2 * j), bs,
                     k_add(c, bslot, k_add(c, k_mul(c, k_int(c, MT_DT_I32, ks), k_int(c, MT_DT_I32, ldb)), cols)), ldb,
                     count, true, half);
            j += count / 2;
        }
        for (int32_t i = 0; i < ni; i++)
            for (int32_t j = 0; j < nj; j++) {
                KStmt *s = k_stmt(&L->b, KST_MMA);
                s->u.mma.acc = acc.regs;
                s->u.mma.a = af;
                s->u.mma.b = bf;
                s->u.mma.index = k_int(c, MT_DT_I32, ((int64_t)j << 2) | ((int64_t)i << (2 + nbits)));
                s->u.mma.a_first = (uint32_t)(4 * i);
                s->u.mma.b_first = (uint32_t)(2 * j);
                s->u.mma.in_dt = (uint8_t)half;
            }
    }
    L->val[in->dst] = acc;
}

/* Element index of the descriptor's start: [row][col] of the tile before
 * the swizzle (the hardware swizzles every address it forms). */
static const KExpr *wgmma_start(Lw *L, const LVal *x, const KExpr *row, const KExpr *col)
{
    MtCtx *c = L->c;
    return k_add(c, x->at, k_op(c, K_SHR, MT_DT_I32, tile_bytes(L, &x->tile, row, col),
                                k_int(c, MT_DT_I32, log2i(x->tile.esize)), NULL));
}

/* regs[first ..+ vec) = sm[at ..+ vec), one read. */
static void read_shared(Lw *L, KVarId regs, uint32_t first, KVarId sm, const KExpr *at, uint32_t vec)
{
    if (vec > 1)
        k_vload(&L->b, regs, first, sm, at, (int)vec, NULL, NULL);
    else
        k_set(&L->b, regs, k_int(L->c, MT_DT_I32, first), k_elem(L->c, L->kf, sm, at));
}

/* B^T's TF32 fragments (wgmma's A in registers, KST_WGMMA's rule) for
 * the k-step at k0 and every 64 rows of the warpgroup's tile, from B as
 * it is, [K][N], in x: register 4 (k0 / 8 (tr / 64) + m) onwards for
 * rows row0 + 64 m. The wgmma's rows g and g + 8 of each 16 (g = lane /
 * 4) are B's columns 2 g and 2 g + 1 there, so that each of a thread's
 * two k (t and t + 4, t = lane % 4) is one 8-byte read; the result's
 * layout pairs its rows the same way (fragment_layout). */
static void transposed_fragments(Lw *L, KVarId fa, const LVal *x, int32_t k0, const KExpr *row0, int32_t tr)
{
    MtCtx *c = L->c;
    int32_t steps = tr / 64, ld = x->tile.ld;
    const KExpr *g = k_op(c, K_SHR, MT_DT_I32, L->lane, k_int(c, MT_DT_I32, 2), NULL);
    const KExpr *t = k_op(c, K_BAND, MT_DT_I32, L->lane, k_int(c, MT_DT_I32, 3), NULL);
    /* the thread's first column of each 64: the warp's 16, then 2 g */
    const KExpr *col = k_add(c, row0, k_add(c, k_mul(c, k_op(c, K_BAND, MT_DT_I32, L->warp, k_int(c, MT_DT_I32, 3), NULL),
                                                     k_int(c, MT_DT_I32, 16)),
                                            k_mul(c, g, k_int(c, MT_DT_I32, 2))));
    const KExpr *at = k_add(c, x->at, k_add(c, k_mul(c, k_add(c, t, k_int(c, MT_DT_I32, k0)), k_int(c, MT_DT_I32, ld)), col));
    for (int32_t m = 0; m < steps; m++)
        for (int32_t h = 0; h < 2; h++)
            read_shared(L, fa, (uint32_t)(4 * (k0 / 8 * steps + m) + 2 * h), x->smem,
                        k_add(c, at, k_int(c, MT_DT_I32, (int64_t)4 * h * ld + 64 * m)), 2);
}

static void wgmma_dot(Lw *L, const MtInst *in, MtDtype dt, const WgPlan *p)
{
    MtCtx *c = L->c;
    int32_t K = mt_val_ty(L->f, in->args[0])->shape[1], kstep = p->swapped ? 8 : 16;
    /* the f32 operands, or the halves they were widened from: in a
     * stage, or staged here from registers (as they are: the tensor core
     * drops TF32's low bits itself) */
    MtVal v[2];
    for (int i = 0; i < 2; i++)
        v[i] = p->swapped ? in->args[i] : L->def[in->args[i]]->args[0];
    LVal x[2] = {lw_get_any(L, v[0]), lw_get_any(L, v[1])};
    const LTileShape tiles[2] = {lw_dot_operand_tile(L, in, 0), lw_dot_operand_tile(L, in, 1)};
    stage_held(L, x, tiles, dt, false, true);
    /* a loop's accumulator added into in place stays in flight into the
     * next iteration (lower_pipe.c): until its wgmmas, or for TF32 until
     * the registers they read are loaded anew; else the dot waits for
     * its own */
    LPipe *pipe = lw_pipe_accumulating(L, in);
    LVal acc;
    if (pipe) {
        acc = L->val[pipe->acc];
        pipe->acc_regs = acc.regs;
        L->fused[L->sum_of[in->dst]->dst] = 1;
        L->val[L->sum_of[in->dst]->dst] = acc;
    } else {
        acc = start_acc(L, in, MT_DT_F32, L->home[in->dst]);
    }
    /* the warpgroup's tile: warpgroup bits along the wgmma's rows first,
     * then along its columns */
    const KExpr *group = k_op(c, K_SHR, MT_DT_I32, L->warp, k_int(c, MT_DT_I32, 2), NULL), *zero = k_int(c, MT_DT_I32, 0);
    const KExpr *row0 = p->wr == 1 ? zero
                                   : k_mul(c, k_op(c, K_BAND, MT_DT_I32, group, k_int(c, MT_DT_I32, p->wr - 1), NULL),
                                           k_int(c, MT_DT_I32, p->tr));
    const KExpr *col0 = p->wc == 1 ? zero
                                   : k_mul(c, k_op(c, K_SHR, MT_DT_I32, group, k_int(c, MT_DT_I32, log2i(p->wr)), NULL),
                                           k_int(c, MT_DT_I32, p->tc));
    /* swapped: the wgmma's A is B^T, from registers, loaded (with the
     * accumulator in flight, once the wgmmas that read them an iteration
     * before are done) before the wgmmas; its B is A^T, the dot's A tile
     * read K-major */
    const LVal *wa = &x[0], *wb = p->swapped ? &x[0] : &x[1];
    KVarId fa = 0;
    if (p->swapped && pipe) {
        KStmt *before = k_stmt(&L->b, KST_WGMMA_WAIT);
        before->u.wg.acc = acc.regs;
        before->u.wg.more = true;
    }
    if (p->swapped) {
        fa = k_var(c, L->kf, KV_REGS, MT_DT_F32, (uint32_t)(4 * (K / 8) * (p->tr / 64)), lw_name(L, "fa"));
        k_decl(&L->b, fa, NULL);
        for (int32_t k0 = 0; k0 < K; k0 += kstep)
            transposed_fragments(L, fa, &x[1], k0, row0, p->tr);
    }
    KStmt *fence = k_stmt(&L->b, KST_WGMMA_FENCE);
    fence->u.wg.acc = acc.regs;
    for (int32_t k0 = 0; k0 < K; k0 += kstep)
        for (int32_t m = 0; m < p->tr / 64; m++) {
            KStmt *s = k_stmt(&L->b, KST_WGMMA);
            s->u.wg.acc = acc.regs;
            s->u.wg.acc_first = (uint32_t)(m * p->tc / 2);
            s->u.wg.n = (uint16_t)p->tc;
            s->u.wg.in_dt = (uint8_t)dt;
            const KExpr *k = k_int(c, MT_DT_I32, k0);
            if (p->swapped) {
                s->u.wg.a = fa;
                s->u.wg.a_in_regs = true;
                s->u.wg.a_first = (uint32_t)(4 * (k0 / 8 * (p->tr / 64) + m));
                s->u.wg.b_k_major = true;
                s->u.wg.b_at = wgmma_start(L, wb, col0, k);
                s->u.wg.b_sbo = 8u * wb->tile.swizzle;
            } else {
                s->u.wg.a = wa->smem;
                s->u.wg.a_at = wgmma_start(L, wa, k_add(c, row0, k_int(c, MT_DT_I32, 64 * m)), k);
                s->u.wg.a_swizzle = wa->tile.swizzle;
                s->u.wg.a_sbo = 8u * wa->tile.swizzle;
                s->u.wg.b_at = wgmma_start(L, wb, k, col0);
                s->u.wg.b_lbo = (uint32_t)wb->tile.rows * wb->tile.swizzle;
                s->u.wg.b_sbo = 8u * wb->tile.swizzle;
            }
            s->u.wg.b = wb->smem;
            s->u.wg.b_swizzle = wb->tile.swizzle;
        }
    k_stmt(&L->b, KST_WGMMA_COMMIT);
    if (!(p->swapped && pipe)) {
        KStmt *wait = k_stmt(&L->b, KST_WGMMA_WAIT);
        wait->u.wg.acc = acc.regs;
        wait->u.wg.pending = pipe ? 1 : 0;
        wait->u.wg.more = pipe != NULL;
    }
    L->kf->uses_wgmma = true;
    L->val[in->dst] = acc;
}

/* The widest read (4, 2 or 1 elements of esize, at most 16 bytes) whose
 * width divides n. */
static uint32_t widest(uint32_t n, uint32_t esize)
{
    uint32_t v = 4;
    while (v > 1 && (n % v || v * esize > 16))
        v /= 2;
    return v;
}

/* How many of a thread's columns one read of B takes (v at most): runs
 * of that many consecutive columns at a multiple of it, in every thread. */
static uint32_t column_run(const MtLinear *ll, const int32_t *cols, uint32_t ncol, uint32_t v)
{
    for (; v > 1; v /= 2) {
        bool ok = ncol % v == 0;
        for (int i = 0; ok && i < MT_LL_LANES; i++)
            ok = ll->lane[i][1] % (int32_t)v == 0;
        for (int i = 0; ok && i < ll->nwarp; i++)
            ok = ll->warp[i][1] % (int32_t)v == 0;
        for (uint32_t j = 0; ok && j < ncol; j++)
            ok = cols[j - j % v] % (int32_t)v == 0 && cols[j] == cols[j - j % v] + (int32_t)(j % v);
        if (ok)
            return v;
    }
    return 1;
}

/* The most multiply-adds a thread's CUDA-core dot unrolls whole: 1024 is
 * 16 KiB of FFMAs. On the H200, 64x64x32 tiles on four warps (32
 * accumulators) ran 1% (1024^3) and 9% (4096^3) faster unrolled whole than
 * 8 k at a time; 64x128x32 on four warps (64 accumulators, twice the code)
 * ran 28% slower at 1024^3 (1% faster at 4096^3). */
enum { CUDA_CORE_UNROLLED_FMAS = 1024 };

static void cuda_core_dot(Lw *L, const MtInst *in)
{
    MtCtx *c = L->c;
    const MtType *at = mt_val_ty(L->f, in->args[0]), *bt = mt_val_ty(L->f, in->args[1]);
    int32_t K = at->shape[1];
    MtDtype dt = lw_dtype(in->ty);
    uint32_t esize = (uint32_t)mt_dtype_info(dt)->size;
    const MtLinear *ll = L->home[in->dst];
    /* the operands where a pipeline's stages hold them, or staged here */
    LVal x[2] = {lw_get_any(L, in->args[0]), lw_get_any(L, in->args[1])};
    const LTileShape tiles[2] = {cuda_core_tile(dt, at, 0), cuda_core_tile(dt, bt, 1)};
    stage_held(L, x, tiles, dt, in->attr.mode == MT_DOT_TF32, false);
    /* The micro-tile: the distinct row and column offsets of the registers. */
    uint32_t n = mt_ll_nregs(ll), nrow = 0, ncol = 0;
    int32_t *rows = mt_arena_alloc(&c->arena, n * sizeof *rows), *cols = mt_arena_alloc(&c->arena, n * sizeof *cols);
    uint32_t *ri = mt_arena_alloc(&c->arena, n * sizeof *ri), *ci = mt_arena_alloc(&c->arena, n * sizeof *ci);
    for (uint32_t r = 0; r < n; r++) {
        int32_t off[MT_LL_MAX_RANK];
        mt_ll_reg_offset(ll, r, off);
        uint32_t y = 0, z = 0;
        while (y < nrow && rows[y] != off[0])
            y++;
        if (y == nrow)
            rows[nrow++] = off[0];
        while (z < ncol && cols[z] != off[1])
            z++;
        if (z == ncol)
            cols[ncol++] = off[1];
        ri[r] = y;
        ci[r] = z;
    }
    int32_t lda = x[0].tile.ld, ldb = x[1].tile.ld;
    uint32_t kv = widest((uint32_t)K, esize), bv = column_run(ll, cols, ncol, widest((uint32_t)ldb, esize));
    while (lda % (int32_t)kv)
        kv /= 2;
    LVal acc = start_acc(L, in, dt, ll);
    const KExpr *mbase = lw_coord(L, ll, 0, 0), *nbase = lw_coord(L, ll, 1, 0);
    KVarId kk = k_var(c, L->kf, KV_LOCAL, MT_DT_I32, 0, lw_name(L, "k"));
    KStmt *loop = k_stmt(&L->b, KST_FOR);
    uint32_t steps = (uint32_t)K / kv, per = 8 / kv;
    loop->u.for_.iv = kk;
    loop->u.for_.start = k_int(c, MT_DT_I32, 0);
    loop->u.for_.stop = k_int(c, MT_DT_I32, K);
    loop->u.for_.step = kv;
    /* unrolled whole when its multiply-adds fit the budget (ptxas then
     * reads the next k's operands under the current ones' products), else
     * 8 k at a time */
    bool whole = steps <= per || (uint64_t)n * (uint64_t)K <= CUDA_CORE_UNROLLED_FMAS;
    loop->u.for_.unroll = whole ? -1 : per > 1 ? (int)per : 0;
    KBlock *outer = L->b.block;
    L->b.block = &loop->u.for_.body;
    const KExpr *k = k_ref(c, L->kf, kk);
    KVarId ra = k_var(c, L->kf, KV_REGS, dt, nrow * kv, lw_name(L, "a"));
    KVarId rb = k_var(c, L->kf, KV_REGS, dt, ncol, lw_name(L, "b"));
    k_decl(&L->b, ra, NULL);
    k_decl(&L->b, rb, NULL);
    /* A's kv values at k of each of the thread's rows */
    for (uint32_t i = 0; i < nrow; i++) {
        const KExpr *row = k_add(c, mbase, k_int(c, MT_DT_I32, rows[i]));
        read_shared(L, ra, i * kv, x[0].smem, k_add(c, x[0].at, k_add(c, k_mul(c, row, k_int(c, MT_DT_I32, lda)), k)), kv);
    }
    for (uint32_t s = 0; s < kv; s++) {
        const KExpr *brow = k_add(c, x[1].at, k_mul(c, k_add(c, k, k_int(c, MT_DT_I32, s)), k_int(c, MT_DT_I32, ldb)));
        for (uint32_t j = 0; j < ncol; j += bv)
            read_shared(L, rb, j, x[1].smem, k_add(c, brow, k_add(c, nbase, k_int(c, MT_DT_I32, cols[j]))), bv);
        for (uint32_t r = 0; r < n; r++) {
            const KExpr *idx = k_int(c, MT_DT_I32, r);
            k_set(&L->b, acc.regs, idx,
                  k_op(c, K_FMA, dt, k_elem(c, L->kf, ra, k_int(c, MT_DT_I32, ri[r] * kv + s)),
                       k_elem(c, L->kf, rb, k_int(c, MT_DT_I32, ci[r])), k_elem(c, L->kf, acc.regs, idx)));
        }
    }
    L->b.block = outer;
    L->val[in->dst] = acc;
}

void lw_dot(Lw *L, const MtInst *in)
{
    MtDtype half;
    WgPlan plan;
    if (warpgroup_plan(L, in, L->warps, &half, &plan))
        wgmma_dot(L, in, half, &plan);
    else if (lw_dot_on_tensor_cores(L, in, &half))
        mma_dot(L, in, half);
    else
        cuda_core_dot(L, in);
}
