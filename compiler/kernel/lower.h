/* lower.h: the fast lowering, SSA + linear layouts -> kernel layer, and
 * the internals its files share (lower.c: the driver, layouts of values,
 * elementwise operations and control flow; lower_mem.c: loads and stores;
 * lower_reduce.c: reductions and scans; lower_shape.c: shape operations
 * and hints; lower_dot.c: tl.dot; lower_atomic.c: atomics and
 * tl.debug_barrier; convert.c: moving a value between layouts through
 * shared memory).
 *
 * Execution model. One CUDA block runs `programs_per_block` program
 * instances along grid x (several small programs share a block, one warp
 * group each), each with `warps` warps. Every block value lives in
 * registers under a layout (layout/linear.h); a value known to be the
 * same in every thread (a scalar, a constant block) is one expression.
 * Values that are cheap to compute (aranges, constants and pure
 * elementwise arithmetic on them and on scalars, pointer offsets among
 * them) have no home: they are computed where a consumer needs them, in
 * the layout it needs, instead of being moved between threads. Every
 * other block value has a home layout chosen before lowering (loads:
 * the coalescing default; tl.dot: its accumulator layout; elementwise
 * results: their operands'; reductions: the slice of their input), and is
 * converted through shared memory when a consumer needs another one. */
#ifndef MT_KERNEL_LOWER_H
#define MT_KERNEL_LOWER_H

#include "kir.h"
#include "layout/linear.h"
#include "ssa/ssa.h"

/* Options of the fast lowering (MtSpec's launch options). */
typedef struct MtKernelOptions {
    int num_warps;            /* warps per program; 0: chosen from the kernel */
    int sm;                   /* target, e.g. 90 */
    bool tensor_cores;        /* tl.dot of f16/bf16 operands may use mma.sync (sm >= 80, CUDA C++), and
                               * wgmma on sm 90 (whose code is then for sm_90a); a dot's tiles may be
                               * copied into shared-memory stages with cp.async (lower_pipe.c) */
} MtKernelOptions;

/* Lower f. Operations the fast lowering cannot handle yet are E0603
 * diagnostics at their source range; returns NULL then. */
KFunc *mt_kernel_lower(MtCtx *c, const MtFunc *f, const MtKernelOptions *opt);

/* Whether a tl.dot's operands and shape suit the tensor cores (given
 * MtKernelOptions.tensor_cores and warps that tile its result), and the
 * dtype they run in: f16 or bf16 blocks widened to f32 by casts (how the
 * front end types tl.dot of two half blocks), M, N, K multiples of 16, 8,
 * 16; or f32 blocks with input_precision="tf32" (TF32, K a multiple of
 * 8), operand_dt f32. lower_dot.c; the prefetch pass asks it too. */
bool mt_dot_suits_tensor_cores(const MtFunc *f, const MtInst *dot, MtDtype *operand_dt);
/* The tl.dot of `body` whose operand (*operand: 0 or 1) v is, directly or
 * through the cast that widens a half tile (*widened: the cast's result,
 * else 0), when that is v's one use and the dot can read its operands
 * from shared-memory stages: it suits the tensor cores, or it multiplies
 * f32 tiles as they are in IEEE f32 (CUDA cores); NULL otherwise (uses:
 * mt_func_use_counts). The prefetch pass and the stages (lower_pipe.c)
 * ask it of the tiles they load. */
const MtInst *mt_staged_dot_operand(const MtFunc *f, const MtRegion *body, MtVal v, const uint32_t *uses,
                                    int *operand, MtVal *widened);

/* ---- internals ------------------------------------------------------------------ */

typedef enum LKind {
    LV_NONE,                  /* not lowered (yet) */
    LV_UNIFORM,               /* the same value in every thread: u */
    LV_REGS,                  /* a register array `regs` under layout ll */
    LV_STAGED,                /* a tile in shared memory: element [r][c] at smem[at + tile's index] (lower_pipe.c) */
} LKind;

/* Where element [r][c] of a tensor-core operand's tile, as the SSA has it
 * (A [M][K], B [K][N]), lies in shared memory: row-major with a padded
 * row pitch (mma.sync reads it), or wgmma's canonical layout of swizzle
 * width W bytes: the columns cut into atoms of W bytes, each atom all the
 * tile's rows of W bytes, 16-byte chunks of a row swizzled (lower_dot.c
 * has the rule, lw_tile_index). */
