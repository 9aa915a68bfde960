"""Exact arithmetic for references: rationals (fractions.Fraction) rounded
once to float32, float16 or bfloat16, to nearest even with subnormals and
overflow to infinity, where numpy would round twice (an fma through
float64, anything bfloat16, which numpy lacks), and the reference of
tests/exec/fast/math.py's half_kernel."""
from fractions import Fraction

import numpy as np

# significant bits, smallest normal exponent, largest exponent
FORMATS = {"float32": (24, -126, 127), "float16": (11, -14, 15), "bfloat16": (8, -126, 127)}


def round_fraction(q, fmt):
    """The float of format fmt nearest to the rational q (ties to even)."""
    p, emin, emax = FORMATS[fmt]
    if q == 0:
        return 0.0
    sign, q = (-1 if q < 0 else 1), abs(q)
    e = q.numerator.bit_length() - q.denominator.bit_length()
    if Fraction(2) ** e > q:
        e -= 1                                  # 2^e <= q < 2^(e+1)
    ulp = Fraction(2) ** (max(e, emin) - p + 1)
    k, r = divmod(q, ulp)
    if r > ulp / 2 or (r == ulp / 2 and k % 2):
        k += 1
    v = k * ulp
    if v >= Fraction(2) ** (emax + 1):
        return sign * float("inf")
    return sign * float(v)


def rounded(values, fmt):
    """An array of rationals rounded once each (float32 or float16 arrays;
    bfloat16 values come as float32, as numpy_check.py hands them)."""
    out = np.vectorize(lambda q: round_fraction(q, fmt), otypes=[np.float64])(values)
    return out.astype(np.float16 if fmt == "float16" else np.float32)


def exact(x):
    return np.vectorize(Fraction, otypes=[object])(x.astype(np.float64))


def half_kernel(a, fmt):
    """math.py's half_kernel: fma, fdiv, abs and clamp of fmt operands, each
    rounded once to fmt; sqrt_rn in float32, then rounded to fmt."""
    x, y, z = (exact(a[n]) for n in ("a_ptr", "b_ptr", "c_ptr"))
    b, c = a["b_ptr"], a["c_ptr"]
    root = np.sqrt(np.abs(a["a_ptr"]).astype(np.float32))
    return {
        "fma_ptr": (rounded(x * y + z, fmt), 0, 0),
        "fdiv_ptr": (rounded(x / y, fmt), 0, 0),
        "abs_ptr": (np.abs(b), 0, 0),
        "clamp_ptr": (np.minimum(np.maximum(b, -1.0), c), 0, 0),
        "sqrt_ptr": (rounded(exact(root), fmt), 0, 0),
    }
