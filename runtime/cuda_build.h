/* cuda_build.h: from a compiled kernel to PTX and a cubin. */
#ifndef MT_RUNTIME_CUDA_BUILD_H
#define MT_RUNTIME_CUDA_BUILD_H

#include "kcache.h"
#include "nvrtc_compile.h"

/* The NVRTC options mytriton compiles with, after NVRTC's defaults:
 * `--fmad=false` keeps a*b+c as two rounded operations, so the GPU computes
 * exactly what the CPU interpreter does. */
extern const char *const mt_cuda_build_opts[];
extern const size_t mt_cuda_build_nopts;

/* Compile k's CUDA (k compiled through MT_STAGE_CUDA) for sm_<sm> through
 * the cache (NULL: no cache). NVRTC rejecting the generated code is a bug
 * in mytriton's backend: it becomes an E0606 diagnostic at the kernel line
 * that produced the failing CUDA line, quoting that line, and the call
 * returns MT_ERR_SOURCE. Other failures are diagnostics without a source
 * range. On MT_OK, *out holds PTX and cubin (mt_nvrtc_output_free).
 *
 * For k compiled with MT_CODEGEN_MLIR (through MT_STAGE_MLIR) the PTX
 * comes from MLIR's GPU pipeline (mt_compiled_mlir_ptx), keyed in the
 * cache by the MLIR module, the pass pipeline and the MLIR version; there
 * is no cubin (cubin_len 0: the driver compiles the PTX when loading it).
 * Its first line is mt_cuda_ptx_origin's, then the MLIR version. */

MtStatus mt_cuda_build(MtCtx *c, MtCompiled *k, MtKcache *cache, int sm, MtNvrtcOutput *out, MtKcacheHit *hit);

/* What PTX from the MLIR code generator was made from, as its first line
 * says: the kernel, the SHA-256 of its kernel layer (MT_STAGE_KERNEL, all
 * the MLIR module is built from) and the architecture. False when k has no
 * kernel layer. */
bool mt_cuda_ptx_origin(MtCtx *c, MtCompiled *k, int sm, char *buf, size_t len);
/* Whether PTX read from `path` (`mytriton run --ptx`) was made for k on
 * sm_<sm> (sm 0: on any architecture): E1006 when not. Needs no MLIR: a
 * machine without it runs PTX made on one with it. */
MtStatus mt_cuda_ptx_check(MtCtx *c, MtCompiled *k, int sm, const char *ptx, const char *path);

#endif
