# args: --emit cuda --lowering seed
import triton
import triton.language as tl


# mytriton: BLOCK=8
@triton.jit
def kernel(out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out + offs, 1.0)
    tl.store(out + offs[:, None] * BLOCK + offs[None, :], 2.0)
