"""Tutorial 06's fused attention forward, not causal (STAGE 1: one loop
over every key): lib/attention.py."""
from attention import reference


def expected(a, s):
    return reference(a, s, causal=False)
