/* passes.h: the optimisation passes over verified typed SSA, and the
 * pipeline that runs them with the verifier after each one.
 *
 * Every pass is region-aware: it works inside `for` bodies as well as at
 * the top level, and keeps the structured form (one yield per body, loop
 * results and region arguments consistent with the carried slots). Each
 * requires SSA that mt_verify accepts and leaves SSA that it accepts; the
 * pipeline checks exactly that after every pass.
 */
#ifndef MT_PASSES_H
#define MT_PASSES_H

#include <stddef.h>

#include "ssa/ssa.h"

/* Constant folding, the local simplifications the seeds' printed SSA
 * relies on, and removal of loop-invariant carried values. */
void mt_fold(MtCtx *c, MtFunc *f);
/* Common subexpression elimination of pure operations, scoped by region. */
void mt_cse(MtCtx *c, MtFunc *f);
/* Dead-code elimination rooted at stores: dead operations, dead loops and
 * dead carried slots. */
void mt_dce(MtCtx *c, MtFunc *f);

/* The fast lowering's software pipelining (Triton's num_stages): in a
 * loop computing a tl.dot, the loads it can recompute are issued for a
 * later iteration before the dot and carried (prefetch.c): the tiles of a
 * tensor-core dot `ahead` iterations ahead (the lowering copies them into
 * shared memory stages), every other load one. Run on a copy of the
 * optimised SSA; verify after it. */
void mt_prefetch(MtCtx *c, MtFunc *f, uint32_t ahead);

/* verify("lowering"), then fold, cse, dce, each followed by dump(pass, f,
 * ud) when dump is non-NULL and by verify(pass). Checks mt_cancelled
 * between passes. MT_OK, MT_ERR_SOURCE (a verification failed: see the
 * E05xx diagnostics) or MT_CANCELLED. */
MtStatus mt_optimize(MtCtx *c, MtFunc *f, void (*dump)(const char *pass, const MtFunc *f, void *ud), void *ud);

/* The pass names in pipeline order ("fold", "cse", "dce"), for `-d pass,...`. */
const char *const *mt_pass_names(size_t *n);

#endif
