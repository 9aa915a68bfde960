/* memory.c: masked, bounds-checked loads and stores, one row of a block
 * at a time (a rank-1 block is one row; a rank-2 block is cut into its
 * rows so that a tile row that is contiguous in memory is found to be).
 *
 * Every row first finds out whether its offsets are consecutive (the
 * common `base + arange` case, one vectorised pass). Then the bounds: for
 * consecutive offsets the lanes inside [0, numel) are one range, computed,
 * and only the lanes outside it are looked at; otherwise every active lane
 * is checked. A fault is reported as the first active lane (mask true, or
 * no mask) outside the buffer, before any memory of the row is touched, and
 * masked-off lanes are never read or written, so a kernel that relies on
 * its mask at the edges of an array is safe. Consecutive rows then take a
 * memcpy or a select-from-a-contiguous-run loop that vectorises; anything
 * else is a gather or scatter.
 *
 * A store whose lanes hit the same element (a scalar pointer under a block
 * mask, as `tl.store(out + row, total, mask=lanes < 1)`) writes the lanes
 * in order, so the last active lane wins. Loads and stores only move
 * bits: conversions to the pointee type happen before (plan.c).
 */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("vect-cost-model=dynamic")
#endif

#include <string.h>

#include "interp.h"

/* The bounds of one row of element offsets against [0, numel): the first
 * active lane (mask true, or no mask) outside the buffer, or -1. For a row
 * of consecutive offsets (the common `base + arange`, found in one
 * vectorised pass) the lanes inside are one range, [*lo, *hi), computed
 * rather than checked lane by lane; for any other row *lo is -1. */
static int64_t row_bounds(const int64_t *restrict off, const uint8_t *m, size_t n, int64_t numel, int64_t *lo,
                          int64_t *hi)
{
    uint64_t lim = (uint64_t)numel, a0 = (uint64_t)off[0], diff = 0;
    for (size_t i = 0; i < n; i++)
        diff |= (uint64_t)off[i] ^ (a0 + i);
    if (diff) {
        *lo = -1;
        for (size_t i = 0; i < n; i++)
            if ((!m || m[i]) && (uint64_t)off[i] >= lim)
                return (int64_t)i;
        return -1;
    }
    int64_t first = off[0], l = first < 0 ? -first : 0, h = numel - first;
    if (l > (int64_t)n)
        l = (int64_t)n;
    if (h > (int64_t)n)
        h = (int64_t)n;
    if (h < l)
        h = l;
    for (int64_t i = 0; i < l; i++)
        if (!m || m[i])
            return i;
    for (int64_t i = h; i < (int64_t)n; i++)
        if (!m || m[i])
            return i;
    *lo = l;
    *hi = h;
    return -1;
}

#define LOAD_ROW(name, T, NORMALISE)                                                                        \
    static int64_t name(const MemRow *r, const void *restrict data_, int64_t numel)                       \
    {                                                                                                       \
        const T *restrict data = data_;                                                                     \
        T *restrict o = r->out;                                                                             \
        size_t n = r->n;                                                                                    \
        const uint8_t *m = r->mask;                                                                         \
        const T zero = 0;                                                                                   \
        const T *ot = r->val ? (const T *)r->val : &zero;                                                   \
        size_t os = r->val && !r->val_sc ? 1 : 0;                                                           \
        uint64_t lim = (uint64_t)numel;                                                                     \
        if (m && r->mask_sc) {                                                                              \
            if (!m[0]) {                                                                                    \
                for (size_t i = 0; i < n; i++)                                                              \
                    o[i] = ot[i * os];                                                                      \
                return -1;                                                                                  \
            }                                                                                               \
            m = NULL;                                                                                       \
        }                                                                                                   \
        if (r->off_sc) {                                                                                    \
            int64_t a = r->off[0];                                                                          \
            bool in = (uint64_t)a < lim;                                                                    \
            for (size_t i = 0; i < n; i++) {                                                                \
                if (m && !m[i]) {                                                                           \
                    o[i] = ot[i * os];                                                                      \
                    continue;                                                                               \
                }                                                                                           \
                if (!in)                                                                                    \
                    return (int64_t)i;                                                                      \
                o[i] = NORMALISE(data[a]);                                                                  \
            }                                                                                               \
            return -1;                                                                                      \
        }                                                                                                   \
        const int64_t *restrict off = r->off;                                                               \
        int64_t lo, hi, fault = row_bounds(off, m, n, numel, &lo, &hi);                                     \
        if (fault >= 0)                                                                                     \
            return fault;                                                                                   \
        if (lo < 0) {                                                                                       \
            for (size_t i = 0; i < n; i++)                                                                  \
                o[i] = !m || m[i] ? NORMALISE(data[off[i]]) : ot[i * os];                                   \
            return -1;                                                                                      \
        }                                                                                                   \
        int64_t first = off[0];                                                                             \
        for (int64_t i = 0; i < lo; i++)                                                                    \
            o[i] = ot[(size_t)i * os];                                                                      \
        for (int64_t i = hi; i < (int64_t)n; i++)                                                           \
            o[i] = ot[(size_t)i * os];                                                                      \
        size_t len = (size_t)(hi - lo);                                                                     \
        const T *restrict src = len ? data + first + lo : data;                                             \
        T *restrict dst = o + lo;                                                                           \
        if (!m) {                                                                                           \
            for (size_t j = 0; j < len; j++)                                                                \
                dst[j] = NORMALISE(src[j]);                                                                 \
        } else {                                                                                            \
            const uint8_t *restrict mm = m + lo;                                                            \
            if (!os) {                                                                                      \
                T other = ot[0];                                                                            \
                for (size_t j = 0; j < len; j++) {                                                          \
                    T v = NORMALISE(src[j]);                                                                \
                    dst[j] = mm[j] ? v : other;                                                             \
                }                                                                                           \
            } else {                                                                                        \
                const T *restrict oo = ot + lo;                                                             \
                for (size_t j = 0; j < len; j++) {                                                          \
                    T v = NORMALISE(src[j]);                                                                \
                    dst[j] = mm[j] ? v : oo[j];                                                             \
                }                                                                                           \
            }                                                                                               \
        }                                                                                                   \
        return -1;                                                                                          \
    }

