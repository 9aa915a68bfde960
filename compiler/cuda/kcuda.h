/* kcuda.h: the kernel layer as CUDA C++ (see kcuda.c). */
#ifndef MT_CUDA_KCUDA_H
#define MT_CUDA_KCUDA_H

#include "base/strbuf.h"
#include "kernel/kir.h"

/* The CUDA C++ of f; each line that implements an operation is marked
 * with its source range in `marks` (may be NULL). Arena-owned. */
const char *mt_kir_cuda(MtCtx *c, const KFunc *f, MtLineMarks *marks);

/* The definitions of the 16-bit float types the source uses (khalf.c). */
void kc_half_types(MtBuf *b, bool f16, bool bf16);

#endif
