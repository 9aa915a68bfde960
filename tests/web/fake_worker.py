#!/usr/bin/env python3
"""fake_worker.py: a stand-in for `mytriton worker` that speaks the
dashboard's worker protocol (docs/dashboard.md) without running anything,
so the HTTP tests can check the supervision -- results, progress, crashes,
hangs, memory exhaustion -- on their own.

    fake_worker.py worker                 serve requests, one JSON line each
    fake_worker.py serve --probe-devices  answer the GPU probe: no devices

What it does depends on the spec's kernel name:
    crash_kernel   dies of SIGSEGV        hang_kernel   never answers
    oom_kernel     allocates until refused (MemoryError -> an error answer)
    error_kernel   answers with an error  anything else: a result
A result lists the spec's arrays with made-up statistics and writes each
one to the request's dump folder as a valid .npy file of zeros.
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


def run(req):
    with open(req["spec"]) as f:
        spec = json.load(f)
    kernel = spec.get("kernel", "")
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
            return {"id": req["id"], "error": {"message": "out of memory allocating the kernel's arrays"}}
    if kernel == "error_kernel":
        return {"id": req["id"], "error": {"message": "args.x: made-up error", "field": "args.x"}}
    answer({"id": req["id"], "event": "progress", "phase": "run", "message": "running"})
    arrays = []
    dump = req.get("dump")
    if dump:
        os.makedirs(dump, exist_ok=True)
    for name, a in (spec.get("args") or {}).items():
        if not isinstance(a, dict):
            continue
        shape = a.get("shape", [4])
        arrays.append({"name": name, "dtype": a.get("dtype", "float32"), "shape": shape,
                       "sum": 0.0, "min": 0.0, "max": 0.0, "preview": "[0.0, 0.0, 0.0]", "fnv1a": "0"})
        if dump:
            with open(os.path.join(dump, name + ".npy"), "wb") as f:
                f.write(npy_bytes(shape))
    return {"id": req["id"], "result": {"status": "ok", "backend": req.get("backend"), "time_ms": 0.5,
                                         "grid": spec.get("grid"), "arrays": arrays}}


def main():
    if sys.argv[1:] == ["serve", "--probe-devices"]:
        answer({"devices": [], "error": "the fake worker has no GPU"})
        return 0
    if sys.argv[1:] != ["worker"]:
        sys.stderr.write("usage: fake_worker.py worker\n")
        return 2
    for line in sys.stdin:
        answer(run(json.loads(line)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
