"""A kernel specialised by a dtype constexpr (the cast) and a string
constexpr (the activation): tests/runtime/data/act_cast.json launches it."""
import triton
import triton.language as tl


@triton.jit
def act_cast(x, out, n, DTYPE: tl.constexpr, ACTIVATION: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    v = tl.load(x + offs, mask=mask)
    if ACTIVATION == "leaky_relu":
        v = tl.where(v >= 0, v, v * 0.125)
    elif ACTIVATION == "relu":
        v = tl.maximum(v, 0.0)
    tl.store(out + offs, v.to(DTYPE).to(tl.float32), mask=mask)
