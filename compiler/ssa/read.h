/* read.h: the printed SSA text read back into a function (QBE's parse.c),
 * so the verifier and the passes can be tested on IR without the parser.
 *
 * The text is a header line declaring the runtime parameters, then the
 * body exactly as mt_ssa_print writes it:
 *
 *   kernel runtime_sum_kernel(x: ptr<f32>, out: ptr<f32>, K: i32)
 *   %5 = for %0 in range(0, K, 1) iter_args(%1 = 0.0) : f32 {
 *     %2 = addptr x, %0 : ptr<f32>
 *     %3 = load %2, none, none : f32
 *     %4 = add %1, %3 : f32
 *     yield %4
 *   }
 *   store out, %5, none
 *
 * Integer literals are i32 constants, literals with '.', an exponent, inf
 * or nan are f32, true/false are bool. %numbers are kept as written and
 * next_num is set past the largest, so mt_ssa_write(mt_ssa_read(t)) == t.
 */
#ifndef MT_SSA_READ_H
#define MT_SSA_READ_H

#include "ssa/ssa.h"

/* Parse `text` (registered as file `name_for_diags` so spans render). On
 * malformed text: one E0511 diagnostic at the offending line:col, NULL.
 * The result is NOT verified: well-formed text may describe invalid SSA
 * (a use before its definition, a wrong type), which is what verifier
 * tests feed to mt_verify. */
MtFunc *mt_ssa_read(MtCtx *c, const char *text, const char *name_for_diags);

/* The header line followed by mt_ssa_print(f): the text mt_ssa_read reads. */
const char *mt_ssa_write(MtCtx *c, const MtFunc *f);

#endif
