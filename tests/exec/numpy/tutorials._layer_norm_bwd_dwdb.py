"""Tutorial 05's sum of the partial weight and bias gradients: the column
sums of the first M rows of DW and DB (40 float32 terms in [-1, 1): the
kernel's float32 sums are within a few 1e-6 of the exact ones)."""
import numpy as np


def expected(a, s):
    m = s["M"]
    return {"FINAL_DW": (a["DW"][:m].astype(np.float64).sum(axis=0), 1e-5, 1e-5),
            "FINAL_DB": (a["DB"][:m].astype(np.float64).sum(axis=0), 1e-5, 1e-5)}
