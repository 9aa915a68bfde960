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
 * range. On MT_OK, *out holds PTX and cubin (mt_nvrtc_output_free). */
MtStatus mt_cuda_build(MtCtx *c, MtCompiled *k, MtKcache *cache, int sm, MtNvrtcOutput *out, MtKcacheHit *hit);

#endif
