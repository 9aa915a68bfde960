/* kir.h: the kernel layer, a per-thread program for one CUDA thread block.
 *
 * The SSA says what a program instance computes on whole blocks; layouts
 * say which thread holds which element. Lowering (kernel/lower*.c) turns
 * the two into this IR: what ONE thread of the block does, with thread
 * and register coordinates, per-thread register arrays, shared-memory
 * buffers, barriers, warp shuffles and structured control flow. Every
 * decision about the per-thread code is made there, once; the backends
 * only print it: cuda/kcuda.c as CUDA C++, the MLIR backend through the
 * MLIR C API, and kernel/kprint.c as text for `--emit kernel`.
 *
 * Shape of the IR (all arena-owned, built once; afterwards only
 * kernel/schedule.c reorders statements within their lists):
 *   - variables: kernel parameters, scalar locals, register arrays
 *     (`float v5[8]`, indexed only by compile-time expressions once
 *     register loops are unrolled) and shared-memory arrays;
 *   - expressions: immutable trees over constants, variables, array
 *     elements, thread/block indices, operators, casts, math functions,
 *     global loads and warp shuffles; every node carries its dtype;
 *   - statements: declarations, assignments, global stores, shared-memory
 *     stores, if/else, counted loops (runtime loops and unrolled register
 *     loops), while loops, barriers, atomics; each carries the source
 *     range of the SSA operation it implements.
 * Integers are two's complement in their dtype's width (wrap-around);
 * floats are IEEE with one rounding per operation (no contraction unless
 * a K_FMA says so). */
#ifndef MT_KIR_H
#define MT_KIR_H

#include <stdbool.h>
#include <stdint.h>

#include "base/ctx.h"
#include "base/strbuf.h"
#include "layout/linear.h"
#include "ssa/ssa.h"
#include "ssa/ops.h"

typedef uint32_t KVarId;      /* index into KFunc.vars; 0 = none */

typedef enum KVarKind {
    KV_PARAM,                 /* a kernel parameter (scalar, or a global pointer when ptr) */
    KV_LOCAL,                 /* a scalar local */
    KV_REGS,                  /* a per-thread register array of n elements */
    KV_SHARED,                /* a shared-memory array of n elements: a view of the block's
                               * shared pool at byte `offset` (views whose uses cannot overlap
                               * in time share bytes; see lw_scratch_begin) */
} KVarKind;

typedef struct KVar {
    const char *name;         /* the C name */
    uint8_t kind;             /* KVarKind */
    uint8_t dt;               /* MtDtype of the value (a pointer's pointee) */
    bool ptr;                 /* KV_PARAM: a global pointer */
    uint32_t n;               /* KV_REGS, KV_SHARED: elements */
    uint32_t offset;          /* KV_SHARED: byte offset in the shared pool (16-byte aligned) */
} KVar;

typedef enum KOp {
    K_CONST,                  /* u.c converted to dt */
    K_VAR,                    /* u.var (a scalar param or local) */
    K_ELEM,                   /* u.var[a0] (register or shared array) */
    K_SPECIAL,                /* u.special */
    /* unary */
    K_NEG, K_BNOT, K_LNOT, K_ABS,
    /* binary, operands of dt (comparisons: operands of u.cmp_dt, result bool) */
    K_ADD, K_SUB, K_MUL, K_DIV, K_REM, K_BAND, K_BOR, K_BXOR, K_SHL, K_SHR, K_LAND, K_LOR,
    K_LT, K_LE, K_GT, K_GE, K_EQ, K_NE,
    K_MAX, K_MIN,             /* NaN-propagating, ties give a1 (floats) */
    K_FMAX, K_FMIN,           /* IEEE maxNum/minNum: a NaN operand is ignored (fmaxf) */
    K_FMA,                    /* a0 * a1 + a2, one rounding */
    K_UMULHI,                 /* the high half of the unsigned 2N-bit product of a0 and a1 */
    K_SELECT,                 /* a0 ? a1 : a2 */
    K_CAST,                   /* a0 converted to dt (value conversion, saturating float->int; u.mode: MtRounding) */
    K_BITCAST,                /* a0's bits as dt (the same width) */
    K_MATH,                   /* math.def function u.math on its operands */
    K_LOAD,                   /* global load u.var[a0] of dt; u.vec > 1: a vector of that many, element a1 */
    K_SHFL_XOR,               /* __shfl_xor_sync(full mask, a0, u.lane_mask) */
    K_COUNT_
} KOp;

