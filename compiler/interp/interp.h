/* interp.h: the CPU interpreter's internal interface, shared by its four
 * files:
 *
 *   plan.c     optimised SSA -> a Plan: every value gets a fixed place in
 *              a per-thread frame, every instruction becomes a Step with
 *              its kind, operand offsets, broadcast modes and (for block
 *              work) the function pointer of its loop;
 *   kernels.c  the tight loops those kernels are: elementwise ops per type,
 *              conversions, reductions in the CUDA tree order, dot, fills;
 *   memory.c   bounds-checked masked loads and stores, one block row at a
 *              time;
 *   atomic.c   tl.atomic_* rows: compare-and-swap loops on shared buffers;
 *   debug.c    tl.device_print's lines and tl.device_assert's check;
 *   exec.c     step runners, loops, program instances on threads, faults
 *              and mt_interpret.
 *
 * A frame is one flat byte array per thread. A value's elements live at a
 * fixed byte offset, dense and row-major, in their dtype's storage
 * (dtypes.def's size): bool as one byte (0 or 1), i8 ... u64 as C
 * integers, f16 and bf16 as their 16 bits, f32 as float, f64 as double,
 * and a pointer as int64_t element offsets into one argument buffer, whose
 * index sits in the int64_t just before the offsets (so copying or
 * aliasing a pointer value carries its buffer).
 * Scalars are blocks of one element. Nothing in a frame is shared between
 * threads, and the plan is read-only while threads run.
 */
#ifndef MT_INTERP_H
#define MT_INTERP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ssa/ssa.h"

/* Elements moved without regard to their type (loads, stores, select,
 * fills): any type of that size may be accessed through them. */
typedef uint16_t Bits16 __attribute__((__may_alias__));
typedef uint32_t Bits32 __attribute__((__may_alias__));
typedef uint64_t Bits64 __attribute__((__may_alias__));

/* Element kinds of frame values: a dtype (MtDtype), or a pointer. */
typedef uint8_t ElemKind;
enum { EK_PTR = MT_DTYPE_COUNT, EK_COUNT_ };

/* How an operand meets the result's shape (rows x cols, rank-1 results
 * being one row): the same shape, one element for all, one row for every
 * row (1 x cols), or one element per row (rows x 1). */
typedef enum BcMode { BC_FULL, BC_SCALAR, BC_ROW, BC_COL } BcMode;

/* Elementwise kernels run over n elements; bit i of `sc` says operand i is
 * a scalar (one element read for all n). */
typedef void (*BinFn)(void *restrict o, const void *restrict a, const void *restrict b, size_t n, unsigned sc);
/* Integer // and %: returns false, writing nothing, when a divisor is 0. */
typedef bool (*DivFn)(void *restrict o, const void *restrict a, const void *restrict b, size_t n, unsigned sc);
typedef void (*UnFn)(void *restrict o, const void *restrict a, size_t n);
typedef void (*TernFn)(void *restrict o, const void *restrict a, const void *restrict b, const void *restrict c,
                       size_t n, unsigned sc);
typedef void (*SelFn)(void *restrict o, const uint8_t *restrict c, const void *restrict a, const void *restrict b,
                      size_t n, unsigned sc);
/* Along the middle axis of an (outer, n, inner) block; scratch holds n/2 * inner elements. */
typedef void (*ReduceFn)(void *restrict out, const void *restrict in, void *restrict scratch, size_t outer,
                         size_t n, size_t inner);
typedef void (*ScanFn)(void *restrict out, const void *restrict in, size_t outer, size_t n, size_t inner,
                       bool reverse);

/* One row of a load or store: n lanes, each operand either n elements or
 * one (its *_sc flag). mask NULL: every lane is active. val: a load's
 * `other` (NULL: zero) or a store's value. */
typedef struct MemRow {
    const int64_t *off;
    const uint8_t *mask;
    const void *val;
    const void *cmp;          /* atomic_cas: the compared values (val: the new ones); else NULL */
    void *out;                /* load and atomic result */
    size_t n;
    bool off_sc, mask_sc, val_sc, cmp_sc;
} MemRow;

