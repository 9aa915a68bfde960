/* compare.c: output checks (tolerance comparison) and human summaries
 * (checksum, preview) of MtArrays.
 *
 * Every element is read as a double, which holds float32, int32 and bool
 * values exactly, so one loop serves all three dtypes and the errors it
 * reports are exact differences of the stored values.
 */
#include "compare.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double element(const MtArray *a, int64_t k) { return mt_dtype_get(a->dtype, a->data, (size_t)k); }

/* Python-style tuple for messages: "(10,)", "(2, 3)". */
static void shape_text(char *out, size_t n, const MtArray *a) {
    size_t k = (size_t)snprintf(out, n, "(");
    for (int i = 0; i < a->ndim && k < n; i++)
        k += (size_t)snprintf(out + k, n - k, "%s%" PRId64, i ? ", " : "", a->shape[i]);
    if (k < n) snprintf(out + k, n - k, a->ndim == 1 ? ",)" : ")");
}

bool mt_array_compare(const MtArray *got, const MtArray *want, double rtol, double atol, MtCompareResult *r) {
    memset(r, 0, sizeof *r);
    r->first = -1;
    r->ndim = want->ndim;
    if (got->dtype != want->dtype) {
        snprintf(r->error, sizeof r->error, "dtype mismatch: got %s, want %s", mt_dtype_name(got->dtype),
                 mt_dtype_name(want->dtype));
        return false;
    }
    bool same = got->ndim == want->ndim;
    for (int i = 0; same && i < got->ndim; i++) same = got->shape[i] == want->shape[i];
    if (!same) {
        char gs[112], ws[112];
        shape_text(gs, sizeof gs, got);
        shape_text(ws, sizeof ws, want);
        snprintf(r->error, sizeof r->error, "shape mismatch: got %s, want %s", gs, ws);
        return false;
    }
    for (int64_t k = 0; k < want->numel; k++) {
        double g = element(got, k), w = element(want, k);
        double diff;
        bool match;
        if (isnan(g) || isnan(w)) {
            match = isnan(g) && isnan(w);
            diff = match ? 0 : INFINITY;
        } else if (isinf(g) || isinf(w)) {
            match = g == w;
            diff = match ? 0 : INFINITY;
        } else {
            diff = fabs(g - w);
            match = diff <= atol + rtol * fabs(w);
        }
        if (diff > r->max_abs_err) r->max_abs_err = diff;
        if (w != 0 && !isinf(w) && !isnan(w)) {
            double rel = diff / fabs(w);
            if (rel > r->max_rel_err) r->max_rel_err = rel;
        }
        if (match) continue;
        if (r->mismatches++ == 0) {
            r->first = k;
            r->first_got = g;
            r->first_want = w;
            int64_t rest = k;
            for (int i = want->ndim - 1; i >= 0; i--) {
                r->first_index[i] = rest % want->shape[i];
                rest /= want->shape[i];
            }
        }
    }
    r->ok = r->mismatches == 0;
    return r->ok;
}

MtArrayStats mt_array_stats(const MtArray *a) {
    MtArrayStats c = {.sum = 0, .fnv1a = 0xcbf29ce484222325ull};
    bool any = false;
    for (int64_t k = 0; k < a->numel; k++) {
        double v = element(a, k);
        c.sum += v;
        if (isnan(v)) {
            c.nans++;
            continue;
        }
        c.infs += isinf(v) != 0;
        c.min = any && c.min < v ? c.min : v;
        c.max = any && c.max > v ? c.max : v;
        any = true;
    }
    c.mean = a->numel ? c.sum / (double)a->numel : NAN;
    const unsigned char *b = a->data;
    for (size_t i = 0; i < a->nbytes; i++) {
        c.fnv1a ^= b[i];
        c.fnv1a *= 0x100000001b3ull;
    }
    return c;
}

/* One element as numpy prints it: "1.0", "0.1", "nan", "-inf", 7, "True". */
static void element_text(const MtArray *a, int64_t k, char out[40]) {
    double v = element(a, k);
    if (a->dtype == MT_DT_I1) {
        snprintf(out, 40, "%s", v != 0 ? "True" : "False");
    } else if (a->dtype == MT_DT_I32) {
        snprintf(out, 40, "%d", (int)v);
    } else {
        mt_format_float(out, v, true);
    }
}

char *mt_array_preview(const MtArray *a, char *buf, size_t n) {
    if (!n) return buf;
    char item[40];
    if (a->ndim == 0) {
        element_text(a, 0, item);
        snprintf(buf, n, "%s", item);
        return buf;
    }
    size_t k = (size_t)snprintf(buf, n, "[");
    bool cut = a->numel > 6;
    for (int64_t i = 0; i < a->numel && k < n; i++) {
        if (cut && i == 3) {
            k += (size_t)snprintf(buf + k, n - k, ", ...");
            i = a->numel - 3;
            if (k >= n) break;
        }
        element_text(a, i, item);
        k += (size_t)snprintf(buf + k, n - k, "%s%s", i ? ", " : "", item);
    }
    if (k < n) snprintf(buf + k, n - k, "]");
    return buf;
}
