"""Planted errors for the language server tests: each kernel breaks (or
invites) one rule, and each has a mechanical fix."""
import triton
import triton.language as tl


@triton.jit
def in_range(o, n):
    return (o >= 0) & (o < n)


# mytriton: BLOCK=128
@triton.jit
def precedence_kernel(x, y, n, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    m = o < n & o > 0
    tl.store(y + o, tl.load(x + o, mask=m))


@triton.jit
def needs_block(x, n, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    tl.store(x + o, 1.0, mask=o < n)


@triton.jit
def arange_kernel(x, n):
    o = tl.arange(0, 100)
    tl.store(x + o, 0.0, mask=o < n)


@triton.jit
def logic_kernel(x, n):
    o = tl.arange(0, 64)
    m = o < n and o > 1
    tl.store(x + o, 0.0, mask=m)


@triton.jit
def mask_kernel(x, y, n):
    o = tl.arange(0, 64)
    ok = in_range(o, n)
    v = tl.load(x + o)
    w = tl.load(x + o, mask=ok)
    tl.store(y + o, v + w)
