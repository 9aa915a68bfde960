"""The correctly rounded and exact functions on f32, bit for bit: numpy's
float32 floor, ceil, division, sqrt, abs, minimum/maximum, and the fma
rounded once from the exact rational (lib/exact.py; float64 would round
twice)."""
import numpy as np
import exact


def expected(a, s):
    x, y, z = a["x_ptr"], a["y_ptr"], a["z_ptr"]
    y3 = y * np.float32(3.0)
    return {
        "floor_ptr": (np.floor(y3), 0, 0),
        "ceil_ptr": (np.ceil(y3), 0, 0),
        "fma_ptr": (exact.rounded(exact.exact(x) * exact.exact(y) + exact.exact(z), "float32"), 0, 0),
        "clamp_ptr": (np.minimum(np.maximum(y, np.float32(-1.5)), z), 0, 0),
        "div_rn_ptr": (y / x, 0, 0),
        "fdiv_ptr": (z / y, 0, 0),
        "sqrt_rn_ptr": (np.sqrt(x), 0, 0),
        "abs_ptr": (np.abs(y), 0, 0),
    }
