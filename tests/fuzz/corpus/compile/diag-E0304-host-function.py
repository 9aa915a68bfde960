import triton
import triton.language as tl


import numpy as np


# mytriton: BLOCK=8
@triton.jit
def kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = np.zeros(8)
    tl.store(out + offs, v)
