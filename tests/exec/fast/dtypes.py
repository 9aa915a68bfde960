# Kernels that pin the fast lowering on the element types and the
# conversions of the language: tests/exec/check_fast.c runs each spec of
# this folder in the kernel-layer simulator and in the interpreter and
# wants the same bits.
import triton
import triton.language as tl


@triton.jit
def casts_kernel(x_ptr, h_ptr, hz_ptr, b_ptr, bz_ptr, i8_ptr, u8_ptr, i32_ptr, u32_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(h_ptr + offs, x.to(tl.float16), mask=mask)
    tl.store(hz_ptr + offs, tl.cast(x, tl.float16, fp_downcast_rounding="rtz"), mask=mask)
    tl.store(b_ptr + offs, x.to(tl.bfloat16), mask=mask)
    tl.store(bz_ptr + offs, tl.cast(x, tl.bfloat16, fp_downcast_rounding="rtz"), mask=mask)
    tl.store(i8_ptr + offs, x.to(tl.int8), mask=mask)
    tl.store(u8_ptr + offs, x.to(tl.uint8), mask=mask)
    tl.store(i32_ptr + offs, x.to(tl.int32), mask=mask)
    tl.store(u32_ptr + offs, x.to(tl.uint32), mask=mask)


@triton.jit
def bits_kernel(x_ptr, y_ptr, shl_ptr, shr_ptr, ushr_ptr, hi_ptr, abs_ptr, bits_ptr, wrap_ptr, n,
                BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    y = tl.load(y_ptr + offs, mask=mask, other=0.0)
    s = offs % 31
    tl.store(shl_ptr + offs, x << s, mask=mask)
    tl.store(shr_ptr + offs, x >> s, mask=mask)
    u = x.to(tl.uint32, bitcast=True)
    tl.store(ushr_ptr + offs, u >> s.to(tl.uint32), mask=mask)
    tl.store(hi_ptr + offs, tl.umulhi(u, u + 12345), mask=mask)
    tl.store(abs_ptr + offs, tl.abs(x), mask=mask)
    tl.store(bits_ptr + offs, y.to(tl.int32, bitcast=True) ^ 0x55, mask=mask)
    tl.store(wrap_ptr + offs, x.to(tl.int8) * 3 + 7, mask=mask)


@triton.jit
def half_math_kernel(a_ptr, b_ptr, out_ptr, cmp_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask, other=1.0)
    b = tl.load(b_ptr + offs, mask=mask, other=1.0)
    y = (tl.exp(a.to(tl.float32)) * b + tl.sqrt(tl.abs(b).to(tl.float32))).to(tl.float16)
    tl.store(out_ptr + offs, tl.where(a > b, y, a - b), mask=mask)
    tl.store(cmp_ptr + offs, (a.to(tl.float32) < b.to(tl.float32)) & (a != b), mask=mask)
