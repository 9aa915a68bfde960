# args: --signature garbage,*fp32,i32,8
import triton
import triton.language as tl


# mytriton: BLOCK=8
@triton.jit
def kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out + offs, tl.load(x + offs))
