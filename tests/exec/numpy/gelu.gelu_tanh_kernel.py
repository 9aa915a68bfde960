"""GELU, tanh approximation, on fp16 computed in float32."""
import numpy as np


def expected(a, s):
    x = a["x_ptr"].astype(np.float64)
    y = 0.5 * x * (1.0 + np.tanh(0.7978845608028654 * (x + 0.044715 * x ** 3)))
    return {"out_ptr": (y.astype(np.float16), 1e-3, 1e-6)}
