"""On a GPU, with torch: every example kernel on torch CUDA tensors agrees
with its numpy reference, and a few with torch's own results; the
tutorials' kernels (vector add, fused softmax, matmul with autotune timing
every config, layer norm) agree with torch; do_bench times with CUPTI;
launches honour torch's current stream; CuPy arrays
(__cuda_array_interface__) and DLPack-only tensors launch too; cached
launches run in C (dispatch.c); MYTRITON_INTERPRET=1 runs CUDA
tensors on the interpreter. Skips (77) without a GPU or torch;
MYTRITON_REQUIRE_CUDA=1 turns the skip into a failure."""
import math
import os
import unittest

from support import load_example, load_tutorial, require_gpu
import mytriton as triton
import references

require_gpu()
try:
    import torch
except ImportError:
    if os.environ.get("MYTRITON_REQUIRE_CUDA") == "1":
        raise
    raise unittest.SkipTest("torch is not installed")
if not torch.cuda.is_available():
    raise unittest.SkipTest("torch sees no CUDA device")

import kernels

DEV = "cuda"


class Examples(unittest.TestCase):
    def test_add(self):
        add = load_example("add_kernel").add_kernel
        n = 98_432
        x = torch.rand(n, device=DEV)
        y = torch.rand(n, device=DEV)
        out = torch.empty_like(x)
        add[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, y, out, n, BLOCK=1024)
        torch.testing.assert_close(out, x + y, rtol=0, atol=0)
        self.assertEqual(add.compiles, 1)

    def test_softmax(self):
        softmax = load_example("softmax").softmax_kernel
        x = torch.randn(127, 513, device=DEV)
        out = torch.empty_like(x)
        softmax[(127,)](x, out, 513, BLOCK=1024)
        torch.testing.assert_close(out, torch.softmax(x, dim=1), rtol=1e-5, atol=1e-6)

    def test_matmul(self):
        matmul = load_example("dot").matmul_kernel
        a = torch.rand(37, 45, device=DEV)
        b = torch.rand(45, 29, device=DEV)
        c = torch.empty(37, 29, device=DEV)
        matmul[(triton.cdiv(37, 8), triton.cdiv(29, 8))](a, b, c, 37, 29, 45, BM=8, BN=8, BK=16)
        torch.testing.assert_close(c, a @ b, rtol=1e-4, atol=1e-4)

    def test_gelu_fp16(self):
        gelu = load_example("gelu").gelu_erf_kernel
        x = torch.randn(5000, device=DEV, dtype=torch.float16)
        out = torch.empty_like(x)
        gelu[(triton.cdiv(5000, 1024),)](x, out, 5000, BLOCK=1024)
        torch.testing.assert_close(out, torch.nn.functional.gelu(x.float()).half(), rtol=1e-3, atol=1e-3)

    def test_helpers_and_strided_views(self):
        x = torch.arange(400, device=DEV, dtype=torch.float32)
        out = torch.empty(100, device=DEV)
        kernels.strided_copy[(2,)](x[::4], out, 100, 4, BLOCK=64)
        torch.testing.assert_close(out, x[::4])
        kernels.scale_kernel[(2,)](x, x, 100)
        torch.testing.assert_close(x[:100], torch.arange(100, device=DEV, dtype=torch.float32) * 3)


class AllExamples(unittest.TestCase):
    """examples/*.json on torch CUDA tensors, against references.py."""

    def check(self, spec_path):
        spec, kernel, arrays, scalars, grid, inputs = references.prepare(spec_path)
        tensors = {n: torch.from_numpy(a).to(DEV) for n, a in arrays.items()}
        kernel[grid](**tensors, **scalars)
        torch.cuda.synchronize()
        self.assertEqual([key[1] for key in kernel.cache], ["cuda"])
        references.check(self, spec, {n: t.cpu().numpy() for n, t in tensors.items()}, inputs, scalars, gpu=True)


for _p in references.specs():
    setattr(AllExamples, "test_" + os.path.basename(_p)[:-5].replace(".", "_"),
            (lambda p: lambda self: self.check(p))(_p))


def _cuda_or_skip(test, launch):
    """Run launch(); a kernel the fast lowering refuses (E0603) skips, visibly."""
    try:
        launch()
    except triton.CompilationError as e:
        if e.diagnostics and e.diagnostics[0].code == "E0603":
            test.skipTest(f"not lowered for the GPU yet: {e.diagnostics[0].message}")
        raise


