/* codegen.h: the MLIR backend inside mt_compile (codegen.c). */
#ifndef MT_MLIR_CODEGEN_H
#define MT_MLIR_CODEGEN_H

#include "base/ctx.h"

/* The MLIR stages of k up to `last` (MT_STAGE_MLIR, MT_STAGE_MLIR_LLVM),
 * from its kernel layer, for sm_<sm>. */
MtStatus mt_mlir_stages(MtCtx *c, MtCompiled *k, int last, int sm);

#endif
