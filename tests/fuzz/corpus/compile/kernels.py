"""Kernels for the `mytriton run` tests (tests/exec/run_cli.sh): a correct
one, two with bugs to report at run time, and one that does not compile."""
import triton
import triton.language as tl


@triton.jit
def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x_values = tl.load(x + offsets, mask=mask, other=0.0)
    y_values = tl.load(y + offsets, mask=mask, other=0.0)
    tl.store(out + offsets, x_values + y_values, mask=mask)


@triton.jit
def off_by_one(x, out, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    values = tl.load(x + offsets, mask=offsets < n, other=0.0)
    tl.store(out + offsets, values, mask=offsets <= n)


@triton.jit
def ratio(a, b, out, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    num = tl.load(a + offsets, mask=mask, other=0)
    den = tl.load(b + offsets, mask=mask, other=1)
    tl.store(out + offsets, num // den, mask=mask)


@triton.jit
def float_floordiv(x, out, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    values = tl.load(x + offsets, mask=offsets < n, other=0.0)
    tl.store(out + offsets, values // 2, mask=offsets < n)