/* A buffer argument as the kernels see it. */
typedef struct ArgBuf {
    void *data;
    int64_t numel;
} ArgBuf;

/* Each returns the first faulting lane (an active lane whose offset is
 * outside [0, numel)) without touching memory for it, or -1. */
typedef int64_t (*LoadRowFn)(const MemRow *r, const void *restrict data, int64_t numel);
typedef int64_t (*StoreRowFn)(const MemRow *r, void *restrict data, int64_t numel);

typedef struct Exec Exec;

/* What a step does; exec.c dispatches on it. */
typedef enum StepKind {
    S_BINARY,                 /* u.bin over a[0], a[1] with broadcasting */
    S_DIV,                    /* u.div: integer // or %, may fault */
    S_ADDPTR,                 /* addptr: offsets plus i32, carrying a[0]'s buffer */
    S_UNARY,                  /* u.un over a[0], same shape (ops and conversions) */
    S_SELECT,                 /* u.sel: a[0] ? a[1] : a[2] with broadcasting */
    S_TERNARY,                /* u.tern over a[0], a[1], a[2] with broadcasting (fma) */
    S_LOAD,                   /* u.load: pointer a[0], mask a[1], other a[2] */
    S_STORE,                  /* u.store: pointer a[0], value a[1], mask a[2] */
    S_ATOMIC,                 /* u.atomic: pointer a[0], value a[1], mask a[2] (atomic_cas: cmp a[1], value a[2]) */
    S_PRINT,                  /* u.print: every element of a[0] on a line */
    S_ASSERT,                 /* condition a[0] (u.print.ek, shape u.print), mask a[1] (bool, the same shape) */
    S_REDUCE,                 /* u.red: a[0] along its middle axis, scratch at a[1] */
    S_SCAN,                   /* u.scan: a[0] along its middle axis */
    S_COPY,                   /* u.copy: a strided copy of a[0] into a dense result (broadcast, permute) */
    S_DOT,                    /* a[0] (rows x k) @ a[1] (k x cols) */
    S_PROGRAM_ID,             /* u.axis */
    S_NUM_PROGRAMS,           /* u.axis */
    S_ARANGE,                 /* u.start + lane */
    S_ZEROS,                  /* all bits zero */
    S_FILL,                   /* the element at a[0], or u.pattern when a[0] is NO_OFF */
    S_FOR,                    /* u.loop; start a[0], stop a[1], a runtime step a[2] */
    S_IF,                     /* condition a[0]: the steps up to u.branch.mid, else those from there to next */
    S_WHILE,                  /* u.wloop; the condition region's steps, its condition at a[0], the body */
    S_YIELD,                  /* u.yield */
} StepKind;

enum { NO_OFF = UINT32_MAX };

/* Frames stay addressable with 32-bit offsets. */
#define MT_INTERP_FRAME_LIMIT ((uint64_t)1 << 31)

/* A copy of `bytes` bytes from one frame offset to another (loop inits,
 * yields, results); pointer values are copied with their buffer index. */
typedef struct Copy {
    uint32_t src, dst, bytes;
} Copy;

