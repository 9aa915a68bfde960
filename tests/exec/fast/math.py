# Math functions in the fast lowering, on f32 and f16 (docs/language.md's
# list; docs/interpreter.md states where the GPU may differ).
# tests/exec/check_fast.c runs each spec of this folder in the kernel-layer
# simulator and in the interpreter and compares the outputs;
# tests/exec/numpy/math.*.py check the interpreter against numpy.
#
# rounded_kernel holds the functions that are correctly rounded or exact
# everywhere (floor, ceil, fma, clamp, div_rn, fdiv, sqrt_rn, abs): its spec
# has tolerance 0, so the GPU must give the interpreter's bits.
# libm_kernel holds the ones that are not (log, log2, exp2, sin, cos,
# rsqrt, sqrt, erf, libdevice's tanh and pow): CUDA's are accurate to 1 to
# 4 ulp (its programming guide: log2f 1, sinf/cosf/tanhf/expf 2, powf 4;
# rsqrtf 2) and the C library's to about 1, so their last bits differ: its
# spec has rtol 1e-6 (about 8 ulp of f32 at 2^-23 each, the sum of both
# bounds with room) and atol 1e-7 (results near 0: sin near pi, log near 1).
# half_kernel is the 16-bit case (f16, and bf16 in a spec of ties): fma,
# fdiv, abs and clamp in the half type itself, each rounded once to it,
# and sqrt_rn through f32 and back; tolerance 0. Its ties specs are inputs
# where a * b + c lies just past a tie of the half type, so that an f32
# fma rounded once more to the half type (two roundings) lands on the tie
# and rounds to even, the wrong way: 1.5 * 0.6669921875 + 2^-24 in f16,
# 1.125 * 0.90625 + 2^-100 in bf16.
import triton
import triton.language as tl

try:
    from triton.language.extra import libdevice
except ImportError:
    from triton.language.extra.cuda import libdevice


@triton.jit
def rounded_kernel(x_ptr, y_ptr, z_ptr, floor_ptr, ceil_ptr, fma_ptr, clamp_ptr, div_rn_ptr, fdiv_ptr,
                   sqrt_rn_ptr, abs_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=1.0)
    y = tl.load(y_ptr + offs, mask=mask, other=1.0)
    z = tl.load(z_ptr + offs, mask=mask, other=1.0)
    tl.store(floor_ptr + offs, tl.floor(y * 3.0), mask=mask)
    tl.store(ceil_ptr + offs, tl.ceil(y * 3.0), mask=mask)
    tl.store(fma_ptr + offs, tl.fma(x, y, z), mask=mask)
    tl.store(clamp_ptr + offs, tl.clamp(y, -1.5, z), mask=mask)
    tl.store(div_rn_ptr + offs, tl.div_rn(y, x), mask=mask)
    tl.store(fdiv_ptr + offs, tl.fdiv(z, y), mask=mask)
    tl.store(sqrt_rn_ptr + offs, tl.sqrt_rn(x), mask=mask)
    tl.store(abs_ptr + offs, tl.abs(y), mask=mask)


@triton.jit
def libm_kernel(x_ptr, y_ptr, log_ptr, log2_ptr, exp2_ptr, sin_ptr, cos_ptr, rsqrt_ptr, sqrt_ptr, erf_ptr,
                tanh_ptr, pow_ptr, n, BLOCK: tl.constexpr):
    # x in [0.01, 10) for the logarithms, roots and pow's base; y in [-4, 4)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=1.0)
    y = tl.load(y_ptr + offs, mask=mask, other=1.0)
    tl.store(log_ptr + offs, tl.log(x), mask=mask)
    tl.store(log2_ptr + offs, tl.log2(x), mask=mask)
    tl.store(exp2_ptr + offs, tl.exp2(y), mask=mask)
    tl.store(sin_ptr + offs, tl.sin(y), mask=mask)
    tl.store(cos_ptr + offs, tl.cos(y), mask=mask)
    tl.store(rsqrt_ptr + offs, tl.rsqrt(x), mask=mask)
    tl.store(sqrt_ptr + offs, tl.sqrt(x), mask=mask)
    tl.store(erf_ptr + offs, tl.erf(y), mask=mask)
    tl.store(tanh_ptr + offs, libdevice.tanh(y), mask=mask)
    tl.store(pow_ptr + offs, libdevice.pow(x, y), mask=mask)


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
