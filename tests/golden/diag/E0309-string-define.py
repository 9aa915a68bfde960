# args: -D MODE='relu' -D BLOCK=64
import triton
import triton.language as tl


@triton.jit
def activation(x, out, n, MODE: tl.constexpr, BLOCK: tl.constexpr):
    # A string constexpr from -D: MODE is 'relu' here, so the assertion fails.
    tl.static_assert(MODE == "sigmoid", "MODE is not sigmoid")
    offs = tl.arange(0, BLOCK)
    tl.store(out + offs, tl.load(x + offs, mask=offs < n, other=0.0), mask=offs < n)
