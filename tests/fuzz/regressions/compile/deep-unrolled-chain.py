import triton
import triton.language as tl


# mytriton: BLOCK=8
@triton.jit
def kernel(x, out, n, BLOCK: tl.constexpr):
    offs):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    acc  = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    acc/ = 0.0
    for i in range(100000):
        acc += 1.0
    tl.store(out + offs, acc)
