import triton
import triton.language as tl


@triton.jit
def scale(v, factor):
    return v * factor


# mytriton: BLOCK=8
@triton.jit
def kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out + offs, scale(tl.load(x + offs)))
