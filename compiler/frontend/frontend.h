/* frontend.h: from a kernel's syntax tree and a specialisation to the
 * expression tree (see expr.h and fe.h). */
#ifndef MT_FRONTEND_H
#define MT_FRONTEND_H

#include "expr.h"
#include "syntax/ast.h"

/* Build the expression tree of `kernel` for `spec`. Returns NULL when the
 * kernel cannot be specialised (diagnostics recorded); a missing constexpr
 * in editor mode (spec->infer_params) is an I0901 info and also returns
 * NULL, with *needs_value set. A kernel with errors in its body gives a
 * partial tree (prog->partial): every statement is still evaluated, and
 * the values that failed have no nodes.
 *
 * With `cut` (a byte offset inside the kernel's body; 0: none) only the
 * part of the kernel before it runs, the prefix analysis of a kernel
 * whose first error is there: the kernel's statements that end before the
 * cut, and of a loop or `if` that holds it, the statements of its body
 * before it. The runtime values that part leaves bound (in the kernel's
 * scope, and in the bodies of the runtime loops around the cut) become
 * prog->keep, so that lowering and optimisation keep them. */
MtExprProgram *mt_frontend(MtCtx *c, const MtModule *m, const MtFuncDef *kernel, const MtSpec *spec, uint32_t cut,
                           bool *needs_value);

#endif
