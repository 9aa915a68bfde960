#!/usr/bin/env python3
"""compare_gpu.py: mytriton against Triton and PyTorch on one GPU.

Runs the same four problems three ways and prints one table:

  vector add      2^28 fp32 elements           (GB/s: 3 arrays read/written)
  row softmax     16384 x 1024 fp32            (GB/s: read + write)
  matmul          1024^3 and 4096^3 fp32       (TFLOP/s; TF32 off everywhere)

mytriton's figures come from build/bench/gpu_bench (CUPTI kernel time of
mytriton-compiled kernels); Triton 3.x kernels written here and PyTorch
(cuBLAS for matmul) are timed with CUDA events around each launch, the
median of the iterations. Needs torch and triton; run on the GPU machine:

  python3 bench/compare_gpu.py [--gpu-bench build/bench/gpu_bench] [--iters 20]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

import torch
import triton
import triton.language as tl


@triton.jit
def tr_add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


@triton.jit
def tr_softmax(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=float("-inf"))
    num = tl.exp(x - tl.max(x, axis=0))
    tl.store(out_ptr + row * n_cols + cols, num / tl.sum(num, axis=0), mask=mask)


@triton.jit
def tr_matmul(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k0 + rk)[None, :],
                    mask=(rm[:, None] < M) & ((k0 + rk)[None, :] < K), other=0.0)
        b = tl.load(b_ptr + (k0 + rk)[:, None] * N + rn[None, :],
                    mask=((k0 + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc, input_precision="ieee")
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


def median_ms(fn, iters, warmup=3):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(iters):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def peers(iters):
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    out = {}
    n = 1 << 28
    x, y = torch.rand(n, device="cuda"), torch.rand(n, device="cuda")
    o = torch.empty_like(x)
    out[("triton", "vector_add")] = median_ms(lambda: tr_add[(triton.cdiv(n, 1024),)](x, y, o, n, BLOCK=1024), iters)
    out[("torch", "vector_add")] = median_ms(lambda: torch.add(x, y, out=o), iters)
    del x, y, o
    rows, cols = 16384, 1024
    x = torch.rand(rows, cols, device="cuda")
    o = torch.empty_like(x)
    out[("triton", "softmax")] = median_ms(lambda: tr_softmax[(rows,)](x, o, cols, BLOCK=1024), iters)
    out[("torch", "softmax")] = median_ms(lambda: torch.softmax(x, dim=1, out=o), iters)
    del x, o
    for size in (1024, 4096):
        a, b = torch.rand(size, size, device="cuda"), torch.rand(size, size, device="cuda")
        c = torch.empty(size, size, device="cuda")
        grid = (triton.cdiv(size, 128), triton.cdiv(size, 128))
        out[("triton", f"matmul_{size}")] = median_ms(
            lambda: tr_matmul[grid](a, b, c, size, size, size, BM=128, BN=128, BK=32, num_warps=8, num_stages=3),
            iters)
        out[("torch", f"matmul_{size}")] = median_ms(lambda: torch.matmul(a, b, out=c), iters)
    return out


def mytriton(gpu_bench, iters):
    res = subprocess.run([gpu_bench, os.path.join(os.path.dirname(__file__), "..", "examples"), str(iters)],
                         capture_output=True, text=True)
    sys.stdout.write(res.stdout)
    sys.stderr.write(res.stderr)
    out = {}
    for line in res.stdout.splitlines():
        if line.startswith("{"):
            r = json.loads(line)
            out[(r["impl"], r["case"])] = r["ms"]
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpu-bench", default="build/bench/gpu_bench")
    ap.add_argument("--iters", type=int, default=20)
    args = ap.parse_args()
    times = mytriton(args.gpu_bench, args.iters)
    times.update(peers(args.iters))
    work = {
        "vector_add": ("GB/s", 12.0 * (1 << 28)),
        "softmax": ("GB/s", 8.0 * 16384 * 1024),
        "matmul_1024": ("TFLOP/s", 2.0 * 1024 ** 3),
        "matmul_4096": ("TFLOP/s", 2.0 * 4096 ** 3),
    }
    print(f"\n{torch.cuda.get_device_name()}, torch {torch.__version__}, triton {triton.__version__}")
    print(f"{'case':<12} {'impl':<14} {'ms':>10} {'rate':>14} {'vs torch':>9} {'vs triton':>9}")
    for case, (unit, amount) in work.items():
        for impl in ("mytriton-fast", "mytriton-seed", "triton", "torch"):
            ms = times.get((impl, case))
            if ms is None:
                print(f"{case:<12} {impl:<14} {'n/a':>10}")
                continue
            rate = amount / (ms * 1e-3) / (1e12 if unit == "TFLOP/s" else 1e9)
            vs_torch = times[("torch", case)] / ms if ("torch", case) in times else float("nan")
            vs_triton = times[("triton", case)] / ms if ("triton", case) in times else float("nan")
            print(f"{case:<12} {impl:<14} {ms:>10.4f} {rate:>8.1f} {unit:<6}{vs_torch:>8.2f}x {vs_triton:>8.2f}x")
    print("(vs = speed relative to the peer: >1 means faster than it)")


if __name__ == "__main__":
    main()
