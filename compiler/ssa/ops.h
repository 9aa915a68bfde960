/* ops.h: the operation vocabulary (ops.def, math.def) shared by the
 * expression tree and the SSA: opcodes, their table, their attributes,
 * and the compile-time constants both IRs hold. */
#ifndef MT_OPS_H
#define MT_OPS_H

#include <stdbool.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "ssa/mathfn.h"
#include "types/type.h"

enum {
    F_PURE = 1,
    F_COMMUTE = 2,
    F_ELEM = 4,
    F_DROP = 8,
};

typedef enum MtOpcode {
#define OP(id, text, nargs, flags, cls, py) OP_##id,
#include "ops.def"
#undef OP
    OPC_COUNT_
} MtOpcode;

/* Typing classes (the `cls` column). */
typedef enum MtOpClass {
    OC_INDEX,                 /* program ids, grid sizes */
    OC_FACTORY,               /* arange, zeros, full, empty */
    OC_ARITH,                 /* numeric binary operators with promotion */
    OC_BITWISE,               /* & | ^ on bool and integers, << >> on integers */
    OC_COMPARE,               /* comparisons: bool results */
    OC_UNARY,                 /* - ~ abs */
    OC_MATH,                  /* math.def: floating-point functions */
    OC_CAST,                  /* conversions: the result type is the target */
    OC_SELECT,                /* tl.where */
    OC_PTR,                   /* pointer + offset */
    OC_MEMORY,                /* load, store */
    OC_REDUCE,                /* sum, max, min, xor_sum along an axis */
    OC_SCAN,                  /* cumsum, cumprod along an axis */
    OC_COMBINE,               /* reduce, scan with a combine region (nests) */
    OC_SHAPE,                 /* expand_dims, reshape, permute, broadcast */
    OC_DOT,                   /* matrix product */
    OC_HINT,                  /* facts for the compiler: multiple_of, max_contiguous, max_constancy (the
                               * operand itself, attr.shape[0..rank) the values per dimension), assume */
    OC_CONTROL,               /* for, yield */
    OC_ATOMIC,                /* atomic read-modify-write of memory: operands pointer, value, mask (absent:
                               * every lane) -- atomic_cas: pointer, cmp, value; the result is the old
                               * values (the pointee type, the operands' broadcast shape); attr.sem,
                               * attr.scope */
    OC_DEBUG,                 /* no result: debug_barrier (every thread of the program waits); device_print
                               * (its operands, each element on a line after attr.text, in hex with
                               * MT_HEX); device_assert (condition, mask: a lane where the mask holds and
                               * the condition is 0 fails with attr.text) */
} MtOpClass;

typedef struct MtOpInfo {
    const char *text;         /* SSA spelling */
    int nargs;
    unsigned flags;
    MtOpClass cls;
    const char *py;           /* kernel-language spelling */
} MtOpInfo;

extern const MtOpInfo mt_op_info[OPC_COUNT_];

static inline MtOpClass mt_op_class(int op) { return mt_op_info[op].cls; }
/* Operations that own regions other than `for`'s (MtNest): reduce, scan
 * (combine regions), if (then / else), while (before / after). */
static inline bool mt_op_is_nest(int op) { return op == OP_REDUCE || op == OP_SCAN || op == OP_IF || op == OP_WHILE; }

/* Whether the py spelling is an operator symbol (printed infix/prefix). */
static inline bool mt_op_is_symbol(int op)
{
    char ch = mt_op_info[op].py[0];
    return !(ch >= 'a' && ch <= 'z');
}

enum { MT_AXIS_NONE = -100 };   /* a reduction without an axis argument */

/* How a float conversion to a narrower float rounds (tl.cast's
 * fp_downcast_rounding): to nearest even (the default) or toward zero. */
typedef enum MtRounding { MT_ROUND_RTNE, MT_ROUND_RTZ } MtRounding;

