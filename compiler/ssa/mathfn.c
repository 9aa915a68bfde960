/* mathfn.c: see mathfn.h. No contraction of a * b + c into an fma here:
 * mt_fma_odd's error term depends on every step rounding on its own. */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif
#include "ssa/mathfn.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

float mt_rsqrtf(float x) { return (float)(1.0 / sqrt((double)x)); }
double mt_rsqrt(double x) { return 1.0 / sqrt(x); }
float mt_rcbrtf(float x) { return (float)(1.0 / cbrt((double)x)); }
double mt_rcbrt(double x) { return 1.0 / cbrt(x); }
float mt_divf(float x, float y) { return x / y; }
double mt_div(double x, double y) { return x / y; }
float mt_exp10f(float x) { return (float)pow(10.0, (double)x); }
double mt_exp10(double x) { return pow(10.0, x); }

float mt_lgammaf(float x)
{
    int sign;
    return lgammaf_r(x, &sign);
}

double mt_lgamma(double x)
{
    int sign;
    return lgamma_r(x, &sign);
}

double mt_fma_odd(double x, double y, double z)
{
    double p = x * y; /* exact: at most 22 significant bits, inside double's range */
    double s = p + z;
    if (!isfinite(s))
        return s;
    /* TwoSum: s + e == p + z exactly */
    double bp = s - z, bz = s - bp;
    double e = (p - bp) + (z - bz);
    if (e == 0 || s == 0)
        return s;
    /* the exact value lies strictly between s and its neighbour toward e:
     * truncate toward zero, then force the last bit to 1 */
    double t = (e < 0) == (s > 0) ? nextafter(s, 0.0) : s;
    uint64_t bits;
    memcpy(&bits, &t, 8);
    bits |= 1;
    memcpy(&t, &bits, 8);
    return t;
}
