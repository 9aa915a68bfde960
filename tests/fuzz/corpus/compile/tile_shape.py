"""Stores each element's own linear offset into a rank-2 tile (seed version
8's shape test): the SSA shows the broadcast shapes exactly."""
import triton
import triton.language as tl


# mytriton: BM=16 BN=32
@triton.jit
def tile_shape_kernel(out, M, N, BM: tl.constexpr, BN: tl.constexpr):
    offs_m = tl.arange(0, BM)[:, None]
    offs_n = tl.arange(0, BN)[None, :]
    offsets = offs_m * N + offs_n
    mask = (offs_m < M) & (offs_n < N)
    tl.store(out + offsets, offsets, mask=mask)
