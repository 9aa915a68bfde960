"""GELU on fp16 activations, the way kernel libraries write it: load the
half-precision values, compute in fp32 (.to(tl.float32)), store back in
the output's dtype. Two forms: the exact one with tl.erf, and the tanh
approximation with libdevice's tanh, imported as libraries do (the
libdevice module moved between Triton versions)."""
import triton
import triton.language as tl

try:
    from triton.language.extra.cuda.libdevice import tanh
except ImportError:
    from triton.language.math import tanh


# mytriton: BLOCK=1024
@triton.jit
def gelu_erf_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    y = 0.5 * x * (1.0 + tl.erf(x * 0.7071067811865476))
    tl.store(out_ptr + offsets, y.to(out_ptr.dtype.element_ty), mask=mask)


# mytriton: BLOCK=1024
@triton.jit
def gelu_tanh_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    y = 0.5 * x * (1.0 + tanh(inner))
    tl.store(out_ptr + offsets, y.to(out_ptr.dtype.element_ty), mask=mask)
