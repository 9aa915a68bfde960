/* infer.h: type inference over the expression tree (see infer.c). */
#ifndef MT_INFER_H
#define MT_INFER_H

#include "frontend/expr.h"

/* Type every node reachable from p's roots; fills p->sig[].type for
 * runtime parameters. Returns false after reporting E04xx errors. */
bool mt_infer(MtCtx *c, MtExprProgram *p);

#endif
