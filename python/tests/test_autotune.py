"""triton.Config, @autotune, @heuristics and mytriton.testing on the CPU
interpreter (no GPU: autotune takes the first config that compiles)."""
import io
import os
import tempfile
import unittest
from contextlib import redirect_stdout

import support  # noqa: F401
import numpy as np

import kernels
import mytriton as triton


class Decorators(unittest.TestCase):
    def test_heuristics_compute_constexprs(self):
        k = triton.heuristics({"BLOCK": lambda args: triton.next_power_of_2(args["n"])})(
            triton.jit(kernels.fill_kernel.fn))
        out = np.zeros(20, np.float32)
        k[(1,)](out, 4.0, 20)
        self.assertTrue((out == 4).all())
        self.assertEqual([key[0].split(",")[-1] for key in k.fn.cache], ["32"])

    def test_autotune_takes_the_first_config_that_compiles(self):
        configs = [triton.Config({"BLOCK": 3}), triton.Config({"BLOCK": 16}, num_warps=2),
                   triton.Config({"BLOCK": 32})]
        k = triton.autotune(configs, key=["n"])(triton.jit(kernels.fill_kernel.fn))
        out = np.zeros(40, np.float32)
        k[lambda meta: (triton.cdiv(meta["n"], meta["BLOCK"]),)](out, 1.5, 40)
        self.assertTrue((out == 1.5).all())
        self.assertIs(k.best_config, configs[1])          # BLOCK=3 is no power of two
        self.assertEqual(k.cache, {(40, "float32"): configs[1]})   # key values, then tensor dtypes
        self.assertIn("BLOCK: 16", str(k.best_config))

    def test_autotune_over_heuristics(self):
        k = triton.autotune([triton.Config({}, num_warps=2)], key=[])(
            triton.heuristics({"BLOCK": lambda args: args["n"]})(triton.jit(kernels.fill_kernel.fn)))
        out = np.zeros(8, np.float32)
        k[(1,)](out, 2.0, 8)
        self.assertTrue((out == 2).all())


class Testing(unittest.TestCase):
    def test_do_bench_without_gpu_times_the_wall_clock(self):
        if triton._C.cuda_available()[0]:
            self.skipTest("a GPU is present: do_bench uses CUPTI (test_gpu_bench)")
        out = np.zeros(1024, np.float32)
        ms = triton.testing.do_bench(lambda: kernels.fill_kernel[(8,)](out, 1.0, 1024, BLOCK=128), warmup=1, rep=5)
        self.assertGreater(ms, 0)
        self.assertEqual(triton.testing.last_timer, "wall-clock")
        q = triton.testing.do_bench(lambda: None, warmup=1, rep=1, quantiles=[0.5, 0.2, 0.8])
        self.assertEqual(len(q), 3)

    def test_perf_report(self):
        @triton.testing.perf_report(triton.testing.Benchmark(
            x_names=["n"], x_vals=[16, 32], line_arg="provider", line_vals=["a", "b"], line_names=["A", "B"],
            plot_name="demo", args={"scale": 2}))
        def bench(n, provider, scale):
            return float(n * scale + (provider == "b"))

        with tempfile.TemporaryDirectory() as d:
            buf = io.StringIO()
            with redirect_stdout(buf):
                bench.run(print_data=True, save_path=d)
            self.assertIn("demo:", buf.getvalue())
            with open(os.path.join(d, "demo.csv")) as f:
                self.assertEqual(f.read().splitlines(), ["n,A,B", "16,32.0,33.0", "32,64.0,65.0"])

    def test_assert_close(self):
        triton.testing.assert_close(np.ones(3), np.ones(3) + 1e-3)
        with self.assertRaises(AssertionError):
            triton.testing.assert_close(np.ones(3), np.ones(3) + 1, atol=0.5)


if __name__ == "__main__":
    unittest.main()
