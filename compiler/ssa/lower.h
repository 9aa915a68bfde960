/* lower.h: expression tree -> typed SSA (see lower.c). */
#ifndef MT_LOWER_H
#define MT_LOWER_H

#include "frontend/expr.h"
#include "ssa.h"

/* Lower a typed program (mt_infer succeeded) to SSA. */
MtFunc *mt_lower(MtCtx *c, MtExprProgram *p);

#endif
