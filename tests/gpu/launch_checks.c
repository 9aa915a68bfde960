/* launch_checks.c (gpu): mt_cuda_launch refuses impossible launches before
 * calling the driver, with a message naming the kernel and the limit, and
 * leaves the context healthy; it opts into large dynamic shared memory by
 * itself. Each refused launch is followed by a valid one whose result is
 * checked, which shows the refusal did not poison anything. */
#include <stdint.h>

#include "gpu_test.h"

static const char *src =
    "extern \"C\" __global__ void fill(int *out, int v)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    out[i] = v;\n"
    "}\n"
    "extern \"C\" __global__ void __launch_bounds__(128) bounded(int *out)\n"
    "{\n"
    "    out[threadIdx.x] = 1;\n"
    "}\n"
    /* Reverse each block's slice through dynamic shared memory, so a wrong
     * shared-memory size shows up as a wrong result. */
    "extern \"C\" __global__ void reverse_smem(int *out, int words)\n"
    "{\n"
    "    extern __shared__ int buf[];\n"
    "    for (int i = threadIdx.x; i < words; i += blockDim.x) buf[i] = i;\n"
    "    __syncthreads();\n"
    "    for (int i = threadIdx.x; i < words; i += blockDim.x) out[i] = buf[words - 1 - i];\n"
    "}\n";

static MtCuda *cu;
static MtCudaFunc *fill;
static MtDevPtr dout;
static int host[1 << 16];

/* A valid launch after each refusal: the context must still work. */
static void check_still_healthy(int v)
{
    char err[512];
    unsigned grid[3] = {4, 1, 1}, block[3] = {256, 1, 1};
    void *params[] = {&dout, &v};
    CHECK(mt_cuda_launch(cu, fill, "fill", grid, block, 0, params, err, sizeof err) == MT_OK, "%s", err);
    CHECK(mt_cuda_synchronize(cu, err, sizeof err) == MT_OK, "%s", err);
    CHECK(mt_cuda_memcpy_dtoh(cu, host, dout, 1024 * sizeof(int), err, sizeof err) == MT_OK, "%s", err);
    for (int i = 0; i < 1024; i++)
        CHECK(host[i] == v, "out[%d] = %d, expected %d", i, host[i], v);
    CHECK(mt_cuda_sticky_error(cu) == NULL, "context marked unusable");
}

static void expect_refused(MtCudaFunc *fn, const char *name, unsigned gx, unsigned gy, unsigned gz,
                           unsigned bx, unsigned by, unsigned bz, unsigned smem, const char *needle)
{
    char err[512] = "";
    unsigned grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz};
    int v = 0;
    void *params[] = {&dout, &v};
    MtStatus st = mt_cuda_launch(cu, fn, name, grid, block, smem, params, err, sizeof err);
    CHECK(st == MT_ERR_USAGE, "status %d, message '%s'", (int)st, err);
    CHECK(strncmp(err, name, strlen(name)) == 0, "message does not start with the kernel: %s", err);
    CHECK(strstr(err, "cuLaunchKernel not called"), "%s", err);
    CHECK(strstr(err, needle), "'%s' not in: %s", needle, err);
    printf("refused as expected: %s\n", err);
}

