/* type.h: the types of expression nodes and SSA values.
 *
 *   scalars   one per element type of dtypes.def: bool (tl.int1), i8 ... u64,
 *             f16, bf16, f32, f64
 *   pointers  ptr<f32>, ptr<i64>, ptr<bool>, ...
 *   blocks    vector<N x T> (rank 1) and block<MxN x T>, block<AxBxC x T> (rank 2 to
 *             MT_MAX_RANK), T a scalar or pointer
 *
 * Types are interned per context, so equal types are equal pointers. The
 * scalar types are a static table derived from dtypes.def (immutable, so
 * reentrancy holds): the scalar of a dtype is mt_ty_scalar(d).
 */
#ifndef MT_TYPE_H
#define MT_TYPE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/ctx.h"
#include "base/strbuf.h"

typedef enum MtTypeKind {
    TY_SCALAR,                /* dtype */
    TY_PTR,
    TY_BLOCK,
    TY_VOID,                  /* stores and loops: typed, but without a value */
} MtTypeKind;

/* Blocks of up to four dimensions exist in the IR (reshape and permute
 * need rank 3 and 4); the CUDA backend lowers rank 1 and 2. */
enum { MT_MAX_RANK = 4 };

typedef struct MtType MtType;
struct MtType {
    uint8_t kind;             /* MtTypeKind */
    uint8_t rank;             /* TY_BLOCK: 1 .. MT_MAX_RANK */
    uint8_t dtype;            /* TY_SCALAR: MtDtype */
    const MtType *elem;       /* TY_PTR: pointee scalar; TY_BLOCK: element (scalar or pointer) */
    int32_t shape[MT_MAX_RANK];
    const MtType *next;       /* intern list link */
};

extern const MtType mt_ty_scalars[MT_DTYPE_COUNT], mt_ty_void;
#define mt_ty_bool (mt_ty_scalars[MT_DT_I1])
#define mt_ty_i32 (mt_ty_scalars[MT_DT_I32])
#define mt_ty_f32 (mt_ty_scalars[MT_DT_F32])

static inline const MtType *mt_ty_scalar(MtDtype d) { return &mt_ty_scalars[d]; }

/* Interned constructors (arena of c). */
const MtType *mt_ty_ptr(MtCtx *c, const MtType *pointee);
const MtType *mt_ty_block(MtCtx *c, const MtType *elem, int rank, const int32_t *shape);
/* `elem` with the shape of `shape_of` (a block) or `elem` itself (scalar shape_of). */
const MtType *mt_ty_with_shape(MtCtx *c, const MtType *elem, const MtType *shape_of);

static inline bool mt_ty_is_block(const MtType *t) { return t->kind == TY_BLOCK; }
static inline const MtType *mt_ty_elem(const MtType *t) { return t->kind == TY_BLOCK ? t->elem : t; }
static inline bool mt_ty_is_ptr(const MtType *t) { return mt_ty_elem(t)->kind == TY_PTR; }
static inline int mt_ty_rank(const MtType *t) { return t->kind == TY_BLOCK ? t->rank : 0; }
int64_t mt_ty_numel(const MtType *t);  /* 1 for scalars */

/* The element-type class of a scalar (after mt_ty_elem); pointers and void
 * are none of them. */
static inline bool mt_ty_is_scalar(const MtType *t) { return t && t->kind == TY_SCALAR; }
static inline const MtDtypeInfo *mt_ty_info(const MtType *t) { return mt_dtype_info((MtDtype)t->dtype); }
static inline bool mt_ty_is_class(const MtType *t, MtDtypeClass cls)
{
    return mt_ty_is_scalar(t) && mt_ty_info(t)->cls == cls;
}
static inline bool mt_ty_is_bool(const MtType *t) { return mt_ty_is_class(t, MT_DC_BOOL); }
static inline bool mt_ty_is_float(const MtType *t) { return mt_ty_is_class(t, MT_DC_FLOAT); }
/* bool or an integer */
static inline bool mt_ty_is_intlike(const MtType *t) { return mt_ty_is_scalar(t) && !mt_ty_is_float(t); }
/* Triton's signedness: bool is an unsigned integer type (tl.int1 is in
 * its UINT_TYPES). */
static inline bool mt_ty_is_signed(const MtType *t) { return mt_ty_is_class(t, MT_DC_SINT); }
static inline bool mt_ty_is_unsigned(const MtType *t)
{
    return mt_ty_is_class(t, MT_DC_UINT) || mt_ty_is_class(t, MT_DC_BOOL);
}
static inline int mt_ty_bits(const MtType *t) { return mt_ty_is_scalar(t) ? mt_ty_info(t)->bits : 64; }

/* Broadcast two shapes (rank-aligned on the right, size 1 stretches).
 * Scalars broadcast to anything. Returns false if incompatible; on success
 * *rank/shape hold the result (rank 0 = scalar). */
bool mt_broadcast(const MtType *a, const MtType *b, int *rank, int32_t shape[MT_MAX_RANK]);

/* Triton's kind order of element types for Python scalars: bool (0) <
 * integer (1) < float (2). */
int mt_ty_kind(const MtType *t);

/* Triton's computation type of a binary operation on element types a and
 * b (its computation_type_impl): a Python scalar (a_weak / b_weak) of a
 * kind no higher than the other operand's adopts the other operand's type;
 * otherwise f64 > f32 > f16 > bf16 among floats (f16 with bf16 gives f16,
 * bf16 with an integer f32), any float over any integer, and integers by
 * C's usual arithmetic conversions. `/`, `//` and `%` (div_or_mod) compute
 * f16 and bf16 in f32 and refuse integers of different signedness (a bool
 * goes with either): NULL then, and for pointers. */
const MtType *mt_ty_computation(const MtType *a, bool a_weak, const MtType *b, bool b_weak, bool div_or_mod);
/* mt_ty_computation of two typed values (no Python scalar, no division). */
const MtType *mt_ty_promote(const MtType *a, const MtType *b);

/* v rounded to the float dtype d once (to nearest even, or toward zero):
 * what an fptrunc from f64 gives. Other dtypes: v unchanged. */
double mt_float_round(MtDtype d, double v, bool toward_zero);

/* Whether two types have the same rank and dimensions (scalars: both scalars). */
bool mt_ty_same_shape(const MtType *a, const MtType *b);

/* Printed form: "f32", "ptr<f32>", "vector<256 x i32>", "block<16x32 x f32>".
 * mt_ty_name_sig gives the signature spelling: "fp32", "*fp32", "i32", "i1". */
const char *mt_ty_str(MtCtx *c, const MtType *t);
void mt_ty_print(MtBuf *b, const MtType *t);
const char *mt_ty_sig(const MtType *t);
/* "(8,)" / "(4, 16)" as the SSA attributes print shapes. */
void mt_shape_print(MtBuf *b, int rank, const int32_t *shape);

#endif
