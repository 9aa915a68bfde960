import triton
import triton.language as tl


# A bool is not a block dimension, even though True == 1 in Python.
@triton.jit
def kernel(out):
    z = tl.zeros((4, True), tl.float32)
    tl.store(out + tl.arange(0, 4)[:, None] + tl.arange(0, 1)[None, :], z)
