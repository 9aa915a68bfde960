"""Tutorial 06's fused attention forward, causal (STAGE 3: the off-band
and the on-band loops): lib/attention.py."""
from attention import reference


def expected(a, s):
    return reference(a, s, causal=True)
