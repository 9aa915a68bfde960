/* kernels.c: the interpreter's inner loops, one function per operation and
 * element type, so that every block operation is a loop over contiguous
 * arrays that the C compiler can vectorise.
 *
 * Each elementwise kernel comes in four shapes of the same loop (both
 * operands arrays, either one a scalar, or both scalars), chosen once per
 * call rather than per element. The arithmetic is the CUDA backend's:
 *  - f32 in IEEE single precision, one rounding per operation: a product
 *    is never fused with a following add (see the pragmas below);
 *  - i32 wraps around (computed on uint32_t); // truncates toward zero and
 *    % takes the dividend's sign, INT_MIN // -1 == INT_MIN, INT_MIN % -1 == 0;
 *  - maximum(a, b) = (isnan(a) || a > b) ? a : b and minimum(a, b) =
 *    (isnan(a) || a < b) ? a : b on floats (NaN propagates, ties give b);
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

#define WRAP(op) (int32_t)((uint32_t)a op (uint32_t)b)

BINARY(add_i32, int32_t, int32_t, WRAP(+))
BINARY(sub_i32, int32_t, int32_t, WRAP(-))
BINARY(mul_i32, int32_t, int32_t, WRAP(*))
BINARY(max_i32, int32_t, int32_t, a > b ? a : b)
BINARY(min_i32, int32_t, int32_t, a < b ? a : b)
BINARY(and_i32, int32_t, int32_t, a & b)
BINARY(or_i32, int32_t, int32_t, a | b)
BINARY(xor_i32, int32_t, int32_t, a ^ b)
BINARY(and_b, uint8_t, uint8_t, a & b)
BINARY(or_b, uint8_t, uint8_t, a | b)
BINARY(xor_b, uint8_t, uint8_t, a ^ b)
BINARY(lt_i32, int32_t, uint8_t, a < b)
BINARY(le_i32, int32_t, uint8_t, a <= b)
BINARY(gt_i32, int32_t, uint8_t, a > b)
BINARY(ge_i32, int32_t, uint8_t, a >= b)
BINARY(eq_i32, int32_t, uint8_t, a == b)
BINARY(ne_i32, int32_t, uint8_t, a != b)

BINARY(add_f32, float, float, a + b)
BINARY(sub_f32, float, float, a - b)
BINARY(mul_f32, float, float, a * b)
BINARY(div_f32, float, float, a / b)
BINARY(max_f32, float, float, (isnan(a) || a > b) ? a : b)
BINARY(min_f32, float, float, (isnan(a) || a < b) ? a : b)
BINARY(lt_f32, float, uint8_t, a < b)
BINARY(le_f32, float, uint8_t, a <= b)
BINARY(gt_f32, float, uint8_t, a > b)
BINARY(ge_f32, float, uint8_t, a >= b)
BINARY(eq_f32, float, uint8_t, a == b)
BINARY(ne_f32, float, uint8_t, a != b)

/* b == -1 first: INT_MIN / -1 overflows in C (and traps on x86). */
BINARY(floordiv_i32_nz, int32_t, int32_t, b == -1 ? (int32_t)(0u - (uint32_t)a) : a / b)
BINARY(mod_i32_nz, int32_t, int32_t, b == -1 ? 0 : a % b)

/* Pointer arithmetic on element offsets in int64_t, as a CUDA pointer adds
 * an int offset without wrapping it to 32 bits. The operands differ in
 * width, so BINARY does not fit it. */
static void addptr_i32(void *restrict o_, const void *restrict a_, const void *restrict b_, size_t n, unsigned sc)
{
    int64_t *restrict o = o_;
    const int64_t *restrict pa = a_;
    const int32_t *restrict pb = b_;
    switch (sc & 3u) {
    case 0:
        for (size_t i = 0; i < n; i++)
            o[i] = (int64_t)((uint64_t)pa[i] + (uint64_t)(int64_t)pb[i]);
        break;
    case 1: {
        uint64_t a = (uint64_t)pa[0];
        for (size_t i = 0; i < n; i++)
            o[i] = (int64_t)(a + (uint64_t)(int64_t)pb[i]);
        break;
    }
    case 2: {
        uint64_t b = (uint64_t)(int64_t)pb[0];
        for (size_t i = 0; i < n; i++)
            o[i] = (int64_t)((uint64_t)pa[i] + b);
        break;
    }
    default: {
        int64_t r = (int64_t)((uint64_t)pa[0] + (uint64_t)(int64_t)pb[0]);
        for (size_t i = 0; i < n; i++)
            o[i] = r;
    }
    }
}

