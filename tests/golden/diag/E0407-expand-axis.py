import triton
import triton.language as tl


# mytriton: BLOCK=8
@triton.jit
def kernel(x, out, n, BLOCK: tl.constexpr):
    t = tl.arange(0, BLOCK)[:, None]
    u = tl.expand_dims(t, 3)
    tl.store(out + t, 0.0)
