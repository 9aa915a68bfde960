import triton
import triton.language as tl


# mytriton: BLOCK=8
@triton.jit
def kernel(x, out, n, BLOCK: tl.constexpr):
    a = tl.zeros((BLOCK, 16), tl.float32)
    b = tl.zeros((8, BLOCK), tl.float32)
    c = tl.dot(a, b)
    r = tl.arange(0, BLOCK)[:, None]
    tl.store(out + r * BLOCK + tl.arange(0, BLOCK)[None, :], c)
