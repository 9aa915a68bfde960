"""Row-wise reductions (seed version 6): one program instance per row, one
lane per column, lane 0 stores the result."""
import triton
import triton.language as tl


# mytriton: BLOCK=8
@triton.jit
def row_sum_kernel(x, out, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)

    offsets = row * n_cols + cols
    mask = cols < n_cols

    values = tl.load(x + offsets, mask=mask, other=0.0)

    total = tl.sum(values)

    first_lane = cols < 1

    tl.store(out + row, total, mask=first_lane)


# mytriton: BLOCK=8
@triton.jit
def row_max_kernel(x, out, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    offsets = row * n_cols + cols
    mask = cols < n_cols
    values = tl.load(x + offsets, mask=mask, other=float("-inf"))
    total = tl.max(values)
    first_lane = cols < 1
    tl.store(out + row, total, mask=first_lane)


# mytriton: BLOCK=8
@triton.jit
def row_min_kernel(x, out, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    offsets = row * n_cols + cols
    mask = cols < n_cols
    values = tl.load(x + offsets, mask=mask, other=float("inf"))
    total = tl.min(values)
    first_lane = cols < 1
    tl.store(out + row, total, mask=first_lane)
