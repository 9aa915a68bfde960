"""Kernels the Python tests launch (a file of their own, so the tests can
check that diagnostics point at these lines)."""
import mytriton as triton
import mytriton.language as tl

SCALE = 3  # a module-level constant the kernels read


@triton.jit
def scaled(v):
    return v * SCALE


@triton.jit
def scale_kernel(x, out, n, BLOCK: tl.constexpr = 64):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out + offs, scaled(tl.load(x + offs, mask=mask)), mask=mask)


@triton.jit
def strided_copy(src, dst, n, stride, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(dst + offs, tl.load(src + offs * stride, mask=mask), mask=mask)


@triton.jit
def fill_kernel(out, value, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out + offs, tl.full((BLOCK,), value, out.dtype.element_ty), mask=offs < n)


@triton.jit
def acc_kernel(out, value, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out + offs, tl.load(out + offs, mask=mask) + value, mask=mask)


@triton.jit
def bad_arange(out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)  # BAD-ARANGE
    tl.store(out + offs, offs)


@triton.jit
def oob_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out + offs, tl.load(x + offs))  # OOB


@triton.jit
def printing_kernel(x, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.device_print("x", tl.load(x + offs))  # NOT-FAST


@triton.jit
def act_cast(x, out, n, DTYPE: tl.constexpr, ACTIVATION: tl.constexpr, BLOCK: tl.constexpr):
    """A dtype constexpr picks the cast, a string constexpr the activation
    (any other string stores its length, to see that it arrived whole)."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    v = tl.load(x + offs, mask=mask)
    if ACTIVATION == "leaky_relu":
        v = tl.where(v >= 0, v, v * 0.125)
    elif ACTIVATION == "relu":
        v = tl.maximum(v, 0.0)
    elif ACTIVATION != "none":
        v = v * 0.0 + len(ACTIVATION)
    tl.store(out + offs, v.to(DTYPE).to(tl.float32), mask=mask)


# kernels made by calling jit(f) rather than decorating f (Triton allows both)
def twice(v):
    return v * 2


def double_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out + offs, twice(tl.load(x + offs, mask=mask)), mask=mask)


def bad_plain(out, BLOCK: tl.constexpr):
    tl.store(out + tl.arange(0, BLOCK), undefined_name)  # PLAIN-ERROR


twice = triton.jit(twice)
double_kernel = triton.jit(double_kernel)
bad_plain = triton.jit(bad_plain)
