"""On a GPU, with torch: the example kernels on torch CUDA tensors agree
with torch; launches honour torch's current stream; CuPy arrays
(__cuda_array_interface__) launch too; MYTRITON_INTERPRET=1 runs CUDA
tensors on the interpreter. Skips (77) without a GPU or torch;
MYTRITON_REQUIRE_CUDA=1 turns the skip into a failure."""
import os
import unittest

from support import load_example, require_gpu
import mytriton as triton

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