class Tutorials(unittest.TestCase):
    def test_vector_add(self):
        m = load_tutorial("01-vector-add")
        x = torch.rand(98_432, device=DEV)
        y = torch.rand(98_432, device=DEV)
        out = torch.empty_like(x)
        m.add_kernel[lambda meta: (triton.cdiv(x.numel(), meta["BLOCK_SIZE"]),)](x, y, out, x.numel(),
                                                                               BLOCK_SIZE=1024)
        torch.testing.assert_close(out, x + y, rtol=0, atol=0)

    def test_fused_softmax(self):
        m = load_tutorial("02-fused-softmax")
        x = torch.randn(1823, 781, device=DEV)
        y = torch.empty_like(x)
        _cuda_or_skip(self, lambda: m.softmax_kernel[(132,)](y, x, x.stride(0), y.stride(0), 1823, 781,
                                                             BLOCK_SIZE=1024, num_warps=4))
        torch.testing.assert_close(y, torch.softmax(x, dim=1), rtol=1e-5, atol=1e-6)

    def test_matmul_autotune_times_every_config(self):
        m = load_tutorial("03-matmul")
        M, N, K = 512, 512, 512
        a = torch.randn(M, K, device=DEV, dtype=torch.float16)
        b = torch.randn(K, N, device=DEV, dtype=torch.float16)
        c = torch.empty(M, N, device=DEV, dtype=torch.float16)
        k = m.matmul_kernel
        k[lambda META: (triton.cdiv(M, META["BLOCK_SIZE_M"]) * triton.cdiv(N, META["BLOCK_SIZE_N"]),)](
            a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1),
            ACTIVATION="leaky_relu")
        want = torch.nn.functional.leaky_relu((a.float() @ b.float()), 0.01).half()
        torch.testing.assert_close(c, want, rtol=1e-2, atol=1e-2)
        timings = k.configs_timings
        self.assertEqual(len(timings), 3)
        self.assertTrue(all(math.isfinite(t) and t > 0 for t in timings.values()), timings)
        self.assertIs(k.best_config, min(timings, key=timings.get))
        self.assertEqual(triton.testing.last_timer, "cupti")
        print("\nmatmul 512^3 autotune timings (ms): " + "; ".join(f"[{c}] {t:.4f}" for c, t in timings.items()))

    def test_layer_norm(self):
        m = load_tutorial("04-layer-norm")
        M, N = 1151, 8192
        x = -2.3 + 0.5 * torch.randn(M, N, device=DEV)
        w = torch.rand(N, device=DEV)
        b = torch.rand(N, device=DEV)
        y = torch.empty_like(x)
        mean = torch.empty(M, device=DEV)
        rstd = torch.empty(M, device=DEV)
        m._layer_norm_fwd_fused[(M,)](x, y, w, b, mean, rstd, x.stride(0), N, 1e-5, BLOCK_SIZE=1024, num_warps=4)
        torch.testing.assert_close(y, torch.nn.functional.layer_norm(x, (N,), w, b, 1e-5), rtol=1e-4, atol=1e-4)


class Bench(unittest.TestCase):
    def test_do_bench_times_kernels_with_cupti(self):
        add = load_example("add_kernel").add_kernel
        n = 1 << 24
        x = torch.rand(n, device=DEV)
        y = torch.rand(n, device=DEV)
        out = torch.empty_like(x)
        ms = triton.testing.do_bench(lambda: add[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024))
        self.assertEqual(triton.testing.last_timer, "cupti")
        gbps = 3 * 4 * n / (ms * 1e-3) / 1e9
        print(f"\ndo_bench: add of 2^24 floats {ms * 1e3:.1f} us, {gbps:.0f} GB/s (cupti)")
        self.assertGreater(ms, 0.005)          # above 40 TB/s would be no kernel time
        self.assertLess(ms, 5.0)
        q = triton.testing.do_bench(lambda: add[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024),
                                    quantiles=[0.5, 0.2, 0.8])
        self.assertTrue(q[1] <= q[0] <= q[2], q)


class Driver(unittest.TestCase):
    def test_active_driver_is_torchs_device_and_stream(self):
        active = triton.runtime.driver.active
        self.assertEqual(active.get_active_torch_device(), torch.device("cuda", 0))
        major, minor = torch.cuda.get_device_capability(0)
        self.assertEqual(active.get_current_target().arch, major * 10 + minor)
        side = torch.cuda.Stream()
        with torch.cuda.stream(side):
            self.assertEqual(active.get_current_stream(), side.cuda_stream)


