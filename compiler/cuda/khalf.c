/* khalf.c: the 16-bit float types of the generated CUDA, defined in the
 * kernel's own source.
 *
 * The generated code must compile wherever NVRTC runs, including a
 * machine with only the driver and NVRTC's library (no toolkit headers,
 * so no cuda_fp16.h). The types are therefore a 16-bit word each, with
 * conversions written in PTX (f16) or with integer arithmetic (bf16), and
 * operators that compute in float and round once to the type. That equals
 * rounding the exact result for +, -, * and /: float's 24 bits are at
 * least twice the 11 (f16) or 8 (bf16) bits plus two, so the float result
 * rounds to the same 16-bit value as the exact one (no double-rounding
 * error). Conversions from double round once: to f16 in PTX, to bf16 by
 * rounding to float to odd first (truncate, then set the last bit when
 * inexact), which makes the second rounding exact. tl.fma of 16-bit
 * operands is float's fma rounded to odd the same way (mt_fmaf_odd), not
 * fmaf: the exact a * b + c may need more than float's bits, and fmaf's
 * rounding could land on a 16-bit tie that the exact value is not on.
 *
 * Names: mt_f16 / mt_bf16 (dtypes.def's CUDA column); T_to_f32(x),
 * T_rn(float) and T_rz(float) (round to nearest even / toward zero),
 * T_rn_f64(double), T_rz_f64(double); x.bits is the raw word;
 * mt_fmaf_odd(a, b, c). */
#include "kcuda.h"

static const char f16_text[] =
    "struct mt_f16 { unsigned short bits; };\n"
    "static __device__ __forceinline__ float mt_f16_to_f32(mt_f16 h) {\n"
    "  float f; asm(\"cvt.f32.f16 %0, %1;\" : \"=f\"(f) : \"h\"(h.bits)); return f; }\n"
    "static __device__ __forceinline__ mt_f16 mt_f16_rn(float f) {\n"
    "  mt_f16 h; asm(\"cvt.rn.f16.f32 %0, %1;\" : \"=h\"(h.bits) : \"f\"(f)); return h; }\n"
    "static __device__ __forceinline__ mt_f16 mt_f16_rz(float f) {\n"
    "  mt_f16 h; asm(\"cvt.rz.f16.f32 %0, %1;\" : \"=h\"(h.bits) : \"f\"(f)); return h; }\n"
    "static __device__ __forceinline__ mt_f16 mt_f16_rn_f64(double d) {\n"
    "  mt_f16 h; asm(\"cvt.rn.f16.f64 %0, %1;\" : \"=h\"(h.bits) : \"d\"(d)); return h; }\n"
    "static __device__ __forceinline__ mt_f16 mt_f16_rz_f64(double d) { return mt_f16_rz(__double2float_rz(d)); }\n";

static const char bf16_text[] =
    "struct mt_bf16 { unsigned short bits; };\n"
    "static __device__ __forceinline__ float mt_bf16_to_f32(mt_bf16 h) { return __uint_as_float((unsigned)h.bits << 16); }\n"
    "static __device__ __forceinline__ mt_bf16 mt_bf16_rn(float f) {\n"
    "  unsigned u = __float_as_uint(f);\n"
    "  if ((u & 0x7fffffffu) > 0x7f800000u) return mt_bf16{(unsigned short)((u >> 16) | 0x40u)};\n"
    "  u += 0x7fffu + ((u >> 16) & 1u); return mt_bf16{(unsigned short)(u >> 16)}; }\n"
    "static __device__ __forceinline__ mt_bf16 mt_bf16_rz(float f) {\n"
    "  unsigned u = __float_as_uint(f);\n"
    "  if ((u & 0x7fffffffu) > 0x7f800000u) return mt_bf16{(unsigned short)((u >> 16) | 0x40u)};\n"
    "  return mt_bf16{(unsigned short)(u >> 16)}; }\n"
    "static __device__ __forceinline__ mt_bf16 mt_bf16_rn_f64(double d) {\n"
    "  float t = __double2float_rz(d);\n"
    "  if ((double)t != d && d == d) t = __uint_as_float(__float_as_uint(t) | 1u);\n"
    "  return mt_bf16_rn(t); }\n"
    "static __device__ __forceinline__ mt_bf16 mt_bf16_rz_f64(double d) { return mt_bf16_rz(__double2float_rz(d)); }\n";

/* Arithmetic and comparisons of type T through float. */
static void operators(MtBuf *b, const char *t)
{
    static const char *const arith = "+-*/";
    for (int i = 0; arith[i]; i++)
        mt_buf_printf(b,
                      "static __device__ __forceinline__ %s operator%c(%s a, %s b) { return %s_rn(%s_to_f32(a) %c "
                      "%s_to_f32(b)); }\n",
                      t, arith[i], t, t, t, t, arith[i], t);
    mt_buf_printf(b, "static __device__ __forceinline__ %s operator-(%s a) { return %s{(unsigned short)(a.bits ^ 0x8000u)}; }\n",
                  t, t, t);
    static const char *const cmp[] = {"<", "<=", ">", ">=", "==", "!="};
    for (int i = 0; i < 6; i++)
        mt_buf_printf(b,
                      "static __device__ __forceinline__ bool operator%s(%s a, %s b) { return %s_to_f32(a) %s "
                      "%s_to_f32(b); }\n",
                      cmp[i], t, t, t, cmp[i], t);
}

static const char fma_odd_text[] =
    "static __device__ __forceinline__ float mt_fmaf_odd(float a, float b, float c) {\n"
    "  float t = __fmaf_rz(a, b, c);\n"
    "  if (__fmaf_rd(a, b, c) != __fmaf_ru(a, b, c)) t = __uint_as_float(__float_as_uint(t) | 1u);\n"
    "  return t; }\n";

void kc_half_types(MtBuf *b, bool f16, bool bf16)
{
    if (f16 || bf16)
        mt_buf_puts(b, fma_odd_text);
    if (f16) {
        mt_buf_puts(b, f16_text);
        operators(b, "mt_f16");
    }
    if (bf16) {
        mt_buf_puts(b, bf16_text);
        operators(b, "mt_bf16");
    }
}
