/* exec_test.h: helpers shared by the execution suites: compile a kernel
 * from source text or from an example file, run it in the interpreter,
 * build arguments, make reproducible inputs, and compare floats bit for
 * bit or within a stated tolerance. Header-only (static inline functions):
 * each suite is one translation unit. */
#ifndef MT_EXEC_TEST_H
#define MT_EXEC_TEST_H

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../test_util.h"

#include "mytriton/mytriton.h"

/* Every diagnostic, rendered, for assertion messages. */
static inline const char *all_diags(MtCtx *c)
{
    static char buf[8192];
    buf[0] = 0;
    size_t at = 0;
    for (size_t i = 0; i < mt_diag_count(c) && at < sizeof buf; i++)
        at += (size_t)snprintf(buf + at, sizeof buf - at, "%s", mt_diag_render(c, mt_diag_at(c, i), false));
    return buf;
}

static inline char *read_text(const char *path, size_t *len) { return test_read_file(path, len); }

/* Parse `text` as file `path` and compile `kernel` for `sig`; fails the test
 * with the diagnostics when that does not work. */
static inline MtCompiled *compile_text(MtCtx *c, const char *path, const char *text, const char *kernel, const char *sig)
{
    MtModule *m = NULL;
    MtCompiled *k = NULL;
    MtStatus st = mt_parse(c, path, text, strlen(text), &m);
    ck_assert_msg(st == MT_OK, "parse %s: %s", path, all_diags(c));
    MtSpec spec = {.kernel = kernel, .signature = sig};
    st = mt_compile(c, m, &spec, &k);
    ck_assert_msg(st == MT_OK, "compile %s with %s: %s", kernel, sig ? sig : "(no signature)", all_diags(c));
    return k;
}

/* examples/<file> from the source tree. */
static inline MtCompiled *compile_example(MtCtx *c, const char *file, const char *kernel, const char *sig)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/examples/%s", MT_SOURCE_DIR, file);
    size_t len;
    char *text = read_text(path, &len);
    MtCompiled *k = compile_text(c, path, text, kernel, sig);
    free(text);
    return k;
}

static inline MtKernelArg arr(void *data, size_t numel) { return (MtKernelArg){.data = data, .numel = numel}; }
static inline MtKernelArg i32(int64_t v) { return (MtKernelArg){.i = v}; }
static inline MtKernelArg f32(double v) { return (MtKernelArg){.f = v}; }

/* Run k on gx x gy x 1 programs with `threads` threads. */
static inline MtStatus run(MtCtx *c, MtCompiled *k, int64_t gx, int64_t gy, const MtKernelArg *args, size_t nargs,
                    int threads)
{
    int64_t grid[3] = {gx, gy, 1};
    MtInterpOptions opt = {.threads = threads};
    return mt_interpret(c, k, grid, args, nargs, &opt);
}

#define RUN_OK(c, k, gx, gy, args, threads)                                                                    \
    do {                                                                                                       \
        MtStatus st_ = run((c), (k), (gx), (gy), (args), sizeof(args) / sizeof((args)[0]), (threads));        \
        ck_assert_msg(st_ == MT_OK, "interpret: status %s: %s", mt_status_name(st_), all_diags(c));           \
    } while (0)

/* Reproducible inputs: a 64-bit LCG, floats uniform in [lo, hi). */
typedef struct Rng {
    uint64_t s;
} Rng;

static inline float rng_float(Rng *r, float lo, float hi)
{
    r->s = r->s * 6364136223846793005ull + 1442695040888963407ull;
    float u = (float)(r->s >> 40) / 16777216.0f;
    return lo + (hi - lo) * u;
}

static inline float *random_floats(size_t n, uint64_t seed, float lo, float hi)
{
    Rng r = {seed};
    float *v = malloc(n * sizeof *v + 1);
    for (size_t i = 0; i < n; i++)
        v[i] = rng_float(&r, lo, hi);
    return v;
}

static inline uint32_t bits_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* Bit-for-bit equality (NaN payloads included, -0.0 != 0.0). */
static inline void assert_same_bits(const float *got, const float *want, size_t n, const char *what)
{
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(bits_of(got[i]) == bits_of(want[i]), "%s[%zu]: got %.9g (0x%08x), want %.9g (0x%08x)", what, i,
                      (double)got[i], bits_of(got[i]), (double)want[i], bits_of(want[i]));
}

/* |got - want| <= atol + rtol * |want|, NaN matching NaN. */
static inline void assert_close(const float *got, const double *want, size_t n, double rtol, double atol, const char *what)
{
    for (size_t i = 0; i < n; i++) {
        if (isnan(want[i])) {
            ck_assert_msg(isnan(got[i]), "%s[%zu]: got %.9g, want nan", what, i, (double)got[i]);
            continue;
        }
        double err = fabs((double)got[i] - want[i]);
        ck_assert_msg(err <= atol + rtol * fabs(want[i]), "%s[%zu]: got %.9g, want %.9g (error %.3g)", what, i,
                      (double)got[i], want[i], err);
    }
}

#endif