typedef struct Step Step;
struct Step {
    uint8_t kind;             /* StepKind */
    const MtInst *in;         /* the instruction, for fault reports */
    uint32_t next;            /* index of the step after this one (past a loop body) */
    uint32_t out;             /* result offset, NO_OFF for none */
    uint32_t a[3];            /* operand offsets, NO_OFF for an absent one */
    uint8_t mode[3];          /* BcMode per operand */
    uint8_t asz[3];           /* element size per operand */
    uint8_t osz;              /* element size of the result */
    bool flat;                /* every operand FULL or SCALAR: one pass over n */
    unsigned sc;              /* flat: bit i set when operand i is SCALAR */
    uint32_t n;               /* result elements */
    uint32_t rows, cols;      /* the result as rows x cols */
    union {
        BinFn bin;
        DivFn div;
        UnFn un;
        SelFn sel;
        TernFn tern;
        struct {
            ReduceFn fn;      /* scratch at a[1] */
            uint32_t outer, n, inner;
        } red;
        struct {
            ScanFn fn;
            uint32_t outer, n, inner;
            bool reverse;
        } scan;
        struct {
            int32_t n[4];     /* result shape, padded with leading 1s */
            int64_t ss[4];    /* source strides in elements */
            bool ptr;         /* pointer elements: the buffer index goes along */
        } copy;
        LoadRowFn load;
        StoreRowFn store;
        struct { int op; uint8_t ek; } atomic;
        struct {
            const char *text;         /* print: the prefix; assert: the message */
            uint8_t ek, rank;         /* the operand's kind and shape */
            int32_t shape[MT_MAX_RANK];
            uint16_t operand, noperands; /* print: "(operand n)" when noperands > 1 */
            bool hex;
        } print;
        struct { uint32_t k; bool tf32; } dot; /* inner dimension: a is rows x k, b is k x cols; operands rounded to TF32 */
        int axis;                       /* program_id, num_programs */
        int32_t start;                  /* arange */
        uint64_t pattern;               /* fill without an operand (empty): the poison bits (the low bytes) */
        struct {
            uint32_t iv;                /* induction variable offset */
            int64_t step;               /* a constant step; a runtime one is at a[2] */
            uint8_t ivk;                /* the induction variable's kind (an integer dtype) */
            uint32_t body;              /* first body step; the body ends at `next` */
            const Copy *init, *result;  /* inits -> region arguments, arguments -> results */
            uint32_t ncopies;
        } loop;
        struct {
            uint32_t mid;               /* first step of the else region */
        } branch;
        struct {
            const Copy *init, *fwd, *result; /* inits -> carried; forwarded -> body arguments; -> results */
            uint32_t ninit, nfwd;
            uint32_t body;              /* first step of the body (the condition region's steps precede it) */
        } wloop;
        struct {
            const Copy *copies;         /* yielded values -> region arguments */
            uint32_t ncopies;
            uint32_t staging;           /* offset of a staging area when sources overlap targets, else NO_OFF */
        } yield;
    } u;
};

/* Bytes to write into every frame before it runs: constants and the
 * launch's scalar and pointer parameters. */
typedef struct Preset {
    uint32_t off;
    uint8_t size;
    uint8_t bytes[8];
} Preset;

typedef struct ParamSlot {
    uint32_t off;
    uint32_t index;           /* runtime parameter index */
    uint8_t ek;
} ParamSlot;

typedef struct Plan {
    size_t frame_size;        /* bytes per frame */
    Step *init;               /* launch-invariant steps, run once per frame */
    uint32_t ninit;
    Step *main;               /* per program instance; loop bodies nested by index */
    uint32_t nmain;
    Preset *presets;
    uint32_t npresets;
    ParamSlot *params;
    uint32_t nparams;
    uint64_t work;            /* elements the main steps touch per program (loop bodies once) */
} Plan;

/* A fault of one program instance. */
typedef enum FaultKind {
    FAULT_NONE, FAULT_LOAD, FAULT_STORE, FAULT_DIV, FAULT_CANCELLED, FAULT_ATOMIC, FAULT_ASSERT
} FaultKind;

typedef struct Fault {
    FaultKind kind;
    const MtInst *in;
    int64_t program;          /* linear id: x + gx * (y + gy * z) */
    int32_t pid[3];
    uint32_t arg;             /* LOAD/STORE: argument index */
    int64_t index;            /* LOAD/STORE: element offset; ASSERT: the failing element */
} Fault;

/* One thread's tl.device_print output: its text, and where each program's
 * part begins (programs in increasing order, as the thread ran them). */
typedef struct PrintChunk {
    int64_t program;
    size_t at;
} PrintChunk;

typedef struct PrintOut {
    char *text;
    size_t len, cap;
    PrintChunk *chunks;
    size_t nchunks, capchunks;
    bool truncated;           /* MT_INTERP_PRINT_LIMIT reached: later lines dropped */
} PrintOut;

#define MT_INTERP_PRINT_LIMIT ((size_t)1 << 24)

