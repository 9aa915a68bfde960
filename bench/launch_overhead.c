/* launch_overhead.c: host time per kernel launch through mt_cuda_launch.
 *
 * A tiny kernel (one predicated store that never fires) comes from the
 * compile cache, so the figures are the launch path alone: the handle's
 * checks plus cuLaunchKernel. Two measurements, each a median over
 * individually timed calls (CLOCK_MONOTONIC around each call):
 *   - launch only, no synchronisation between launches: the cost a
 *     pipeline of kernels pays per launch. Launches go in batches of 1000
 *     with a synchronisation between batches (not timed), so the driver's
 *     queue never fills and blocks a launch;
 *   - launch + cuCtxSynchronize each time: the round trip of one kernel.
 * Target: under 5 us per launch; a tiny Triton kernel launched from Python
 * costs about 17.6 us of host time on the same machine (shared/gpu notes).
 * Without a GPU it prints the skip message and exits 0, so it can sit in
 * any build. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuda_driver.h"
#include "kcache.h"

static const char *tiny_src =
    "extern \"C\" __global__ void tiny(float *p, int n)\n"
    "{\n"
    "    if (n < 0 && threadIdx.x == 0) p[0] = 1.0f;\n"
    "}\n";

enum { BATCH = 1000, NBATCH = 10, NSYNC = 2000, WARMUP = 2000 };

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int by_value(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void report(const char *what, uint64_t *v, size_t n)
{
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += (double)v[i];
    qsort(v, n, sizeof *v, by_value);
    printf("%-34s median %6.2f us   p10 %6.2f us   p90 %6.2f us   mean %6.2f us   (n = %zu)\n", what,
           v[n / 2] / 1e3, v[n / 10] / 1e3, v[n * 9 / 10] / 1e3, sum / (double)n / 1e3, n);
}

static void fail(const char *err)
{
    fprintf(stderr, "launch_overhead: %s\n", err);
    exit(1);
}

int main(void)
{
    char err[2048];
    MtCuda *cu = NULL;
    if (mt_cuda_open(&cu, err, sizeof err) != MT_OK) {
        printf("SKIP: no CUDA device (%s)\n", err);
        return 0;
    }
    const MtCudaDeviceInfo *in = mt_cuda_device_info(cu);
    MtKcache *kc = mt_kcache_open(NULL);
    MtNvrtcOutput out;
    MtKcacheHit hit;
    uint64_t t0 = now_ns();
    if (mt_kcache_compile(kc, tiny_src, "tiny.cu", in->cc_major * 10 + in->cc_minor, NULL, 0, &out,
                          &hit, err, sizeof err) != MT_OK)
        fail(err);
    uint64_t t_compile = now_ns() - t0;
    static const char *hits[] = {"miss (compiled)", "memory hit", "disk hit"};
    MtCudaModule *mod;
    MtCudaFunc *fn;
    if (mt_cuda_module_load(cu, out.cubin, "tiny.cu", &mod, err, sizeof err) != MT_OK ||
        mt_cuda_module_function(cu, mod, "tiny", &fn, err, sizeof err) != MT_OK)
        fail(err);
    mt_nvrtc_output_free(&out);
    MtDevPtr buf;
    if (mt_cuda_alloc(cu, 256, &buf, err, sizeof err) != MT_OK)
        fail(err);
    int n = 1;
    void *params[] = {&buf, &n};
    unsigned grid[3] = {1, 1, 1}, block[3] = {32, 1, 1};

    for (int i = 0; i < WARMUP; i++)
        if (mt_cuda_launch(cu, fn, "tiny", grid, block, 0, params, err, sizeof err) != MT_OK)
            fail(err);
    if (mt_cuda_synchronize(cu, err, sizeof err) != MT_OK)
        fail(err);

    uint64_t *lat = malloc(sizeof *lat * BATCH * NBATCH);
    uint64_t *rt = malloc(sizeof *rt * NSYNC);
    if (!lat || !rt)
        fail("out of memory");
    uint64_t wall = 0;
    for (int b = 0; b < NBATCH; b++) {
        uint64_t wb = now_ns();
        for (int i = 0; i < BATCH; i++) {
            uint64_t s = now_ns();
            if (mt_cuda_launch(cu, fn, "tiny", grid, block, 0, params, err, sizeof err) != MT_OK)
                fail(err);
            lat[b * BATCH + i] = now_ns() - s;
        }
        wall += now_ns() - wb;
        if (mt_cuda_synchronize(cu, err, sizeof err) != MT_OK)
            fail(err);
    }
    for (int i = 0; i < NSYNC; i++) {
        uint64_t s = now_ns();
        if (mt_cuda_launch(cu, fn, "tiny", grid, block, 0, params, err, sizeof err) != MT_OK ||
            mt_cuda_synchronize(cu, err, sizeof err) != MT_OK)
            fail(err);
        rt[i] = now_ns() - s;
    }

    printf("launch overhead on %s (sm_%d%d, driver %d)\n", in->name, in->cc_major, in->cc_minor,
           in->driver_version);
    printf("kernel from the compile cache: %s in %.1f ms (%s)\n", hits[hit], t_compile / 1e6,
           mt_kcache_dir(kc) ? mt_kcache_dir(kc) : "memory only");
    report("mt_cuda_launch, no sync", lat, (size_t)BATCH * NBATCH);
    printf("%-34s %6.2f us per launch over %d launches\n", "  throughput (batch wall time)",
           (double)wall / (BATCH * NBATCH) / 1e3, BATCH * NBATCH);
    report("mt_cuda_launch + synchronize", rt, NSYNC);
    qsort(lat, (size_t)BATCH * NBATCH, sizeof *lat, by_value);
    double med = lat[BATCH * NBATCH / 2] / 1e3;
    printf("target < 5 us per launch: %s (%.2f us); Triton from Python: 17.6 us (%.1fx)\n",
           med < 5.0 ? "met" : "NOT met", med, 17.6 / med);

    free(lat);
    free(rt);
    mt_cuda_free(cu, buf, err, sizeof err);
    mt_cuda_module_unload(cu, mod, err, sizeof err);
    mt_kcache_close(kc);
    mt_cuda_close(cu);
    return 0;
}
