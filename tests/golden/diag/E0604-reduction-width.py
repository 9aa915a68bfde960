# args: --emit cuda --lowering seed
import triton
import triton.language as tl


# mytriton: BLOCK=8
@triton.jit
def kernel(x, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    wide = tl.arange(0, 2 * BLOCK)
    total = tl.sum(tl.load(x + offs))
    tl.store(out + wide, total)
