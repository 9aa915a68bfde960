/* cuda_run.c: one launch of a compiled kernel on the GPU: NVRTC cubin
 * or the MLIR backend's PTX (cached, or given), module load (the driver
 * compiles PTX without a cubin), device buffers for the array arguments, the
 * Driver API launch with the kernel layout's block size, and the copy
 * back. With profiling, the same launch runs repeatedly under the CUPTI
 * (or CUDA event) profiler; the arrays copied back are those of the last
 * launch. */
#include "cuda_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Launch {
    MtCuda *cu;
    MtCudaFunc *fn;
    const char *name;
    unsigned grid[3], block[3];
    unsigned shared_bytes;    /* dynamic shared memory */
    void **params;
} Launch;

static MtStatus do_launch(void *ud, char *err, size_t errlen)
{
    Launch *l = ud;
    return mt_cuda_launch(l->cu, l->fn, l->name, l->grid, l->block, l->shared_bytes, l->params, err, errlen);
}

MtStatus mt_cuda_profile_launch(MtCuda *cu, MtCudaFunc *fn, const char *name, const unsigned grid[3],
                                const unsigned block[3], unsigned shared_bytes, void **params, int warmup, int iters,
                                MtProfile *out, char *err, size_t errlen)
{
    Launch l = {cu, fn, name, {grid[0], grid[1], grid[2]}, {block[0], block[1], block[2]}, shared_bytes, params};
    return mt_profile(cu, do_launch, &l, warmup, iters, out, err, errlen);
}

MtStatus mt_cuda_run(MtCtx *c, MtCompiled *k, MtLaunch *launch, MtCuda *cu, MtKcache *cache,
                     const MtCudaRunOptions *opt, MtCudaRunResult *res, char *err, size_t errlen)
{
    memset(res, 0, sizeof *res);
    const char *name = mt_compiled_kernel_name(k);
    const MtCudaDeviceInfo *dev = mt_cuda_device_info(cu);
    MtNvrtcOutput out = {0};
    MtStatus st = MT_OK;
    if (opt && opt->ptx) {
        if (!(out.ptx = strdup(opt->ptx)))
            st = MT_ERR_NOMEM;
        out.ptx_len = out.ptx ? strlen(out.ptx) : 0;
    } else {
        st = mt_cuda_build(c, k, cache, dev->cc_major * 10 + dev->cc_minor, &out, &res->cache);
    }
    if (st != MT_OK) {
        snprintf(err, errlen, "%s: the CUDA build failed (see the diagnostics)", name);
        return st;
    }
    MtCudaModule *mod = NULL;
    MtCudaFunc *fn = NULL;
    size_t n = launch->nargs;
    MtDevPtr *dptr = calloc(n + 1, sizeof *dptr);
    void **params = calloc(n + 4, sizeof *params);
    uint64_t *slots = calloc(n + 4, sizeof *slots); /* scalars, in their dtype's bytes */
    if (!dptr || !params || !slots) {
        snprintf(err, errlen, "%s: out of memory", name);
        st = MT_ERR_NOMEM;
        goto done;
    }
    st = mt_cuda_module_load(cu, out.cubin_len ? out.cubin : (const void *)out.ptx, name, &mod, err, errlen);
    if (st == MT_OK)
        st = mt_cuda_module_function(cu, mod, name, &fn, err, errlen);
    for (size_t i = 0; i < n && st == MT_OK; i++) {
        MtLaunchArg *a = &launch->args[i];
        switch (a->kind) {
        case MT_ARG_ARRAY: {
            size_t bytes = a->array->nbytes ? a->array->nbytes : 1;
            st = mt_cuda_alloc(cu, bytes, &dptr[i], err, errlen);
            if (st == MT_OK && a->array->nbytes)
                st = mt_cuda_memcpy_htod(cu, dptr[i], a->array->data, a->array->nbytes, err, errlen);
            params[i] = &dptr[i];
            break;
        }
        case MT_ARG_I32:
        case MT_ARG_F32:
        case MT_ARG_I1:
            mt_launch_arg_bytes(a, &slots[i]);
            params[i] = &slots[i];
            break;
        }
    }
    if (st != MT_OK)
        goto done;
    MtLaunchShape shape;
    mt_compiled_launch_shape(k, &shape);
    Launch l = {cu, fn, name, {0}, {0}, (unsigned)shape.dynamic_shared_bytes, params};
    for (int d = 0; d < 3; d++)
        l.grid[d] = (unsigned)launch->grid[d];
    /* a block runs programs_per_block programs along x; the kernel is told
     * the program grid to skip the last block's extra ones */
    l.grid[0] = (unsigned)((launch->grid[0] + shape.programs_per_block - 1) / shape.programs_per_block);
    if (shape.grid_params)
        for (int d = 0; d < 3; d++) {
            int32_t g = (int32_t)launch->grid[d];
            memcpy(&slots[n + (size_t)d], &g, sizeof g);
            params[n + (size_t)d] = &slots[n + (size_t)d];
        }
    res->threads = (int)shape.threads;
    l.block[0] = shape.threads;
    l.block[1] = l.block[2] = 1;
    const MtCudaFuncInfo *fi = mt_cuda_func_info(fn);
    res->registers = fi->num_regs;
    res->shared_bytes = fi->static_smem + (int)l.shared_bytes;
    res->local_bytes = fi->local_bytes;
    res->max_threads_per_block = fi->max_threads_per_block;
    char why[256];
    if (mt_cuda_occupancy(cu, fn, (int)shape.threads, l.shared_bytes, &res->blocks_per_sm, why, sizeof why) != MT_OK)
        res->blocks_per_sm = 0; /* the occupancy is then computed from the figures above (web/occupancy.c) */
    if (opt && opt->profile_iters > 0) {
        st = mt_cuda_profile_launch(cu, fn, name, l.grid, l.block, l.shared_bytes, params, opt->warmup ? opt->warmup : 3,
                                    opt->profile_iters, &res->profile, err, errlen);
        res->profiled = st == MT_OK;
    } else {
        st = do_launch(&l, err, errlen);
    }
    if (st == MT_OK)
        st = mt_cuda_synchronize(cu, err, errlen);
    for (size_t i = 0; i < n && st == MT_OK; i++) {
        MtLaunchArg *a = &launch->args[i];
        if (a->kind == MT_ARG_ARRAY && a->array->nbytes)
            st = mt_cuda_memcpy_dtoh(cu, a->array->data, dptr[i], a->array->nbytes, err, errlen);
    }
done:;
    char ignore[256];
    for (size_t i = 0; dptr && i < n; i++)
        if (dptr[i])
            mt_cuda_free(cu, dptr[i], ignore, sizeof ignore);
    if (mod)
        mt_cuda_module_unload(cu, mod, ignore, sizeof ignore);
    free(dptr);
    free(params);
    free(slots);
    mt_nvrtc_output_free(&out);
    return st;
}

void mt_cuda_run_result_free(MtCudaRunResult *res)
{
    if (res->profiled)
        mt_profile_free(&res->profile);
    res->profiled = false;
}