/* tl.dot's input precision for f32 operands: full f32 products, or
 * operands rounded to TF32 first (10 mantissa bits, to nearest with ties
 * away from zero, as cvt.rna.tf32.f32) and their exact products summed in
 * f32, as the tensor cores compute. */
typedef enum MtDotPrecision { MT_DOT_IEEE, MT_DOT_TF32 } MtDotPrecision;

/* Memory semantics and scope of atomics (tl.atomic_*'s sem= and scope=),
 * in Triton's spellings; the first of each is the default. */
typedef enum MtMemSem { MT_SEM_ACQ_REL, MT_SEM_ACQUIRE, MT_SEM_RELEASE, MT_SEM_RELAXED, MT_SEM_COUNT_ } MtMemSem;
typedef enum MtMemScope { MT_SCOPE_GPU, MT_SCOPE_CTA, MT_SCOPE_SYS, MT_SCOPE_COUNT_ } MtMemScope;
extern const char *const mt_mem_sem_names[MT_SEM_COUNT_];     /* "acq_rel", "acquire", ... */
extern const char *const mt_mem_scope_names[MT_SCOPE_COUNT_]; /* "gpu", "cta", "sys" */

/* Why atomic operation op cannot work on memory of element type pointee
 * (Triton's atom_red_typechecking_impl and its per-operation rules), or
 * NULL when it can. */
const char *mt_atomic_refusal(int op, const struct MtType *pointee);

/* MtAttrs.flags */
enum {
    MT_KEEP_DIMS = 1,         /* REDUCE class, REDUCE: the reduced axis stays, of size 1 */
    MT_REVERSE = 2,           /* SCAN class, SCAN: from the last element to the first */
    MT_HEX = 4,               /* DEVICE_PRINT: integers in hexadecimal */
};

/* Per-operation attributes (both IRs). */
typedef struct MtAttrs {
    int axis;                 /* PROGRAM_ID, NUM_PROGRAMS, EXPAND_DIMS, reductions and scans
                               * (the expression tree: MT_AXIS_NONE when none was given) */
    int64_t start, end;       /* ARANGE */
    int rank;                 /* ZEROS, FULL, EMPTY: normalised shape; PERMUTE: the order's length */
    int32_t shape[MT_MAX_RANK]; /* ZEROS, FULL, EMPTY: the shape; PERMUTE: the order (result dim d is
                               * operand dim shape[d]) */
    const MtType *dtype;      /* ZEROS, FULL, EMPTY: element dtype; CAST, BITCAST: the target element type */
    uint8_t mode;             /* CAST: MtRounding; DOT: MtDotPrecision */
    uint8_t flags;            /* MT_KEEP_DIMS, MT_REVERSE */
    uint8_t sem, scope;       /* ATOMIC class: MtMemSem, MtMemScope */
    const char *text;         /* DEVICE_PRINT: the prefix; DEVICE_ASSERT: the message (NULL: none) */
} MtAttrs;

/* Whether two operations' attributes are the same (CSE). */
bool mt_attrs_equal(const MtAttrs *a, const MtAttrs *b);

typedef enum MtConstKind { CST_BOOL, CST_INT, CST_FLOAT, CST_UINT } MtConstKind;

/* A compile-time scalar as it appears in IR (Python int/float/bool). Its
 * IR type may be any numeric type the value converts to (a Python scalar
 * takes the type of the operation it meets, as Triton's are weakly typed). */
typedef struct MtConst {
    uint8_t kind;             /* MtConstKind */
    int64_t i;                /* CST_BOOL (0/1), CST_INT; CST_UINT: the bits of a value in [2^63, 2^64) */
    double f;                 /* CST_FLOAT */
} MtConst;

/* A constant as IR prints it: 256, 0.0, -inf, 1e-05, true. */
void mt_const_print(MtBuf *b, MtConst k);
/* The default type of a Python scalar (Triton's to_tensor_type): bool;
 * i32, u32, i64 or u64 by range; f32, or f64 beyond float's normal range. */
const MtType *mt_const_natural_type(MtConst k);

#endif
