# Kernels that pin the fast lowering's atomics: tests/exec/check_fast.c
# runs each spec of this folder in the kernel-layer simulator and in the
# interpreter and compares the outputs; tests/gpu runs them on the GPU.
#
# Atomics make results depend on the order in which programs reach an
# element only where several touch it: the contended elements here take
# order-free combinations (integer sums, max, min, and, or, xor, sums of
# small integers in floats, which are exact), and the old values that are
# stored come from elements one lane touches.
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, sum_ptr, acc_ptr, old_ptr, n, BLOCK: tl.constexpr):
    # split-K style: masked block atomic_add into eight shared slots
    # (results unused), and one element per lane whose old values are kept
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    tl.atomic_add(sum_ptr + offs % 8, x.to(sum_ptr.dtype.element_ty), mask=mask)
    old = tl.atomic_add(acc_ptr + offs, x.to(acc_ptr.dtype.element_ty), mask=mask, sem='relaxed')
    # masked-off lanes give 0
    tl.store(old_ptr + offs, old)


@triton.jit
def minmax_kernel(x_ptr, max_ptr, min_ptr, amax_ptr, amin_ptr, omax_ptr, omin_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    tl.atomic_max(max_ptr + offs % 8, x, mask=mask)
    tl.atomic_min(min_ptr + offs % 8, x, mask=mask)
    omax = tl.atomic_max(amax_ptr + offs, x, mask=mask, sem='acquire')
    omin = tl.atomic_min(amin_ptr + offs, x, mask=mask, sem='release', scope='cta')
    tl.store(omax_ptr + offs, omax)
    tl.store(omin_ptr + offs, omin)


@triton.jit
def bits_kernel(x_ptr, and_ptr, or_ptr, xor_ptr, acc_ptr, old_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    tl.atomic_and(and_ptr + offs % 8, x, mask=mask)
    tl.atomic_or(or_ptr + offs % 8, x, mask=mask, scope='sys')
    tl.atomic_xor(xor_ptr + offs % 8, x, mask=mask, sem='relaxed')
    old = tl.atomic_xor(acc_ptr + offs, x, mask=mask)
    tl.store(old_ptr + offs, old)


@triton.jit
def xchg_cas_kernel(x_ptr, xchg_ptr, oldx_ptr, cas_ptr, oldc_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs)
    ox = tl.atomic_xchg(xchg_ptr + offs, x.to(xchg_ptr.dtype.element_ty), mask=mask, scope='sys')
    tl.store(oldx_ptr + offs, ox)
    # even lanes compare with what the element holds (and swap), odd ones not
    cur = tl.load(cas_ptr + offs)
    cmp = tl.where(offs % 2 == 0, cur, cur + 1)
    oc = tl.atomic_cas(cas_ptr + offs, cmp, x.to(cas_ptr.dtype.element_ty), sem='acquire', scope='cta')
    tl.store(oldc_ptr + offs, oc)


@triton.jit
def scalar_kernel(count_ptr, fsum_ptr, flag_ptr, out_ptr, BLOCK: tl.constexpr):
    # a scalar atomic is one operation per program, its old value seen by
    # every thread
    pid = tl.program_id(0)
    tl.atomic_add(count_ptr, 1)
    tl.atomic_add(count_ptr + 1, 1, mask=pid % 2 == 0, sem='relaxed')
    tl.atomic_max(count_ptr + 2, pid, scope='sys')
    tl.atomic_or(count_ptr + 3, 1 << (pid % 8), sem='release')
    tl.atomic_add(fsum_ptr, 0.5)
    tl.atomic_min(fsum_ptr + 1, 2.5 - pid)
    old = tl.atomic_xchg(flag_ptr + pid, pid + 100, sem='acquire', scope='cta')
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + pid * BLOCK + offs, old + offs)


@triton.jit
def lock_kernel(lock_ptr, acc_ptr, visits_ptr, x_ptr, GROUPS: tl.constexpr, BLOCK: tl.constexpr):
    # the layer-norm backward's pattern: programs of a group take turns
    # under a spin lock, the first one stores and the others accumulate;
    # a plain read-modify-write under the lock counts the visits
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    lock_id = pid % GROUPS
    Lock = lock_ptr + lock_id
    Count = Lock + GROUPS
    x = tl.load(x_ptr + pid * BLOCK + offs)
    while tl.atomic_cas(Lock, 0, 1) == 1:
        pass
    count = tl.load(Count)
    if count == 0:
        tl.atomic_xchg(Count, 1)
        acc = x
    else:
        acc = tl.load(acc_ptr + lock_id * BLOCK + offs) + x
    tl.store(acc_ptr + lock_id * BLOCK + offs, acc)
    tl.store(visits_ptr + lock_id, tl.load(visits_ptr + lock_id) + 1)
    tl.debug_barrier()
    tl.atomic_xchg(Lock, 0)


# Triton's tutorial 05 (layer norm), its backward kernel as written there
@triton.jit
def _layer_norm_bwd_dx_fused(DX,  # pointer to the input gradient
                             DY,  # pointer to the output gradient
                             DW,  # pointer to the partial sum of weights gradient
                             DB,  # pointer to the partial sum of biases gradient
                             X,  # pointer to the input
                             W,  # pointer to the weights
                             Mean,  # pointer to the mean
                             Rstd,  # pointer to the 1/std
                             Lock,  # pointer to the lock
                             stride,  # how much to increase the pointer when moving by 1 row
                             N,  # number of columns in X
                             GROUP_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
    # Map the program id to the elements of X, DX, and DY it should compute.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE_N)
    mask = cols < N
    X += row * stride
    DY += row * stride
    DX += row * stride
    # Offset locks and weights/biases gradient pointer for parallel reduction
    lock_id = row % GROUP_SIZE_M
    Lock += lock_id
    Count = Lock + GROUP_SIZE_M
    DW = DW + lock_id * N + cols
    DB = DB + lock_id * N + cols
    # Load data to SRAM
    x = tl.load(X + cols, mask=mask, other=0).to(tl.float32)
    dy = tl.load(DY + cols, mask=mask, other=0).to(tl.float32)
    w = tl.load(W + cols, mask=mask).to(tl.float32)
    mean = tl.load(Mean + row)
    rstd = tl.load(Rstd + row)
    # Compute dx
    xhat = (x - mean) * rstd
    wdy = w * dy
    xhat = tl.where(mask, xhat, 0.)
    wdy = tl.where(mask, wdy, 0.)
    c1 = tl.sum(xhat * wdy, axis=0) / N
    c2 = tl.sum(wdy, axis=0) / N
    dx = (wdy - (xhat * c1 + c2)) * rstd
    # Write dx
    tl.store(DX + cols, dx, mask=mask)
    # Accumulate partial sums for dw/db
    partial_dw = (dy * xhat).to(w.dtype)
    partial_db = (dy).to(w.dtype)
    while tl.atomic_cas(Lock, 0, 1) == 1:
        pass
    count = tl.load(Count)
    # First store doesn't accumulate
    if count == 0:
        tl.atomic_xchg(Count, 1)
    else:
        partial_dw += tl.load(DW, mask=mask)
        partial_db += tl.load(DB, mask=mask)
    tl.store(DW, partial_dw, mask=mask)
    tl.store(DB, partial_db, mask=mask)

    # need a barrier to ensure all threads finished before
    # releasing the lock
    tl.debug_barrier()

    # Release the lock
    tl.atomic_xchg(Lock, 0)
