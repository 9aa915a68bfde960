"""Block pointers with boundary checks: out[m, j] sums x[m, j + k * BLOCK_N]
over the column blocks inside N (zeros past the edge), xt is x[:, :N]
transposed (exact)."""
import numpy as np


def expected(a, s):
    m, n, bn = s["M"], s["N"], s["BLOCK_N"]
    x = a["x_ptr"][:m, :n].astype(np.float64)
    padded = np.zeros((m, -(-n // bn) * bn))
    padded[:, :n] = x
    out = padded.reshape(m, -1, bn).sum(axis=1)
    return {"out_ptr": (out, 1e-6, 1e-6), "xt_ptr": (a["x_ptr"][:m, :n].T, 0, 0)}
