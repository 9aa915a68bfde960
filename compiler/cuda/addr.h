/* addr.h: offset variables printed as pointers (addr.c). */
#ifndef MT_CUDA_ADDR_H
#define MT_CUDA_ADDR_H

#include "kernel/kir.h"

typedef struct KcAddr {
    const KVarId *param;      /* per variable: the parameter it points into (0: an integer) */
    const bool *ptr;          /* per variable: param[v] != 0 */
} KcAddr;

/* Which i64 variables of f are addresses into one parameter each. */
KcAddr kc_pointer_vars(MtCtx *c, const KFunc *f);

/* Whether e (an index or an assigned value) has a pointer term: it is
 * then an address, else an integer. */
bool kc_pointer_term(const KcAddr *m, const KExpr *e);

#endif