/* bool buffers may hold any nonzero byte for true; frames hold 0 or 1. */
#define AS_BOOL(x) (uint8_t)((x) != 0)
#define AS_IS(x) (x)

LOAD_ROW(load_b, uint8_t, AS_BOOL)
LOAD_ROW(load_1, uint8_t, AS_IS)
LOAD_ROW(load_2, Bits16, AS_IS)
LOAD_ROW(load_4, Bits32, AS_IS)
LOAD_ROW(load_8, Bits64, AS_IS)

#define STORE_ROW(name, T)                                                                                  \
    static int64_t name(const MemRow *r, void *restrict data_, int64_t numel)                             \
    {                                                                                                       \
        T *restrict data = data_;                                                                           \
        const T *restrict v = r->val;                                                                       \
        size_t n = r->n, vs = r->val_sc ? 0 : 1;                                                            \
        const uint8_t *m = r->mask;                                                                         \
        uint64_t lim = (uint64_t)numel;                                                                     \
        if (m && r->mask_sc) {                                                                              \
            if (!m[0])                                                                                      \
                return -1;                                                                                  \
            m = NULL;                                                                                       \
        }                                                                                                   \
        if (r->off_sc) {                                                                                    \
            int64_t a = r->off[0];                                                                          \
            bool in = (uint64_t)a < lim;                                                                    \
            for (size_t i = 0; i < n; i++) {                                                                \
                if (m && !m[i])                                                                             \
                    continue;                                                                               \
                if (!in)                                                                                    \
                    return (int64_t)i;                                                                      \
                data[a] = v[i * vs];                                                                        \
            }                                                                                               \
            return -1;                                                                                      \
        }                                                                                                   \
        const int64_t *restrict off = r->off;                                                               \
        int64_t lo, hi, fault = row_bounds(off, m, n, numel, &lo, &hi);                                     \
        if (fault >= 0)                                                                                     \
            return fault;                                                                                   \
        if (lo < 0) {                                                                                       \
            for (size_t i = 0; i < n; i++)                                                                  \
                if (!m || m[i])                                                                             \
                    data[off[i]] = v[i * vs];                                                               \
            return -1;                                                                                      \
        }                                                                                                   \
        int64_t first = off[0];                                                                             \
        size_t len = (size_t)(hi - lo);                                                                     \
        unsigned all = 1;                                                                                   \
        for (size_t i = 0; m && i < n; i++)                                                                 \
            all &= m[i];                                                                                    \
        if (!len)                                                                                           \
            return -1;                                                                                      \
        T *restrict dst = data + first + lo;                                                                \
        const T *restrict src = v + (size_t)lo * vs;                                                        \
        if (all && vs) {                                                                                    \
            memcpy(dst, src, len * sizeof(T));                                                              \
        } else if (all) {                                                                                   \
            for (size_t j = 0; j < len; j++)                                                                \
                dst[j] = src[0];                                                                            \
        } else {                                                                                            \
            const uint8_t *restrict mm = m + lo;                                                            \
            for (size_t j = 0; j < len; j++)                                                                \
                if (mm[j])                                                                                  \
                    dst[j] = src[j * vs];                                                                   \
        }                                                                                                   \
        return -1;                                                                                          \
    }

STORE_ROW(store_1, uint8_t)
STORE_ROW(store_2, Bits16)
STORE_ROW(store_4, Bits32)
STORE_ROW(store_8, Bits64)

LoadRowFn mt_interp_load_fn(size_t esize, bool is_bool)
{
    switch (esize) {
    case 1: return is_bool ? load_b : load_1;
    case 2: return load_2;
    case 4: return load_4;
    case 8: return load_8;
    default: return NULL;
    }
}

StoreRowFn mt_interp_store_fn(size_t esize)
{
    return esize == 1 ? store_1 : esize == 2 ? store_2 : esize == 4 ? store_4 : esize == 8 ? store_8 : NULL;
}
