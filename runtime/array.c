/* array.c: generated arrays (zeros, ones, arange, constant, uniform, normal).
 *
 * Reproducibility is the point: the same recipe gives the same bytes on any
 * machine, so every generator is written in terms of PCG32 outputs and plain
 * double arithmetic rounded once to the element type. The steps below are
 * the specification (docs/launch-spec.md repeats them); changing any of them
 * changes every generated input, so the tests pin the first values.
 *
 *   seed:    x = seed; s1 = splitmix64(&x); s2 = splitmix64(&x);
 *            pcg32_srandom_r(rng, s1, s2)
 *   uniform floats:   u = (pcg32() >> 8) * 2^-24          (24 bits, [0, 1))
 *                     v = low + (high - low) * u  (double, then rounded once to
 *                     the dtype: float16, bfloat16, float32, float64)
 *   uniform integers: integers in [low, high), bound = high - low: for a bound
 *                     up to 2^32, O'Neill's pcg32_boundedrand_r (threshold =
 *                     2^32 mod bound, draw r until r >= threshold, v = low + r
 *                     mod bound); beyond (64-bit dtypes), r = pcg32() << 32 |
 *                     pcg32() and the same rejection in 64 bits
 *   uniform bool:     v = pcg32() >> 31
 *   normal floats:    Box-Muller on pairs: u1, u2 = ((pcg32() >> 8) + 1) * 2^-24
 *                     (in (0, 1], so log(u1) is finite), rho = sqrt(-2 log u1),
 *                     elements 2k and 2k+1 get mean + std * rho * cos(2 pi u2)
 *                     and mean + std * rho * sin(2 pi u2), rounded to the dtype
 * Values are stored with the rules of a cast (mt_dtype_set): integers of
 * arange beyond a dtype's range wrap, as numpy's astype does.
 */
#include "array.h"
#include "errbuf.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const init_names[] = {
    [MT_INIT_ZEROS] = "zeros",     [MT_INIT_ONES] = "ones",       [MT_INIT_ARANGE] = "arange",
    [MT_INIT_CONSTANT] = "constant", [MT_INIT_UNIFORM] = "uniform", [MT_INIT_NORMAL] = "normal",
};

const char *mt_init_name(MtInit init) {
    return (unsigned)init < sizeof init_names / sizeof init_names[0] ? init_names[init] : "?";
}

int mt_init_from_name(const char *name) {
    for (size_t i = 0; name && i < sizeof init_names / sizeof init_names[0]; i++)
        if (strcmp(name, init_names[i]) == 0) return (int)i;
    return -1;
}

/* ---- PCG32 ----------------------------------------------------------------- */

static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

uint32_t mt_pcg32_next(MtPcg32 *rng) {
    uint64_t old = rng->state;
    rng->state = old * 6364136223846793005ull + rng->inc;
    uint32_t xorshifted = (uint32_t)(((old >> 18) ^ old) >> 27);
    uint32_t rot = (uint32_t)(old >> 59);
    return (xorshifted >> rot) | (xorshifted << ((-rot) & 31));
}

void mt_pcg32_seed(MtPcg32 *rng, uint64_t seed) {
    uint64_t x = seed;
    uint64_t initstate = splitmix64(&x);
    uint64_t initseq = splitmix64(&x);
    /* pcg32_srandom_r */
    rng->state = 0;
    rng->inc = (initseq << 1) | 1;
    mt_pcg32_next(rng);
    rng->state += initstate;
    mt_pcg32_next(rng);
}

/* ---- checks ---------------------------------------------------------------- */

/* Shortest text that reads back as v ("0.1", "3000000000", "nan"). */
static void fmt_num(char out[32], double v) {
    if (isnan(v)) {
        strcpy(out, "nan");
        return;
    }
    if (isinf(v)) {
        strcpy(out, v < 0 ? "-inf" : "inf");
        return;
    }
    if (v == floor(v) && fabs(v) < 1e16) {
        snprintf(out, 32, "%.0f", v);
        return;
    }
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(out, 32, "%.*g", prec, v);
        if (strtod(out, NULL) == v) return;
    }
}

/* The range of an integer dtype, as doubles. */
static void int_range(MtDtype dt, double *lo, double *hi) {
    const MtDtypeInfo *d = mt_dtype_info(dt);
    *lo = d->cls == MT_DC_UINT ? 0 : -ldexp(1, d->bits - 1);
    *hi = d->cls == MT_DC_UINT ? ldexp(1, d->bits) - 1 : ldexp(1, d->bits - 1) - 1;
}