class Dispatch(unittest.TestCase):
    def test_cached_launches_do_not_go_through_python(self):
        # the first launch compiles (JITFunction.run); the next ones are
        # python/src/dispatch.c's, tuple or callable grid
        from unittest import mock
        add = triton.jit(load_example("add_kernel").add_kernel.fn)
        n = 4096
        x, y = torch.rand(n, device=DEV), torch.rand(n, device=DEV)
        out = torch.empty_like(x)
        add[(4,)](x, y, out, n, BLOCK=1024)
        add.run = mock.Mock(side_effect=AssertionError("run was called"))
        out.zero_()
        add[(4,)](x, y, out, n, BLOCK=1024)
        torch.testing.assert_close(out, x + y, rtol=0, atol=0)
        out.zero_()
        add[lambda meta: (triton.cdiv(meta["n"], meta["BLOCK"]),)](x, y, out, n, BLOCK=1024)
        torch.testing.assert_close(out, x + y, rtol=0, atol=0)
        self.assertEqual(add.compiles, 1)


class Streams(unittest.TestCase):
    def test_side_stream_orders_with_torch(self):
        # a long torch kernel on the side stream, then a launch that reads its
        # result on the same stream: the launch must wait for it
        add = load_example("add_kernel").add_kernel
        n = 1 << 24
        side = torch.cuda.Stream()
        x = torch.zeros(n, device=DEV)
        out = torch.empty_like(x)
        torch.cuda.synchronize()
        with torch.cuda.stream(side):
            for _ in range(20):
                x.add_(1.0)
            add[(triton.cdiv(n, 1024),)](x, x, out, n, BLOCK=1024)
        side.synchronize()
        self.assertEqual(out.min().item(), 40.0)
        self.assertEqual(out.max().item(), 40.0)


class Interop(unittest.TestCase):
    def test_cupy(self):
        try:
            import cupy
        except ImportError:
            self.skipTest("CuPy is not installed")
        x = cupy.arange(1000, dtype=cupy.float32)
        out = cupy.zeros_like(x)
        kernels.scale_kernel[(16,)](x, out, 1000)
        cupy.cuda.get_current_stream().synchronize()
        self.assertTrue(bool((out == x * 3).all()))

    def test_dlpack_only_tensor(self):
        class DLPackOnly:                   # neither torch nor __cuda_array_interface__: DLPack alone
            def __init__(self, t):
                self.t = t

            def __dlpack__(self, stream=None):
                return self.t.__dlpack__(stream=stream)

            def __dlpack_device__(self):
                return self.t.__dlpack_device__()

        x = torch.arange(1000, device=DEV, dtype=torch.float16)
        out = torch.zeros_like(x)
        k = triton.jit(kernels.scale_kernel.fn)
        k[(16,)](DLPackOnly(x), DLPackOnly(out), 1000)
        torch.testing.assert_close(out, x * 3)
        self.assertEqual([key[:2] for key in k.cache], [("*fp16:16,*fp16:16,i32,64", "cuda")])

    def test_interpret_env_copies_through_the_cpu(self):
        x = torch.arange(100, device=DEV, dtype=torch.float32)
        out = torch.zeros_like(x)
        os.environ["MYTRITON_INTERPRET"] = "1"     # read when a kernel is decorated
        try:
            k = triton.jit(kernels.scale_kernel.fn)
        finally:
            del os.environ["MYTRITON_INTERPRET"]
        k[(2,)](x, out, 100)
        torch.testing.assert_close(out, x * 3)
        self.assertEqual([key[1] for key in k.cache], ["interp"])

    def test_mixing_devices_is_an_error(self):
        import numpy as np
        with self.assertRaises(triton.LaunchError):
            kernels.scale_kernel[(1,)](torch.zeros(8, device=DEV), np.zeros(8, np.float32), 8)

    def test_out_of_bounds_on_the_interpreter_reports_the_line(self):
        with self.assertRaises(triton.LaunchError) as cm:
            kernels.oob_kernel[(1,)](torch.zeros(10), torch.zeros(16), 10, BLOCK=16)   # CPU tensors
        self.assertEqual(cm.exception.diagnostics[0].code, "R0701")


if __name__ == "__main__":
    unittest.main()
