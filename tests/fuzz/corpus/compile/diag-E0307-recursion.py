import triton
import triton.language as tl


@triton.jit
def twice(v):
    return twice(v) * 2.0


# mytriton: BLOCK=8
@triton.jit
def kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out + offs, twice(tl.load(x + offs)))
