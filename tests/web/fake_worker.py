#!/usr/bin/env python3
"""fake_worker.py: a stand-in for `mytriton worker` that speaks its
protocol (docs/runtime.md: a hello, a "started" event, then
{"id", "ok": true, "result": RUN} or {"id", "ok": false, "error": {...}})
without running anything, so the HTTP tests can check the server's
supervision -- results, progress, crashes, hangs, memory exhaustion -- and
its profile handling on their own. The real worker's runs are tested by
check_web_api's real_worker case and the browser test.

    fake_worker.py worker                 serve requests, one JSON line each
    fake_worker.py serve --probe-devices  answer the GPU probe: no devices, or
                                          one made-up GPU when FAKE_WORKER_GPU=1

What it does depends on the spec's kernel name:
    crash_kernel   dies of SIGSEGV        hang_kernel   never answers
    oom_kernel     allocates until refused (MemoryError -> an error answer)
    error_kernel   a result with outcome "failed" and a diagnostic
    anything else: a result with outcome "ok"
A GPU result reports 40 registers and the driver's 12 resident blocks per SM.
A result lists the spec's arrays with made-up statistics and writes each
one to the request's dump folder as a valid .npy file of zeros. A request
with "profile": N gets N made-up launch times of 1000 ns each, plus the
spec's bytes and flops when they are numbers (so GB/s = bytes / 1000).
"""
import json
import os
import signal
import struct
import sys
import time


def npy_bytes(shape):
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%s), }" % (
        "".join("%d, " % d for d in shape) if len(shape) != 1 else "%d," % shape[0])
    pad = 64 - (10 + len(header) + 1) % 64
    header = header + " " * pad + "\n"
    n = 1
    for d in shape:
        n *= d
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + b"\x00" * (4 * n)


def answer(doc):
    sys.stdout.write(json.dumps(doc) + "\n")
    sys.stdout.flush()


def result(req, spec, outcome, arrays, diagnostics):
    count = lambda k: spec.get(k) if isinstance(spec.get(k), int) else None
    res = {"outcome": outcome, "exit_status": 0 if outcome == "ok" else 1, "ran": outcome == "ok",
           "kernel": spec.get("kernel"), "signature": spec.get("signature"), "backend": req.get("backend"),
           "grid": spec.get("grid"), "times_ms": {"compile": 0.1, "bind": 0.1, "run": 0.5, "total": 0.7},
           "bytes": count("bytes"), "flops": count("flops"), "profile": None, "device": None,
           "arrays": arrays, "diagnostics": diagnostics}
    n = req.get("profile") or 0
    if n:
        res["profile"] = {"launches": n, "timer": "fake", "note": None, "min_ns": 1000, "median_ns": 1000,
                          "max_ns": 1000, "mean_ns": 1000, "samples_ns": [1000] * n,
                          "gbps": res["bytes"] / 1000 if res["bytes"] else None,
                          "gflops": res["flops"] / 1000 if res["flops"] else None}
    if req.get("backend") == "cuda":
        res["device"] = {"name": "Fake GPU", "compute_capability": "9.0", "sm_count": 132, "registers": 40,
                         "shared_bytes": 0, "local_bytes": 0, "max_threads_per_block": 128, "blocks_per_sm": 12}
        res["cuda_threads"] = 128
    return {"id": req["id"], "ok": True, "result": res}


def run(req):
    with open(req["spec"]) as f:
        spec = json.load(f)
    kernel = spec.get("kernel", "")
    answer({"id": req["id"], "event": "started", "pid": os.getpid()})
    if kernel == "crash_kernel":
        sys.stderr.write("fake worker: crashing on purpose\n")
        sys.stderr.flush()
        os.kill(os.getpid(), signal.SIGSEGV)
    if kernel == "hang_kernel":
        while True:
            time.sleep(1)
    if kernel == "oom_kernel":
        hog = []
        try:
            while True:
                hog.append(bytearray(256 << 20))
        except MemoryError:
            hog = None
            return {"id": req["id"], "ok": False,
                    "error": {"code": "internal", "message": "out of memory allocating the kernel's arrays"}}
    if kernel == "error_kernel":
        return result(req, spec, "failed", [], [{"severity": "error", "code": "R0700", "field": "args.x",
                                                 "message": "args.x: made-up error", "line": None,
                                                 "rendered": "spec.json: error: args.x: made-up error [R0700]"}])
    arrays = []
    dump = req.get("dump")
    if dump:
        os.makedirs(dump, exist_ok=True)
    for name, a in (spec.get("args") or {}).items():
        if not isinstance(a, dict):
            continue
        shape = a.get("shape", [4])
        arrays.append({"name": name, "dtype": a.get("dtype", "float32"), "shape": shape,
                       "stats": {"sum": 0.0, "min": 0.0, "max": 0.0, "mean": 0.0, "nans": 0, "infs": 0},
                       "preview": "[0.0, 0.0, 0.0]", "fnv1a": "0", "compare": None})
        if dump:
            with open(os.path.join(dump, name + ".npy"), "wb") as f:
                f.write(npy_bytes(shape))
    return result(req, spec, "ok", arrays, [])


def main():
    if sys.argv[1:] == ["serve", "--probe-devices"]:
        if os.environ.get("FAKE_WORKER_GPU") == "1":
            answer({"devices": [{"ordinal": 0, "name": "Fake GPU", "cc": "9.0", "sm_count": 132,
                                 "memory_bytes": 143771000832, "warp_size": 32,
                                 "regs_per_sm": 65536, "regs_per_block": 65536, "threads_per_sm": 2048,
                                 "blocks_per_sm": 32, "smem_per_sm": 233472, "smem_reserved_per_block": 1024}]})
        else:
            answer({"devices": [], "error": "the fake worker has no GPU"})
        return 0
    if sys.argv[1:] != ["worker"]:
        sys.stderr.write("usage: fake_worker.py worker\n")
        return 2
    answer({"event": "ready", "worker": "fake_worker.py", "protocol": 1, "pid": os.getpid()})
    for line in sys.stdin:
        answer(run(json.loads(line)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
