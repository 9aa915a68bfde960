"""Block factory functions (seed version 11): tl.zeros, tl.full and tl.empty
build blocks of a given shape and dtype."""
import triton
import triton.language as tl


# mytriton: BLOCK=8
@triton.jit
def factories_kernel(out, BLOCK: tl.constexpr):
    zeros = tl.zeros((BLOCK,), tl.float32)
    twos = tl.full((BLOCK,), 2.5, tl.float32)
    tl.store(out + tl.arange(0, BLOCK), zeros + twos)


# mytriton: BM=4 BN=8
@triton.jit
def full_2d_kernel(out, value, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.arange(0, BM)[:, None]
    cols = tl.arange(0, BN)[None, :]
    tile = tl.full([BM, BN], value, tl.float32) + tl.zeros((BM, BN), tl.float32)
    tl.store(out + rows * BN + cols, tile)
