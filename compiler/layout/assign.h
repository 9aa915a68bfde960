/* assign.h: the CUDA layout of a kernel and of each of its SSA values. */
#ifndef MT_LAYOUT_ASSIGN_H
#define MT_LAYOUT_ASSIGN_H

#include "layout.h"
#include "ssa/ssa.h"

typedef enum MtValLayoutKind {
    VL_NONE,                  /* not lowered per thread (dead, or a non-value) */
    VL_UNIFORM,               /* a scalar: the same in every thread */
    VL_THREAD,                /* a block distributed over the threads (tile + registers) */
    VL_TEMPLATE,              /* a rank-1 coordinate vector of a rank-2 kernel, materialised by expand_dims */
    VL_STAGED,                /* a tl.dot operand, copied cooperatively into shared memory */
    VL_TILE_ONLY,             /* only addresses a staged tile: evaluated inside the cooperative copy */
} MtValLayoutKind;

typedef struct MtValLayout {
    uint8_t kind;             /* MtValLayoutKind */
    MtTileLayout tile;        /* VL_THREAD: which thread axes the logical axes follow */
    int32_t regs[MT_LAYOUT_MAX_RANK]; /* VL_THREAD: registers per axis (1 where broadcast) */
    MtCoopLayout coop;        /* VL_STAGED */
} MtValLayout;

typedef struct MtLayoutInfo {
    MtKernelLayout kernel;
    MtRegisterLayout reg;     /* output over threads; all registers 1 unless a dot kernel needs more */
    bool register_tiles;      /* some axis has more than one register per thread */
    MtValLayout *vals;        /* indexed by MtVal */
    uint32_t nvals;
    const MtInst **dots;      /* the tl.dot instructions, program order */
    uint32_t ndots;
} MtLayoutInfo;

/* Whether the seed lowering knows every operation and type of f; reports
 * E0603 at the first it does not (supported.c). */
bool mt_layout_supported(MtCtx *c, const MtFunc *f);

/* Infer the kernel layout (store-rooted output tile, reduction-aware and
 * dot-aware thread shape) and every value's layout. Reports E06xx errors
 * at the offending operation and returns NULL when the kernel has no CUDA
 * layout. */
MtLayoutInfo *mt_layout_assign(MtCtx *c, const MtFunc *f);

/* `--emit layout`: the kernel layout, then one line per block value, each
 * marked with its defining operation's source range when `marks` is not NULL. */
const char *mt_layout_print(MtCtx *c, const MtFunc *f, const MtLayoutInfo *li, MtLineMarks *marks);
/* The walk behind mt_layout_print: one line per block value in program
 * order ("%8 = block<8x1 x i32>  " + describe(ud, v)), loops indented. */
void mt_layout_print_values(MtBuf *b, const MtFunc *f, const char *(*describe)(void *ud, MtVal v), void *ud);
/* One value's layout in words, for hovers ("thread axes (0, -), 2x1
 * registers per thread"). NULL for values without a block layout. */
const char *mt_layout_describe(MtCtx *c, const MtLayoutInfo *li, const MtFunc *f, MtVal v);

#endif
