"""A runtime loop with a loop-carried scalar (seed version 10)."""
import triton
import triton.language as tl


@triton.jit
def runtime_sum_kernel(x, out, K):
    accumulator = 0.0

    for k in range(K):
        accumulator += tl.load(x + k)

    tl.store(out, accumulator)
