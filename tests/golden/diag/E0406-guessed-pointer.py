import triton
import triton.language as tl


@triton.jit
def pick(x_ptr, y_ptr, out_ptr, n, USE_X: tl.constexpr = True):
    # tl.where of two addresses hides the parameters from type inference:
    # both are typed i32, and the message says the type was guessed.
    offs = tl.arange(0, 64)
    src = tl.where(offs < n, x_ptr + offs, y_ptr + offs)
    tl.store(out_ptr + offs, tl.load(src))
