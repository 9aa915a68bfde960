"""The rank-2 matmul with a runtime K loop (seed version 10): range(K) with
a runtime K becomes a structured loop carrying the accumulator, initialised
with tl.zeros (seed version 11)."""
import triton
import triton.language as tl


# mytriton: BM=4 BN=8
@triton.jit
def matmul_2d_runtime_kernel(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BM + tl.arange(0, BM)[:, None]
    offs_n = pid_n * BN + tl.arange(0, BN)[None, :]
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(K):
        a_values = tl.load(a + offs_m * K + k, mask=offs_m < M, other=0.0)
        b_values = tl.load(b + k * N + offs_n, mask=offs_n < N, other=0.0)
        acc = acc + a_values * b_values
    tl.store(c + offs_m * N + offs_n, acc, mask=(offs_m < M) & (offs_n < N))