struct Exec {
    char *mem;                /* the frame (64-byte aligned) */
    const ArgBuf *args;       /* per runtime parameter; data NULL for scalars */
    int32_t pid[3];
    int32_t grid[3];          /* tl.num_programs */
    const _Atomic bool *cancel; /* polled once per loop iteration */
    Fault fault;              /* set when a step fails */
    int64_t program;          /* linear id of the program running */
    PrintOut *out;            /* device_print's output; NULL: dropped */
};

/* Build the plan of f (verified, optimised SSA) in the context's arena.
 * Raises through mt_throw on out of memory, so call it under mt_protect.
 * Returns false when the values of one program instance do not fit a
 * frame (MT_INTERP_FRAME_LIMIT bytes); out->frame_size then says how many
 * bytes they would need. */
bool mt_interp_plan(MtCtx *c, const MtFunc *f, Plan *out);

/* Run f for every program instance of grid: the engine behind
 * mt_interpret, usable directly on SSA read from text. `kernel` names the
 * kernel in messages; launch errors (R0703) are reported at `where`. */
MtStatus mt_interp_func(MtCtx *c, const MtFunc *f, const char *kernel, MtSpan where, const int64_t grid[3],
                        const MtKernelArg *args, size_t nargs, const MtInterpOptions *opt);

/* ---- kernels.c: lookups return NULL for a combination the verifier rejects */

BinFn mt_interp_binary_fn(int op, ElemKind ek);   /* ek: the computation type of both operands */
DivFn mt_interp_div_fn(int op, ElemKind ek);      /* OP_FLOORDIV, OP_MOD on integers */
BinFn mt_interp_addptr_fn(ElemKind off);          /* int64 offsets + i32 or i64 offsets -> int64 offsets */
UnFn mt_interp_unary_fn(int op, ElemKind ek);
TernFn mt_interp_ternary_fn(int op, ElemKind ek); /* math.def rows of three operands */
/* Triton's cast from one dtype to another (tl.cast); toward_zero: a float
 * narrowing with fp_downcast_rounding='rtz'. */
UnFn mt_interp_convert_fn(ElemKind from, ElemKind to, bool toward_zero);
SelFn mt_interp_select_fn(size_t esize);
ReduceFn mt_interp_reduce_fn(int op, ElemKind ek);
ScanFn mt_interp_scan_fn(int op, ElemKind ek);
void mt_interp_copy(void *restrict dst, const void *restrict src, const int32_t n[4], const int64_t ss[4],
                    size_t esize);
void mt_interp_dot(float *restrict c, const float *restrict a, const float *restrict b, uint32_t m, uint32_t k,
                   uint32_t n, bool tf32);
void mt_interp_arange(int32_t *o, int32_t start, size_t n);
/* esize 1, 2, 4 or 8 */
void mt_interp_fill(void *restrict o, const void *restrict value, size_t esize, size_t n);

/* ---- memory.c */

/* Rows of esize-byte elements; bool normalises loaded bytes to 0 or 1. */
LoadRowFn mt_interp_load_fn(size_t esize, bool is_bool);
StoreRowFn mt_interp_store_fn(size_t esize);

/* ---- atomic.c */

/* One row of atomic operation op (OP_ATOMIC_*) on elements of kind ek:
 * the old values into r->out; the first faulting lane (as a store's) or -1. */
int64_t mt_interp_atomic_row(const MemRow *r, int op, ElemKind ek, void *restrict data, int64_t numel);

/* ---- debug.c */

/* device_print of one value: its lines appended to x->out (malloc'd: the
 * caller frees out->text and out->chunks). */
void mt_interp_print(Exec *x, const Step *s);
/* device_assert: the first element where the mask holds and the condition
 * is 0, or -1. */
int64_t mt_interp_assert(const Exec *x, const Step *s);

/* Element size of a kind in a frame. */
static inline size_t mt_interp_esize(ElemKind ek)
{
    return ek == EK_PTR ? 8 : mt_dtype_info((MtDtype)ek)->size;
}

#endif
