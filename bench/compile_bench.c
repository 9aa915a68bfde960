/* compile_bench.c: how long the compiler takes, per example kernel, from
 * source text to optimised SSA (parse + frontend + inference + lowering +
 * verification + passes) and on to CUDA C++. Prints the median of many
 * runs per kernel; the target is under 1 ms to optimised SSA.
 *
 *   compile_bench [EXAMPLES_DIR] [RUNS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "examples.h"
#include "mytriton/mytriton.h"

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Median microseconds of `runs` compilations up to `stage`; -1 on error. */
static double time_compile(const char *path, const char *text, size_t len, const char *kernel, int stage, int runs)
{
    double *t = malloc(sizeof *t * (size_t)runs);
    MtCtx *c = mt_ctx_new(NULL);
    double median = -1;
    for (int i = 0; i < runs; i++) {
        mt_ctx_reset(c);
        double t0 = now_us();
        MtModule *m;
        MtCompiled *k;
        MtSpec spec = {.kernel = kernel, .last_stage = stage};
        if (mt_parse(c, path, text, len, &m) != MT_OK || mt_compile(c, m, &spec, &k) != MT_OK)
            goto out;
        t[i] = now_us() - t0;
    }
    qsort(t, (size_t)runs, sizeof *t, cmp_double);
    median = t[runs / 2];
out:
    mt_ctx_free(c);
    free(t);
    return median;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "examples";
    int runs = argc > 2 ? atoi(argv[2]) : 200;
    printf("compile time per kernel, median of %d runs (target: < 1000 us to optimised SSA)\n", runs);
    printf("%-28s %14s %14s\n", "kernel", "to SSA (us)", "to CUDA (us)");
    double worst = 0;
    int failures = 0;
    for (size_t i = 0; i < sizeof bench_examples / sizeof bench_examples[0]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, bench_examples[i].file);
        size_t len;
        char *text = bench_read_file(path, &len);
        if (!text) {
            fprintf(stderr, "compile_bench: cannot read %s\n", path);
            return 2;
        }
        double ssa = time_compile(path, text, len, bench_examples[i].kernel, MT_STAGE_SSA, runs);
        double cuda = time_compile(path, text, len, bench_examples[i].kernel, MT_STAGE_CUDA, runs);
        free(text);
        if (ssa < 0 || cuda < 0) {
            printf("%-28s %14s %14s\n", bench_examples[i].kernel, "error", "error");
            failures++;
            continue;
        }
        printf("%-28s %14.1f %14.1f\n", bench_examples[i].kernel, ssa, cuda);
        if (ssa > worst)
            worst = ssa;
    }
    printf("slowest to SSA: %.1f us (%s the 1 ms target)\n", worst, worst < 1000 ? "within" : "OVER");
    return failures ? 1 : 0;
}
