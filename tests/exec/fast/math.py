# Math functions in the fast lowering, on f32 and f16 (docs/language.md's
# list; docs/interpreter.md states where the GPU may differ).
# tests/exec/check_fast.c runs each spec of this folder in the kernel-layer
# simulator and in the interpreter and compares the outputs;
# tests/exec/numpy/math.*.py check the interpreter against numpy.
#
# half_kernel is the 16-bit case (f16, and bf16 in a spec of ties): fma,
# fdiv, abs and clamp in the half type itself, each rounded once to it,
# and sqrt_rn through f32 and back; tolerance 0. Its ties specs are inputs
# where a * b + c lies just past a tie of the half type, so that an f32
# fma rounded once more to the half type (two roundings) lands on the tie
# and rounds to even, the wrong way: 1.5 * 0.6669921875 + 2^-24 in f16,
# 1.125 * 0.90625 + 2^-100 in bf16.
import triton
import triton.language as tl


@triton.jit
def half_kernel(a_ptr, b_ptr, c_ptr, fma_ptr, fdiv_ptr, abs_ptr, clamp_ptr, sqrt_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask, other=1.0)
    b = tl.load(b_ptr + offs, mask=mask, other=1.0)
    c = tl.load(c_ptr + offs, mask=mask, other=1.0)
    tl.store(fma_ptr + offs, tl.fma(a, b, c), mask=mask)
    tl.store(fdiv_ptr + offs, tl.fdiv(a, b), mask=mask)
    tl.store(abs_ptr + offs, tl.abs(b), mask=mask)
    tl.store(clamp_ptr + offs, tl.clamp(b, -1.0, c), mask=mask)
    tl.store(sqrt_ptr + offs, tl.sqrt_rn(tl.abs(a).to(tl.float32)).to(a_ptr.dtype.element_ty), mask=mask)
