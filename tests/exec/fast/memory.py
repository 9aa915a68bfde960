# Kernels that pin the fast lowering's vectorised memory accesses (axis.c's
# contiguity and divisibility facts) and its block pointers
# (tl.make_block_ptr, tl.advance, boundary checks). tests/exec/check_fast.c
# runs each spec of this folder in the kernel-layer simulator and in the
# interpreter and compares the outputs; tests/exec/numpy/memory.*.py check
# the interpreter against numpy.
import triton
import triton.language as tl


@triton.jit
def wrapped_rows_kernel(x_ptr, out_ptr, N, BLOCK: tl.constexpr):
    # Triton's matmul tutorial wraps its column offsets: (pid * BLOCK +
    # arange) % N. With N a multiple of 16 the offsets stay consecutive in
    # runs of 16, so the loads are vectorised; the wrap falls inside a
    # block here (N = 48, BLOCK = 32), between two runs.
    pid = tl.program_id(0)
    cols = (pid * BLOCK + tl.arange(0, BLOCK)) % N
    rows = tl.arange(0, 4)
    x = tl.load(x_ptr + rows[:, None] * N + cols[None, :])
    tl.store(out_ptr + rows[:, None] * (2 * BLOCK) + pid * BLOCK + tl.arange(0, BLOCK)[None, :], x * 2)


@triton.jit
def block_ptr_kernel(x_ptr, out_ptr, xt_ptr, M, N, stride_xm, stride_xn,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # Block pointers as the matmul and attention tutorials use them: a
    # BLOCK_M x BLOCK_N window of x (M x N, strided) advanced along N; the
    # loads past the ragged right and bottom edges read zeros
    # (boundary_check on both dimensions, padding_option="zero"); out
    # (M x BLOCK_N) gets the column blocks' sum, stored with a boundary
    # check on the ragged rows only. xt (N x M) gets x transposed: each
    # window stored through a column-major view of xt (shape (M, N),
    # strides (1, M), order=(0, 1), as the attention tutorial reads K)
    # with both edges checked.
    pid = tl.program_id(0)
    x_block = tl.make_block_ptr(base=x_ptr, shape=(M, N), strides=(stride_xm, stride_xn),
                                offsets=(pid * BLOCK_M, 0), block_shape=(BLOCK_M, BLOCK_N), order=(1, 0))
    xt_block = tl.make_block_ptr(base=xt_ptr, shape=(M, N), strides=(1, M),
                                 offsets=(pid * BLOCK_M, 0), block_shape=(BLOCK_M, BLOCK_N), order=(0, 1))
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for _ in range(0, N, BLOCK_N):
        x = tl.load(x_block, boundary_check=(0, 1), padding_option="zero")
        acc += x
        tl.store(xt_block, x, boundary_check=(0, 1))
        x_block = tl.advance(x_block, (0, BLOCK_N))
        xt_block = tl.advance(xt_block, (0, BLOCK_N))
    out_block = tl.make_block_ptr(base=out_ptr, shape=(M, BLOCK_N), strides=(BLOCK_N, 1),
                                  offsets=(pid * BLOCK_M, 0), block_shape=(BLOCK_M, BLOCK_N), order=(1, 0))
    tl.store(out_block, acc, boundary_check=(0,))


@triton.jit
def norm_load_order_kernel(x_ptr, w_ptr, out_ptr, eps, BLOCK: tl.constexpr):
    # kernel/schedule.c moves global loads up to the last statement they
    # depend on (tests/unit/check_schedule.c pins where): w's load goes
    # before the square root, while y's reads what the store before it
    # wrote and g's index is the argmax, so those two stay where they are
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * BLOCK + cols)
    var = tl.sum(x * x, axis=0) / BLOCK
    r = 1 / tl.sqrt(var + eps)
    w = tl.load(w_ptr + cols)
    tl.store(out_ptr + row * BLOCK + cols, x * r * w)
    y = tl.load(out_ptr + row * BLOCK + cols)
    i = tl.argmax(x, axis=0)
    g = tl.load(w_ptr + i)
    tl.store(out_ptr + row * BLOCK + cols, y + g)