typedef enum KSpecial {
    KS_TID,                   /* threadIdx.x */
    KS_BID_X, KS_BID_Y, KS_BID_Z, /* blockIdx */
    KS_LANE,                  /* threadIdx.x % 32 */
    KS_WARP,                  /* threadIdx.x / 32 */
} KSpecial;

typedef struct KExpr KExpr;
struct KExpr {
    uint8_t op;               /* KOp */
    uint8_t dt;               /* MtDtype of the result */
    uint8_t nargs;
    const KExpr *a[3];
    union {
        MtConst c;            /* K_CONST */
        KVarId var;           /* K_VAR, K_ELEM, K_LOAD */
        uint8_t special;      /* K_SPECIAL */
        uint8_t cmp_dt;       /* comparisons: the operands' dtype */
        uint16_t math;        /* K_MATH: the MtOpcode of the math.def row */
        uint32_t lane_mask;   /* K_SHFL_XOR */
        uint8_t mode;         /* K_CAST: MtRounding of a float narrowing */
    } u;
    uint8_t vec;              /* K_LOAD: vector width (1 = scalar) */
};

typedef struct KStmt KStmt;
typedef MT_VEC(KStmt *) KBlock;

typedef enum KStmtKind {
    KST_DECL,                 /* declare u.set.var, initialised with u.set.value when set */
    KST_SET,                  /* u.set.var (or u.set.var[u.set.index]) = u.set.value */
    KST_STORE,                /* global store u.store.ptr[index] = value, when mask (or no mask) */
    KST_VLOAD,                /* u.vec.var[first..first+vec) = ptr[index..index+vec), one aligned access
                               * (ptr a parameter, or a KV_SHARED array read without a mask), when mask,
                               * else the `other` values (zero when NULL) */
    KST_VSTORE,               /* ptr[index..index+vec) = u.vec.var[first..first+vec), one aligned access, when mask */
    KST_IF,                   /* if (cond) then else */
    KST_FOR,                  /* for (iv = start; iv < stop; iv += step) body; unroll: a hint (0 none, -1 all) */
    KST_WHILE,                /* while (cond) body */
    KST_BARRIER,              /* __syncthreads() */
    KST_LDMATRIX,             /* one warp's tensor-core fragments from shared memory (PTX
                               * ldmatrix.sync.aligned.m8n8.x2/x4[.trans].b16): see u.ldm */
    KST_MMA,                  /* one warp's tensor-core multiply-add of a 16 x 8 tile (PTX
                               * mma.sync m16n8k16 of f16 or bf16 operands, m16n8k8 of TF32
                               * ones, f32 accumulators) from register fragments: see u.mma */
    KST_ATOMIC,               /* one atomic read-modify-write of global memory: see KAtomic */
    KST_CP_ASYNC,             /* smem[smem_at ..] = ptr[index ..], u.cp.bytes (4, 8 or 16, aligned at both
                               * ends) copied without registers (PTX cp.async), zeros when mask is false;
                               * the copy lands by a KST_CP_WAIT that covers its group */
    KST_CP_COMMIT,            /* this thread's copies since the last commit form a group (cp.async.commit_group) */
    KST_CP_WAIT,              /* wait until at most u.pending of this thread's groups are in flight
                               * (cp.async.wait_group); other threads see the copies after a barrier */
    KST_PROXY_FENCE,          /* this thread's writes to shared memory become visible to the tensor
                               * core's reads of it, which a barrier then orders (fence.proxy.async) */
    KST_WGMMA,                /* one warpgroup's asynchronous tensor-core multiply-add of a 64 x n tile
                               * (PTX wgmma.mma_async m64nNk16 of halves, m64nNk8 of TF32, sm_90a), B (and
                               * A of halves) read from shared memory through descriptors: see u.wg */
    KST_WGMMA_FENCE,          /* the accumulators u.wg.acc as written before it are what the next
                               * KST_WGMMA reads (wgmma.fence) */
    KST_WGMMA_COMMIT,         /* the warpgroup's KST_WGMMAs since the last commit form a group */
    KST_WGMMA_WAIT,           /* wait until at most u.wg.pending of the groups are in flight: the
                               * accumulators u.wg.acc are then written and the operands read;
                               * u.wg.more: wgmmas into them follow before they are read (a loop's
                               * accumulator in flight) */
    KST_BLANK,                /* an empty line (formatting) */
} KStmtKind;

