/* nvrtc_bench.c: NVRTC compile time per example kernel: cold (a fresh,
 * empty cache folder), from the on-disk cache (a new cache handle on the
 * same folder) and from the in-memory cache (the same handle again).
 *
 *   nvrtc_bench [EXAMPLES_DIR] [sm]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cuda_build.h"
#include "bench_util.h"
#include "examples.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Milliseconds for one cached build of the kernel; -1 on error. */
static double build_ms(MtKcache *cache, const char *path, const char *text, size_t len, const char *kernel, int sm,
                       MtKcacheHit *hit)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtModule *m;
    MtCompiled *k;
    MtSpec spec = {.kernel = kernel, .last_stage = MT_STAGE_CUDA};
    double ms = -1;
    if (mt_parse(c, path, text, len, &m) == MT_OK && mt_compile(c, m, &spec, &k) == MT_OK) {
        MtNvrtcOutput out;
        double t0 = now_ms();
        if (mt_cuda_build(c, k, cache, sm, &out, hit) == MT_OK)
            ms = now_ms() - t0;
        mt_nvrtc_output_free(&out);
    }
    mt_ctx_free(c);
    return ms;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "examples";
    int sm = argc > 2 ? atoi(argv[2]) : 90;
    char cache_dir[] = "/tmp/mytriton-nvrtc-bench-XXXXXX";
    if (!mkdtemp(cache_dir)) {
        perror("nvrtc_bench: mkdtemp");
        return 2;
    }
    int major = 0, minor = 0;
    mt_nvrtc_version(&major, &minor);
    printf("NVRTC %d.%d compile time per kernel for sm_%d (ms)\n", major, minor, sm);
    printf("%-28s %10s %10s %10s\n", "kernel", "cold", "disk", "memory");
    MtKcache *cold = mt_kcache_open(cache_dir);
    int failures = 0;
    for (size_t i = 0; i < sizeof bench_examples / sizeof bench_examples[0]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, bench_examples[i].file);
        size_t len;
        char *text = bench_read_file(path, &len);
        if (!text) {
            fprintf(stderr, "nvrtc_bench: cannot read %s\n", path);
            return 2;
        }
        const char *kname = bench_examples[i].kernel;
        MtKcacheHit h1, h2, h3;
        double t_cold = build_ms(cold, path, text, len, kname, sm, &h1);
        MtKcache *fresh = mt_kcache_open(cache_dir);
        double t_disk = build_ms(fresh, path, text, len, kname, sm, &h2);
        double t_mem = build_ms(fresh, path, text, len, kname, sm, &h3);
        mt_kcache_close(fresh);
        free(text);
        if (t_cold < 0 || t_disk < 0 || t_mem < 0 || h1 != MT_KCACHE_MISS || h2 != MT_KCACHE_DISK ||
            h3 != MT_KCACHE_MEMORY) {
            printf("%-28s %10s\n", kname, "error");
            failures++;
            continue;
        }
        printf("%-28s %10.2f %10.3f %10.4f\n", kname, t_cold, t_disk, t_mem);
    }
    mt_kcache_close(cold);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", cache_dir);
    if (system(cmd) != 0)
        fprintf(stderr, "nvrtc_bench: could not remove %s\n", cache_dir);
    return failures ? 1 : 0;
}
