"""tl.fma, tl.fdiv, tl.abs, tl.clamp and sqrt_rn on f16: each rounded once
to f16, exactly (lib/exact.py)."""
import exact


def expected(a, s):
    return exact.half_kernel(a, "float16")
