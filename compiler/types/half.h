/* half.h: IEEE half (f16) and bfloat16 to and from float, rounding to
 * nearest even, as static inline functions: the interpreter's kernels
 * convert every f16/bf16 element through them, and mt_f16_to_f32 & co.
 * (mytriton.h) are these. Also TF32, the tensor cores' f32 input. */
#ifndef MT_HALF_H
#define MT_HALF_H

#include <stdint.h>
#include <string.h>

static inline float mt_half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, man = h & 0x3ffu, bits;
    if (exp == 0x1f) {
        bits = sign | 0x7f800000u | (man << 13);
    } else if (exp) {
        bits = sign | ((exp + 112) << 23) | (man << 13);
    } else if (man) {
        /* subnormal: normalise */
        int e = -1;
        do {
            e++;
            man <<= 1;
        } while (!(man & 0x400u));
        bits = sign | ((uint32_t)(112 - e) << 23) | ((man & 0x3ffu) << 13);
    } else {
        bits = sign;
    }
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

static inline uint16_t mt_float_to_half(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u, exp = (x >> 23) & 0xffu, man = x & 0x7fffffu;
    if (exp == 0xff)              /* inf, NaN (kept quiet) */
        return (uint16_t)(sign | 0x7c00u | (man ? 0x200u | (man >> 13) : 0));
    int e = (int)exp - 127 + 15;
    if (e >= 0x1f)
        return (uint16_t)(sign | 0x7c00u);
    uint32_t m, shift;
    if (e <= 0) {                 /* subnormal or zero */
        if (e < -10)
            return (uint16_t)sign;
        man |= 0x800000u;
        shift = (uint32_t)(14 - e);
        m = man >> shift;
        uint32_t rest = man & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rest > half || (rest == half && (m & 1)))
            m++;
        return (uint16_t)(sign | m);
    }
    m = man >> 13;
    uint32_t rest = man & 0x1fffu;
    uint32_t r = ((uint32_t)e << 10) | m;
    if (rest > 0x1000u || (rest == 0x1000u && (m & 1)))
        r++;                      /* a carry into the exponent is still right (up to inf) */
    return (uint16_t)(sign | r);
}

static inline float mt_bfloat_to_float(uint16_t h)
{
    uint32_t bits = (uint32_t)h << 16;
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

static inline uint16_t mt_float_to_bfloat(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((x >> 16) | 0x40u); /* quiet NaN */
    x += 0x7fffu + ((x >> 16) & 1u);
    return (uint16_t)(x >> 16);
}

/* f to TF32 (10 mantissa bits, as an f32) rounding to nearest with ties
 * away from zero: PTX cvt.rna.tf32.f32. NaN stays NaN. The fast lowering
 * builds the same bit arithmetic (kernel/lower_dot.c). */
static inline float mt_float_to_tf32(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    if ((x & 0x7fffffffu) <= 0x7f800000u)
        x = (x + 0x1000u) & 0xffffe000u;
    memcpy(&f, &x, 4);
    return f;
}

/* f64 to f32 rounding to odd: exact, or toward zero with the lowest
 * mantissa bit set. Rounding the result once more to any format with at
 * least two fewer mantissa bits (f16, bf16) gives the correctly rounded
 * f64 value, as one fptrunc from f64 does. */
static inline float mt_double_to_float_odd(double v)
{
    float f = (float)v;
    if (v != v || (double)f == v || f - f != 0.0f)
        return f;
    if ((f > 0 && (double)f > v) || (f < 0 && (double)f < v)) {
        uint32_t b;
        memcpy(&b, &f, 4);
        b--; /* one step toward zero */
        memcpy(&f, &b, 4);
    }
    uint32_t bits;
    memcpy(&bits, &f, 4);
    bits |= 1;
    memcpy(&f, &bits, 4);
    return f;
}

static inline uint16_t mt_double_to_half(double v) { return mt_float_to_half(mt_double_to_float_odd(v)); }
static inline uint16_t mt_double_to_bfloat(double v) { return mt_float_to_bfloat(mt_double_to_float_odd(v)); }

#endif
