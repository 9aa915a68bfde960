# Kernels that pin the fast lowering's vectorised memory accesses (axis.c's
# contiguity and divisibility facts). tests/exec/check_fast.c runs each spec
# of this folder in the kernel-layer simulator and in the interpreter and
# compares the outputs.
import triton
import triton.language as tl


@triton.jit
def wrapped_rows_kernel(x_ptr, out_ptr, N, BLOCK: tl.constexpr):
    # Triton's matmul tutorial wraps its column offsets: (pid * BLOCK +
    # arange) % N. With N a multiple of 16 the offsets stay consecutive in
    # runs of 16, so the loads are vectorised; the wrap falls inside a
    # block here (N = 48, BLOCK = 32), between two runs.
    pid = tl.program_id(0)
    cols = (pid * BLOCK + tl.arange(0, BLOCK)) % N
    rows = tl.arange(0, 4)
    x = tl.load(x_ptr + rows[:, None] * N + cols[None, :])
    tl.store(out_ptr + rows[:, None] * (2 * BLOCK) + pid * BLOCK + tl.arange(0, BLOCK)[None, :], x * 2)