typedef struct LTileShape {
    int32_t ld;               /* padded: the row pitch (elements) */
    int32_t rows, cols;
    uint8_t swizzle;          /* 0: padded row-major; else W: 32, 64 or 128 */
    uint8_t esize;            /* bytes of an element */
} LTileShape;

/* A lowered value. Pointer values are element offsets (int64) into the
 * parameter `base`. */
typedef struct LVal {
    uint8_t kind;             /* LKind */
    const KExpr *u;           /* LV_UNIFORM */
    KVarId regs;              /* LV_REGS */
    const MtLinear *ll;       /* LV_REGS */
    KVarId base;              /* pointers: the parameter pointed into */
    KVarId smem;              /* LV_STAGED */
    const KExpr *at;          /* LV_STAGED */
    LTileShape tile;          /* LV_STAGED */
} LVal;

/* lower_pipe.c: a loop's tensor-core tiles in shared-memory stages. */
typedef struct LPipe LPipe;
typedef struct LRing {        /* one chain of tiles: S = depth + 1 stages */
    LPipe *pipe;
    struct LRing *next;
    MtDtype dt;
    uint32_t bytes;           /* per cp.async: 4, 8 or 16 (every load of the chain moves as many) */
    LTileShape tile;          /* how a stage holds its tile */
    uint32_t stage_elems;
    KVarId smem;              /* allocated when the first tile is copied */
    const KExpr *share;       /* this program's share of smem */
} LRing;
struct LPipe {                /* one loop's rings */
    const MtInst *loop;
    LPipe *next;
    LRing *rings;
    uint32_t nrings, depth;
    uint32_t stages;          /* S: depth + 1, or depth + 2 while a warpgroup's dot stays in flight */
    KVarId stage;             /* the stage counter s */
    bool allocated;
    MtVal acc;                /* the carried accumulator such a dot adds into in place, its
                               * wgmmas in flight into the next iteration (0: none) */
    KVarId acc_regs;          /* its registers, once the dot is lowered */
    uint64_t floor;           /* the scratch floor before the stages */
};
typedef struct LTile {        /* a load or carried value that is a ring's tile */
    LRing *ring;
    uint32_t pos;             /* iteration t (< depth) of the loop's first ones; depth: k + depth's */
} LTile;

/* A layout conversion or remat made inside an open region stays valid
 * only while that region is open. */
typedef struct LMemo {
    MtVal v;
    const MtLinear *ll;
    LVal val;
    uint32_t depth;
} LMemo;

/* Facts about a value's elements along each dimension (axis.c). */
typedef struct LAxis {
    int32_t contig[MT_LL_MAX_RANK];   /* runs of consecutive values */
    int32_t div[MT_LL_MAX_RANK];      /* each run starts at a multiple of this (pointers: byte address) */
    int32_t cnst[MT_LL_MAX_RANK];     /* runs of equal values */
} LAxis;

/* A coordinate base (the thread's part of a coordinate) computed once. */
typedef struct LBase {
    int32_t lane[MT_LL_LANES], warp[MT_LL_MAX_WARP]; /* the bits' offsets along the dimension */
    uint8_t nwarp;
    const KExpr *ref;
} LBase;

typedef struct Lw {
    MtCtx *c;
    const MtFunc *f;
    KFunc *kf;
    KBuilder b;
    int warps;                /* warps per program */
    int programs;             /* programs per block */
    LVal *val;                /* per SSA value: its lowered home */
    const MtLinear **home;    /* per SSA value: its home layout, NULL for cheap and scalar values */
    LAxis *axis;              /* per SSA value (axis.c) */
    uint8_t *cheap;           /* per SSA value: recomputed where needed */
    uint8_t *strong;          /* per SSA value: its home comes from a tl.dot (elementwise users keep it) */
    const MtInst **def;       /* per SSA value: the instruction whose dst it is (NULL: none) */
    const MtInst **sum_of;    /* per tl.dot result: the add that is its only use (acc + dot), or NULL */
    uint32_t *uses;           /* per SSA value: its uses */
    uint8_t *fused;           /* per SSA value: an add the tl.dot feeding it computed (lower_dot.c) */
    bool tensor_cores;        /* MtKernelOptions.tensor_cores */
    int sm;                   /* MtKernelOptions.sm: the target */
    MT_VEC(LMemo) memo;
    MT_VEC(LBase) bases;
    uint32_t depth;           /* open regions */
    const KExpr *lane, *warp; /* this thread's lane, and its warp within its program */
    const KExpr *slot;        /* this thread's program within the block (0 when one per block) */
    KVarId grid[3];           /* the program grid (hidden parameters) */
    uint32_t next_name;       /* for generated names */
    uint64_t scratch_top;     /* bytes of the shared pool the current use holds */
    uint64_t scratch_floor;   /* where scratch uses start: past the stages of the loops being lowered */
    LPipe *pipes;             /* lower_pipe.c */
    const LTile **tile_of;    /* per SSA value: the ring tile it is (lower_pipe.c), NULL */
    bool failed;
} Lw;

