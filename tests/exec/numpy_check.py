#!/usr/bin/env python3
"""numpy_check.py MYTRITON SPEC REF: run a launch spec on the interpreter
(mytriton run SPEC --dump DIR) and compare its arrays with a numpy
reference.

REF is a Python file defining

    def expected(a, s):
        return {"out": (array, rtol, atol), ...}

where `a` maps every array argument to its contents after the run (inputs
are the generated inputs when the kernel does not write them; bf16 arrays
come as float32 holding bf16 values) and `s` maps scalar arguments and
constexprs to their values. Each returned array must match
|got - want| <= atol + rtol * |want| (NaN matching NaN, shapes equal);
integer against integer with both tolerances 0 is exact (64-bit values
too).
Modules the references share (lib/philox.py: Triton's random numbers)
are importable from them. Without numpy: exit 77 (skipped)."""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

try:
    import numpy as np
except ImportError:
    print("SKIP: numpy is not installed (apt-get install python3-numpy)")
    sys.exit(77)


def main():
    mytriton, spec_path, ref_path = sys.argv[1:4]
    with open(spec_path) as f:
        spec = json.load(f)
    scalars = dict(spec.get("constexprs", {}))
    for name, v in spec.get("args", {}).items():
        if not isinstance(v, dict):
            scalars[name] = v
    with tempfile.TemporaryDirectory() as tmp:
        r = subprocess.run([mytriton, "run", spec_path, "--dump", tmp], capture_output=True, text=True)
        if r.returncode != 0:
            print(r.stdout + r.stderr)
            print(f"FAIL: mytriton run {spec_path} exited {r.returncode}")
            return 1
        arrays = {n[:-4]: np.load(os.path.join(tmp, n)) for n in os.listdir(tmp) if n.endswith(".npy")}
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(ref_path)), "lib"))
    mod_spec = importlib.util.spec_from_file_location("ref", ref_path)
    ref = importlib.util.module_from_spec(mod_spec)
    mod_spec.loader.exec_module(ref)
    failures = 0
    with np.errstate(all="ignore"):
        for name, (want, rtol, atol) in ref.expected(arrays, scalars).items():
            raw, want = arrays[name], np.asarray(want)
            if raw.shape != want.shape:
                print(f"FAIL: {name}: shape {raw.shape}, want {want.shape}")
                failures += 1
                continue
            if raw.dtype.kind in "iub" and want.dtype.kind in "iub" and rtol == 0 and atol == 0:
                # integers exactly, in Python ints: float64 would round 64-bit draws
                bad = raw.astype(object) != want.astype(object)
                got, want = raw.astype(object), want.astype(object)
            else:
                got, want = raw.astype(np.float64), want.astype(np.float64)
                bad = ~((np.abs(got - want) <= atol + rtol * np.abs(want)) | (np.isnan(got) & np.isnan(want)))
            if bad.any():
                i = np.argwhere(bad)[0]
                print(f"FAIL: {name}: {int(bad.sum())} of {bad.size} elements differ; first at {tuple(i)}: "
                      f"got {got[tuple(i)]!r}, want {want[tuple(i)]!r} (rtol {rtol}, atol {atol})")
                failures += 1
            else:
                err = float(np.nanmax(np.abs(got - want))) if got.size and got.dtype != object else 0.0
                print(f"ok: {name} {got.shape}, max abs error {err:.3g}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
