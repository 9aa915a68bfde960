#!/usr/bin/env python3
"""python_launch.py: host time per launch of a cached kernel from Python.

A kernel with 4 tensor arguments and an int (out = x + y + z, masked) is
launched N times after a warm-up; the figure is the wall time of the loop
over N (launches are asynchronous, the GPU keeps up: the kernels are tiny),
then a synchronisation outside the timing. In the same run, the same
kernel through Triton, when `import triton` is the real Triton.
(build/bench/launch_overhead measures the bare cuLaunchKernel path of
the C runtime, for reference.)
Target (issue 17): under 8 us for mytriton; Triton 3.6 takes about 17.6 us.

Without a GPU it measures what it can, and says so: the Python side of
JITFunction.run (binding, specialisation key, cache lookup, grid) up to
the C launch call, with stand-in tensors -- the path of a launch with
launch options; a plain launch of a cached kernel runs in C from the
subscript on (python/src/dispatch.c), which needs the GPU to be timed.

    PYTHONPATH=build/python python3 bench/python_launch.py [N]
"""
import importlib
import os
import sys
import tempfile
import time

import mytriton

SOURCE = '''
import mytriton as triton
import mytriton.language as tl


@triton.jit
def add3_kernel(x, y, z, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(x + offs, mask=mask)
    b = tl.load(y + offs, mask=mask)
    c = tl.load(z + offs, mask=mask)
    tl.store(out + offs, a + b + c, mask=mask)
'''


def load_kernel(module_name, source):
    d = tempfile.mkdtemp()
    with open(os.path.join(d, module_name + ".py"), "w") as f:
        f.write(source)
    sys.path.insert(0, d)
    try:
        return importlib.import_module(module_name).add3_kernel
    finally:
        sys.path.pop(0)


def per_launch_us(launch, n, sync):
    for _ in range(100):
        launch()
    sync()
    best = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(n):
            launch()
        t = time.perf_counter() - t0
        sync()
        best = min(best, t)
    return best / n * 1e6


def gpu(n):
    import torch
    k = load_kernel("mt_add3", SOURCE)
    size = 4096
    x, y, z = (torch.rand(size, device="cuda") for _ in range(3))
    out = torch.empty_like(x)
    grid = (size // 1024,)
    k[grid](x, y, z, out, size, BLOCK=1024)
    torch.testing.assert_close(out, x + y + z)
    us = per_launch_us(lambda: k[grid](x, y, z, out, size, BLOCK=1024), n, torch.cuda.synchronize)
    print(f"mytriton: {us:.2f} us per launch (4 tensors + int, cached kernel, {n} launches, best of 5)")
    try:
        triton = importlib.import_module("triton")
        if getattr(triton, "__name__", "") != "triton" or triton is mytriton:
            raise ImportError
        tk = load_kernel("tr_add3", SOURCE.replace("import mytriton as triton", "import triton").replace(
            "import mytriton.language as tl", "import triton.language as tl"))
        tk[grid](x, y, z, out, size, BLOCK=1024)
        tus = per_launch_us(lambda: tk[grid](x, y, z, out, size, BLOCK=1024), n, torch.cuda.synchronize)
        print(f"triton {triton.__version__}: {tus:.2f} us per launch (same kernel, same run)")
        print(f"ratio: mytriton takes {us / tus:.2f}x Triton's host time")
    except ImportError:
        print("triton: not installed here, not measured")


class _Tensor:
    """A stand-in for a torch CUDA tensor: what the launch path reads."""
    __module__ = "torch"

    def __init__(self, ptr):
        self._ptr = ptr
        self.dtype = "float32"
        self.is_cuda = True

    def data_ptr(self):
        return self._ptr

    def get_device(self):
        return 0


def dispatch_only(n):
    from mytriton import args
    k = load_kernel("mt_add3_cpu", SOURCE)
    x, y, z, out = (_Tensor(4096 * (i + 1)) for i in range(4))
    args.FAST_TYPES.add(_Tensor)
    args.SIG_OF_TORCH["float32"] = "fp32"
    args._gpu.update(ok=True, why="")        # the key says cuda; nothing is launched
    sig = "*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32:16,1024"
    k.cache[(sig, "cuda", None, None)] = mytriton._C.compile(*k.source(), "add3_kernel", sig)
    grid = (4,)
    us = per_launch_us(lambda: k.run(x, y, z, out, 4096, BLOCK=1024, grid=grid, warmup=True), n, lambda: None)
    print(f"no GPU: {mytriton._C.cuda_available()[1]}")
    print(f"mytriton, JITFunction.run's Python side (bind, key, cache, grid; no cuLaunchKernel): {us:.2f} us")


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
    ok, _ = mytriton._C.cuda_available()
    try:
        import torch
        have_torch = torch.cuda.is_available()
    except ImportError:
        have_torch = False
    if ok and have_torch:
        gpu(n)
    else:
        dispatch_only(n)


if __name__ == "__main__":
    main()
