"""Numerically stable row-wise softmax (seed version 6): two reductions and
elementwise math, one program instance per row."""
import triton
import triton.language as tl


# mytriton: BLOCK=8
@triton.jit
def softmax_kernel(x, out, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    offsets = row * n_cols + cols
    mask = cols < n_cols

    values = tl.load(
        x + offsets,
        mask=mask,
        other=float("-inf"),
    )

    row_max = tl.max(values)
    numerators = tl.exp(values - row_max)
    denominator = tl.sum(numerators)
    probabilities = numerators / denominator

    tl.store(out + offsets, probabilities, mask=mask)
