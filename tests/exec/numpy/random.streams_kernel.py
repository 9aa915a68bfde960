"""Triton's integer and uniform draws, bit for bit: a numpy Philox
(lib/philox.py) on the kernel's offsets, start + i in int32 and
(start + i) * 1000003 in int64, under the spec's seed."""
import numpy as np
import philox


def expected(a, s):
    n, seed = s["n"], s["seed"]
    offs = (s["start"] + np.arange(n, dtype=np.int64)).astype(np.int32)
    offs64 = offs.astype(np.int64) * 1000003
    r = philox.randint4x(seed, offs)
    return {
        "ints_ptr": (r[0], 0, 0),
        "ints4_ptr": (r.T, 0, 0),
        "uni_ptr": (philox.to_uniform(r[0]), 0, 0),
        "uni4_ptr": (philox.to_uniform(r).T, 0, 0),
        "ints64_ptr": (philox.randint4x(seed, offs64, bits=64)[0], 0, 0),
        "uni64_ptr": (philox.rand(seed, offs64, bits=64), 0, 0),
    }
