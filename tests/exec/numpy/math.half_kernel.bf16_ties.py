"""bf16 inputs whose a * b + c lies just past a tie (1.125 * 0.90625 +
2^-100 = 1 + 5 * 2^-8 + 2^-100): tl.fma rounds it once, up to
1 + 3 * 2^-7; an f32 fma rounded again to bf16 would give 1 + 2^-6
(lib/exact.py)."""
import exact


def expected(a, s):
    return exact.half_kernel(a, "bfloat16")
