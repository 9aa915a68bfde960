# Kernels that pin the fast lowering's reductions, scans and shape
# operations: tests/exec/check_fast.c runs each spec of this folder in the
# kernel-layer simulator and in the interpreter and compares the outputs
# (integers and min/max exactly; float sums to the test's tolerance).
import triton
import triton.language as tl


@triton.jit
def axis_sums_kernel(x_ptr, k_ptr, rows_ptr, cols_ptr, rmax_ptr, cmin_ptr, keep_ptr, xor_ptr, total_ptr,
                     M: tl.constexpr, N: tl.constexpr):
    r = tl.arange(0, M)
    c = tl.arange(0, N)
    x = tl.load(x_ptr + r[:, None] * N + c[None, :])
    k = tl.load(k_ptr + r[:, None] * N + c[None, :])
    tl.store(rows_ptr + r, tl.sum(x, axis=1))
    tl.store(cols_ptr + c, tl.sum(x, axis=0))
    tl.store(rmax_ptr + r, tl.max(x, axis=1))
    tl.store(cmin_ptr + c, tl.min(x, axis=0))
    kept = tl.sum(x, axis=1, keep_dims=True)
    tl.store(keep_ptr + r[:, None] * N + c[None, :], x - kept)
    tl.store(xor_ptr + c, tl.xor_sum(k, axis=0))
    tl.store(total_ptr, tl.sum(tl.sum(k, axis=1), axis=0))


@triton.jit
def arg_kernel(x_ptr, amax_ptr, amin_ptr, cmax_ptr, M: tl.constexpr, N: tl.constexpr):
    r = tl.arange(0, M)
    c = tl.arange(0, N)
    x = tl.load(x_ptr + r[:, None] * N + c[None, :])
    tl.store(amax_ptr + r, tl.argmax(x, axis=1))
    tl.store(amin_ptr + r, tl.argmin(x, axis=1))
    tl.store(cmax_ptr + c, tl.argmax(x, axis=0))


@triton.jit
def _sum_max(a, am, b, bm):
    return a + b, tl.maximum(am, bm)


@triton.jit
def _compose(a1, b1, a2, b2):
    # x -> a * x + b applied first (1) then second (2): associative, not commutative
    return a1 * a2, b1 * a2 + b2


@triton.jit
def compose_kernel(a_ptr, b_ptr, sum_ptr, max_ptr, sa_ptr, sb_ptr, ra_ptr, rb_ptr, N: tl.constexpr):
    i = tl.arange(0, N)
    a = tl.load(a_ptr + i)
    b = tl.load(b_ptr + i)
    s, m = tl.reduce((b, b), 0, _sum_max)
    tl.store(sum_ptr, s)
    tl.store(max_ptr, m)
    sa, sb = tl.associative_scan((a, b), 0, _compose)
    tl.store(sa_ptr + i, sa)
    tl.store(sb_ptr + i, sb)
    ra, rb = tl.associative_scan((a, b), 0, _compose, reverse=True)
    tl.store(ra_ptr + i, ra)
    tl.store(rb_ptr + i, rb)


@triton.jit
def scans_kernel(x_ptr, k_ptr, csum_ptr, cprod_ptr, rows_ptr, cols_ptr, rev_ptr, M: tl.constexpr, N: tl.constexpr):
    i = tl.arange(0, N)
    k = tl.load(k_ptr + i)
    tl.store(csum_ptr + i, tl.cumsum(k, axis=0))
    tl.store(cprod_ptr + i, tl.cumprod(k % 3 + 1, axis=0))
    r = tl.arange(0, M)
    x = tl.load(x_ptr + r[:, None] * N + i[None, :])
    tl.store(rows_ptr + r[:, None] * N + i[None, :], tl.cumsum(x, axis=1))
    tl.store(cols_ptr + r[:, None] * N + i[None, :], tl.cumsum(x, axis=0))
    tl.store(rev_ptr + r[:, None] * N + i[None, :], tl.cumsum(x, axis=1, reverse=True))


@triton.jit
def shapes_kernel(x_ptr, t_ptr, p_ptr, rs_ptr, b_ptr, M: tl.constexpr, N: tl.constexpr):
    r = tl.arange(0, M)
    c = tl.arange(0, N)
    x = tl.load(x_ptr + r[:, None] * N + c[None, :])
    t = tl.trans(x)
    tl.store(t_ptr + c[:, None] * M + r[None, :], t)
    p = tl.permute(x * 2, (1, 0))
    tl.store(p_ptr + c[:, None] * M + r[None, :], p)
    flat = tl.reshape(x, (M * N,))
    tl.store(rs_ptr + tl.arange(0, M * N), flat + 1)
    row = tl.load(x_ptr + c)
    tl.store(b_ptr + r[:, None] * N + c[None, :], tl.broadcast_to(row[None, :], (M, N)) + x)
