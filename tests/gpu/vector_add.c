/* vector_add.c (gpu): the whole runtime path on a real device. Generated-
 * style CUDA goes through the compile cache into a cubin, is loaded and
 * launched, and the result is checked element by element; then a second
 * cache handle serves the same cubin from disk and it must run too. Also
 * covers memset, device info and a non-multiple-of-the-block size (the
 * tail guard). */
#define _GNU_SOURCE /* nftw */
#include <ftw.h>
#include <stdint.h>

#include "gpu_test.h"
#include "kcache.h"

static const char *vadd_src =
    "extern \"C\" __global__ void add_kernel(const float *x, const float *y, float *out, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n)\n"
    "        out[i] = x[i] + y[i];\n"
    "}\n";

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    return remove(path);
}

/* Compile through the cache, load, run on fresh inputs and check. */
static void run_once(MtCuda *cu, MtKcache *kc, MtKcacheHit want_hit, int n)
{
    char err[4096] = "";
    MtNvrtcOutput out;
    MtKcacheHit hit;
    CHECK(mt_kcache_compile(kc, vadd_src, "add_kernel.cu", gpu_sm(cu), NULL, 0, &out, &hit, err,
                            sizeof err) == MT_OK, "%s", err);
    CHECK(hit == want_hit, "cache hit %d, expected %d", (int)hit, (int)want_hit);
    MtCudaModule *mod;
    CHECK(mt_cuda_module_load(cu, out.cubin, "add_kernel.cu", &mod, err, sizeof err) == MT_OK, "%s", err);
    mt_nvrtc_output_free(&out);
    MtCudaFunc *fn;
    CHECK(mt_cuda_module_function(cu, mod, "add_kernel", &fn, err, sizeof err) == MT_OK, "%s", err);
    const MtCudaFuncInfo *fi = mt_cuda_func_info(fn);
    CHECK(fi->max_threads_per_block >= 256 && fi->num_regs > 0, "func info %d %d",
          fi->max_threads_per_block, fi->num_regs);

    size_t bytes = (size_t)n * sizeof(float);
    float *x = malloc(bytes), *y = malloc(bytes);
    CHECK(x && y, "host alloc");
    for (int i = 0; i < n; i++) {
        x[i] = (float)i * 0.5f;
        y[i] = (float)(n - i) * 0.25f;
    }
    MtDevPtr dx, dy, dout;
    CHECK(mt_cuda_alloc(cu, bytes, &dx, err, sizeof err) == MT_OK, "%s", err);
    CHECK(mt_cuda_alloc(cu, bytes, &dy, err, sizeof err) == MT_OK, "%s", err);
    CHECK(mt_cuda_alloc(cu, bytes + 64, &dout, err, sizeof err) == MT_OK, "%s", err);
    CHECK(mt_cuda_memcpy_htod(cu, dx, x, bytes, err, sizeof err) == MT_OK, "%s", err);
    CHECK(mt_cuda_memcpy_htod(cu, dy, y, bytes, err, sizeof err) == MT_OK, "%s", err);
    /* 0xff bytes are NaNs: any element the kernel skips is caught below,
     * and the guard band past n must stay untouched. */
    CHECK(mt_cuda_memset(cu, dout, 0xff, bytes + 64, err, sizeof err) == MT_OK, "%s", err);

    unsigned grid[3] = {(unsigned)(n + 255) / 256, 1, 1}, block[3] = {256, 1, 1};
    void *params[] = {&dx, &dy, &dout, &n};
    CHECK(mt_cuda_launch(cu, fn, "add_kernel", grid, block, 0, params, err, sizeof err) == MT_OK,
          "%s", err);
    CHECK(mt_cuda_synchronize(cu, err, sizeof err) == MT_OK, "%s", err);
    float *back = malloc(bytes + 64);
    CHECK(back, "host alloc");
    CHECK(mt_cuda_memcpy_dtoh(cu, back, dout, bytes + 64, err, sizeof err) == MT_OK, "%s", err);
    for (int i = 0; i < n; i++)
        CHECK(back[i] == x[i] + y[i], "out[%d] = %g, expected %g", i, back[i], x[i] + y[i]);
    const unsigned char *tail = (const unsigned char *)back + bytes;
    for (int i = 0; i < 64; i++)
        CHECK(tail[i] == 0xff, "byte %d past the end was written", i);

    CHECK(mt_cuda_free(cu, dx, err, sizeof err) == MT_OK, "%s", err);
    CHECK(mt_cuda_free(cu, dy, err, sizeof err) == MT_OK, "%s", err);
    CHECK(mt_cuda_free(cu, dout, err, sizeof err) == MT_OK, "%s", err);
    CHECK(mt_cuda_module_unload(cu, mod, err, sizeof err) == MT_OK, "%s", err);
    free(x);
    free(y);
    free(back);
}

int main(void)
{
    MtCuda *cu = gpu_open_or_skip();
    const MtCudaDeviceInfo *in = mt_cuda_device_info(cu);
    printf("device %d: %s, sm_%d%d, %d SMs, %.1f GiB, driver %d, smem %d/%d bytes per block\n",
           in->ordinal, in->name, in->cc_major, in->cc_minor, in->sm_count,
           (double)in->total_mem / (1 << 30), in->driver_version, in->smem_per_block,
           in->smem_per_block_optin);
    CHECK(in->max_threads_per_block == 1024, "%d", in->max_threads_per_block);

    char dir[] = "/tmp/mt-gpu-kcache-XXXXXX";
    CHECK(mkdtemp(dir), "mkdtemp");
    unsetenv("MYTRITON_CACHE");
    MtKcache *kc = mt_kcache_open(dir);
    int n = (1 << 20) + 37;
    run_once(cu, kc, MT_KCACHE_MISS, n);
    mt_kcache_close(kc);
    kc = mt_kcache_open(dir); /* empty memory level: the entry file answers */
    run_once(cu, kc, MT_KCACHE_DISK, 1000);
    mt_kcache_close(kc);
    nftw(dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);

    char err[256];
    CHECK(mt_cuda_synchronize(cu, err, sizeof err) == MT_OK, "%s", err);
    CHECK(mt_cuda_sticky_error(cu) == NULL, "sticky");
    mt_cuda_close(cu);
    printf("vector add: ok\n");
    return 0;
}