int main(void)
{
    cu = gpu_open_or_skip();
    const MtCudaDeviceInfo *in = mt_cuda_device_info(cu);
    char err[512];
    MtCudaModule *mod;
    fill = gpu_build(cu, src, "checks.cu", "fill", &mod);
    MtCudaFunc *bounded = NULL, *rev = NULL;
    CHECK(mt_cuda_module_function(cu, mod, "bounded", &bounded, err, sizeof err) == MT_OK, "%s", err);
    CHECK(mt_cuda_module_function(cu, mod, "reverse_smem", &rev, err, sizeof err) == MT_OK, "%s", err);
    MtCudaFunc *again = NULL;
    CHECK(mt_cuda_module_function(cu, mod, "fill", &again, err, sizeof err) == MT_OK && again == fill,
          "second lookup gave another handle");
    CHECK(mt_cuda_module_function(cu, mod, "no_such_kernel", &again, err, sizeof err) == MT_ERR_CUDA,
          "missing symbol found");
    CHECK(strstr(err, "cuModuleGetFunction(no_such_kernel): CUDA_ERROR_NOT_FOUND"), "%s", err);
    CHECK(mt_cuda_alloc(cu, sizeof host, &dout, err, sizeof err) == MT_OK, "%s", err);
    check_still_healthy(7);

    expect_refused(fill, "add_kernel", 1, 1, 1, 1025, 1, 1, 0, "1025 threads, more than the 1024 per block");
    check_still_healthy(8);
    expect_refused(fill, "add_kernel", 1, 1, 1, 32, 32, 2, 0, "2048 threads");
    expect_refused(fill, "add_kernel", 1, 1, 1, 1, 1, 65, 0, "block.z = 65 is outside 1..64");
    expect_refused(fill, "add_kernel", 1, 1, 1, 0, 1, 1, 0, "block.x = 0");
    expect_refused(fill, "add_kernel", 1, 65536, 1, 32, 1, 1, 0, "grid.y = 65536 is outside 1..65535");
    expect_refused(fill, "add_kernel", 0, 1, 1, 32, 1, 1, 0, "grid.x = 0");
    expect_refused(fill, "add_kernel", 1, 1, 1, 32, 1, 1, (unsigned)in->smem_per_block_optin + 1,
                   "shared memory exceed");
    check_still_healthy(9);
    /* The kernel's own limit (__launch_bounds__(128)) is below the device's. */
    CHECK(mt_cuda_func_info(bounded)->max_threads_per_block == 128, "%d",
          mt_cuda_func_info(bounded)->max_threads_per_block);
    expect_refused(bounded, "bounded", 1, 1, 1, 256, 1, 1, 0, "this kernel allows at most 128");
    /* NULL kernel_name: messages use the symbol. */
    {
        unsigned grid[3] = {1, 1, 1}, block[3] = {2048, 1, 1};
        CHECK(mt_cuda_launch(cu, fill, NULL, grid, block, 0, NULL, err, sizeof err) == MT_ERR_USAGE,
              "accepted");
        CHECK(strncmp(err, "fill: ", 6) == 0, "%s", err);
    }
    check_still_healthy(10);

    /* 100 KiB of dynamic shared memory: above the 48 KiB default, so the
     * launch must opt in; the reversal proves the memory was there. */
    int words = 100 * 1024 / 4;
    if (in->smem_per_block_optin >= words * 4) {
        unsigned grid[3] = {1, 1, 1}, block[3] = {256, 1, 1};
        void *params[] = {&dout, &words};
        CHECK(mt_cuda_launch(cu, rev, "reverse_smem", grid, block, (unsigned)words * 4, params, err,
                             sizeof err) == MT_OK, "%s", err);
        CHECK(mt_cuda_synchronize(cu, err, sizeof err) == MT_OK, "%s", err);
        CHECK(mt_cuda_memcpy_dtoh(cu, host, dout, (size_t)words * 4, err, sizeof err) == MT_OK, "%s", err);
        for (int i = 0; i < words; i++)
            CHECK(host[i] == words - 1 - i, "reverse[%d] = %d", i, host[i]);
        printf("100 KiB dynamic shared memory: ok (opt-in limit %d bytes)\n", in->smem_per_block_optin);
    }
    check_still_healthy(11);

    CHECK(mt_cuda_free(cu, dout, err, sizeof err) == MT_OK, "%s", err);
    CHECK(mt_cuda_module_unload(cu, mod, err, sizeof err) == MT_OK, "%s", err);
    mt_cuda_close(cu);
    printf("launch checks: ok\n");
    return 0;
}