/* dst (dst[dst_index] for a register array) = the old value of
 * ptr[index], and ptr[index] = op(old, value) in one atomic operation:
 * op is an OC_ATOMIC opcode (atomic_cas: value where old equals cmp bit
 * for bit; atomic_xchg: value), done on memory viewed as dt, of the
 * pointee's width (max and min compare by dt's signedness; the lowering
 * gives float dtypes to add only, integer views to the rest). It is
 * ordered by sem (MtMemSem) at scope (MtMemScope), as PTX's atom.sem.scope.
 * When mask is false nothing is accessed and dst = 0. value and cmp are
 * of dt; so is dst. */
typedef struct KAtomic {
    KVarId ptr, dst;
    const KExpr *index, *value, *cmp, *mask, *dst_index;
    uint16_t op;              /* MtOpcode */
    uint8_t dt, sem, scope;
} KAtomic;

struct KStmt {
    uint8_t kind;             /* KStmtKind */
    MtSpan span;              /* source range of the SSA operation it implements */
    uint32_t inl;             /* inline site of that operation */
    union {
        struct { KVarId var; const KExpr *index, *value; } set;          /* DECL, SET */
        struct { KVarId ptr; const KExpr *index, *value, *mask; uint8_t vec; } store;
        struct {
            KVarId ptr, var;
            uint32_t first;
            const KExpr *index, *mask;
            const KExpr **other;  /* VLOAD: vec values, or NULL */
            uint8_t vec;
        } vec;
        struct { const KExpr *cond; KBlock then, els; } if_;
        struct { KVarId iv; const KExpr *start, *stop; int64_t step; KBlock body; int unroll; } for_;
        struct { const KExpr *cond; KBlock body; } while_;
        /* For matrix j < count (2 or 4) of 8 x 8 elements of dt (f16 or
         * bf16), lanes 8j to 8j + 7 of the warp give the addresses of its
         * rows, smem[row_at], eight elements each, 16-byte aligned. Thread
         * t receives in dst[first + j] (a u32 register array) the two
         * elements of row (t % 32) / 4 at columns 2 (t % 4) and + 1 of
         * matrix j -- with trans, of its transpose -- packed low half
         * first. */
        struct { KVarId dst, smem; uint32_t first; const KExpr *row_at; uint8_t count, dt; bool trans; } ldm;
        /* acc[index + i] += sum over k < K of A[r][k] * B[k][c] for the
         * thread's four elements i of the warp's 16 x 8 tile: i = 0, 1 at
         * row g, columns 2t, 2t+1; i = 2, 3 at row g + 8 (g = lane / 4,
         * t = lane % 4). A and B are the warp's fragments, mma.sync's
         * layouts over the lanes l of the warp (k_mma_k gives K):
         *   in_dt f16 or bf16, K = 16, halves packed in pairs in u32 arrays:
         *     A[r][k] half k % 2 of a[a_first + r / 8 + 2 (k / 8)] of lane (r % 8) 4 + (k % 8) / 2,
         *     B[k][c] half k % 2 of b[b_first + k / 8] of lane 4 c + (k % 8) / 2;
         *   in_dt f32 (TF32, already rounded), K = 8, one value per element:
         *     A[r][k] = a[a_first + r / 8 + 2 (k / 4)] of lane (r % 8) 4 + k % 4,
         *     B[k][c] = b[b_first + k / 4] of lane 4 c + k % 4. */
        struct { KVarId acc, a, b; const KExpr *index; uint32_t a_first, b_first; uint8_t in_dt; } mma;
        /* For the warpgroup of this thread (threads 128w to 128w + 127 of
         * the block): D[r][c] += sum over k < K of A[r][k] * B[k][c] for
         * r < 64, c < n, with D the warpgroup's accumulators in
         * acc[acc_first ..], wgmma's layout: thread t of the warpgroup holds
         * element i < n / 2 at row 16 (t / 32) + (t % 32) / 4 + 8 ((i / 2) % 2),
         * column 8 (i / 4) + 2 (t % 4) + i % 2. in_dt f16 or bf16: K = 16,
         * A and B halves in shared memory; in_dt f32 (TF32): K = 8, A in
         * registers (a_in_regs), B in shared memory, K-major (b_k_major),
         * the tensor core reading each value's TF32 bits (the 13 low bits
         * of its mantissa dropped). In shared memory an operand is in a
         * canonical layout of swizzle width a_swizzle / b_swizzle bytes W
         * (32, 64 or 128), starting at element a_at / b_at of smem (the
         * descriptor's start address, its byte address s). With e the
         * element size, A's [r][k] is at byte
         *     s + (r / 8) a_sbo + (r % 8) W + k e                 (K-major)
         * and B's [k][c], N-major (the tile as it is, [K][N]), at
         *     s + (c e / W) b_lbo + (c e % W) + (k / 8) b_sbo + (k % 8) W,
         * or K-major (b_k_major: the tile [N][K]) at
         *     s + (c / 8) b_sbo + (c % 8) W + k e,
         * each address x then swizzled as the hardware does it, on the
         * pool's absolute addresses: bits 4 .. of x XOR ((x >> 7) & (W / 16 - 1)).
         * A in registers is mma.sync m16n8k8's A fragment for each warp w
         * of the warpgroup, its rows at 16 w: A[r][k] is register
         * a[a_first + (r % 16) / 8 + 2 (k / 4)] of the warpgroup's thread
         * 32 (r / 16) + 4 (r % 8) + k % 4. */
        struct {
            KVarId acc, a, b;
            const KExpr *a_at, *b_at;
            uint32_t acc_first, a_first, a_sbo, b_lbo, b_sbo, pending;
            uint16_t n;
            uint8_t in_dt, a_swizzle, b_swizzle;
            bool a_in_regs, b_k_major, more;
        } wg;
        KAtomic atomic;
        struct { KVarId smem, ptr; const KExpr *smem_at, *index, *mask; uint8_t bytes; } cp;
        uint32_t pending;     /* CP_WAIT */
    } u;
};

