"""Vector addition, in the style of Triton's first tutorial, on numpy arrays.

The kernel, the launch with a grid computed from its meta-parameters and
the check are what a Triton user writes; only the import differs
(`import mytriton as triton`). numpy arrays run on the CPU interpreter, so
this runs on any machine; the same kernel takes torch CUDA tensors on a GPU.

    PYTHONPATH=build/python python3 python/tutorials/01-vector-add.py
"""
import numpy as np

import mytriton as triton
import mytriton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    # each program handles one block of BLOCK_SIZE elements
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements          # the last block may be partial
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x + y, mask=mask)


def add(x, y):
    output = np.empty_like(x)
    n_elements = output.size
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=1024)
    return output


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    size = 98_432
    x = rng.random(size, dtype=np.float32)
    y = rng.random(size, dtype=np.float32)
    output_np = x + y
    output_triton = add(x, y)
    print(output_np[:4])
    print(output_triton[:4])
    diff = float(np.max(np.abs(output_np - output_triton)))
    print(f"The maximum difference between numpy and mytriton is {diff}")
    assert diff == 0.0
    print(f"compiled {add_kernel.compiles} specialisation(s): {[key[0] for key in add_kernel.cache]}")
