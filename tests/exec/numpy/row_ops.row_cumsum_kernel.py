"""Row-wise cumulative sum of fp16 values in float32 (added left to right)."""
import numpy as np


def expected(a, s):
    return {"out_ptr": (np.cumsum(a["x_ptr"].astype(np.float32), axis=1, dtype=np.float32), 0, 0)}
