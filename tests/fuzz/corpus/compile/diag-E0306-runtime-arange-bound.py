import triton
import triton.language as tl


# mytriton: BLOCK=8
@triton.jit
def kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, n)
    tl.store(out + offs, 0.0)
