/* layout.h: CUDA tile layouts (seed 002, "CUDA tile layouts" in seed 000).
 *
 * A block type says what a value is (a 16x32 tile of f32); a layout says
 * where its elements live on the GPU. Four objects, each validated when
 * built so that later lowering can rely on it:
 *
 *   MtKernelLayout      the program instance as a whole: the logical
 *                       output tile (from stores) and the physical thread
 *                       shape (a flat CUDA block of threads_per_block
 *                       threads, decoded row-major into tile_i/tile_j);
 *   MtTileLayout        a per-thread value projected onto thread axes:
 *                       logical (4, 1) over threads (4, 8) -> axes (0, -);
 *   MtCoopLayout        a tile every thread traverses together: thread t
 *                       takes linear indices t, t + T, t + 2T, ... in
 *                       `order` (1, 0) = row-major;
 *   MtRegisterLayout    a logical output shape over a smaller thread shape:
 *                       each thread owns registers at
 *                       logical = thread + register * thread_shape.
 *
 * Functions return false and write a message into err on an invalid
 * state; nothing here allocates or reports diagnostics. */
#ifndef MT_LAYOUT_H
#define MT_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { MT_LAYOUT_MAX_RANK = 2, MT_MAX_THREADS = 1024, MT_AXIS_BROADCAST = -1 };

typedef struct MtKernelLayout {
    int rank;                 /* 1 or 2 */
    int32_t output[MT_LAYOUT_MAX_RANK];  /* logical output tile shape */
    int32_t threads[MT_LAYOUT_MAX_RANK]; /* physical thread shape */
} MtKernelLayout;

typedef struct MtTileLayout {
    int rank;
    int32_t shape[MT_LAYOUT_MAX_RANK];
    int8_t thread_axes[MT_LAYOUT_MAX_RANK]; /* kernel thread axis per logical axis, or MT_AXIS_BROADCAST */
} MtTileLayout;

typedef struct MtCoopLayout {
    int rank;
    int32_t shape[MT_LAYOUT_MAX_RANK];
    int32_t threads;          /* threads per block */
    int8_t order[MT_LAYOUT_MAX_RANK]; /* axes from fastest to slowest; (1, 0) is row-major */
} MtCoopLayout;

typedef struct MtRegisterLayout {
    int rank;
    int32_t output[MT_LAYOUT_MAX_RANK];
    int32_t threads[MT_LAYOUT_MAX_RANK];
    int32_t registers[MT_LAYOUT_MAX_RANK]; /* output / threads, per axis */
} MtRegisterLayout;

/* Kernel layout: ranks 1-2, equal ranks, positive dimensions, 1..1024
 * threads in all. */
bool mt_kernel_layout(int rank, const int32_t *output, const int32_t *threads, MtKernelLayout *out, char *err,
                      size_t errlen);
int32_t mt_kernel_layout_threads(const MtKernelLayout *k);

/* Project a logical shape onto k's threads. An axis maps to the kernel's
 * axis of the same index when the sizes match, or broadcasts when its size
 * is 1 (or when broadcast_mask has its bit set: an axis that expand_dims
 * inserted is broadcast even where the thread axis is degenerate). Ranks
 * must match. */
bool mt_tile_layout(const MtKernelLayout *k, int rank, const int32_t *shape, unsigned broadcast_mask,
                    MtTileLayout *out, char *err, size_t errlen);

/* Cooperative layout of `shape` over `threads` threads; order NULL means
 * row-major ((1, 0) for rank 2, (0) for rank 1). */
bool mt_coop_layout(int rank, const int32_t *shape, int32_t threads, const int8_t *order, MtCoopLayout *out,
                    char *err, size_t errlen);
int64_t mt_coop_size(const MtCoopLayout *c);
int32_t mt_coop_iterations(const MtCoopLayout *c);   /* ceil(size / threads) */
/* The linear index thread t visits at `iteration` (t + iteration * threads);
 * false for out-of-range thread or iteration indices. */
bool mt_coop_linear(const MtCoopLayout *c, int32_t thread, int32_t iteration, int64_t *linear, char *err,
                    size_t errlen);
/* Whether a linear index is inside the tile (tail lanes of the last
 * iteration are not). */
bool mt_coop_contains(const MtCoopLayout *c, int64_t linear);
/* Logical coordinates of a linear index, per `order`. */
bool mt_coop_coords(const MtCoopLayout *c, int64_t linear, int32_t *coords, char *err, size_t errlen);

/* Register tile of an output over a thread shape: every dimension must be
 * divisible. */
bool mt_register_layout(int rank, const int32_t *output, const int32_t *threads, MtRegisterLayout *out, char *err,
                        size_t errlen);
/* logical = thread + register * thread_shape, per axis. */
void mt_register_logical(const MtRegisterLayout *r, const int32_t *thread, const int32_t *reg, int32_t *logical);

/* The tl.dot thread policy: outputs of at most 32 elements keep one
 * thread per element; larger ones use at most 32 threads, up to 8 along
 * the column axis, dividing the output exactly. */
void mt_dot_thread_shape(const int32_t output[2], int32_t threads[2]);

#endif
