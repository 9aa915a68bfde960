import triton
import triton.language as tl


# mytriton: BLOCK=8
@triton.jit
def kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + offs)
    w = v if n > 0 else 0.0
    tl.store(out + offs, w)