BinFn mt_interp_addptr_fn(void) { return addptr_i32; }

static bool has_zero(const int32_t *b, size_t n)
{
    int zero = 0;
    for (size_t i = 0; i < n; i++)
        zero |= b[i] == 0;
    return zero != 0;
}

static bool floordiv_i32(void *restrict o, const void *restrict a, const void *restrict b, size_t n, unsigned sc)
{
    if (has_zero(b, sc & 2u ? 1 : n))
        return false;
    floordiv_i32_nz(o, a, b, n, sc);
    return true;
}

static bool mod_i32(void *restrict o, const void *restrict a, const void *restrict b, size_t n, unsigned sc)
{
    if (has_zero(b, sc & 2u ? 1 : n))
        return false;
    mod_i32_nz(o, a, b, n, sc);
    return true;
}

DivFn mt_interp_div_fn(int op) { return op == OP_FLOORDIV ? floordiv_i32 : op == OP_MOD ? mod_i32 : NULL; }

BinFn mt_interp_binary_fn(int op, ElemKind ek)
{
    if (ek == EK_I32) {
        switch (op) {
        case OP_ADD: return add_i32;
        case OP_SUB: return sub_i32;
        case OP_MUL: return mul_i32;
        case OP_MAXIMUM: return max_i32;
        case OP_MINIMUM: return min_i32;
        case OP_AND: return and_i32;
        case OP_OR: return or_i32;
        case OP_XOR: return xor_i32;
        case OP_CMP_LT: return lt_i32;
        case OP_CMP_LE: return le_i32;
        case OP_CMP_GT: return gt_i32;
        case OP_CMP_GE: return ge_i32;
        case OP_CMP_EQ: return eq_i32;
        case OP_CMP_NE: return ne_i32;
        default: return NULL;
        }
    }
    if (ek == EK_F32) {
        switch (op) {
        case OP_ADD: return add_f32;
        case OP_SUB: return sub_f32;
        case OP_MUL: return mul_f32;
        case OP_DIV: return div_f32;
        case OP_MAXIMUM: return max_f32;
        case OP_MINIMUM: return min_f32;
        case OP_CMP_LT: return lt_f32;
        case OP_CMP_LE: return le_f32;
        case OP_CMP_GT: return gt_f32;
        case OP_CMP_GE: return ge_f32;
        case OP_CMP_EQ: return eq_f32;
        case OP_CMP_NE: return ne_f32;
        default: return NULL;
        }
    }
    if (ek == EK_BOOL) {
        switch (op) {
        case OP_AND: return and_b;
        case OP_OR: return or_b;
        case OP_XOR: return xor_b;
        default: return NULL;
        }
    }
    return NULL;
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

/* float -> int32 as CUDA's cvt.rzi.s32.f32: toward zero, saturating, NaN -> 0. */
static inline int32_t f32_to_i32(float a)
{
    if (isnan(a))
        return 0;
    if (a >= 2147483648.0f)
        return INT32_MAX;
    if (a <= -2147483648.0f)
        return INT32_MIN;
    return (int32_t)a;
}

UNARY(neg_i32, int32_t, int32_t, 0u - (uint32_t)a)
UNARY(neg_f32, float, float, -a)
UNARY(not_b, uint8_t, uint8_t, a ^ 1u)
UNARY(not_i32, int32_t, int32_t, ~a)
#define MATH(id, name, nargs, c32, c64, cuda32, cuda64, params, doc) UNARY(math_##id##_f32, float, float, c32(a))
#include "ssa/math.def"
#undef MATH
UNARY(b_to_i32, uint8_t, int32_t, a)
UNARY(b_to_f32, uint8_t, float, a)
UNARY(i32_to_f32, int32_t, float, a)
UNARY(f32_to_i32_v, float, int32_t, f32_to_i32(a))
UNARY(i32_to_b, int32_t, uint8_t, a != 0)
UNARY(f32_to_b, float, uint8_t, a != 0.0f)

UnFn mt_interp_unary_fn(int op, ElemKind ek)
{
    switch (op) {
    case OP_NEG: return ek == EK_I32 ? neg_i32 : ek == EK_F32 ? neg_f32 : NULL;
    case OP_NOT: return ek == EK_BOOL ? not_b : ek == EK_I32 ? not_i32 : NULL;
#define MATH(id, name, nargs, c32, c64, cuda32, cuda64, params, doc) \
    case OP_##id: return ek == EK_F32 ? math_##id##_f32 : NULL;
#include "ssa/math.def"
#undef MATH
    default: return NULL;
    }
}

UnFn mt_interp_convert_fn(ElemKind from, ElemKind to)
{
    static const UnFn table[3][3] = {
        [EK_BOOL] = {[EK_I32] = b_to_i32, [EK_F32] = b_to_f32},
        [EK_I32] = {[EK_BOOL] = i32_to_b, [EK_F32] = i32_to_f32},
        [EK_F32] = {[EK_BOOL] = f32_to_b, [EK_I32] = f32_to_i32_v},
    };
    return from < 3 && to < 3 ? table[from][to] : NULL;
}

void mt_interp_convert_scalar(void *out, ElemKind to, const void *in, ElemKind from)
{
    if (from == to) {
        memcpy(out, in, mt_interp_esize(to));
        return;
    }
    mt_interp_convert_fn(from, to)(out, in, 1);
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
SELECT(select_4, Bits32)

SelFn mt_interp_select_fn(size_t esize) { return esize == 1 ? select_1 : esize == 4 ? select_4 : NULL; }

/* ---- reductions ------------------------------------------------------------------------- */

/* The CUDA tree: the first level reads the input, the rest work in place in
 * the scratch row, exactly as reduce_smem[threadIdx.x] OP= reduce_smem[threadIdx.x + stride]. */
#define REDUCE(name, T, COMBINE)                                                                            \
    static void name(void *restrict out, const void *restrict in_, void *restrict scratch, size_t n)      \
    {                                                                                                       \
        const T *restrict in = in_;                                                                         \
        T *s = scratch;                                                                                     \
        if (n == 1) {                                                                                       \
            *(T *)out = in[0];                                                                              \
            return;                                                                                         \
        }                                                                                                   \
        size_t h = n / 2;                                                                                   \
        for (size_t i = 0; i < h; i++) {                                                                    \
            T a = in[i], b = in[i + h];                                                                     \
            s[i] = COMBINE;                                                                                 \
        }                                                                                                   \
        for (size_t stride = h / 2; stride > 0; stride >>= 1) {                                            \
            for (size_t i = 0; i < stride; i++) {                                                           \
                T a = s[i], b = s[i + stride];                                                              \
                s[i] = COMBINE;                                                                             \
            }                                                                                               \
        }                                                                                                   \
        *(T *)out = s[0];                                                                                   \
    }

REDUCE(sum_f32, float, a + b)
REDUCE(rmax_f32, float, fmaxf(a, b))
REDUCE(rmin_f32, float, fminf(a, b))
REDUCE(sum_i32, int32_t, WRAP(+))
REDUCE(rmax_i32, int32_t, a > b ? a : b)
REDUCE(rmin_i32, int32_t, a < b ? a : b)

ReduceFn mt_interp_reduce_fn(int op, ElemKind ek)
{
    bool f = ek == EK_F32;
    if (!f && ek != EK_I32)
        return NULL;
    switch (op) {
    case OP_SUM: return f ? sum_f32 : sum_i32;
    case OP_MAX: return f ? rmax_f32 : rmax_i32;
    case OP_MIN: return f ? rmin_f32 : rmin_i32;
    default: return NULL;
    }
}

/* ---- dot, arange, fills ---------------------------------------------------------------- */

/* c = a (m x k) @ b (k x n). The i-k-j order keeps each c[i][j]'s sum in
 * increasing k (0.0f + p0 + p1 + ...) while the j loop vectorises. */
void mt_interp_dot(float *restrict c, const float *restrict a, const float *restrict b, uint32_t m, uint32_t k,
                   uint32_t n)
{
    for (uint32_t i = 0; i < m; i++) {
        float *restrict ci = c + (size_t)i * n;
        for (uint32_t j = 0; j < n; j++)
            ci[j] = 0.0f;
        for (uint32_t kk = 0; kk < k; kk++) {
            float aik = a[(size_t)i * k + kk];
            const float *restrict bk = b + (size_t)kk * n;
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

void mt_interp_fill(void *restrict o, const void *restrict value, size_t esize, size_t n)
{
    if (esize == 1) {
        memset(o, *(const uint8_t *)value, n);
        return;
    }
    uint32_t v;
    memcpy(&v, value, 4);
    Bits32 *restrict p = o;
    for (size_t i = 0; i < n; i++)
        p[i] = v;
}
