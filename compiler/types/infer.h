/* infer.h: type inference over the expression tree (see infer.c). */
#ifndef MT_INFER_H
#define MT_INFER_H

#include "frontend/expr.h"

/* Type every node of p; fills p->sig[].type for runtime parameters.
 * Returns false after reporting E04xx errors. */
bool mt_infer(MtCtx *c, MtExprProgram *p);
/* The type of e now (and of what it depends on), or NULL after reporting
 * its error (once: a failed node stays failed). The frontend asks while
 * it builds the tree. */
const MtType *mt_infer_expr(MtCtx *c, MtExprProgram *p, MtExpr *e);
/* The parameter a pointer expression is based on: the leftmost parameter
 * of its `+` / `-` chain, or NULL. */
MtExpr *mt_expr_base_param(MtExpr *e);

#endif
