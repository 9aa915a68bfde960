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
 * the values that failed have no nodes. */
MtExprProgram *mt_frontend(MtCtx *c, const MtModule *m, const MtFuncDef *kernel, const MtSpec *spec,
                           bool *needs_value);

#endif
