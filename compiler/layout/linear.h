/* linear.h: distributed layouts as linear maps (the fast lowering's
 * layout model; Triton's LinearLayout, restricted to what the kernels
 * here need).
 *
 * A block value of a power-of-two shape is spread over the threads of one
 * program instance: each thread holds some of its elements in registers.
 * A layout says which. Its inputs are bits: the register index within a
 * thread (nreg bits), the lane within a warp (5 bits) and the warp within
 * the program (nwarp bits). Each input bit has a basis vector, a
 * coordinate offset per dimension; the element that thread (lane, warp)
 * holds in register r is at the XOR of the basis vectors of the set bits
 * of r, lane and warp. For every layout built here the basis vectors are
 * distinct powers of two or zero, so XOR is addition:
 *
 *     coord[d] = base_d(lane, warp) + off_d(r)
 *
 * with base computed once per thread and off a constant per register. A
 * zero basis vector means broadcast: the threads (or registers) that
 * differ only in that bit hold the same element. Register bits are never
 * zero (layouts are compact: no thread holds an element twice).
 *
 * The seeds' layouts are special cases: one element per thread is a
 * blocked layout with one register; a register tile is a blocked layout
 * whose register bits stride by the thread shape. Blocked layouts
 * (sizePerThread, threadsPerWarp, warpsPerCTA, order), their slices (the
 * result of a reduction along a dimension) and their projections (an
 * operand broadcast along size-1 dimensions) are what the lowering uses;
 * other layouts (a tensor-core fragment) are built from basis vectors
 * directly. Nothing here allocates or reports diagnostics. */
#ifndef MT_LAYOUT_LINEAR_H
#define MT_LAYOUT_LINEAR_H

#include <stdbool.h>
#include <stdint.h>

enum { MT_LL_MAX_RANK = 2, MT_LL_MAX_REG = 16, MT_LL_LANES = 5, MT_LL_MAX_WARP = 4 };

typedef struct MtLinear {
    uint8_t rank;                             /* 0 (a scalar) .. MT_LL_MAX_RANK */
    uint8_t nreg, nwarp;                      /* register and warp bits; lanes always 5 */
    int32_t shape[MT_LL_MAX_RANK];
    int32_t reg[MT_LL_MAX_REG][MT_LL_MAX_RANK];
    int32_t lane[MT_LL_LANES][MT_LL_MAX_RANK];
    int32_t warp[MT_LL_MAX_WARP][MT_LL_MAX_RANK];
} MtLinear;

/* A blocked layout of `shape` (Triton's BlockedEncoding): along each
 * dimension, spt consecutive elements per thread, tpw threads per warp and
 * wpc warps per program, repeated until the shape is covered (and wrapped,
 * i.e. replicated, where the shape is smaller). order[0] is the fastest
 * dimension: registers, lanes and warps fill it first. tpw must multiply
 * to 32; every size is a power of two. */
MtLinear mt_ll_blocked(int rank, const int32_t *shape, const int32_t *spt, const int32_t *tpw, const int32_t *wpc,
                       const int8_t *order);
/* The default layout of a block of `shape` with elements of `esize` bytes
 * for `warps` warps: 16-byte vectors along the last dimension, lanes then
 * warps filling it first (what a coalesced load wants). */
MtLinear mt_ll_default(int rank, const int32_t *shape, int esize, int warps);
/* The layout of a reduction's result: `dim` removed. */
MtLinear mt_ll_slice(const MtLinear *l, int dim);
/* A size-1 dimension inserted at `dim` (expand_dims of a slice). */
MtLinear mt_ll_expand(const MtLinear *l, int dim);
/* l with its dimensions reordered: result dimension d is l's dimension
 * order[d] (tl.permute, tl.trans); registers, lanes and warps keep their
 * elements. */
MtLinear mt_ll_permute(const MtLinear *l, const int8_t *order);
/* The layout an operand of `shape` (1 where it broadcasts, else l's size)
 * must have to be read register by register for a result in l. */
MtLinear mt_ll_project(const MtLinear *l, int rank, const int32_t *shape);

bool mt_ll_equal(const MtLinear *a, const MtLinear *b);
static inline uint32_t mt_ll_nregs(const MtLinear *l) { return 1u << l->nreg; }
static inline uint32_t mt_ll_nwarps(const MtLinear *l) { return 1u << l->nwarp; }
/* Constant coordinate offsets of register r. */
void mt_ll_reg_offset(const MtLinear *l, uint32_t r, int32_t *off);
/* Register r of `to` holds the element register map[r] of `from` holds in
 * the same thread, for a `from` that is mt_ll_project(to, ...); false when
 * `from` is not such a projection (the value must move between threads). */
bool mt_ll_reg_map(const MtLinear *from, const MtLinear *to, uint32_t *map);
/* Whether lane bit / warp bit i moves along no dimension (threads that
 * differ in it hold the same elements). */
bool mt_ll_lane_broadcast(const MtLinear *l, int i);
bool mt_ll_warp_broadcast(const MtLinear *l, int i);
/* In words, for `--emit layout` and hovers: how many elements along each
 * dimension a thread holds, a warp's lanes cover and the warps cover
 * ("1x4 per thread, lanes 8x4, warps 4x1"), and "replicated" when threads
 * hold copies. */
void mt_ll_describe(const MtLinear *l, char *out, unsigned outlen);

#endif
