# args: --emit cuda --lowering seed
import triton
import triton.language as tl


# mytriton: BM=8 BK=8 BN=8
@triton.jit
def kernel(a, out, BM: tl.constexpr, BK: tl.constexpr, BN: tl.constexpr):
    rows = tl.arange(0, BM)[:, None]
    cols = tl.arange(0, BK)[None, :]
    tile = tl.load(a + rows * BK + cols)
    twice = tl.dot(tl.dot(tile, tile), tile)
    tl.store(out + rows * BN + cols, twice)
