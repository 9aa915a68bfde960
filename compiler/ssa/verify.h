/* verify.h: the SSA checker run after lowering and after every pass.
 *
 * mt_verify is the second opinion on a function: it re-derives every
 * operand and result rule from the op table and the types alone (it never
 * calls type inference), so a malformed rewrite is caught before layouts
 * and code generation see it. It records E05xx diagnostics at the span of
 * the offending instruction, each message prefixed "after <stage>: " when
 * stage is non-NULL, and returns whether f is valid. It never crashes on
 * malformed SSA: out-of-range handles, NULL types, missing yields and
 * cyclic regions are all reported, not followed.
 */
#ifndef MT_VERIFY_H
#define MT_VERIFY_H

#include <stdbool.h>

#include "ssa/ssa.h"

bool mt_verify(MtCtx *c, const MtFunc *f, const char *stage);

#endif
