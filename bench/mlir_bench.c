/* mlir_bench.c: compile time of the two code generators per example
 * kernel, both from the fast lowering's kernel layer, no cache:
 *   nvrtc   the CUDA C++ through NVRTC to PTX and a cubin;
 *   module  the kernel layer built as MLIR through the C API, verified and
 *           printed (mt_compile to MT_STAGE_MLIR less mt_compile to
 *           MT_STAGE_CUDA);
 *   to ptx  the module built again and run through MLIR's GPU pipeline to
 *           PTX (mt_compiled_mlir_ptx: lowering passes, LLVM O3, NVPTX).
 * Also the one-time cost of loading the MLIR backend module (libMLIR and
 * libLLVM) in a process. Median of RUNS runs each, in milliseconds.
 *
 *   mlir_bench [EXAMPLES_DIR] [RUNS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "cuda_build.h"
#include "examples.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

enum { NVRTC, TO_CUDA, TO_MLIR, TO_PTX, NCOLS };

/* One run of each measurement; false on an error. */
static bool run_once(const char *path, const char *text, size_t len, const char *kernel, double ms[NCOLS])
{
    bool ok = true;
    for (int what = NVRTC; what < NCOLS && ok; what++) {
        MtCtx *c = mt_ctx_new(NULL);
        MtModule *m;
        MtCompiled *k;
        MtSpec spec = {.kernel = kernel, .lowering = MT_LOWERING_FAST,
                       .codegen = what == NVRTC || what == TO_CUDA ? MT_CODEGEN_CUDA : MT_CODEGEN_MLIR,
                       .last_stage = what == TO_MLIR ? MT_STAGE_MLIR : MT_STAGE_CUDA};
        ok = mt_parse(c, path, text, len, &m) == MT_OK;
        double t0 = now_ms();
        ok = ok && mt_compile(c, m, &spec, &k) == MT_OK;
        double t1 = now_ms();
        if (ok && what == NVRTC) {
            MtNvrtcOutput out;
            ok = mt_cuda_build(c, k, NULL, 90, &out, NULL) == MT_OK;
            mt_nvrtc_output_free(&out);
        } else if (ok && what == TO_PTX) {
            const char *ptx;
            t1 = now_ms();
            ok = mt_compiled_mlir_ptx(c, k, 90, &ptx) == MT_OK;
        }
        double t2 = now_ms();
        ms[what] = what == NVRTC || what == TO_PTX ? t2 - t1 : t1 - t0;
        for (size_t i = 0; !ok && i < mt_diag_count(c); i++)
            fprintf(stderr, "%s\n", mt_diag_render(c, mt_diag_at(c, i), false));
        mt_ctx_free(c);
    }
    return ok;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "examples";
    int runs = argc > 2 ? atoi(argv[2]) : 5;
    if (runs < 1)
        runs = 1;
    MtCtx *c = mt_ctx_new(NULL);
    const char *why;
    double t0 = now_ms();
    bool available = mt_mlir_available(c, &why);
    double load = now_ms() - t0;
    if (!available) {
        printf("SKIP: mlir_bench needs the MLIR backend: %s\n", why);
        mt_ctx_free(c);
        return 0;
    }
    int major = 0, minor = 0;
    mt_nvrtc_version(&major, &minor);
    printf("compile time per kernel, fast lowering, sm_90, no cache: median of %d runs (ms)\n", runs);
    printf("NVRTC %d.%d; %s, backend module loaded in %.1f ms (once per process)\n", major, minor, mt_mlir_version(c),
           load);
    mt_ctx_free(c);
    printf("%-28s %10s | %10s %10s %10s\n", "kernel", "nvrtc", "mlir:", "module", "to ptx");
    double *samples = malloc((size_t)runs * NCOLS * sizeof *samples);
    double total[NCOLS] = {0};
    int failures = 0;
    for (size_t i = 0; i < sizeof bench_examples / sizeof bench_examples[0]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, bench_examples[i].file);
        size_t len;
        char *text = bench_read_file(path, &len);
        bool ok = text != NULL;
        for (int r = 0; r < runs && ok; r++)
            ok = run_once(path, text, len, bench_examples[i].kernel, samples + r * NCOLS);
        free(text);
        if (!ok) {
            printf("%-28s %10s\n", bench_examples[i].kernel, "error");
            failures++;
            continue;
        }
        double med[NCOLS];
        for (int col = 0; col < NCOLS; col++) {
            double v[runs];
            for (int r = 0; r < runs; r++)
                v[r] = samples[r * NCOLS + col];
            qsort(v, (size_t)runs, sizeof *v, cmp_double);
            med[col] = v[runs / 2];
        }
        double module = med[TO_MLIR] - med[TO_CUDA];
        printf("%-28s %10.1f | %10s %10.1f %10.1f\n", bench_examples[i].kernel, med[NVRTC], "", module, med[TO_PTX]);
        total[NVRTC] += med[NVRTC];
        total[TO_MLIR] += module;
        total[TO_PTX] += med[TO_PTX];
    }
    printf("%-28s %10.1f | %10s %10.1f %10.1f\n", "total", total[NVRTC], "", total[TO_MLIR], total[TO_PTX]);
    free(samples);
    return failures ? 1 : 0;
}
