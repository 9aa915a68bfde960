/* layout.c: construction, validation and index arithmetic of the CUDA
 * tile layouts (see layout.h). Every rule of seed 002's "Validation is
 * part of the model" is checked here:
 *   - logical shapes have rank 1 or 2 and positive dimensions;
 *   - thread counts are integers from 1 through 1024;
 *   - projected thread axes are in range and unique;
 *   - logical and thread-axis tuples have equal rank;
 *   - a cooperative order is a permutation of all logical axes;
 *   - thread and iteration indices are in range;
 *   - coordinate conversion rejects linear indices outside the tile. */
#include "layout.h"

#include <stdio.h>

#define FAILF(...)                                                                                                     \
    do {                                                                                                               \
        if (err && errlen)                                                                                             \
            snprintf(err, errlen, __VA_ARGS__);                                                                        \
        return false;                                                                                                  \
    } while (0)

static bool check_shape(int rank, const int32_t *shape, const char *what, char *err, size_t errlen)
{
    if (rank < 1 || rank > MT_LAYOUT_MAX_RANK)
        FAILF("%s must have rank 1 or 2, got rank %d", what, rank);
    for (int i = 0; i < rank; i++)
        if (shape[i] <= 0)
            FAILF("%s dimensions must be positive, got %d on axis %d", what, shape[i], i);
    return true;
}

bool mt_kernel_layout(int rank, const int32_t *output, const int32_t *threads, MtKernelLayout *out, char *err,
                      size_t errlen)
{
    if (!check_shape(rank, output, "the output tile shape", err, errlen) ||
        !check_shape(rank, threads, "the thread shape", err, errlen))
        return false;
    int64_t n = 1;
    for (int i = 0; i < rank; i++)
        n *= threads[i];
    if (n > MT_MAX_THREADS)
        FAILF("the thread shape needs %lld threads per block; CUDA allows at most %d", (long long)n, MT_MAX_THREADS);
    out->rank = rank;
    for (int i = 0; i < MT_LAYOUT_MAX_RANK; i++) {
        out->output[i] = i < rank ? output[i] : 1;
        out->threads[i] = i < rank ? threads[i] : 1;
    }
    return true;
}

int32_t mt_kernel_layout_threads(const MtKernelLayout *k)
{
    int32_t n = 1;
    for (int i = 0; i < k->rank; i++)
        n *= k->threads[i];
    return n;
}

bool mt_tile_layout(const MtKernelLayout *k, int rank, const int32_t *shape, unsigned broadcast_mask,
                    MtTileLayout *out, char *err, size_t errlen)
{
    if (!check_shape(rank, shape, "a projected tile", err, errlen))
        return false;
    if (rank != k->rank)
        FAILF("a rank-%d tile cannot be projected onto a rank-%d thread shape", rank, k->rank);
    out->rank = rank;
    for (int i = 0; i < rank; i++) {
        out->shape[i] = shape[i];
        if (broadcast_mask & (1u << i)) {
            if (shape[i] != 1)
                FAILF("axis %d is marked broadcast but has size %d", i, shape[i]);
            out->thread_axes[i] = MT_AXIS_BROADCAST;
        } else if (shape[i] == k->threads[i]) {
            out->thread_axes[i] = (int8_t)i;
        } else if (shape[i] == 1) {
            out->thread_axes[i] = MT_AXIS_BROADCAST;
        } else {
            FAILF("logical axis %d of size %d cannot be projected onto thread axis %d of size %d", i, shape[i], i,
                  k->threads[i]);
        }
    }
    return true;
}

bool mt_coop_layout(int rank, const int32_t *shape, int32_t threads, const int8_t *order, MtCoopLayout *out,
                    char *err, size_t errlen)
{
    if (!check_shape(rank, shape, "a cooperative tile", err, errlen))
        return false;
    if (threads < 1 || threads > MT_MAX_THREADS)
        FAILF("threads per block must be between 1 and %d, got %d", MT_MAX_THREADS, threads);
    bool seen[MT_LAYOUT_MAX_RANK] = {false};
    for (int i = 0; i < rank; i++) {
        int8_t a = order ? order[i] : (int8_t)(rank - 1 - i);
        if (a < 0 || a >= rank || seen[a])
            FAILF("a cooperative order must be a permutation of the logical axes");
        seen[a] = true;
        out->order[i] = a;
    }
    out->rank = rank;
    for (int i = 0; i < rank; i++)
        out->shape[i] = shape[i];
    out->threads = threads;
    return true;
}

int64_t mt_coop_size(const MtCoopLayout *c)
{
    int64_t n = 1;
    for (int i = 0; i < c->rank; i++)
        n *= c->shape[i];
    return n;
}

int32_t mt_coop_iterations(const MtCoopLayout *c)
{
    return (int32_t)((mt_coop_size(c) + c->threads - 1) / c->threads);
}

bool mt_coop_linear(const MtCoopLayout *c, int32_t thread, int32_t iteration, int64_t *linear, char *err,
                    size_t errlen)
{
    if (thread < 0 || thread >= c->threads)
        FAILF("thread index %d is out of range for %d threads", thread, c->threads);
    if (iteration < 0 || iteration >= mt_coop_iterations(c))
        FAILF("iteration %d is out of range (%d iterations per thread)", iteration, mt_coop_iterations(c));
    *linear = thread + (int64_t)iteration * c->threads;
    return true;
}

bool mt_coop_contains(const MtCoopLayout *c, int64_t linear) { return linear >= 0 && linear < mt_coop_size(c); }

bool mt_coop_coords(const MtCoopLayout *c, int64_t linear, int32_t *coords, char *err, size_t errlen)
{
    if (!mt_coop_contains(c, linear))
        FAILF("linear index %lld is outside the %lld-element tile", (long long)linear, (long long)mt_coop_size(c));
    int64_t rest = linear;
    for (int i = 0; i < c->rank; i++) {
        int a = c->order[i];
        coords[a] = (int32_t)(rest % c->shape[a]);
        rest /= c->shape[a];
    }
    return true;
}

bool mt_register_layout(int rank, const int32_t *output, const int32_t *threads, MtRegisterLayout *out, char *err,
                        size_t errlen)
{
    if (!check_shape(rank, output, "the output tile shape", err, errlen) ||
        !check_shape(rank, threads, "the thread shape", err, errlen))
        return false;
    out->rank = rank;
    for (int i = 0; i < rank; i++) {
        if (output[i] % threads[i])
            FAILF("output axis %d of size %d is not divisible by thread axis %d of size %d", i, output[i], i,
                  threads[i]);
        out->output[i] = output[i];
        out->threads[i] = threads[i];
        out->registers[i] = output[i] / threads[i];
    }
    return true;
}

void mt_register_logical(const MtRegisterLayout *r, const int32_t *thread, const int32_t *reg, int32_t *logical)
{
    for (int i = 0; i < r->rank; i++)
        logical[i] = thread[i] + reg[i] * r->threads[i];
}

static int32_t largest_divisor_at_most(int32_t n, int32_t cap)
{
    for (int32_t d = cap < n ? cap : n; d > 1; d--)
        if (n % d == 0)
            return d;
    return 1;
}

void mt_dot_thread_shape(const int32_t output[2], int32_t threads[2])
{
    if ((int64_t)output[0] * output[1] <= 32) {
        threads[0] = output[0];
        threads[1] = output[1];
        return;
    }
    threads[1] = largest_divisor_at_most(output[1], 8);
    threads[0] = largest_divisor_at_most(output[0], 32 / threads[1]);
}
