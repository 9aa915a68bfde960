/* interp_bench.c: how fast the CPU interpreter runs kernels. Prints
 * elements per second and the time per program instance, on one thread
 * and on every core, for
 *   - vector add of 2^24 elements (BLOCK 256 and 1024);
 *   - row softmax of 4096 x 1024 (one 1024-wide program per row).
 * Each figure is the best of RUNS timed launches after one untimed one
 * (which also faults the arrays' pages in). The results are checked, so a
 * fast wrong interpreter does not print a figure. Not a test: it prints.
 *
 *   interp_bench [RUNS]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mytriton/mytriton.h"

static const char add_src[] =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "@triton.jit\n"
    "def add_kernel(x, y, out, n, BLOCK: tl.constexpr):\n"
    "    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    mask = offsets < n\n"
    "    x_values = tl.load(x + offsets, mask=mask, other=0.0)\n"
    "    y_values = tl.load(y + offsets, mask=mask, other=0.0)\n"
    "    tl.store(out + offsets, x_values + y_values, mask=mask)\n";

static const char softmax_src[] =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "@triton.jit\n"
    "def softmax_kernel(x, out, n_cols, BLOCK: tl.constexpr):\n"
    "    row = tl.program_id(0)\n"
    "    cols = tl.arange(0, BLOCK)\n"
    "    offsets = row * n_cols + cols\n"
    "    mask = cols < n_cols\n"
    "    values = tl.load(x + offsets, mask=mask, other=float(\"-inf\"))\n"
    "    row_max = tl.max(values)\n"
    "    numerators = tl.exp(values - row_max)\n"
    "    denominator = tl.sum(numerators)\n"
    "    tl.store(out + offsets, numerators / denominator, mask=mask)\n";

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static MtCompiled *compile(MtCtx *c, const char *src, const char *kernel, const char *sig)
{
    MtModule *m;
    MtCompiled *k = NULL;
    MtSpec spec = {.kernel = kernel, .signature = sig};
    if (mt_parse(c, "bench.py", src, strlen(src), &m) != MT_OK || mt_compile(c, m, &spec, &k) != MT_OK) {
        for (size_t i = 0; i < mt_diag_count(c); i++)
            fputs(mt_diag_render(c, mt_diag_at(c, i), false), stderr);
        return NULL;
    }
    return k;
}

/* Best seconds of `runs` launches after a warm-up one; negative on error. */
static double best_time(MtCtx *c, MtCompiled *k, int64_t programs, const MtKernelArg *args, size_t nargs,
                        int threads, int runs)
{
    int64_t grid[3] = {programs, 1, 1};
    MtInterpOptions opt = {.threads = threads};
    double best = INFINITY;
    for (int r = 0; r <= runs; r++) {
        double t0 = now_s();
        if (mt_interpret(c, k, grid, args, nargs, &opt) != MT_OK) {
            for (size_t i = 0; i < mt_diag_count(c); i++)
                fputs(mt_diag_render(c, mt_diag_at(c, i), false), stderr);
            return -1;
        }
        double t = now_s() - t0;
        if (r > 0 && t < best)
            best = t;
    }
    return best;
}

static void report(const char *what, int threads, double seconds, double elements, int64_t programs)
{
    printf("%-34s %2d thread%s  %8.1f M elements/s  %8.3f ms  %8.2f us per program\n", what, threads,
           threads == 1 ? " " : "s", elements / seconds / 1e6, seconds * 1e3, seconds / (double)programs * 1e6);
}

static float frand(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (float)(*s >> 40) / 16777216.0f * 2.0f - 1.0f;
}

static int bench_add(int block, int cores, int runs)
{
    const int64_t n = (int64_t)1 << 24;
    float *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y), *out = calloc((size_t)n, sizeof *out);
    uint64_t s = 1;
    for (int64_t i = 0; i < n; i++) {
        x[i] = frand(&s);
        y[i] = frand(&s);
    }
    char sig[64], what[64];
    snprintf(sig, sizeof sig, "*fp32,*fp32,*fp32,i32,%d", block);
    snprintf(what, sizeof what, "vector add 2^24, BLOCK %d", block);
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = compile(c, add_src, "add_kernel", sig);
    int rc = 1;
    if (k) {
        MtKernelArg args[4] = {{.data = x, .numel = (size_t)n}, {.data = y, .numel = (size_t)n},
                               {.data = out, .numel = (size_t)n}, {.i = n}};
        int64_t programs = n / block;
        rc = 0;
        for (int i = 0; i < (cores > 1 ? 2 : 1) && !rc; i++) {
            int t = i ? cores : 1;
            memset(out, 0, (size_t)n * sizeof *out);
            double secs = best_time(c, k, programs, args, 4, t, runs);
            for (int64_t e = 0; e < n && secs > 0; e++)
                if (out[e] != x[e] + y[e]) {
                    fprintf(stderr, "interp_bench: wrong sum at %lld\n", (long long)e);
                    secs = -1;
                }
            if (secs < 0)
                rc = 1;
            else
                report(what, t, secs, (double)n, programs);
        }
    }
    mt_ctx_free(c);
    free(x), free(y), free(out);
    return rc;
}

static int bench_softmax(int cores, int runs)
{
    const int rows = 4096, cols = 1024;
    size_t n = (size_t)rows * cols;
    float *x = malloc(n * sizeof *x), *out = calloc(n, sizeof *out);
    uint64_t s = 7;
    for (size_t i = 0; i < n; i++)
        x[i] = 8.0f * frand(&s);
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = compile(c, softmax_src, "softmax_kernel", "*fp32,*fp32,i32,1024");
    int rc = 1;
    if (k) {
        MtKernelArg args[3] = {{.data = x, .numel = n}, {.data = out, .numel = n}, {.i = cols}};
        rc = 0;
        for (int i = 0; i < (cores > 1 ? 2 : 1) && !rc; i++) {
            int t = i ? cores : 1;
            double secs = best_time(c, k, rows, args, 3, t, runs);
            for (int r = 0; r < rows && secs > 0; r += 511) {
                double sum = 0;
                for (int j = 0; j < cols; j++)
                    sum += out[(size_t)r * cols + j];
                if (fabs(sum - 1.0) > 1e-4) {
                    fprintf(stderr, "interp_bench: softmax row %d sums to %g\n", r, sum);
                    secs = -1;
                }
            }
            if (secs < 0)
                rc = 1;
            else
                report("softmax 4096 x 1024, BLOCK 1024", t, secs, (double)n, rows);
        }
    }
    mt_ctx_free(c);
    free(x), free(out);
    return rc;
}

int main(int argc, char **argv)
{
    int runs = argc > 1 ? atoi(argv[1]) : 5;
    if (runs < 1)
        runs = 1;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int cores = cpus > 0 ? (int)cpus : 1;
    printf("interp_bench: best of %d runs after a warm-up, %d online CPU%s\n", runs, cores, cores == 1 ? "" : "s");
    int rc = bench_add(256, cores, runs);
    rc |= bench_add(1024, cores, runs);
    rc |= bench_softmax(cores, runs);
    return rc;
}
