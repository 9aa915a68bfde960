"""Elementwise activations (seed version 4): ReLU through tl.maximum,
leaky ReLU through tl.where, and sigmoid through negation, tl.exp, addition
and division. The sigmoid kernel calls a @triton.jit helper, which is
inlined."""
import triton
import triton.language as tl


# mytriton: BLOCK=128
@triton.jit
def relu_kernel(x, out, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    values = tl.load(x + offsets, mask=mask, other=0.0)
    tl.store(out + offsets, tl.maximum(values, 0.0), mask=mask)


# mytriton: BLOCK=128
@triton.jit
def leaky_relu_kernel(x, out, n, slope, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    values = tl.load(x + offsets, mask=mask, other=0.0)
    tl.store(out + offsets, tl.where(values > 0.0, values, values * slope), mask=mask)


@triton.jit
def sigmoid(values):
    return 1.0 / (1.0 + tl.exp(-values))


# mytriton: BLOCK=128
@triton.jit
def sigmoid_kernel(x, out, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    values = tl.load(x + offsets, mask=mask, other=0.0)
    tl.store(out + offsets, sigmoid(values), mask=mask)
