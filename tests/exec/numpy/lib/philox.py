"""Triton's random numbers (triton/language/random.py) in Python integers
and numpy, written from Triton's source, independently of mytriton's
expansion (compiler/frontend/tl_random.c): Philox 4x32-10 for 32-bit
offsets, 4x64 for 64-bit ones; uint_to_uniform_float; Box-Muller."""
import numpy as np

# (round A, round B, key A, key B) per counter width
_CONSTANTS = {
    32: (0xD2511F53, 0xCD9E8D57, 0x9E3779B9, 0xBB67AE85),
    64: (0xD2E7470EE14C6C93, 0xCA5A826395121157, 0x9E3779B97F4A7C15, 0xBB67AE8584CAA73B),
}


def randint4x(seed, offsets, bits=32, n_rounds=10):
    """The four draws of tl.randint4x(seed, offsets) as uint32 (bits 32:
    int32 offsets) or uint64 arrays (bits 64: int64 offsets)."""
    mask = (1 << bits) - 1
    ra, rb, ka, kb = _CONSTANTS[bits]
    seed &= (1 << 64) - 1                       # seed.to(tl.uint64)
    if bits == 32:
        key = (seed & 0xFFFFFFFF, seed >> 32)   # (seed_lo, seed_hi)
    else:
        key = (seed, 0)
    out = np.zeros((4,) + np.shape(offsets), dtype=np.uint32 if bits == 32 else np.uint64)
    for idx, off in np.ndenumerate(np.asarray(offsets)):
        c0, c1, c2, c3 = int(off) & mask, 0, 0, 0   # counters bitcast to unsigned
        k0, k1 = key
        for _ in range(n_rounds):
            _c0, _c2 = c0, c2
            c0 = ((rb * _c2) >> bits) ^ c1 ^ k0
            c2 = ((ra * _c0) >> bits) ^ c3 ^ k1
            c1 = (rb * _c2) & mask
            c3 = (ra * _c0) & mask
            k0 = (k0 + ka) & mask
            k1 = (k1 + kb) & mask
        for i, c in enumerate((c0, c1, c2, c3)):
            out[(i,) + idx] = c
    return out


def _int_to_f32(v):
    """An integer rounded to float32 once, to nearest even (a GPU's cvt.rn)."""
    n = abs(v)
    shift = max(n.bit_length() - 24, 0)
    q, r = divmod(n, 1 << shift)
    half = 1 << shift >> 1
    if shift and (r > half or (r == half and q & 1)):
        q += 1
    return np.float32((-1 if v < 0 else 1) * float(q << shift))


def to_uniform(x):
    """uint_to_uniform_float: a draw to [0, 1) in float32."""
    x = np.asarray(x)
    bits = x.dtype.itemsize * 8
    scale = np.float32(4.6566127342e-10 if bits == 32 else 1.0842020432385337e-19)
    s = x.view(np.int32 if bits == 32 else np.int64).astype(object)
    s = np.where(s < 0, -s - 1, s)
    return np.vectorize(_int_to_f32, otypes=[np.float32])(s) * scale


def rand(seed, offsets, bits=32):
    return to_uniform(randint4x(seed, offsets, bits)[0])


def rand4x(seed, offsets, bits=32):
    return to_uniform(randint4x(seed, offsets, bits))


def pair_uniform_to_normal(u1, u2):
    """Box-Muller as Triton writes it, in float64 (the kernel's float32
    log, sqrt, cos and sin differ in the last bits)."""
    u1 = np.maximum(np.float32(1.0e-7), u1).astype(np.float64)
    th = (np.float32(6.283185307179586) * u2).astype(np.float64)
    r = np.sqrt(-2.0 * np.log(u1))
    return r * np.cos(th), r * np.sin(th)


def randn(seed, offsets, bits=32):
    i = randint4x(seed, offsets, bits)
    return pair_uniform_to_normal(to_uniform(i[0]), to_uniform(i[1]))[0]


def randn4x(seed, offsets, bits=32):
    u = rand4x(seed, offsets, bits)
    n1, n2 = pair_uniform_to_normal(u[0], u[1])
    n3, n4 = pair_uniform_to_normal(u[2], u[3])
    return np.stack([n1, n2, n3, n4])