/* The largest finite value of a float dtype. */
static double float_max(MtDtype dt) {
    return dt == MT_DT_F16 ? 65504.0 : dt == MT_DT_BF16 ? 0x1.fep127 : dt == MT_DT_F32 ? 3.4028234663852886e38
                                                                                      : 1.7976931348623157e308;
}

/* Finite values that float32 can hold without overflowing to infinity. */
static bool fits_f32(double v) { return isfinite(v) && fabs(v) <= 3.4028234663852886e38; }

/* One named parameter against the dtype's range. */
static MtStatus check_value(MtDtype dt, const char *what, double v, bool allow_nonfinite, char *err,
                            size_t errlen) {
    char t[32];
    fmt_num(t, v);
    const MtDtypeInfo *d = mt_dtype_info(dt);
    if (d->cls == MT_DC_BOOL) {
        if (v != 0 && v != 1) {
            mt_errf(err, errlen, "%s %s is not a bool (0 or 1)", what, t);
            return MT_ERR_USAGE;
        }
    } else if (d->cls != MT_DC_FLOAT) {
        double lo, hi;
        int_range(dt, &lo, &hi);
        if (v != floor(v) || v < lo || v > hi) {
            mt_errf(err, errlen, "%s %s is not an %s value", what, t, mt_dtype_name(dt));
            return MT_ERR_USAGE;
        }
    } else if (!(allow_nonfinite && !isfinite(v)) && !(isfinite(v) && fabs(v) <= float_max(dt))) {
        mt_errf(err, errlen, "%s %s is out of %s range", what, t, mt_dtype_name(dt));
        return MT_ERR_USAGE;
    }
    return MT_OK;
}

MtStatus mt_array_gen_check(const MtArrayGen *g, char *err, size_t errlen) {
    if (g->ndim < 0 || g->ndim > MT_ARRAY_MAX_DIMS) {
        mt_errf(err, errlen, "shape: %d dimensions; at most %d are supported", g->ndim, MT_ARRAY_MAX_DIMS);
        return MT_ERR_USAGE;
    }
    for (int i = 0; i < g->ndim; i++)
        if (g->shape[i] < 0) {
            mt_errf(err, errlen, "shape[%d]: negative dimension %lld", i, (long long)g->shape[i]);
            return MT_ERR_USAGE;
        }
    int64_t numel;
    if (!mt_array_size(g->dtype, g->ndim, g->shape, &numel, NULL)) {
        mt_errf(err, errlen, "shape: the array's size overflows");
        return MT_ERR_USAGE;
    }
    if ((unsigned)g->init >= sizeof init_names / sizeof init_names[0]) {
        mt_errf(err, errlen, "init: unknown generator %d", (int)g->init);
        return MT_ERR_USAGE;
    }
    const char *dname = mt_dtype_name(g->dtype);
    char ta[32], tb[32];
    fmt_num(ta, g->a);
    fmt_num(tb, g->b);
    switch (g->init) {
    case MT_INIT_ZEROS:
    case MT_INIT_ONES:
        return MT_OK;
    case MT_INIT_ARANGE:
        if (mt_dtype_info(g->dtype)->cls == MT_DC_SINT || mt_dtype_info(g->dtype)->cls == MT_DC_UINT) {
            double lo, hi;
            int_range(g->dtype, &lo, &hi);
            if ((double)(numel - 1) > hi) {
                mt_errf(err, errlen, "arange: %lld elements count past the %s range", (long long)numel, dname);
                return MT_ERR_USAGE;
            }
        }
        return MT_OK;
    case MT_INIT_CONSTANT:
        return check_value(g->dtype, "value", g->a, true, err, errlen);
    case MT_INIT_UNIFORM: {
        if (g->dtype == MT_DT_I1) return MT_OK;
        MtStatus st;
        if ((st = check_value(g->dtype, "low", g->a, false, err, errlen)) ||
            (st = check_value(g->dtype, "high", g->b, false, err, errlen)))
            return st;
        if (!(g->a < g->b)) {
            mt_errf(err, errlen, "low (%s) must be below high (%s)", ta, tb);
            return MT_ERR_USAGE;
        }
        return MT_OK;
    }
    case MT_INIT_NORMAL:
        if (mt_dtype_info(g->dtype)->cls != MT_DC_FLOAT) {
            mt_errf(err, errlen, "init 'normal' needs a float array (float16, bfloat16, float32, float64), not %s",
                    dname);
            return MT_ERR_USAGE;
        }
        if (!fits_f32(g->a)) {
            mt_errf(err, errlen, "mean %s is not a finite float32", ta);
            return MT_ERR_USAGE;
        }
        if (!fits_f32(g->b) || g->b < 0) {
            mt_errf(err, errlen, "std %s must be finite and not negative", tb);
            return MT_ERR_USAGE;
        }
        return MT_OK;
    }
    return MT_OK;
}

