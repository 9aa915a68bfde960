#!/usr/bin/env python3
"""compare_gpu.py: mytriton against Triton and PyTorch on one GPU.

Every row is one problem run three ways: bench/kernels.py compiled by
mytriton (build/bench/gpu_bench: the fast lowering, the seed lowering
and the MLIR code generator), the same bench/kernels.py through Triton,
and PyTorch's own operator (cuBLAS for matmul). Everything is timed the
same way: CUPTI kernel time (mytriton through its profiler, Triton and
PyTorch through torch.profiler, which records CUPTI's activity records),
the median over the iterations, no synchronisation inside the timed
launches. Each implementation runs a few configurations per row (block
sizes, warps, stages) and keeps its best. TF32 is off except on the tf32
row. Rates are GB/s (bytes read + written) or TFLOP/s (2 M N K); the
memory rows are also compared with the measured copy bandwidth (the best
copy of the run), the matmul rows with cuBLAS, and each mytriton row with
issue 14's target.

  python3 bench/compare_gpu.py [--gpu-bench build/bench/gpu_bench] [--iters 50]
                               [--mlir-ptx DIR] [--only WORD] [--triton-configs N]
"""
import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys

import torch
import triton

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("bench_kernels", os.path.join(HERE, "kernels.py"))
K = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(K)

