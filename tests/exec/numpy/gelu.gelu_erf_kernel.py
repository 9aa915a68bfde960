"""GELU with erf on fp16, computed in float32: the result rounded to fp16."""
import math

import numpy as np


def expected(a, s):
    x = a["x_ptr"].astype(np.float64)
    erf = np.vectorize(math.erf)
    y = 0.5 * x * (1.0 + erf(x * 0.7071067811865476))
    # one fp16 rounding of a value computed in f32 (a few f32 ulp away)
    return {"out_ptr": (y.astype(np.float16), 1e-3, 1e-6)}
