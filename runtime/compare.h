/* compare.h: checking a kernel's output and summarising arrays.
 *
 * `mytriton run --expect out=golden.npy` and `--compare` (interpreter
 * against GPU) both end in mt_array_compare(); the one-line summaries a run
 * prints for each output come from mt_array_stats() and
 * mt_array_preview(). Nothing here allocates or prints.
 */
#ifndef MT_RUNTIME_COMPARE_H
#define MT_RUNTIME_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "npy.h"

typedef struct MtCompareResult {
    bool ok;                  /* same dtype and shape, and every element within tolerance */
    char error[256];          /* dtype or shape mismatch, else "" (then nothing below is set) */
    int64_t mismatches;       /* elements outside tolerance */
    double max_abs_err;       /* over all elements; +inf where one side is NaN and the other not */
    double max_rel_err;       /* |got - want| / |want| over elements with want != 0 */
    int64_t first;            /* flat (C-order) index of the first mismatch, -1 when none */
    int64_t first_index[MT_ARRAY_MAX_DIMS]; /* the same, one entry per dimension */
    int ndim;
    double first_got, first_want;
} MtCompareResult;

/* Element k matches when |got - want| <= atol + rtol * |want| (numpy's
 * isclose, with want as the reference), or both are NaN, or both are the
 * same infinity. int32 and bool arrays compare the same way on their
 * values, so atol = rtol = 0 asks for exact equality. Returns r->ok. */
bool mt_array_compare(const MtArray *got, const MtArray *want, double rtol, double atol, MtCompareResult *r);

typedef struct MtArrayStats {
    double sum;               /* sum of the elements in C order, in double (NaN if any is NaN) */
    double min, max;          /* over the elements that are not NaN; 0 when there are none */
    double mean;              /* sum / numel (NaN for an empty array) */
    int64_t nans, infs;       /* elements that are NaN, +-inf */
    uint64_t fnv1a;           /* 64-bit FNV-1a of the data bytes: changes with any bit */
} MtArrayStats;

MtArrayStats mt_array_stats(const MtArray *a);

/* "[1.0, 2.0, 3.0, ..., 999.0]": every element when there are at most 6,
 * else the first and last 3; a 0-d array is its value alone. Floats print
 * as the shortest text that reads back as the same float32 (with ".0" on
 * whole numbers, as numpy does), bools as True/False. Truncates to fit n
 * bytes; returns buf. */
char *mt_array_preview(const MtArray *a, char *buf, size_t n);

#endif