DTYPES = {"fp32": torch.float32, "tf32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}

# row: (kind, sizes, dtype word)
ROWS = [
    ("copy 2^28 fp32", "copy", (1 << 28,), "fp32"),
    ("vector_add 2^28 fp32", "add", (1 << 28,), "fp32"),
    ("softmax 16384x1024", "softmax", (16384, 1024), "fp32"),
    ("softmax 65536x128", "softmax", (65536, 128), "fp32"),
    ("softmax 4096x4096", "softmax", (4096, 4096), "fp32"),
    ("layer_norm 8192x4096", "layer_norm", (8192, 4096), "fp32"),
    ("matmul 1024^3 fp32", "matmul", (1024, 1024, 1024), "fp32"),
    ("matmul 4096^3 fp32", "matmul", (4096, 4096, 4096), "fp32"),
    ("matmul 4096^3 tf32", "matmul", (4096, 4096, 4096), "tf32"),
    ("matmul 4096^3 fp16", "matmul", (4096, 4096, 4096), "fp16"),
    ("matmul 4096^3 bf16", "matmul", (4096, 4096, 4096), "bf16"),
]

# issue 14's targets: (peer, ratio) -- mytriton's rate over the peer's
TARGETS = {
    "vector_add 2^28 fp32": [("triton", 1.0), ("copy", 0.95)],
    "softmax 16384x1024": [("triton", 1.05)],
    "softmax 65536x128": [("triton", 2.0)],
    "layer_norm 8192x4096": [("triton", 1.0)],
    "matmul 1024^3 fp32": [("triton", 1.0)],
    "matmul 4096^3 fp32": [("triton", 1.0)],
    "matmul 4096^3 tf32": [("torch", 0.8)],
    "matmul 4096^3 fp16": [("torch", 0.8)],
    "matmul 4096^3 bf16": [("torch", 0.8)],
}


def cupti_ms(fn, iters):
    """Median CUPTI kernel time of fn() in ms (the kernels one call
    launches, summed), through torch.profiler."""
    fn()
    torch.cuda.synchronize()
    acts = [torch.profiler.ProfilerActivity.CUDA]
    with torch.profiler.profile(activities=acts) as prof:
        for _ in range(iters):
            fn()
        torch.cuda.synchronize()
    evs = [e for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]
    evs.sort(key=lambda e: e.time_range.start)
    if not evs or len(evs) % iters:
        raise RuntimeError(f"torch.profiler saw {len(evs)} GPU activities for {iters} calls")
    per = len(evs) // iters
    times = [sum(e.time_range.elapsed_us() for e in evs[i * per:(i + 1) * per]) for i in range(iters)]
    return statistics.median(times) / 1e3


def work(kind, sizes, esize):
    """(bytes, flops) of one call."""
    if kind == "copy":
        return 2 * esize * sizes[0], 0
    if kind == "add":
        return 3 * esize * sizes[0], 0
    if kind in ("softmax", "layer_norm"):
        return 2 * esize * sizes[0] * sizes[1], 0
    m, n, k = sizes
    return 0, 2 * m * n * k


def inputs(kind, sizes, word):
    dt = DTYPES[word]
    g = torch.Generator(device="cuda").manual_seed(0)
    rnd = lambda *s: (torch.rand(*s, device="cuda", generator=g) * 2 - 1).to(dt)
    if kind in ("copy", "add"):
        return [rnd(sizes[0]), rnd(sizes[0]), torch.empty(sizes[0], device="cuda", dtype=dt)]
    if kind in ("softmax", "layer_norm"):
        r, c = sizes
        return [rnd(r, c), torch.empty(r, c, device="cuda", dtype=dt), rnd(c), rnd(c)]
    m, n, k = sizes
    return [rnd(m, k), rnd(k, n), torch.empty(m, n, device="cuda", dtype=dt)]


def triton_configs(kind, sizes, word, configs):
    """(label, callable) for each configuration Triton runs."""
    t = inputs(kind, sizes, word)
    out = []
    if kind in ("copy", "add"):
        n = sizes[0]
        for block, warps in ((1024, 4), (2048, 8), (4096, 8)):
            grid = (triton.cdiv(n, block),)
            if kind == "copy":
                f = lambda b=block, w=warps, grid=grid: K.copy_kernel[grid](t[0], t[2], n, BLOCK=b, num_warps=w)
            else:
                f = lambda b=block, w=warps, grid=grid: K.add_kernel[grid](t[0], t[1], t[2], n, BLOCK=b, num_warps=w)
            out.append((f"BLOCK {block} w{warps}", f))
    elif kind in ("softmax", "layer_norm"):
        r, c = sizes
        block = triton.next_power_of_2(c)
        for warps in (1, 2, 4, 8, 16):
            if block // (32 * warps) < 1:
                continue
            if kind == "softmax":
                f = lambda w=warps: K.softmax_kernel[(r,)](t[0], t[1], c, BLOCK=block, num_warps=w)
            else:
                f = lambda w=warps: K.layer_norm_kernel[(r,)](t[0], t[1], t[2], t[3], c, 1e-5, BLOCK=block,
                                                               num_warps=w)
            out.append((f"BLOCK {block} w{warps}", f))
    else:
        m, n, k = sizes
        a, b, c = t
        prec = "tf32" if word == "tf32" else "ieee"
        # the configurations that were Triton's best on the H200 first (half
        # inputs, then f32), so that --triton-configs N keeps the likely best
        for bm, bn, bk, warps, stages in ((128, 256, 64, 8, 3), (128, 64, 32, 4, 4), (64, 64, 32, 4, 4),
                                          (128, 128, 32, 8, 3), (128, 128, 32, 4, 3), (128, 128, 64, 8, 3),
                                          (64, 128, 32, 4, 4))[:configs]:
            grid = (triton.cdiv(m, bm) * triton.cdiv(n, bn),)
            f = (lambda bm=bm, bn=bn, bk=bk, w=warps, s=stages, grid=grid:
                 K.matmul_kernel[grid](a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                       c.stride(0), c.stride(1), BM=bm, BN=bn, BK=bk, GROUP_M=8, PRECISION=prec,
                                       num_warps=w, num_stages=s))
            out.append((f"{bm}x{bn}x{bk} w{warps} s{stages}", f))
    return out


def torch_call(kind, sizes, word):
    t = inputs(kind, sizes, word)
    if kind == "copy":
        return lambda: t[2].copy_(t[0])
    if kind == "add":
        return lambda: torch.add(t[0], t[1], out=t[2])
    if kind == "softmax":
        return lambda: torch.softmax(t[0], dim=1)
    if kind == "layer_norm":
        return lambda: torch.nn.functional.layer_norm(t[0], (sizes[1],), t[2], t[3], 1e-5)
    return lambda: torch.matmul(t[0], t[1], out=t[2])


def best(results):
    return min(results, key=lambda r: r["ms"]) if results else None


def selected(row, only):
    """--only WORD[,WORD...]: the rows whose name contains one of the words."""
    return not only or any(w and w in row for w in only.split(","))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpu-bench", default=os.path.join(HERE, "..", "build", "bench", "gpu_bench"))
    ap.add_argument("--iters", type=int, default=50)
    ap.add_argument("--mlir-ptx", default=None)
    ap.add_argument("--only", default=None, help="WORD[,WORD...]: only the rows whose name contains one of them")
    ap.add_argument("--triton-configs", type=int, default=None,
                    help="run only the first N of Triton's matmul configurations (the likely best first)")
    args = ap.parse_args()

    cmd = [args.gpu_bench, os.path.join(HERE, "kernels.py"), str(args.iters)]
    if args.mlir_ptx:
        cmd += ["--mlir-ptx", args.mlir_ptx]
    if args.only:
        cmd += ["--only", args.only]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    results = {}   # (row, impl) -> [result]
    for line in proc.stdout.splitlines():
        if line.startswith("{"):
            r = json.loads(line)
            results.setdefault((r["row"], r["impl"]), []).append(r)
        else:
            print(line)
    if proc.returncode:
        print(proc.stderr, file=sys.stderr)

    for row, kind, sizes, word in ROWS:
        if not selected(row, args.only):
            continue
        torch.backends.cuda.matmul.allow_tf32 = word == "tf32"
        torch.backends.cudnn.allow_tf32 = word == "tf32"
        nbytes, flops = work(kind, sizes, DTYPES[word].itemsize)
        for label, f in triton_configs(kind, sizes, word, args.triton_configs):
            try:
                ms = cupti_ms(f, args.iters)
            except Exception as e:  # a configuration Triton cannot compile (shared memory) is left out
                print(f"triton {row} {label}: {type(e).__name__}: {str(e).splitlines()[0][:120]}")
                continue
            results.setdefault((row, "triton"), []).append({"row": row, "config": label, "ms": ms})
        results.setdefault((row, "torch"), []).append(
            {"row": row, "config": "", "ms": cupti_ms(torch_call(kind, sizes, word), args.iters)})
        for r in [x for (rw, _), v in results.items() if rw == row for x in v]:
            r["gbps"] = nbytes / (r["ms"] * 1e-3) / 1e9 if nbytes else 0
            r["tflops"] = flops / (r["ms"] * 1e-3) / 1e12 if flops else 0
        torch.cuda.empty_cache()

    copy = max((r["gbps"] for (rw, _), v in results.items() if rw.startswith("copy") for r in v), default=0)
    print()
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}, triton {triton.__version__}; "
          f"CUPTI kernel time, median of {args.iters}; measured copy bandwidth {copy:.0f} GB/s")
    print(f"{'row':22} {'impl':15} {'config':19} {'ms':>9} {'rate':>14} {'vs triton':>9} {'vs torch':>8} "
          f"{'vs ceiling':>10}  target")
    for row, kind, sizes, word in ROWS:
        if not selected(row, args.only):
            continue
        peers = {impl: best(results.get((row, impl), [])) for impl in ("triton", "torch")}
        for impl in ("mytriton-fast", "mytriton-mlir", "mytriton-seed", "triton", "torch"):
            r = best(results.get((row, impl), []))
            if not r:
                continue
            mem = kind != "matmul"
            rate = f"{r['gbps']:.0f} GB/s" if mem else f"{r['tflops']:.1f} TFLOP/s"
            vs = {p: (peers[p]["ms"] / r["ms"]) if peers[p] else float("nan") for p in peers}
            ceiling = (r["gbps"] / copy if copy else float("nan")) if mem else vs["torch"]
            verdict = ""
            if impl == "mytriton-fast" and row in TARGETS:
                parts = []
                for peer, want in TARGETS[row]:
                    got = r["gbps"] / copy if peer == "copy" else vs[peer]
                    parts.append(f"{want:.2f}x {peer}: {'met' if got >= want else 'MISSED'} ({got:.2f}x)")
                verdict = "; ".join(parts)
            print(f"{row:22} {impl:15} {r['config']:19} {r['ms']:9.4f} {rate:>14} {vs['triton']:8.2f}x "
                  f"{vs['torch']:7.2f}x {ceiling:9.2f}x  {verdict}")
    print("(vs X: X's time over this one's, >1 is faster; ceiling: the copy bandwidth for memory rows, cuBLAS for "
          "matmul rows)")


if __name__ == "__main__":
    main()
