"""Vector addition: the seed documents' first kernel.

Each program instance adds one BLOCK-wide slice of x and y into out; the
mask keeps the last, partial block inside the arrays.
"""
import triton
import triton.language as tl


# mytriton: BLOCK=256
@triton.jit
def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x_values = tl.load(x + offsets, mask=mask, other=0.0)
    y_values = tl.load(y + offsets, mask=mask, other=0.0)
    tl.store(out + offsets, x_values + y_values, mask=mask)


if __name__ == "__main__":
    import torch

    n = 1_000
    x = torch.ones(n, device="cuda")
    y = torch.ones(n, device="cuda")
    out = torch.empty_like(x)
    add_kernel[(triton.cdiv(n, 256),)](x, y, out, n, BLOCK=256)
