# Kernels that pin the fast lowering's runtime control flow and hints:
# tests/exec/check_fast.c runs each spec of this folder in the
# kernel-layer simulator and in the interpreter and compares the outputs.
import triton
import triton.language as tl


@triton.jit
def branches_kernel(x_ptr, out_ptr, flag_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    if pid * BLOCK >= n:
        return
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    offs = tl.max_contiguous(tl.multiple_of(offs, BLOCK), BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    flag = tl.load(flag_ptr + pid)
    if flag > 0:
        y = x * 2
        s = tl.sum(y, axis=0)
    elif flag < 0:
        y = x - 1
        s = tl.max(y, axis=0)
    else:
        y = tl.cumsum(x, axis=0)
        s = 0
    tl.store(out_ptr + offs, y + s, mask=mask)


@triton.jit
def loops_kernel(x_ptr, out_ptr, steps_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    steps = tl.load(steps_ptr + pid)
    i = 0
    acc = x
    while i < steps:
        acc = acc * 3 + i
        if tl.max(acc, axis=0) > 100000:
            acc = acc % 1000
        i += 1
    tl.store(out_ptr + offs, acc, mask=mask)


@triton.jit
def data_masks_kernel(x_ptr, out_ptr, flag_ptr, n, BLOCK: tl.constexpr):
    # masks computed from loaded data (not constant over any run) beside a
    # contiguous, aligned pointer, at the top level and inside a branch
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0)
    tl.store(out_ptr + offs, x * 10, mask=(x > 0) & (offs < n))
    if tl.load(flag_ptr + pid) > 0:
        odd = (x & 1) == 1
        tl.store(out_ptr + offs, x + 1000, mask=odd & (offs < n))