/* The k extent of one KST_MMA: 8 for TF32 operands, 16 for halves. */
static inline int k_mma_k(const KStmt *s) { return s->u.mma.in_dt == MT_DT_F32 ? 8 : 16; }

/* The k extent of one KST_WGMMA: 8 for TF32 operands, 16 for halves. */
static inline int k_wgmma_k(const KStmt *s) { return s->u.wg.in_dt == MT_DT_F32 ? 8 : 16; }

/* One kernel: what a thread block runs. */
typedef struct KFunc {
    const char *name;
    MT_VEC(KVar) vars;        /* vars.v[0] is unused (KVarId 0 = none) */
    MT_VEC(KVarId) params;    /* in launch order */
    KBlock shared;            /* KST_DECL of the KV_SHARED arrays */
    KBlock prologue;          /* what every thread computes first: lane, warp, coordinate bases */
    KBlock body;
    uint32_t threads;         /* threads per block (blockDim.x) */
    uint32_t programs_per_block; /* program instances along grid x that one block runs */
    uint64_t shared_bytes;    /* shared memory of the block: the pool's size */
    bool dynamic_shared;      /* the pool is over the 48 KiB a block may declare statically: the kernel
                               * declares it extern and the launch passes its size */
    bool chained_registers;   /* a loop passes a block from one carried slot to another in registers:
                               * tiles the prefetch pass loaded more than one iteration ahead that no
                               * shared-memory stages hold (the compile redoes it one ahead) */
    bool uses_f16, uses_bf16; /* the CUDA printer defines mt_f16 / mt_bf16 (cuda/khalf.c) */
    bool uses_wgmma;          /* warpgroup tensor-core instructions: code for sm_90a */
    uint32_t shared_align;    /* the pool's alignment in bytes: 16, or up to 1024 for swizzled tiles */
    /* Facts for tools, per value of the SSA it was lowered from: where a
     * block value lives (NULL for scalars and for cheap values, which are
     * computed where each consumer needs them). */
    const MtLinear *const *value_home;
    const uint8_t *value_cheap;
    uint32_t nvalues;
} KFunc;

/* ---- building (kir.c) ---------------------------------------------------------- */

KFunc *k_func_new(MtCtx *c, const char *name);
KVarId k_var(MtCtx *c, KFunc *f, KVarKind kind, MtDtype dt, uint32_t n, const char *name);
KVarId k_param(MtCtx *c, KFunc *f, const char *name, MtDtype dt, bool ptr);
static inline const KVar *k_var_at(const KFunc *f, KVarId v) { return &f->vars.v[v]; }

