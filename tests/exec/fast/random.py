# Triton's random numbers (tl.randint, tl.randint4x, tl.rand, tl.rand4x,
# tl.randn, tl.randn4x) in the fast lowering: Philox 4x32-10 on 32-bit
# offsets and 4x64 on 64-bit ones, expanded by the front end into wrapping
# unsigned arithmetic (umulhi, shifts, casts), then uniform floats and
# Box-Muller. tests/exec/check_fast.c runs each spec of this folder in the
# kernel-layer simulator and in the interpreter and compares the outputs;
# tests/exec/numpy/random.*.py check the interpreter's draws bit for bit
# against a numpy Philox written from Triton's random.py.
import triton
import triton.language as tl


@triton.jit
def streams_kernel(seed, ints_ptr, ints4_ptr, uni_ptr, uni4_ptr, ints64_ptr, uni64_ptr, start, n,
                   BLOCK: tl.constexpr):
    # offsets from `start` (negative ones reach philox as their uint32
    # bits); the 64-bit offsets are (start + i) * 1000003, so their high
    # words differ too
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n
    offs = start + i
    tl.store(ints_ptr + i, tl.randint(seed, offs), mask=mask)
    r0, r1, r2, r3 = tl.randint4x(seed, offs)
    tl.store(ints4_ptr + i * 4 + 0, r0, mask=mask)
    tl.store(ints4_ptr + i * 4 + 1, r1, mask=mask)
    tl.store(ints4_ptr + i * 4 + 2, r2, mask=mask)
    tl.store(ints4_ptr + i * 4 + 3, r3, mask=mask)
    tl.store(uni_ptr + i, tl.rand(seed, offs), mask=mask)
    u = tl.rand4x(seed, offs)
    for k in tl.static_range(4):
        tl.store(uni4_ptr + i * 4 + k, u[k], mask=mask)
    offs64 = offs.to(tl.int64) * 1000003
    tl.store(ints64_ptr + i, tl.randint(seed, offs64), mask=mask)
    tl.store(uni64_ptr + i, tl.rand(seed, offs64), mask=mask)


@triton.jit
def normal_kernel(seed, nrm_ptr, nrm4_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(nrm_ptr + offs, tl.randn(seed, offs), mask=mask)
    z = tl.randn4x(seed, offs)
    for k in tl.static_range(4):
        tl.store(nrm4_ptr + offs * 4 + k, z[k], mask=mask)
