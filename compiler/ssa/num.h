/* num.h: exact scalar values and Triton's conversions between element
 * types, for everything that computes with constants at compile time:
 * the folder, and the interpreter's plan writing constants into frames.
 *
 * A value is exact: integers (every width, u64 included) in 128 bits,
 * floats as a double holding a value of their format. mt_num_convert is
 * tl.cast: integers wrap to the target width (to bool: != 0), floats round
 * once to nearest even, floats to integers truncate toward zero and
 * saturate with NaN giving 0 (a GPU's cvt.rzi.sat), integers to floats
 * round to nearest. */
#ifndef MT_NUM_H
#define MT_NUM_H

#include <stdbool.h>

#include "ssa/ops.h"
#include "types/type.h"

typedef struct MtNum {
    bool flt;
    double f;                 /* flt */
    __int128 i;               /* !flt */
} MtNum;

/* The value of constant k in its IR type t (converted to t). */
MtNum mt_num_of_const(MtConst k, const MtType *t);
MtNum mt_num_convert(MtNum x, const MtType *t);
/* x (a value of scalar type t) wrapped to t's width (integers only). */
__int128 mt_num_wrap(__int128 v, const MtType *t);
/* The constant that prints x of type t. */
MtConst mt_num_const(MtNum x, const MtType *t);
/* x's bytes in t's storage (dtypes.def's size; bool one byte 0 or 1). */
void mt_num_store(MtNum x, const MtType *t, void *out);

#endif
