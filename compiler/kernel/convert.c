/* convert.c: moving a value between layouts through shared memory.
 *
 * Every thread writes the elements it holds at their row-major position
 * in a buffer of the value's shape, the block synchronises, and every
 * thread reads the elements the target layout gives it. Threads holding
 * the same element write the same bits to the same place. The buffer is
 * scratch of the shared pool (one share per program when several share a
 * block), and the barrier before the writes keeps them from overwriting
 * what an earlier use of the pool (or the previous iteration) still reads. */
#include "lower.h"

const KExpr *lw_position(Lw *L, const MtLinear *ll, uint32_t r)
{
    const KExpr *at = k_int(L->c, MT_DT_I32, 0);
    for (int d = 0; d < ll->rank; d++)
        at = k_add(L->c, k_mul(L->c, at, k_int(L->c, MT_DT_I32, ll->shape[d])), lw_coord(L, ll, d, r));
    return at;
}

LVal lw_convert(Lw *L, const LVal *from, const MtLinear *to, MtDtype dt)
{
    MtCtx *c = L->c;
    uint32_t numel = 1;
    for (int d = 0; d < to->rank; d++)
        numel *= (uint32_t)to->shape[d];
    const KExpr *slot;
    lw_scratch_begin(L);
    KVarId sm = lw_shared(L, dt, numel, "cvt_smem", &slot);
    k_barrier(&L->b);
    for (uint32_t r = 0; r < mt_ll_nregs(from->ll); r++)
        k_set(&L->b, sm, k_add(c, slot, lw_position(L, from->ll, r)), lw_elem(L, from, NULL, r));
    k_barrier(&L->b);
    LVal out = lw_new_regs(L, dt, to, "v");
    for (uint32_t r = 0; r < mt_ll_nregs(to); r++)
        k_set(&L->b, out.regs, k_int(c, MT_DT_I32, r), k_elem(c, L->kf, sm, k_add(c, slot, lw_position(L, to, r))));
    return out;
}