const KExpr *k_const(MtCtx *c, MtDtype dt, MtConst k);
const KExpr *k_int(MtCtx *c, MtDtype dt, int64_t i);
const KExpr *k_ref(MtCtx *c, const KFunc *f, KVarId v);
const KExpr *k_elem(MtCtx *c, const KFunc *f, KVarId v, const KExpr *index);
const KExpr *k_special(MtCtx *c, KSpecial s);
/* An operator node; comparisons get dt bool and remember the operand dtype. */
const KExpr *k_op(MtCtx *c, KOp op, MtDtype dt, const KExpr *a0, const KExpr *a1, const KExpr *a2);
const KExpr *k_cast(MtCtx *c, MtDtype dt, const KExpr *x);
/* A cast with tl.cast's rounding of a float narrowing (MtRounding). */
const KExpr *k_cast_rounding(MtCtx *c, MtDtype dt, const KExpr *x, int rounding);
const KExpr *k_bitcast(MtCtx *c, MtDtype dt, const KExpr *x);
const KExpr *k_math(MtCtx *c, int opcode, MtDtype dt, const KExpr *const *args, int n);
const KExpr *k_load(MtCtx *c, const KFunc *f, KVarId ptr, const KExpr *index, int vec, int lane);
const KExpr *k_shfl_xor(MtCtx *c, const KExpr *x, uint32_t lane_mask);
/* Integer helpers that fold constants (index arithmetic stays readable). */
const KExpr *k_add(MtCtx *c, const KExpr *a, const KExpr *b);
const KExpr *k_mul(MtCtx *c, const KExpr *a, const KExpr *b);
/* An integer constant's value (read by the backends too, so inline). */
static inline bool k_is_const(const KExpr *e, int64_t *out)
{
    if (e->op != K_CONST || e->u.c.kind == CST_FLOAT)
        return false;
    *out = e->u.c.i;
    return true;
}

/* Statements append to a block at the current source range. */
typedef struct KBuilder {
    MtCtx *c;
    KFunc *f;
    KBlock *block;            /* where statements go */
    MtSpan span;
    uint32_t inl;
} KBuilder;

KStmt *k_stmt(KBuilder *b, KStmtKind kind);
void k_decl(KBuilder *b, KVarId v, const KExpr *init);
void k_set(KBuilder *b, KVarId v, const KExpr *index, const KExpr *value);
void k_store(KBuilder *b, KVarId ptr, const KExpr *index, const KExpr *value, const KExpr *mask, int vec);
void k_vload(KBuilder *b, KVarId var, uint32_t first, KVarId ptr, const KExpr *index, int vec, const KExpr *mask,
             const KExpr **other);
void k_vstore(KBuilder *b, KVarId ptr, const KExpr *index, KVarId var, uint32_t first, int vec, const KExpr *mask);
void k_barrier(KBuilder *b);
void k_cp_async(KBuilder *b, KVarId smem, const KExpr *smem_at, KVarId ptr, const KExpr *index, int bytes,
                const KExpr *mask);
void k_cp_commit(KBuilder *b);
void k_cp_wait(KBuilder *b, uint32_t pending);
void k_atomic(KBuilder *b, const KAtomic *a);

/* ---- scheduling (schedule.c) ------------------------------------------------------ */

/* Moves each global load, and what computes its operands, up to just
 * after the last statement it depends on, within its statement list:
 * its latency then overlaps the arithmetic written before it. */
void k_schedule_loads(MtCtx *c, KFunc *f);

/* ---- text (kprint.c) -------------------------------------------------------------- */

/* `--emit kernel`: the launch shape, then every statement, marked with its
 * source range in `marks` (may be NULL). Arena-owned. */
const char *mt_kir_print(MtCtx *c, const KFunc *f, MtLineMarks *marks);

/* ---- layouts in words (klayout.c) ------------------------------------------------- */

/* `--emit layout` with the fast lowering (f: the SSA kf was lowered from). */
const char *mt_kir_layout_print(MtCtx *c, const KFunc *kf, const MtFunc *f, MtLineMarks *marks);
/* One value's layout, for hovers; NULL for a value without a block layout. */
const char *mt_kir_layout_describe(MtCtx *c, const KFunc *kf, const MtFunc *f, uint32_t v);

#endif
