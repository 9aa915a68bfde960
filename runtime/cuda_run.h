/* cuda_run.h: running a bound launch on the GPU. */
#ifndef MT_RUNTIME_CUDA_RUN_H
#define MT_RUNTIME_CUDA_RUN_H

#include "cuda_build.h"
#include "cuda_driver.h"
#include "launch_spec.h"
#include "profiler.h"

typedef struct MtCudaRunOptions {
    int profile_iters;        /* > 0: time that many launches after warm-up (the result's profile) */
    int warmup;               /* warm-up launches before profiling (default 3 when 0) */
    const char *ptx;          /* PTX to load instead of building k (made earlier for k: mt_cuda_ptx_check) */
} MtCudaRunOptions;

typedef struct MtCudaRunResult {
    MtKcacheHit cache;        /* where the cubin came from */
    int threads;              /* CUDA threads per block */
    int registers;            /* registers per thread (from the loaded function) */
    int shared_bytes;         /* static shared memory per block */
    int local_bytes;          /* local memory (stack, spills) per thread */
    int max_threads_per_block; /* the loaded function's limit */
    int blocks_per_sm;        /* the driver's occupancy for the launch's blocks; 0 when it did not say */
    bool profiled;
    MtProfile profile;        /* when profiled (mt_profile_free via mt_cuda_run_result_free) */
} MtCudaRunResult;

/* Build k's CUDA for the device (through `cache`), copy the launch's
 * arrays to the device, launch launch->grid blocks of the kernel's
 * threads, wait, and copy every array back into the launch (so the
 * launch then holds the kernel's results, as after mt_interpret). Build
 * errors are diagnostics in c (MT_ERR_SOURCE); CUDA failures return
 * MT_ERR_CUDA with a message in err naming the kernel and the call. */
MtStatus mt_cuda_run(MtCtx *c, MtCompiled *k, MtLaunch *launch, MtCuda *cu, MtKcache *cache,
                     const MtCudaRunOptions *opt, MtCudaRunResult *res, char *err, size_t errlen);
void mt_cuda_run_result_free(MtCudaRunResult *res);

/* Time `iters` launches of a loaded kernel after `warmup` (mt_profile:
 * CUPTI kernel durations, else CUDA events), each with `shared_bytes` of
 * dynamic shared memory. */
MtStatus mt_cuda_profile_launch(MtCuda *cu, MtCudaFunc *fn, const char *name, const unsigned grid[3],
                                const unsigned block[3], unsigned shared_bytes, void **params, int warmup, int iters,
                                MtProfile *out, char *err, size_t errlen);

#endif
