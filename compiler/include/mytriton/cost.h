/* cost.h: what one program instance of a compiled kernel moves and
 * computes, as the compiler knows it statically (compiler/api/cost.c).
 *
 * The dashboard's achieved GB/s and TFLOP/s are these counts times the
 * programs of the launch grid over the measured time, so a kernel author
 * never types a byte or FLOP formula. The counts are data, read from the
 * optimised SSA (docs/dashboard.md has the rule in words):
 *
 *   bytes   every tl.load and tl.store moves its block's elements times
 *           its element type's size (a scalar access one element); an
 *           atomic reads and writes its elements, so it counts in both.
 *           A masked access counts every element: the bytes are then an
 *           upper bound (`masked`).
 *   FLOPs   per element of the result, for floating-point results: 1 for
 *           each arithmetic operation (+ - * / // % tl.maximum
 *           tl.minimum) and each math function (tl.exp, tl.sqrt, ...),
 *           2 for a fused multiply-add (tl.fma, libdevice fma_rn); a
 *           reduction (tl.sum, tl.max, tl.min, or tl.reduce's combine
 *           function) over n elements into m counts (n - m) operations, a
 *           scan (tl.cumsum, tl.cumprod, tl.associative_scan) (n - rows);
 *           tl.dot of [M, K] by [K, N] counts 2*M*N*K whatever its element
 *           types, and an addition of a tl.dot result (acc + tl.dot(a, b))
 *           counts nothing more: it is the dot's own accumulation.
 *           Comparisons, tl.where, casts, negation, tl.abs, integer
 *           arithmetic (addresses), shape operations and the atomics'
 *           own arithmetic count nothing.
 *   loops   a `for` whose trip count is known multiplies its body: a
 *           compile-time range, or one whose bounds the launch's scalar
 *           values (and grid, for tl.num_programs) determine, evaluated
 *           by the compiler's own constant folder. A loop whose trip count
 *           is not known (a while loop; bounds from tl.program_id, a
 *           loaded value or an enclosing loop's variable; a scalar not
 *           given) counts its body ONCE and is listed in `loops` with the
 *           reason: the figures are then per iteration of those loops.
 *   if      a branch whose condition the values decide counts that
 *           branch; otherwise the larger of the two, per count
 *           (`branches`).
 * Counts saturate at INT64_MAX. */
#ifndef MYTRITON_COST_H
#define MYTRITON_COST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mytriton/mytriton.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A runtime scalar parameter's value, by name: an integer or bool (`i`),
 * or a float (`flt`, `f`). */
typedef struct MtCostValue {
    const char *name;
    bool flt;
    int64_t i;
    double f;
} MtCostValue;

/* What the launch knows; every field may be zero. */
typedef struct MtCostInput {
    const MtCostValue *values;
    size_t nvalues;
    int64_t grid[3];          /* programs per axis, for tl.num_programs; 0: not known */
} MtCostInput;

typedef struct MtCounts {
    int64_t load_bytes;       /* tl.load and atomics */
    int64_t store_bytes;      /* tl.store and atomics */
    int64_t flops;
} MtCounts;

/* A loop whose trip count is not known: the counts include its body once. */
typedef struct MtCostLoop {
    MtSpan span;              /* the `for` (or `while`) */
    const char *why;          /* "its bounds depend on tl.program_id", ... (arena-owned) */
    MtCounts per_iteration;   /* one execution of its body */
} MtCostLoop;

typedef struct MtCost {
    MtCounts per_program;
    bool masked;              /* a masked access: the bytes are an upper bound */
    bool branches;            /* an `if` the values do not decide: the larger branch counted */
    const MtCostLoop *loops;  /* loops whose trip count is not known, in program order (arena-owned) */
    uint32_t nloops;
} MtCost;

/* The counts of one program of k (compiled through MT_STAGE_SSA at least)
 * for the launch `in` (may be NULL). false when k has no SSA (or memory
 * runs out). */
bool mt_query_cost(MtCtx *c, MtCompiled *k, const MtCostInput *in, MtCost *out);

#ifdef __cplusplus
}
#endif

#endif
