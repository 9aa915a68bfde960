/* kernels.c: the interpreter's inner loops, one function per operation and
 * element type, so that every block operation is a loop over contiguous
 * arrays that the C compiler can vectorise.
 *
 * Each elementwise kernel comes in four shapes of the same loop (both
 * operands arrays, either one a scalar, or both scalars), chosen once per
 * call rather than per element. The kernels are generated for every dtype
 * of dtypes.def from the tables below. The arithmetic is the GPU's:
 *  - integers wrap around in their width (computed on unsigned types); //
 *    truncates toward zero and % takes the dividend's sign, MIN // -1 ==
 *    MIN, MIN % -1 == 0; shifts by the width or more give 0 (or the sign
 *    for >> of a signed value), as PTX's clamped shifts do; umulhi is the
 *    high half of the unsigned product;
 *  - floats in IEEE arithmetic of their format, one rounding per
 *    operation: f16 and bf16 are computed in float and rounded once, which
 *    is exact for + - * / (a float has more than twice their precision, so
 *    the double rounding is innocuous); a product is never fused with a
 *    following add (see the pragmas below);
 *  - maximum(a, b) = (isnan(a) || a > b) ? a : b and minimum(a, b) =
 *    (isnan(a) || a < b) ? a : b on floats (NaN propagates, ties give b);
 *  - conversions are tl.cast's: integers wrap (to bool: != 0), floats round
 *    to nearest even once, floats to integers truncate toward zero and
 *    saturate with NaN giving 0 (cvt.rzi.sat);
 *  - reductions follow the shared-memory tree of the CUDA lowering exactly
 *    (s[i] = s[i] OP s[i + stride] for stride = n/2, n/4, ..., 1), with
 *    fmaxf/fminf as the float max/min combiners, as CUDA's;
 *  - dot accumulates a[i][k] * b[k][j] over increasing k from 0.0f.
 */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
/* GCC ignores the standard pragma; in GNU C mode it contracts a * b + c
 * into an FMA wherever the target has one. vect-cost-model=dynamic lets
 * -O2 vectorise these loops as -O3 would. */
#pragma GCC optimize("fp-contract=off", "vect-cost-model=dynamic")
#endif

#include <math.h>
#include <string.h>

#include "interp.h"
#include "types/half.h"

/* ---- the dtypes ---------------------------------------------------------------------- */

/* X(name, ID, storage type, unsigned type of the arithmetic) */
#define SINTS(X) X(i8, I8, int8_t, uint32_t) X(i16, I16, int16_t, uint32_t) X(i32, I32, int32_t, uint32_t) \
    X(i64, I64, int64_t, uint64_t)
#define UINTS(X) X(u8, U8, uint8_t, uint32_t) X(u16, U16, uint16_t, uint32_t) X(u32, U32, uint32_t, uint32_t) \
    X(u64, U64, uint64_t, uint64_t)
#define INTS(X) SINTS(X) UINTS(X)
/* X(name, ID, storage type, compute type, decode, encode) */
#define FLOATS(X) X(f16, F16, uint16_t, float, mt_half_to_float, mt_float_to_half) \
    X(bf16, BF16, uint16_t, float, mt_bfloat_to_float, mt_float_to_bfloat) X(f32, F32, float, float, SAME, SAME) \
    X(f64, F64, double, double, SAME, SAME)
#define SAME(x) (x)

/* ---- elementwise binary ---------------------------------------------------------- */

#define BINARY(name, TA, TR, EXPR)                                                                          \
    static void name(void *restrict o_, const void *restrict a_, const void *restrict b_, size_t n,        \
                     unsigned sc)                                                                           \
    {                                                                                                       \
        TR *restrict o = o_;                                                                                \
        const TA *restrict pa = a_;                                                                         \
        const TA *restrict pb = b_;                                                                         \
        switch (sc & 3u) {                                                                                  \
        case 0:                                                                                             \
            for (size_t i = 0; i < n; i++) {                                                                \
                TA a = pa[i], b = pb[i];                                                                    \
                o[i] = (TR)(EXPR);                                                                          \
            }                                                                                               \
            break;                                                                                          \
        case 1: {                                                                                           \
            TA a = pa[0];                                                                                   \
            for (size_t i = 0; i < n; i++) {                                                                \
                TA b = pb[i];                                                                               \
                o[i] = (TR)(EXPR);                                                                          \
            }                                                                                               \
            break;                                                                                          \
        }                                                                                                   \
        case 2: {                                                                                           \
            TA b = pb[0];                                                                                   \
            for (size_t i = 0; i < n; i++) {                                                                \
                TA a = pa[i];                                                                               \
                o[i] = (TR)(EXPR);                                                                          \
            }                                                                                               \
            break;                                                                                          \
        }                                                                                                   \
        default: {                                                                                          \
            TA a = pa[0], b = pb[0];                                                                        \
            TR r = (TR)(EXPR);                                                                              \
            for (size_t i = 0; i < n; i++)                                                                  \
                o[i] = r;                                                                                   \
        }                                                                                                   \
        }                                                                                                   \
    }

#define BITS(T) (8 * sizeof(T))
#define WRAP(T, U, op) (T)(U)((U)a op (U)b)

