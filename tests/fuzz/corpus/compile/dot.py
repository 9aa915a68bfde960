"""tl.dot semantics (seed version 13): [M, K] x [K, N] -> [M, N] on rank-2
f32 blocks, and a complete tiled matmul (seed versions 14-16): canonical
masked tile loads, a runtime K loop and a register-tile accumulator."""
import triton
import triton.language as tl


# mytriton: BM=4 BK=16 BN=8
@triton.jit
def dot_shapes_kernel(out, BM: tl.constexpr, BK: tl.constexpr, BN: tl.constexpr):
    lhs = tl.zeros((BM, BK), tl.float32)
    rhs = tl.zeros((BK, BN), tl.float32)
    result = tl.dot(lhs, rhs)
    rows = tl.arange(0, BM)[:, None]
    cols = tl.arange(0, BN)[None, :]
    tl.store(out + rows * BN + cols, result)


# mytriton: BM=8 BN=8 BK=16
@triton.jit
def matmul_kernel(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rows = pid_m * BM + tl.arange(0, BM)[:, None]
    cols = pid_n * BN + tl.arange(0, BN)[None, :]
    acc = tl.zeros((BM, BN), tl.float32)
    for k_base in range(0, K, BK):
        a_rows = pid_m * BM + tl.arange(0, BM)[:, None]
        a_columns = k_base + tl.arange(0, BK)[None, :]
        a_values = tl.load(
            a + a_rows * K + a_columns,
            mask=(a_rows < M) & (a_columns < K),
            other=0.0,
        )
        b_rows = k_base + tl.arange(0, BK)[:, None]
        b_columns = pid_n * BN + tl.arange(0, BN)[None, :]
        b_values = tl.load(
            b + b_rows * N + b_columns,
            mask=(b_rows < K) & (b_columns < N),
            other=0.0,
        )
        acc = acc + tl.dot(a_values, b_values)
    tl.store(c + rows * N + cols, acc, mask=(rows < M) & (cols < N))
