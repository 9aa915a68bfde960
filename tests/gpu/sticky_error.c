/* sticky_error.c (gpu): a kernel that stores to address 0x8 faults with
 * CUDA_ERROR_ILLEGAL_ADDRESS. The synchronisation that reports it must name
 * the kernel, and from then on the handle refuses every call with the
 * sticky message instead of touching the dead context. Runs in its own
 * process, since the fault ruins the context for good. */
#include "gpu_test.h"

static const char *src =
    "extern \"C\" __global__ void store_to_null(int v)\n"
    "{\n"
    "    *(volatile int *)0x8 = v;\n"
    "}\n";

int main(void)
{
    MtCuda *cu = gpu_open_or_skip();
    char err[512] = "";
    MtCudaModule *mod;
    MtCudaFunc *fn = gpu_build(cu, src, "bad.cu", "store_to_null", &mod);
    unsigned grid[3] = {1, 1, 1}, block[3] = {32, 1, 1};
    int v = 42;
    void *params[] = {&v};
    /* The launch itself is asynchronous and succeeds. */
    CHECK(mt_cuda_launch(cu, fn, "bad_kernel", grid, block, 0, params, err, sizeof err) == MT_OK,
          "%s", err);
    MtStatus st = mt_cuda_synchronize(cu, err, sizeof err);
    printf("synchronize: %s\n", err);
    CHECK(st == MT_ERR_CUDA, "status %d", (int)st);
    CHECK(strstr(err, "cuCtxSynchronize(after bad_kernel): CUDA_ERROR_ILLEGAL_ADDRESS"), "%s", err);
    CHECK(strstr(err, "unusable"), "%s", err);

    const char *want = "CUDA context is unusable after CUDA_ERROR_ILLEGAL_ADDRESS in bad_kernel; "
                       "restart the process";
    CHECK(mt_cuda_sticky_error(cu) && strcmp(mt_cuda_sticky_error(cu), want) == 0, "%s",
          mt_cuda_sticky_error(cu) ? mt_cuda_sticky_error(cu) : "(none)");
    st = mt_cuda_launch(cu, fn, "bad_kernel", grid, block, 0, params, err, sizeof err);
    printf("next launch: %s\n", err);
    CHECK(st == MT_ERR_CUDA && strcmp(err, want) == 0, "%s", err);
    MtDevPtr p = 0;
    CHECK(mt_cuda_alloc(cu, 1024, &p, err, sizeof err) == MT_ERR_CUDA && strcmp(err, want) == 0, "%s", err);
    CHECK(mt_cuda_synchronize(cu, err, sizeof err) == MT_ERR_CUDA && strcmp(err, want) == 0, "%s", err);
    MtCudaEvent *ev = NULL;
    CHECK(mt_cuda_event_create(cu, &ev, err, sizeof err) == MT_ERR_CUDA && strcmp(err, want) == 0, "%s", err);
    /* Unloading cannot work either, but frees the host side. */
    CHECK(mt_cuda_module_unload(cu, mod, err, sizeof err) == MT_ERR_CUDA, "unload succeeded");
    mt_cuda_close(cu);
    printf("sticky error: ok\n");
    return 0;
}