/* ---- generation ------------------------------------------------------------- */

static void fill_scalar(MtArray *x, double v) {
    size_t size = mt_dtype_size(x->dtype);
    for (int64_t k = 0; k < x->numel; k++)
        if (k == 0)
            mt_dtype_set(x->dtype, x->data, 0, v);
        else
            memcpy((char *)x->data + (size_t)k * size, x->data, size);
}

static void fill_arange(MtArray *x) {
    for (int64_t k = 0; k < x->numel; k++) mt_dtype_set(x->dtype, x->data, (size_t)k, (double)k);
}

/* 24 random bits as a double in [0, 1). */
static double unit24(MtPcg32 *r) { return (double)(mt_pcg32_next(r) >> 8) * 0x1p-24; }

/* An integer in [0, bound), bound in 1 .. 2^64 - 1, by rejection. */
static uint64_t bounded(MtPcg32 *r, uint64_t bound) {
    if (bound <= ((uint64_t)1 << 32)) {
        if (bound == ((uint64_t)1 << 32)) return mt_pcg32_next(r);
        uint32_t b = (uint32_t)bound, threshold = (uint32_t)(-b) % b, v;
        do v = mt_pcg32_next(r);
        while (v < threshold);
        return v % b;
    }
    uint64_t threshold = (0 - bound) % bound, v;
    do {
        uint64_t hi = mt_pcg32_next(r);
        v = hi << 32 | mt_pcg32_next(r);
    } while (v < threshold);
    return v % bound;
}

static void fill_uniform(MtArray *x, const MtArrayGen *g, MtPcg32 *r) {
    const MtDtypeInfo *d = mt_dtype_info(x->dtype);
    if (d->cls == MT_DC_FLOAT) {
        for (int64_t k = 0; k < x->numel; k++)
            mt_dtype_set(x->dtype, x->data, (size_t)k, g->a + (g->b - g->a) * unit24(r));
    } else if (d->cls == MT_DC_BOOL) {
        unsigned char *p = x->data;
        for (int64_t k = 0; k < x->numel; k++) p[k] = (unsigned char)(mt_pcg32_next(r) >> 31);
    } else {
        /* low and high are integers of the dtype's range (checked), exact as doubles up to 2^53 */
        int64_t low = (int64_t)g->a;
        double span = g->b - g->a;
        uint64_t bound = span >= 0x1p64 ? UINT64_MAX : (uint64_t)span;
        for (int64_t k = 0; k < x->numel; k++) {
            uint64_t v = (uint64_t)low + bounded(r, bound);
            memcpy((char *)x->data + (size_t)k * d->size, &v, d->size); /* little-endian: the low bytes */
        }
    }
}

static void fill_normal(MtArray *x, double mean, double std, MtPcg32 *r) {
    for (int64_t k = 0; k < x->numel; k += 2) {
        double u1 = unit24(r) + 0x1p-24, u2 = unit24(r) + 0x1p-24;
        double rho = sqrt(-2.0 * log(u1)), theta = 6.283185307179586 * u2;
        mt_dtype_set(x->dtype, x->data, (size_t)k, mean + std * rho * cos(theta));
        if (k + 1 < x->numel) mt_dtype_set(x->dtype, x->data, (size_t)k + 1, mean + std * rho * sin(theta));
    }
}

MtStatus mt_array_generate(const MtArrayGen *g, MtArray **out, char *err, size_t errlen) {
    *out = NULL;
    MtStatus st = mt_array_gen_check(g, err, errlen);
    if (st) return st;
    MtArray *x = mt_array_new(g->dtype, g->ndim, g->shape);
    if (!x) {
        mt_errf(err, errlen, "out of memory for a %s array", mt_dtype_name(g->dtype));
        return MT_ERR_NOMEM;
    }
    MtPcg32 r;
    mt_pcg32_seed(&r, g->seed);
    switch (g->init) {
    case MT_INIT_ZEROS: break;
    case MT_INIT_ONES: fill_scalar(x, 1); break;
    case MT_INIT_ARANGE: fill_arange(x); break;
    case MT_INIT_CONSTANT: fill_scalar(x, g->a); break;
    case MT_INIT_UNIFORM: fill_uniform(x, g, &r); break;
    case MT_INIT_NORMAL: fill_normal(x, g->a, g->b, &r); break;
    }
    *out = x;
    return MT_OK;
}
