"""The integer and uniform draws of random.streams_kernel under a 64-bit
seed (a constexpr: seed_hi is not zero) and offsets near 2^31, bit for
bit against lib/philox.py."""
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
