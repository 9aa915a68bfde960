/* atomic.c: tl.atomic_* on argument buffers that other program instances
 * (on other threads) read and write at the same time.
 *
 * Every operation is a compare-and-swap loop on the element's bits (2, 4
 * or 8 bytes) with sequentially consistent ordering, the strongest of the
 * memory semantics Triton offers, whatever sem= and scope= say: the new
 * bits are computed from the old ones, and the swap retried when another
 * thread changed them in between. The old values are the result.
 *
 * What the new bits are, as Triton computes them on the GPU:
 *   add      integers wrap; floats add in double and round once to the
 *            element type (exact for f16, bf16 and f32: double has more
 *            than twice their precision);
 *   max/min  integers by their signedness; f32 and f64 as Triton's
 *            lowering does: a value with its sign bit clear compares the
 *            bits as signed integers, one with it set as unsigned integers
 *            (the other way round), so -0.0 < 0.0 and NaNs order by bits;
 *   and/or/xor on integers; xchg: the value; cas: the value when the old
 *            bits equal cmp's bits, else no change.
 * Lanes whose mask is false touch nothing and give 0. */
#include <string.h>

#include "interp.h"
#include "types/half.h"

static uint64_t load_bits(const void *p, size_t es)
{
    switch (es) {
    case 2: return __atomic_load_n((const uint16_t *)p, __ATOMIC_SEQ_CST);
    case 4: return __atomic_load_n((const uint32_t *)p, __ATOMIC_SEQ_CST);
    default: return __atomic_load_n((const uint64_t *)p, __ATOMIC_SEQ_CST);
    }
}

/* Swap in `desired` if the element still holds *expected; else *expected
 * becomes what it holds. */
static bool swap_bits(void *p, size_t es, uint64_t *expected, uint64_t desired)
{
    switch (es) {
    case 2: {
        uint16_t e = (uint16_t)*expected;
        bool ok = __atomic_compare_exchange_n((uint16_t *)p, &e, (uint16_t)desired, false, __ATOMIC_SEQ_CST,
                                              __ATOMIC_SEQ_CST);
        *expected = e;
        return ok;
    }
    case 4: {
        uint32_t e = (uint32_t)*expected;
        bool ok = __atomic_compare_exchange_n((uint32_t *)p, &e, (uint32_t)desired, false, __ATOMIC_SEQ_CST,
                                              __ATOMIC_SEQ_CST);
        *expected = e;
        return ok;
    }
    default:
        return __atomic_compare_exchange_n((uint64_t *)p, expected, desired, false, __ATOMIC_SEQ_CST,
                                           __ATOMIC_SEQ_CST);
    }
}

static uint64_t bits_at(const void *p, size_t es)
{
    uint64_t v = 0;
    memcpy(&v, p, es); /* little-endian: the low bytes */
    return v;
}

static double float_of(uint64_t b, MtDtype d)
{
    switch (d) {
    case MT_DT_F16: return mt_half_to_float((uint16_t)b);
    case MT_DT_BF16: return mt_bfloat_to_float((uint16_t)b);
    case MT_DT_F32: {
        float f;
        uint32_t u = (uint32_t)b;
        memcpy(&f, &u, 4);
        return f;
    }
    case MT_DT_I1:
    case MT_DT_I8:
    case MT_DT_I16:
    case MT_DT_I32:
    case MT_DT_I64:
    case MT_DT_U8:
    case MT_DT_U16:
    case MT_DT_U32:
    case MT_DT_U64:
    case MT_DT_F64:
    case MT_DTYPE_COUNT: break;
    }
    double g;
    memcpy(&g, &b, 8);
    return g;
}

static uint64_t bits_of_float(double v, MtDtype d)
{
    switch (d) {
    case MT_DT_F16: return mt_double_to_half(v);
    case MT_DT_BF16: return mt_double_to_bfloat(v);
    case MT_DT_F32: {
        float f = (float)v;
        uint32_t u;
        memcpy(&u, &f, 4);
        return u;
    }
    case MT_DT_I1:
    case MT_DT_I8:
    case MT_DT_I16:
    case MT_DT_I32:
    case MT_DT_I64:
    case MT_DT_U8:
    case MT_DT_U16:
    case MT_DT_U32:
    case MT_DT_U64:
    case MT_DT_F64:
    case MT_DTYPE_COUNT: break;
    }
    uint64_t u;
    memcpy(&u, &v, 8);
    return u;
}

/* The bits as a signed integer of es bytes. */
static int64_t signed_of(uint64_t b, size_t es)
{
    unsigned sh = 64 - 8 * (unsigned)es;
    return (int64_t)(b << sh) >> sh;
}

/* The new bits of a read-modify-write (not cas) from the old ones. */
static uint64_t combine(int op, MtDtype d, size_t es, uint64_t old, uint64_t v)
{
    uint64_t mask = es == 8 ? ~(uint64_t)0 : ((uint64_t)1 << (8 * es)) - 1;
    bool is_float = mt_ty_is_float(mt_ty_scalar(d));
    bool sign = mt_ty_is_signed(mt_ty_scalar(d));
    if (is_float && (op == OP_ATOMIC_MAX || op == OP_ATOMIC_MIN)) {
        /* Triton: sign bit clear -> signed max (min); set -> unsigned min (max) */
        sign = !(v >> (8 * es - 1) & 1);
        bool want_max = (op == OP_ATOMIC_MAX) == sign;
        bool greater = sign ? signed_of(v, es) > signed_of(old, es) : v > old;
        return greater == want_max ? v : old;
    }
    switch (op) {
    case OP_ATOMIC_ADD:
        return is_float ? bits_of_float(float_of(old, d) + float_of(v, d), d) : (old + v) & mask;
    case OP_ATOMIC_MAX:
    case OP_ATOMIC_MIN: {
        bool greater = sign ? signed_of(v, es) > signed_of(old, es) : v > old;
        return greater == (op == OP_ATOMIC_MAX) ? v : old;
    }
    case OP_ATOMIC_AND: return old & v;
    case OP_ATOMIC_OR: return old | v;
    case OP_ATOMIC_XOR: return old ^ v;
    default: return v; /* xchg */
    }
}

int64_t mt_interp_atomic_row(const MemRow *r, int op, ElemKind ek, void *restrict data, int64_t numel)
{
    size_t es = mt_interp_esize(ek);
    for (size_t i = 0; i < r->n; i++) {
        void *out = (char *)r->out + i * es;
        if (r->mask && !r->mask[r->mask_sc ? 0 : i]) {
            memset(out, 0, es);
            continue;
        }
        int64_t off = r->off[r->off_sc ? 0 : i];
        if (off < 0 || off >= numel)
            return (int64_t)i;
        void *at = (char *)data + (size_t)off * es;
        uint64_t v = bits_at((const char *)r->val + (r->val_sc ? 0 : i * es), es);
        uint64_t cmp = r->cmp ? bits_at((const char *)r->cmp + (r->cmp_sc ? 0 : i * es), es) : 0;
        uint64_t old = load_bits(at, es);
        for (;;) {
            if (op == OP_ATOMIC_CAS && old != cmp)
                break;
            uint64_t next = op == OP_ATOMIC_CAS ? v : combine(op, (MtDtype)ek, es, old, v);
            if (next == old || swap_bits(at, es, &old, next))
                break;
        }
        memcpy(out, &old, es); /* little-endian: the low bytes */
    }
    return -1;
}