/* Integer operations shared by signed and unsigned types. */
#define INT_COMMON(n, ID, T, U)                                                                            \
    BINARY(add_##n, T, T, WRAP(T, U, +))                                                                   \
    BINARY(sub_##n, T, T, WRAP(T, U, -))                                                                   \
    BINARY(mul_##n, T, T, WRAP(T, U, *))                                                                   \
    BINARY(max_##n, T, T, a > b ? a : b)                                                                   \
    BINARY(min_##n, T, T, a < b ? a : b)                                                                   \
    BINARY(and_##n, T, T, a & b)                                                                           \
    BINARY(or_##n, T, T, a | b)                                                                            \
    BINARY(xor_##n, T, T, a ^ b)                                                                           \
    BINARY(shl_##n, T, T, (U)b >= BITS(T) ? (T)0 : (T)(U)((U)a << (U)b))                                   \
    BINARY(lt_##n, T, uint8_t, a < b)                                                                      \
    BINARY(le_##n, T, uint8_t, a <= b)                                                                     \
    BINARY(gt_##n, T, uint8_t, a > b)                                                                      \
    BINARY(ge_##n, T, uint8_t, a >= b)                                                                     \
    BINARY(eq_##n, T, uint8_t, a == b)                                                                     \
    BINARY(ne_##n, T, uint8_t, a != b)
#define SINT_OPS(n, ID, T, U)                                                                              \
    INT_COMMON(n, ID, T, U)                                                                                \
    BINARY(shr_##n, T, T, (U)b >= BITS(T) ? (T)(a < 0 ? -1 : 0) : (T)(a >> b))                             \
    /* b == -1 first: MIN / -1 overflows in C (and traps on x86). */                                       \
    BINARY(floordiv_##n##_nz, T, T, b == -1 ? (T)(U)(0 - (U)a) : (T)(a / b))                               \
    BINARY(mod_##n##_nz, T, T, b == -1 ? (T)0 : (T)(a % b))
#define UINT_OPS(n, ID, T, U)                                                                              \
    INT_COMMON(n, ID, T, U)                                                                                \
    BINARY(shr_##n, T, T, (U)b >= BITS(T) ? (T)0 : (T)(a >> b))                                            \
    BINARY(floordiv_##n##_nz, T, T, (T)(a / b))                                                            \
    BINARY(mod_##n##_nz, T, T, (T)(a % b))
SINTS(SINT_OPS)
UINTS(UINT_OPS)

/* umulhi: the high half of the unsigned double-width product. */
BINARY(umulhi_i32, int32_t, int32_t, (int32_t)(((uint64_t)(uint32_t)a * (uint32_t)b) >> 32))
BINARY(umulhi_u32, uint32_t, uint32_t, (uint32_t)(((uint64_t)a * b) >> 32))
BINARY(umulhi_i64, int64_t, int64_t, (int64_t)(((unsigned __int128)(uint64_t)a * (uint64_t)b) >> 64))
BINARY(umulhi_u64, uint64_t, uint64_t, (uint64_t)(((unsigned __int128)a * b) >> 64))

/* bool: logic, and arithmetic wrapped to one bit */
BINARY(and_b, uint8_t, uint8_t, a & b)
BINARY(or_b, uint8_t, uint8_t, a | b)
BINARY(xor_b, uint8_t, uint8_t, a ^ b)

#define FLOAT_OPS(n, ID, S, F, DEC, ENC)                                                                   \
    BINARY(add_##n, S, S, ENC(DEC(a) + DEC(b)))                                                            \
    BINARY(sub_##n, S, S, ENC(DEC(a) - DEC(b)))                                                            \
    BINARY(mul_##n, S, S, ENC(DEC(a) * DEC(b)))                                                            \
    BINARY(div_##n, S, S, ENC(DEC(a) / DEC(b)))                                                            \
    BINARY(mod_##n, S, S, ENC((F)fmod(DEC(a), DEC(b))))                                                    \
    BINARY(max_##n, S, S, (isnan(DEC(a)) || DEC(a) > DEC(b)) ? a : b)                                      \
    BINARY(min_##n, S, S, (isnan(DEC(a)) || DEC(a) < DEC(b)) ? a : b)                                      \
    BINARY(lt_##n, S, uint8_t, DEC(a) < DEC(b))                                                            \
    BINARY(le_##n, S, uint8_t, DEC(a) <= DEC(b))                                                           \
    BINARY(gt_##n, S, uint8_t, DEC(a) > DEC(b))                                                            \
    BINARY(ge_##n, S, uint8_t, DEC(a) >= DEC(b))                                                           \
    BINARY(eq_##n, S, uint8_t, DEC(a) == DEC(b))                                                           \
    BINARY(ne_##n, S, uint8_t, DEC(a) != DEC(b))
FLOATS(FLOAT_OPS)

/* Pointer arithmetic on element offsets in int64_t, as a CUDA pointer adds
 * an offset without wrapping it to 32 bits. The operands differ in width,
 * so BINARY does not fit it. */
#define ADDPTR(name, TO)                                                                                    \
    static void name(void *restrict o_, const void *restrict a_, const void *restrict b_, size_t n,        \
                     unsigned sc)                                                                           \
    {                                                                                                       \
        int64_t *restrict o = o_;                                                                           \
        const int64_t *restrict pa = a_;                                                                    \
        const TO *restrict pb = b_;                                                                         \
        switch (sc & 3u) {                                                                                  \
        case 0:                                                                                             \
            for (size_t i = 0; i < n; i++)                                                                  \
                o[i] = (int64_t)((uint64_t)pa[i] + (uint64_t)(int64_t)pb[i]);                              \
            break;                                                                                          \
        case 1: {                                                                                           \
            uint64_t a = (uint64_t)pa[0];                                                                   \
            for (size_t i = 0; i < n; i++)                                                                  \
                o[i] = (int64_t)(a + (uint64_t)(int64_t)pb[i]);                                            \
            break;                                                                                          \
        }                                                                                                   \
        case 2: {                                                                                           \
            uint64_t b = (uint64_t)(int64_t)pb[0];                                                          \
            for (size_t i = 0; i < n; i++)                                                                  \
                o[i] = (int64_t)((uint64_t)pa[i] + b);                                                      \
            break;                                                                                          \
        }                                                                                                   \
        default: {                                                                                          \
            int64_t r = (int64_t)((uint64_t)pa[0] + (uint64_t)(int64_t)pb[0]);                             \
            for (size_t i = 0; i < n; i++)                                                                  \
                o[i] = r;                                                                                   \
        }                                                                                                   \
        }                                                                                                   \
    }

ADDPTR(addptr_i32, int32_t)
ADDPTR(addptr_i64, int64_t)

BinFn mt_interp_addptr_fn(ElemKind off) { return off == MT_DT_I64 ? addptr_i64 : addptr_i32; }

/* Integer // and %: a zero divisor faults before anything is written. */
#define DIVIDE(n, ID, T, U)                                                                                 \
    static bool floordiv_##n(void *restrict o, const void *restrict a, const void *restrict b, size_t k,   \
                             unsigned sc)                                                                   \
    {                                                                                                       \
        const T *d = b;                                                                                     \
        int zero = 0;                                                                                       \
        for (size_t i = 0; i < (sc & 2u ? 1 : k); i++)                                                      \
            zero |= d[i] == 0;                                                                              \
        if (zero)                                                                                           \
            return false;                                                                                   \
        floordiv_##n##_nz(o, a, b, k, sc);                                                                  \
        return true;                                                                                        \
    }                                                                                                       \
    static bool mod_##n(void *restrict o, const void *restrict a, const void *restrict b, size_t k,        \
                        unsigned sc)                                                                        \
    {                                                                                                       \
        const T *d = b;                                                                                     \
        int zero = 0;                                                                                       \
        for (size_t i = 0; i < (sc & 2u ? 1 : k); i++)                                                      \
            zero |= d[i] == 0;                                                                              \
        if (zero)                                                                                           \
            return false;                                                                                   \
        mod_##n##_nz(o, a, b, k, sc);                                                                       \
        return true;                                                                                        \
    }
INTS(DIVIDE)

DivFn mt_interp_div_fn(int op, ElemKind ek)
{
    switch ((MtDtype)ek) {
#define DIV_CASE(n, ID, T, U)                                                                               \
    case MT_DT_##ID: return op == OP_FLOORDIV ? floordiv_##n : op == OP_MOD ? mod_##n : NULL;
        INTS(DIV_CASE)
#undef DIV_CASE
    case MT_DT_I1:
    case MT_DT_F16:
    case MT_DT_BF16:
    case MT_DT_F32:
    case MT_DT_F64:
    case MT_DTYPE_COUNT: break;
    }
    return NULL;
}

/* The kernel of op for operands of integer type n, or NULL. */
#define INT_LOOKUP(n)                                                                                       \
    switch (op) {                                                                                           \
    case OP_ADD: return add_##n;                                                                            \
    case OP_SUB: return sub_##n;                                                                            \
    case OP_MUL: return mul_##n;                                                                            \
    case OP_MAXIMUM: return max_##n;                                                                        \
    case OP_MINIMUM: return min_##n;                                                                        \
    case OP_AND: return and_##n;                                                                            \
    case OP_OR: return or_##n;                                                                              \
    case OP_XOR: return xor_##n;                                                                            \
    case OP_SHL: return shl_##n;                                                                            \
    case OP_SHR: return shr_##n;                                                                            \
    case OP_CMP_LT: return lt_##n;                                                                          \
    case OP_CMP_LE: return le_##n;                                                                          \
    case OP_CMP_GT: return gt_##n;                                                                          \
    case OP_CMP_GE: return ge_##n;                                                                          \
    case OP_CMP_EQ: return eq_##n;                                                                          \
    case OP_CMP_NE: return ne_##n;                                                                          \
    default: return NULL;                                                                                   \
    }

#define FLOAT_LOOKUP(n)                                                                                     \
    switch (op) {                                                                                           \
    case OP_ADD: return add_##n;                                                                            \
    case OP_SUB: return sub_##n;                                                                            \
    case OP_MUL: return mul_##n;                                                                            \
    case OP_DIV: return div_##n;                                                                            \
    case OP_MOD: return mod_##n;                                                                            \
    case OP_MAXIMUM: return max_##n;                                                                        \
    case OP_MINIMUM: return min_##n;                                                                        \
    case OP_CMP_LT: return lt_##n;                                                                          \
    case OP_CMP_LE: return le_##n;                                                                          \
    case OP_CMP_GT: return gt_##n;                                                                          \
    case OP_CMP_GE: return ge_##n;                                                                          \
    case OP_CMP_EQ: return eq_##n;                                                                          \
    case OP_CMP_NE: return ne_##n;                                                                          \
    default: return NULL;                                                                                   \
    }

/* ---- unary and conversions --------------------------------------------------------- */

#define UNARY(name, TA, TR, EXPR)                                                                          \
    static void name(void *restrict o_, const void *restrict a_, size_t n)                                \
    {                                                                                                       \
        TR *restrict o = o_;                                                                                \
        const TA *restrict pa = a_;                                                                         \
        for (size_t i = 0; i < n; i++) {                                                                    \
            TA a = pa[i];                                                                                   \
            o[i] = (TR)(EXPR);                                                                              \
        }                                                                                                   \
    }

#define INT_UNARY(n, ID, T, U)                                                                             \
    UNARY(neg_##n, T, T, (T)(U)(0 - (U)a))                                                                 \
    UNARY(not_##n, T, T, (T)~a)
#define SINT_ABS(n, ID, T, U) UNARY(abs_##n, T, T, a < 0 ? (T)(U)(0 - (U)a) : a)
INTS(INT_UNARY)
SINTS(SINT_ABS)
UNARY(not_b, uint8_t, uint8_t, a ^ 1u)

#define FLOAT_UNARY(n, ID, S, F, DEC, ENC)                                                                 \
    UNARY(neg_##n, S, S, ENC(-DEC(a)))                                                                     \
    UNARY(abs_##n, S, S, ENC((F)fabs(DEC(a))))
FLOATS(FLOAT_UNARY)

/* math.def rows: f32 and f64 through the row's C functions; f16 and bf16
 * through its `chalf` in double, rounded once. Rows of one operand are
 * unary kernels, of two binary ones, of three ternary ones. */
#define TERNARY(name, T, EXPR)                                                                              \
    static void name(void *restrict o_, const void *restrict a_, const void *restrict b_,                   \
                     const void *restrict c_, size_t n, unsigned sc)                                        \
    {                                                                                                       \
        T *restrict o = o_;                                                                                 \
        const T *restrict pa = a_, *restrict pb = b_, *restrict pc = c_;                                    \
        size_t ia = !(sc & 1u), ib = !(sc & 2u), ic = !(sc & 4u);                                           \
        for (size_t i = 0; i < n; i++) {                                                                    \
            T a = pa[i * ia], b = pb[i * ib], c = pc[i * ic];                                               \
            o[i] = (T)(EXPR);                                                                               \
        }                                                                                                   \
    }
#define HALF_IN(x) ((double)mt_half_to_float(x))
#define BF_IN(x) ((double)mt_bfloat_to_float(x))
#define MATH_K_1(id, c32, c64, chalf)                                                                       \
    UNARY(math_##id##_f32, float, float, c32(a))                                                            \
    UNARY(math_##id##_f64, double, double, c64(a))                                                          \
    UNARY(math_##id##_f16, uint16_t, uint16_t, mt_double_to_half(chalf(HALF_IN(a))))                        \
    UNARY(math_##id##_bf16, uint16_t, uint16_t, mt_double_to_bfloat(chalf(BF_IN(a))))
#define MATH_K_2(id, c32, c64, chalf)                                                                       \
    BINARY(math_##id##_f32, float, float, c32(a, b))                                                        \
    BINARY(math_##id##_f64, double, double, c64(a, b))                                                      \
    BINARY(math_##id##_f16, uint16_t, uint16_t, mt_double_to_half(chalf(HALF_IN(a), HALF_IN(b))))           \
    BINARY(math_##id##_bf16, uint16_t, uint16_t, mt_double_to_bfloat(chalf(BF_IN(a), BF_IN(b))))
#define MATH_K_3(id, c32, c64, chalf)                                                                       \
    TERNARY(math_##id##_f32, float, c32(a, b, c))                                                           \
    TERNARY(math_##id##_f64, double, c64(a, b, c))                                                          \
    TERNARY(math_##id##_f16, uint16_t, mt_double_to_half(chalf(HALF_IN(a), HALF_IN(b), HALF_IN(c))))       \
    TERNARY(math_##id##_bf16, uint16_t, mt_double_to_bfloat(chalf(BF_IN(a), BF_IN(b), BF_IN(c))))
#define MATH(id, name, nargs, dtypes, api, c32, c64, chalf, cuda32, cuda64, params, doc)                    \
    MATH_K_##nargs(id, c32, c64, chalf)
#include "ssa/math.def"
#undef MATH

/* The kernel of math row id for kind ek. */
#define MATH_KERNEL(id)                                                                                     \
    (ek == MT_DT_F32 ? math_##id##_f32 : ek == MT_DT_F64 ? math_##id##_f64 : ek == MT_DT_F16 ? math_##id##_f16 \
     : ek == MT_DT_BF16 ? math_##id##_bf16 : NULL)

BinFn mt_interp_binary_fn(int op, ElemKind ek)
{
    switch (op) {
#define MATH_CASE_1(id)
#define MATH_CASE_2(id) case OP_##id: return MATH_KERNEL(id);
#define MATH_CASE_3(id)
#define MATH(id, name, nargs, dtypes, api, c32, c64, chalf, cuda32, cuda64, params, doc) MATH_CASE_##nargs(id)
#include "ssa/math.def"
#undef MATH
#undef MATH_CASE_1
#undef MATH_CASE_2
#undef MATH_CASE_3
    default: break;
    }
    if (op == OP_UMULHI)
        return ek == MT_DT_I32 ? umulhi_i32 : ek == MT_DT_U32 ? umulhi_u32 : ek == MT_DT_I64 ? umulhi_i64
               : ek == MT_DT_U64 ? umulhi_u64 : NULL;
    switch ((MtDtype)ek) {
    case MT_DT_I1:
        /* one-bit arithmetic: + and - are xor, * and min are and, max is or */
        switch (op) {
        case OP_AND:
        case OP_MUL:
        case OP_MINIMUM: return and_b;
        case OP_OR:
        case OP_MAXIMUM: return or_b;
        case OP_XOR:
        case OP_ADD:
        case OP_SUB: return xor_b;
        default: break;
        }
        INT_LOOKUP(u8)
#define INT_CASE(n, ID, T, U)                                                                               \
    case MT_DT_##ID: INT_LOOKUP(n)
        INTS(INT_CASE)
#undef INT_CASE
#define FLOAT_CASE(n, ID, S, F, DEC, ENC)                                                                   \
    case MT_DT_##ID: FLOAT_LOOKUP(n)
        FLOATS(FLOAT_CASE)
#undef FLOAT_CASE
    case MT_DTYPE_COUNT: break;
    }
    return NULL;
}

UnFn mt_interp_unary_fn(int op, ElemKind ek)
{
    switch (op) {
    case OP_NEG:
        switch ((MtDtype)ek) {
#define NEG_CASE(n, ID, ...)                                                                                \
    case MT_DT_##ID: return neg_##n;
            INTS(NEG_CASE)
            FLOATS(NEG_CASE)
#undef NEG_CASE
        case MT_DT_I1: /* the value itself: no step */
        case MT_DTYPE_COUNT: break;
        }
        return NULL;
    case OP_NOT:
        switch ((MtDtype)ek) {
        case MT_DT_I1: return not_b;
#define NOT_CASE(n, ID, ...)                                                                                \
    case MT_DT_##ID: return not_##n;
            INTS(NOT_CASE)
#undef NOT_CASE
        case MT_DT_F16:
        case MT_DT_BF16:
        case MT_DT_F32:
        case MT_DT_F64:
        case MT_DTYPE_COUNT: break;
        }
        return NULL;
    case OP_ABS:
        switch ((MtDtype)ek) {
#define ABS_CASE(n, ID, ...)                                                                                \
    case MT_DT_##ID: return abs_##n;
            SINTS(ABS_CASE)
            FLOATS(ABS_CASE)
#undef ABS_CASE
        case MT_DT_I1:
        case MT_DT_U8:
        case MT_DT_U16:
        case MT_DT_U32:
        case MT_DT_U64:
        case MT_DTYPE_COUNT: break; /* unsigned abs is the value itself: no step */
        }
        return NULL;
#define MATH_CASE_1(id) case OP_##id: return MATH_KERNEL(id);
#define MATH_CASE_2(id)
#define MATH_CASE_3(id)
#define MATH(id, name, nargs, dtypes, api, c32, c64, chalf, cuda32, cuda64, params, doc) MATH_CASE_##nargs(id)
#include "ssa/math.def"
#undef MATH
#undef MATH_CASE_1
#undef MATH_CASE_2
#undef MATH_CASE_3
    default: return NULL;
    }
}

TernFn mt_interp_ternary_fn(int op, ElemKind ek)
{
    switch (op) {
#define MATH_CASE_1(id)
#define MATH_CASE_2(id)
#define MATH_CASE_3(id) case OP_##id: return MATH_KERNEL(id);
#define MATH(id, name, nargs, dtypes, api, c32, c64, chalf, cuda32, cuda64, params, doc) MATH_CASE_##nargs(id)
#include "ssa/math.def"
#undef MATH
#undef MATH_CASE_1
#undef MATH_CASE_2
#undef MATH_CASE_3
    default: return NULL;
    }
}

/* Conversions: every source through three generic forms -- a signed
 * 64-bit integer, an unsigned one, a double -- into every target. */
#define CV_INT(n, ID, T, U, LO, HI)                                                                         \
    static inline T cvi_##n(int64_t v) { return (T)v; }                                                     \
    static inline T cvu_##n(uint64_t v) { return (T)v; }                                                    \
    static inline T cvf_##n(double v)                                                                       \
    {                                                                                                       \
        double t = trunc(v);                                                                                \
        if (isnan(t))                                                                                       \
            return 0;                                                                                       \
        if (t <= (double)(LO))                                                                              \
            return (LO);                                                                                    \
        if (t >= (double)(HI))                                                                              \
            return (HI);                                                                                    \
        return (T)t;                                                                                        \
    }
#define CV_SINT(n, ID, T, U) CV_INT(n, ID, T, U, (T)((uint64_t)1 << (BITS(T) - 1)), (T)(((uint64_t)1 << (BITS(T) - 1)) - 1))
#define CV_UINT(n, ID, T, U) CV_INT(n, ID, T, U, (T)0, (T)UINT64_MAX)
SINTS(CV_SINT)
UINTS(CV_UINT)
static inline uint8_t cvi_b(int64_t v) { return v != 0; }
static inline uint8_t cvu_b(uint64_t v) { return v != 0; }
static inline uint8_t cvf_b(double v) { return v != 0; }
static inline uint16_t cvi_f16(int64_t v) { return mt_double_to_half((double)v); }
static inline uint16_t cvu_f16(uint64_t v) { return mt_double_to_half((double)v); }
static inline uint16_t cvf_f16(double v) { return mt_double_to_half(v); }
static inline uint16_t cvi_bf16(int64_t v) { return mt_double_to_bfloat((double)v); }
static inline uint16_t cvu_bf16(uint64_t v) { return mt_double_to_bfloat((double)v); }
static inline uint16_t cvf_bf16(double v) { return mt_double_to_bfloat(v); }
static inline float cvi_f32(int64_t v) { return (float)v; }
static inline float cvu_f32(uint64_t v) { return (float)v; }
static inline float cvf_f32(double v) { return (float)v; }
static inline double cvi_f64(int64_t v) { return (double)v; }
static inline double cvu_f64(uint64_t v) { return (double)v; }
static inline double cvf_f64(double v) { return v; }

/* X(name, ID, storage type, generic form, how to read it) for every dtype */
#define ALL(X)                                                                                              \
    X(b, I1, uint8_t, u, (uint64_t)a)                                                                       \
    X(i8, I8, int8_t, i, (int64_t)a) X(i16, I16, int16_t, i, (int64_t)a) X(i32, I32, int32_t, i, (int64_t)a) \
    X(i64, I64, int64_t, i, (int64_t)a) X(u8, U8, uint8_t, u, (uint64_t)a) X(u16, U16, uint16_t, u, (uint64_t)a) \
    X(u32, U32, uint32_t, u, (uint64_t)a) X(u64, U64, uint64_t, u, (uint64_t)a)                             \
    X(f16, F16, uint16_t, f, (double)mt_half_to_float(a)) X(bf16, BF16, uint16_t, f, (double)mt_bfloat_to_float(a)) \
    X(f32, F32, float, f, (double)a) X(f64, F64, double, f, a)

/* The two-level expansion: one conversion function per (from, to) pair. */
#define CONVERSIONS_FROM(fn, FID, FT, fg, fread)                                                            \
    UNARY(cv_##fn##_b, FT, uint8_t, cv##fg##_b(fread))                                                      \
    UNARY(cv_##fn##_i8, FT, int8_t, cv##fg##_i8(fread))                                                     \
    UNARY(cv_##fn##_i16, FT, int16_t, cv##fg##_i16(fread))                                                  \
    UNARY(cv_##fn##_i32, FT, int32_t, cv##fg##_i32(fread))                                                  \
    UNARY(cv_##fn##_i64, FT, int64_t, cv##fg##_i64(fread))                                                  \
    UNARY(cv_##fn##_u8, FT, uint8_t, cv##fg##_u8(fread))                                                    \
    UNARY(cv_##fn##_u16, FT, uint16_t, cv##fg##_u16(fread))                                                 \
    UNARY(cv_##fn##_u32, FT, uint32_t, cv##fg##_u32(fread))                                                 \
    UNARY(cv_##fn##_u64, FT, uint64_t, cv##fg##_u64(fread))                                                 \
    UNARY(cv_##fn##_f16, FT, uint16_t, cv##fg##_f16(fread))                                                 \
    UNARY(cv_##fn##_bf16, FT, uint16_t, cv##fg##_bf16(fread))                                               \
    UNARY(cv_##fn##_f32, FT, float, cv##fg##_f32(fread))                                                    \
    UNARY(cv_##fn##_f64, FT, double, cv##fg##_f64(fread))
ALL(CONVERSIONS_FROM)

/* Narrowing float conversions toward zero (fp_downcast_rounding='rtz'). */
UNARY(rtz_f32_f16, float, uint16_t, mt_float_to_half((float)mt_float_round(MT_DT_F16, a, true)))
UNARY(rtz_f32_bf16, float, uint16_t, mt_float_to_bfloat((float)mt_float_round(MT_DT_BF16, a, true)))
UNARY(rtz_f64_f16, double, uint16_t, mt_float_to_half((float)mt_float_round(MT_DT_F16, a, true)))
UNARY(rtz_f64_bf16, double, uint16_t, mt_float_to_bfloat((float)mt_float_round(MT_DT_BF16, a, true)))
UNARY(rtz_f64_f32, double, float, (float)mt_float_round(MT_DT_F32, a, true))

UnFn mt_interp_convert_fn(ElemKind from, ElemKind to, bool toward_zero)
{
    if (from >= MT_DTYPE_COUNT || to >= MT_DTYPE_COUNT)
        return NULL;
    if (toward_zero) {
        if (from == MT_DT_F32)
            return to == MT_DT_F16 ? rtz_f32_f16 : to == MT_DT_BF16 ? rtz_f32_bf16 : NULL;
        if (from == MT_DT_F64)
            return to == MT_DT_F16 ? rtz_f64_f16 : to == MT_DT_BF16 ? rtz_f64_bf16 : to == MT_DT_F32 ? rtz_f64_f32
                                                                                                       : NULL;
    }
    static const UnFn table[MT_DTYPE_COUNT][MT_DTYPE_COUNT] = {
#define ROW(fn, FID, FT, fg, fread)                                                                         \
    [MT_DT_##FID] = {[MT_DT_I1] = cv_##fn##_b,    [MT_DT_I8] = cv_##fn##_i8,   [MT_DT_I16] = cv_##fn##_i16,  \
                     [MT_DT_I32] = cv_##fn##_i32, [MT_DT_I64] = cv_##fn##_i64, [MT_DT_U8] = cv_##fn##_u8,    \
                     [MT_DT_U16] = cv_##fn##_u16, [MT_DT_U32] = cv_##fn##_u32, [MT_DT_U64] = cv_##fn##_u64,  \
                     [MT_DT_F16] = cv_##fn##_f16, [MT_DT_BF16] = cv_##fn##_bf16, [MT_DT_F32] = cv_##fn##_f32, \
                     [MT_DT_F64] = cv_##fn##_f64},
        ALL(ROW)
#undef ROW
    };
    return table[from][to];
}

/* ---- select -------------------------------------------------------------------------- */

#define SELECT(name, T)                                                                                     \
    static void name(void *restrict o_, const uint8_t *restrict c, const void *restrict a_,               \
                     const void *restrict b_, size_t n, unsigned sc)                                        \
    {                                                                                                       \
        T *restrict o = o_;                                                                                 \
        const T *restrict pa = a_;                                                                          \
        const T *restrict pb = b_;                                                                          \
        if (!sc) {                                                                                          \
            for (size_t i = 0; i < n; i++) {                                                                \
                T a = pa[i], b = pb[i];                                                                     \
                o[i] = c[i] ? a : b;                                                                        \
            }                                                                                               \
            return;                                                                                         \
        }                                                                                                   \
        size_t sc0 = sc & 1u ? 0 : 1, sa = sc & 2u ? 0 : 1, sb = sc & 4u ? 0 : 1;                          \
        for (size_t i = 0; i < n; i++)                                                                      \
            o[i] = c[i * sc0] ? pa[i * sa] : pb[i * sb];                                                    \
    }

SELECT(select_1, uint8_t)
SELECT(select_2, Bits16)
SELECT(select_4, Bits32)
SELECT(select_8, Bits64)

SelFn mt_interp_select_fn(size_t esize)
{
    return esize == 1 ? select_1 : esize == 2 ? select_2 : esize == 4 ? select_4 : esize == 8 ? select_8 : NULL;
}

/* ---- reductions and scans ---------------------------------------------------------------- */

/* A reduction along the middle axis of an (outer, n, inner) block: for
 * each outer index, the CUDA tree over the n rows of `inner` lanes -- the
 * first level reads the input, the rest work in place in the scratch rows,
 * exactly as reduce_smem[i] OP= reduce_smem[i + stride] for stride = n/2,
 * n/4, ..., 1 -- giving one row of `inner` results. */
#define REDUCE(name, T, COMBINE)                                                                            \
    static void name(void *restrict out_, const void *restrict in_, void *restrict scratch, size_t outer,  \
                     size_t n, size_t inner)                                                                \
    {                                                                                                       \
        T *restrict out = out_;                                                                             \
        T *s = scratch;                                                                                     \
        for (size_t o = 0; o < outer; o++) {                                                                \
            const T *restrict in = (const T *)in_ + o * n * inner;                                          \
            if (n == 1) {                                                                                   \
                memcpy(out + o * inner, in, inner * sizeof(T));                                             \
                continue;                                                                                   \
            }                                                                                               \
            size_t h = n / 2;                                                                               \
            for (size_t i = 0; i < h * inner; i++) {                                                        \
                T a = in[i], b = in[i + h * inner];                                                         \
                s[i] = COMBINE;                                                                             \
            }                                                                                               \
            for (size_t stride = h / 2; stride > 0; stride >>= 1) {                                        \
                for (size_t i = 0; i < stride * inner; i++) {                                               \
                    T a = s[i], b = s[i + stride * inner];                                                  \
                    s[i] = COMBINE;                                                                         \
                }                                                                                           \
            }                                                                                               \
            memcpy(out + o * inner, s, inner * sizeof(T));                                                  \
        }                                                                                                   \
    }

/* An inclusive scan along the middle axis, first to last (or last to
 * first): out[j] = out[j -+ 1] OP in[j], each step rounded. */
#define SCAN(name, T, COMBINE)                                                                              \
    static void name(void *restrict out_, const void *restrict in_, size_t outer, size_t n, size_t inner,  \
                     bool reverse)                                                                          \
    {                                                                                                       \
        for (size_t o = 0; o < outer; o++) {                                                                \
            const T *restrict in = (const T *)in_ + o * n * inner;                                          \
            T *restrict out = (T *)out_ + o * n * inner;                                                    \
            size_t first = reverse ? n - 1 : 0;                                                             \
            memcpy(out + first * inner, in + first * inner, inner * sizeof(T));                             \
            for (size_t k = 1; k < n; k++) {                                                                \
                size_t j = reverse ? n - 1 - k : k, p = reverse ? j + 1 : j - 1;                            \
                for (size_t i = 0; i < inner; i++) {                                                        \
                    T a = out[p * inner + i], b = in[j * inner + i];                                        \
                    out[j * inner + i] = COMBINE;                                                           \
                }                                                                                           \
            }                                                                                               \
        }                                                                                                   \
    }

#define INT_REDUCE(n, ID, T, U)                                                                            \
    REDUCE(sum_##n, T, WRAP(T, U, +))                                                                      \
    REDUCE(rmax_##n, T, a > b ? a : b)                                                                     \
    REDUCE(rmin_##n, T, a < b ? a : b)                                                                     \
    REDUCE(rxor_##n, T, a ^ b)                                                                             \
    SCAN(cumsum_##n, T, WRAP(T, U, +))                                                                     \
    SCAN(cumprod_##n, T, WRAP(T, U, *))
INTS(INT_REDUCE)
REDUCE(rxor_b, uint8_t, a ^ b)
/* CUDA's fmaxf / fminf (a NaN operand gives the other one) */
#define FMAX(F) _Generic((F)0, float: fmaxf, double: fmax)
#define FMIN(F) _Generic((F)0, float: fminf, double: fmin)
#define FLOAT_REDUCE(n, ID, S, F, DEC, ENC)                                                                \
    REDUCE(sum_##n, S, ENC(DEC(a) + DEC(b)))                                                               \
    REDUCE(rmax_##n, S, ENC(FMAX(F)(DEC(a), DEC(b))))                                                      \
    REDUCE(rmin_##n, S, ENC(FMIN(F)(DEC(a), DEC(b))))                                                      \
    SCAN(cumsum_##n, S, ENC(DEC(a) + DEC(b)))                                                              \
    SCAN(cumprod_##n, S, ENC(DEC(a) * DEC(b)))
FLOATS(FLOAT_REDUCE)

ReduceFn mt_interp_reduce_fn(int op, ElemKind ek)
{
    switch ((MtDtype)ek) {
#define RED_CASE(n, ID, ...)                                                                                \
    case MT_DT_##ID:                                                                                        \
        return op == OP_SUM ? sum_##n : op == OP_MAX ? rmax_##n : op == OP_MIN ? rmin_##n : NULL;
#define XRED_CASE(n, ID, ...)                                                                               \
    case MT_DT_##ID:                                                                                        \
        return op == OP_SUM ? sum_##n : op == OP_MAX ? rmax_##n : op == OP_MIN ? rmin_##n                  \
               : op == OP_XOR_SUM ? rxor_##n : NULL;
        INTS(XRED_CASE)
        FLOATS(RED_CASE)
#undef RED_CASE
#undef XRED_CASE
    case MT_DT_I1: return op == OP_XOR_SUM ? rxor_b : NULL;
    case MT_DTYPE_COUNT: break;
    }
    return NULL;
}

ScanFn mt_interp_scan_fn(int op, ElemKind ek)
{
    switch ((MtDtype)ek) {
#define SCAN_CASE(n, ID, ...)                                                                               \
    case MT_DT_##ID: return op == OP_CUMSUM ? cumsum_##n : op == OP_CUMPROD ? cumprod_##n : NULL;
        INTS(SCAN_CASE)
        FLOATS(SCAN_CASE)
#undef SCAN_CASE
    case MT_DT_I1:
    case MT_DTYPE_COUNT: break;
    }
    return NULL;
}

/* dst (contiguous, shape n[0..3]) = src at strides ss[] (elements; 0 for a
 * broadcast dimension). */
void mt_interp_copy(void *restrict dst, const void *restrict src, const int32_t n[4], const int64_t ss[4],
                    size_t esize)
{
    char *d = dst;
    const char *s0 = src;
    for (int32_t a = 0; a < n[0]; a++)
        for (int32_t b = 0; b < n[1]; b++)
            for (int32_t c = 0; c < n[2]; c++) {
                const char *s = s0 + (a * ss[0] + b * ss[1] + c * ss[2]) * (int64_t)esize;
                if (ss[3] == 1) {
                    memcpy(d, s, (size_t)n[3] * esize);
                    d += (size_t)n[3] * esize;
                    continue;
                }
                for (int32_t k = 0; k < n[3]; k++) {
                    memcpy(d, s + k * ss[3] * (int64_t)esize, esize);
                    d += esize;
                }
            }
}

/* ---- dot, arange, fills ---------------------------------------------------------------- */

/* c = a (m x k) @ b (k x n). The i-k-j order keeps each c[i][j]'s sum in
 * increasing k (0.0f + p0 + p1 + ...) while the j loop vectorises. With
 * tf32 every operand is rounded to TF32 first (the products of two TF32
 * values are exact in f32). */
void mt_interp_dot(float *restrict c, const float *restrict a, const float *restrict b, uint32_t m, uint32_t k,
                   uint32_t n, bool tf32)
{
    for (uint32_t i = 0; i < m; i++) {
        float *restrict ci = c + (size_t)i * n;
        for (uint32_t j = 0; j < n; j++)
            ci[j] = 0.0f;
        for (uint32_t kk = 0; kk < k; kk++) {
            float aik = a[(size_t)i * k + kk];
            const float *restrict bk = b + (size_t)kk * n;
            if (tf32) {
                aik = mt_float_to_tf32(aik);
                for (uint32_t j = 0; j < n; j++)
                    ci[j] = ci[j] + aik * mt_float_to_tf32(bk[j]);
                continue;
            }
            for (uint32_t j = 0; j < n; j++) {
                float p = aik * bk[j];
                ci[j] = ci[j] + p;
            }
        }
    }
}

void mt_interp_arange(int32_t *o, int32_t start, size_t n)
{
    for (size_t i = 0; i < n; i++)
        o[i] = (int32_t)((uint32_t)start + (uint32_t)i);
}

#define FILL(T)                                                                                             \
    do {                                                                                                    \
        T v, *restrict p = o;                                                                               \
        memcpy(&v, value, sizeof v);                                                                        \
        for (size_t i = 0; i < n; i++)                                                                      \
            p[i] = v;                                                                                       \
    } while (0)

void mt_interp_fill(void *restrict o, const void *restrict value, size_t esize, size_t n)
{
    switch (esize) {
    case 1: memset(o, *(const uint8_t *)value, n); return;
    case 2: FILL(Bits16); return;
    case 4: FILL(Bits32); return;
    default: FILL(Bits64); return;
    }
}
