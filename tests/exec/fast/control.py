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


@triton.jit
def strided_rows_kernel(x_ptr, out_ptr, back_ptr, n_rows, n_cols, BLOCK: tl.constexpr):
    # the fused-softmax tutorial's persistent loop: a runtime step (the
    # number of programs); then a runtime step that is negative, which runs
    # no iteration, as Triton's loops count (scf.for: while iv < stop); and
    # a loop over an int64 induction variable
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    step = tl.num_programs(0)
    for row in tl.range(tl.program_id(0), n_rows, step):
        x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0)
        tl.store(out_ptr + row * n_cols + cols, x - tl.max(x, axis=0), mask=mask)
    total = tl.zeros((BLOCK,), dtype=tl.float32)
    for row in range(n_rows - 1 - tl.program_id(0), -1, -step):
        total += tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0)
    wide = tl.zeros((BLOCK,), dtype=tl.float32)
    for row in range(tl.program_id(0).to(tl.int64), n_rows, 4):
        wide += tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0)
    tl.store(back_ptr + tl.program_id(0) * 2 * BLOCK + cols, total)
    tl.store(back_ptr + tl.program_id(0) * 2 * BLOCK + BLOCK + cols, wide)


@triton.jit
def asserting_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # tl.device_assert is checked by the interpreter (it holds here) and
    # left out of the GPU lowering, as Triton checks it only in debug mode
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    tl.device_assert(x >= 0, "x must be non-negative", mask=mask)
    tl.store(out_ptr + offs, x * 3, mask=mask)
