/* mathfn.h: the math.def functions libm does not provide as such, for the
 * interpreter (and anything else that runs math.def's c32/c64/chalf
 * columns). */
#ifndef MT_MATHFN_H
#define MT_MATHFN_H

float mt_rsqrtf(float x);
double mt_rsqrt(double x);
float mt_rcbrtf(float x);
double mt_rcbrt(double x);
float mt_divf(float x, float y);
double mt_div(double x, double y);
float mt_exp10f(float x);
double mt_exp10(double x);
/* thread-safe (lgamma sets the global signgam) */
float mt_lgammaf(float x);
double mt_lgamma(double x);
/* x * y + z for operands that are f16 or bf16 values, rounded to odd in
 * double: rounding the result once more to f16 or bf16 gives the
 * correctly rounded fma (x * y is exact in double). */
double mt_fma_odd(double x, double y, double z);

#endif