void lw_fail(Lw *L, const MtInst *in, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
const char *lw_name(Lw *L, const char *prefix);
/* A layout interned in the arena (pointer identity is not equality: use mt_ll_equal). */
const MtLinear *lw_layout(Lw *L, MtLinear l);
MtDtype lw_dtype(const MtType *t);   /* the element dtype of a value type (int64 offsets for pointers) */

/* The value of v in layout ll (NULL ll: v's home or uniform), computed,
 * reused or converted as needed. */
LVal lw_get(Lw *L, MtVal v, const MtLinear *ll);
/* The value of v wherever it is: its home, or (a cheap value) the default
 * layout of its type, or uniform. */
LVal lw_get_any(Lw *L, MtVal v);
/* The coalescing default layout of a block type. */
const MtLinear *lw_default_layout(Lw *L, const MtType *t);
/* Element r (a register index expression) of a lowered value read by a
 * consumer in layout `as` (whose registers map onto lv's). */
const KExpr *lw_elem(Lw *L, const LVal *lv, const MtLinear *as, uint32_t r);
/* A fresh register array of dt under ll. */
LVal lw_new_regs(Lw *L, MtDtype dt, const MtLinear *ll, const char *prefix);
/* This thread's coordinate along dim d of register r of layout ll. */
const KExpr *lw_coord(Lw *L, const MtLinear *ll, int d, uint32_t r);
/* Whether this thread is the one that owns register r of ll among the
 * threads holding the same element (stores and atomics happen once). */
const KExpr *lw_owner(Lw *L, const MtLinear *ll);

/* Shared memory is one pool of scratch bytes. Each use of it (a layout
 * conversion, a reduction's exchange, a tl.dot's staging) begins with
 * lw_scratch_begin, allocates its arrays with lw_shared, and emits a
 * barrier before its first write: its arrays then reuse the bytes of
 * every earlier use, whose reads all happen before that barrier. The
 * pool is as large as the largest use. */
void lw_scratch_begin(Lw *L);
/* A shared array of n elements of dt for each program of the block; the
 * element i of this program's share is at *base + i. */
KVarId lw_shared(Lw *L, MtDtype dt, uint32_t n, const char *prefix, const KExpr **base);
/* The same with each program's share aligned to `align` bytes (a power
 * of two, at least 16; the pool's alignment rises to it). */
KVarId lw_shared_aligned(Lw *L, MtDtype dt, uint32_t n, uint32_t align, const char *prefix, const KExpr **base);
/* lw_shared_aligned below every later use of scratch, until scratch_floor
 * is set back (the stages of a loop, lower_pipe.c). */
KVarId lw_shared_keep(Lw *L, MtDtype dt, uint32_t n, uint32_t align, const char *prefix, const KExpr **base);

/* axis.c */
void lw_axis_analysis(Lw *L);

/* lower_mem.c */
/* Operand i of `in` in layout ll (projected to its shape), or uniform. */
LVal lw_operand(Lw *L, const MtInst *in, uint32_t i, const MtLinear *ll);
void lw_load(Lw *L, const MtInst *in);
/* The widest access (elements) a load or store of `esize`-byte elements
 * through pointer p in layout ll can make (a run of registers, at most 16
 * bytes, consecutive aligned addresses, mask and other constant over it). */
uint32_t lw_vector_width(Lw *L, const MtLinear *ll, uint32_t esize, MtVal p, MtVal mask, MtVal other,
                         const MtType *shape);
void lw_store(Lw *L, const MtInst *in);
/* Lower a nest's region (a combine function) with its arguments bound to
 * scalar expressions; returns its terminator (whose operands are the
 * region's results), NULL for an empty region. */
const MtInst *lw_inline_combine(Lw *L, const MtBody *body, const KExpr *const *args);

/* lower_reduce.c: reductions (OC_REDUCE, tl.reduce) and scans (OC_SCAN,
 * tl.associative_scan); the homes of their results */
void lw_reduce(Lw *L, const MtInst *in);
void lw_scan(Lw *L, const MtInst *in);
const MtLinear *lw_reduce_home(Lw *L, const MtInst *in);   /* NULL: a scalar */
const MtLinear *lw_scan_home(Lw *L, const MtType *t, int axis);
/* lower_shape.c: shape operations and hints */
bool lw_shape_cheap(const Lw *L, const MtInst *in);
const MtLinear *lw_shape_home(Lw *L, const MtInst *in);
LVal lw_shape(Lw *L, const MtInst *in, const MtLinear *ll);
/* lower_dot.c */
const MtLinear *lw_dot_layout(Lw *L, const MtInst *in);
/* Whether a dot's operands and shape suit the tensor cores, the warps
 * aside (the launch shape asks before it chooses them). */
bool lw_dot_suits_tensor_cores(Lw *L, const MtInst *in);
/* Whether it would run on the warpgroups (wgmma) of a 4-warp program,
 * and whether it does in this program. */
bool lw_dot_suits_warpgroups(Lw *L, const MtInst *in);
bool lw_dot_on_warpgroups(Lw *L, const MtInst *in);
/* Whether a dot runs on tensor cores (its operands suit them and the
 * program's warps tile its result), and its operands' dtype there. */
bool lw_dot_on_tensor_cores(Lw *L, const MtInst *in, MtDtype *operand_dt);
/* Whether a dot reads its operands from the stages of lower_pipe.c when
 * they are there (on tensor cores, or f32 tiles as they are on CUDA
 * cores, given MtKernelOptions.tensor_cores), and their dtype. */
bool lw_dot_reads_stages(Lw *L, const MtInst *in, MtDtype *operand_dt);
/* How such a dot reads operand `operand` (0: A, 1: B) as it is, from a
 * tile in shared memory (the stages hold it so). */
LTileShape lw_dot_operand_tile(Lw *L, const MtInst *dot, int operand);
/* The element index of [row][col] of a tile that starts at element `at`. */
const KExpr *lw_tile_index(Lw *L, const LTileShape *t, const KExpr *at, const KExpr *row, const KExpr *col);
/* The elements a tile spans, and the alignment (bytes) its start needs. */
uint32_t lw_tile_elems(const LTileShape *t);
uint32_t lw_tile_align(const LTileShape *t);
void lw_dot(Lw *L, const MtInst *in);
/* lower_pipe.c: find the chains (after the axis analysis); copy a tile
 * into its stage (lw_load of a value with a tile_of); a loop's pipe (NULL:
 * none), its stage counter (before the loop), the value of a carried tile,
 * the wait at the top of an iteration, the counter's step at its end, and
 * the drain after the loop (and the wait for a dot still in flight) */
void lw_plan_pipes(Lw *L);
void lw_pipe_load(Lw *L, const MtInst *in);
LPipe *lw_pipe_of(Lw *L, const MtInst *loop);
void lw_pipe_enter(Lw *L, LPipe *p);
LVal lw_pipe_value(Lw *L, const LPipe *p, MtVal arg);
void lw_pipe_iteration(Lw *L, const LPipe *p);
void lw_pipe_advance(Lw *L, const LPipe *p);
void lw_pipe_leave(Lw *L, const LPipe *p);
/* The pipe whose carried accumulator `dot` adds into in place (NULL: none). */
LPipe *lw_pipe_accumulating(Lw *L, const MtInst *dot);
/* lower_atomic.c: OC_ATOMIC and tl.debug_barrier; the home of an atomic's
 * result; why an atomic cannot be lowered for the target (NULL: it can) */
void lw_atomic(Lw *L, const MtInst *in);
void lw_debug_barrier(Lw *L);
const MtLinear *lw_atomic_home(Lw *L, const MtInst *in);
const char *lw_atomic_refusal(Lw *L, const MtInst *in);
/* convert.c */
LVal lw_convert(Lw *L, const LVal *from, const MtLinear *to, MtDtype dt);
/* The row-major position of register r of ll in its shape. */
const KExpr *lw_position(Lw *L, const MtLinear *ll, uint32_t r);

#endif
