"""Matrix addition over a 2D launch grid with rank-1 blocks (seed version 6):
program axis 0 picks the row, axis 1 a block of columns."""
import triton
import triton.language as tl


# mytriton: BLOCK=256
@triton.jit
def matrix_add_kernel(x, y, out, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    col_block = tl.program_id(1)

    cols = col_block * BLOCK + tl.arange(0, BLOCK)

    offsets = row * n_cols + cols
    mask = cols < n_cols

    lhs = tl.load(x + offsets, mask=mask, other=0.0)
    rhs = tl.load(y + offsets, mask=mask, other=0.0)

    tl.store(out + offsets, lhs + rhs, mask=mask)
