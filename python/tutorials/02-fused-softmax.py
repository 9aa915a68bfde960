"""Fused row-wise softmax, in the style of Triton's second tutorial, on numpy.

One program reads whole rows (a block of the next power of two of the
row length, masked), subtracts the row maximum for stability, exponentiates,
normalises and writes the row back: one read and one write of the matrix,
against numpy's several passes. Programs loop over rows with tl.range, so a
fixed number of programs covers any number of rows.

    PYTHONPATH=build/python python3 python/tutorials/02-fused-softmax.py
"""
import numpy as np

import mytriton as triton
import mytriton.language as tl


@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows, n_cols,
                   BLOCK_SIZE: tl.constexpr):
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row_idx in tl.range(row_start, n_rows, row_step):
        row_ptr = input_ptr + row_idx * input_row_stride
        col_offsets = tl.arange(0, BLOCK_SIZE)
        mask = col_offsets < n_cols
        row = tl.load(row_ptr + col_offsets, mask=mask, other=-float("inf"))
        row_minus_max = row - tl.max(row, axis=0)
        numerator = tl.exp(row_minus_max)
        denominator = tl.sum(numerator, axis=0)
        softmax_output = numerator / denominator
        out_row_ptr = output_ptr + row_idx * output_row_stride
        tl.store(out_row_ptr + col_offsets, softmax_output, mask=mask)


def softmax(x, programs=8):
    n_rows, n_cols = x.shape
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    num_warps = 8 if BLOCK_SIZE >= 2048 else 4
    y = np.empty_like(x)
    grid = (min(programs, n_rows),)
    item = x.itemsize
    softmax_kernel[grid](y, x, x.strides[0] // item, y.strides[0] // item, n_rows, n_cols,
                         BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps)
    return y


def naive_softmax(x):
    z = x - x.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    for shape in [(1823, 781), (64, 1000), (3, 4097)]:
        x = rng.standard_normal(shape, dtype=np.float32)
        y_triton = softmax(x)
        y_ref = naive_softmax(x)
        np.testing.assert_allclose(y_triton, y_ref, rtol=1e-5, atol=1e-6)
        print(f"softmax {shape[0]}x{shape[1]}: matches numpy (max error "
              f"{float(np.max(np.abs(y_triton - y_ref))):.2e})")
    # a strided view: every other row of a larger matrix
    big = rng.standard_normal((40, 300), dtype=np.float32)
    np.testing.assert_allclose(softmax(big[::2]), naive_softmax(big[::2]), rtol=1e-5, atol=1e-6)
    print("softmax of a strided view: matches numpy")
