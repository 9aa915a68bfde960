"""Layer normalisation, forward pass, in the style of Triton's layer-norm
tutorial, on numpy arrays.

One program per row: the mean and the variance are accumulated over
blocks of columns (so rows longer than one block work), then each block
is normalised, scaled by w and shifted by b. The row's mean and 1/std are
saved for a backward pass.

    PYTHONPATH=build/python python3 python/tutorials/04-layer-norm.py
"""
import numpy as np

import mytriton as triton
import mytriton.language as tl


@triton.jit
def _layer_norm_fwd_fused(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    Y += row * stride
    X += row * stride
    # the mean
    mean = 0
    _mean = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        a = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        _mean += a
    mean = tl.sum(_mean, axis=0) / N
    # the variance
    _var = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.)
        _var += x * x
    var = tl.sum(_var, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    # normalise, scale and shift
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
        x_hat = (x - mean) * rstd
        y = x_hat * w + b
        tl.store(Y + cols, y, mask=mask)


def layer_norm(x, weight, bias, eps=1e-5, max_block=1024):
    y = np.empty_like(x)
    x_arg = x.reshape(-1, x.shape[-1])
    M, N = x_arg.shape
    mean = np.empty((M,), dtype=np.float32)
    rstd = np.empty((M,), dtype=np.float32)
    BLOCK_SIZE = min(max_block, triton.next_power_of_2(N))
    num_warps = min(max(BLOCK_SIZE // 256, 1), 8)
    _layer_norm_fwd_fused[(M,)](x_arg, y, weight, bias, mean, rstd, x_arg.strides[0] // x.itemsize, N, eps,
                                BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps)
    return y, mean, rstd


def reference(x, weight, bias, eps=1e-5):
    x32 = x.astype(np.float32)
    mean = x32.mean(axis=-1, keepdims=True)
    var = ((x32 - mean) ** 2).mean(axis=-1, keepdims=True)
    return ((x32 - mean) / np.sqrt(var + eps) * weight + bias).astype(x.dtype)


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    for M, N, max_block in [(64, 512, 1024), (33, 1500, 256)]:
        x = (-2.3 + 0.5 * rng.standard_normal((M, N))).astype(np.float32)
        weight = rng.random(N, dtype=np.float32)
        bias = rng.random(N, dtype=np.float32)
        y, mean, rstd = layer_norm(x, weight, bias, max_block=max_block)
        np.testing.assert_allclose(y, reference(x, weight, bias), rtol=1e-4, atol=1e-4)
        np.testing.assert_allclose(mean, x.mean(axis=1), rtol=1e-5, atol=1e-5)
        print(f"layer norm {M}x{N} (blocks of {min(max_block, triton.next_power_of_2(N))}): matches numpy")
