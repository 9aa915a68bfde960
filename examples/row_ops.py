"""Row-wise operations on 2-D tiles: argmax along each row of a block of
rows (masked columns read as -inf, so they never win), and the cumulative
sum along a row computed in fp32 from fp16 input."""
import triton
import triton.language as tl


# mytriton: BLOCK_M=4 BLOCK_N=64
@triton.jit
def row_argmax_kernel(x_ptr, out_ptr, n_rows, n_cols, stride, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    x = tl.load(x_ptr + rows[:, None] * stride + cols[None, :], mask=mask, other=-float("inf"))
    idx = tl.argmax(x, axis=1)
    tl.store(out_ptr + rows, idx, mask=rows < n_rows)


# mytriton: BLOCK_N=128
@triton.jit
def row_cumsum_kernel(x_ptr, out_ptr, n_cols, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(out_ptr + row * n_cols + cols, tl.cumsum(x, axis=0), mask=mask)
