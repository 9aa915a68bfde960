"""triton.Config, @autotune, @heuristics and mytriton.testing on the CPU
interpreter (no GPU: autotune takes the first config that compiles and
warns, unless given do_bench=; do_bench itself needs a GPU)."""
import io
import os
import tempfile
import unittest
import warnings
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
        with self.assertWarns(triton.AutotuneWarning) as cm:
            k[lambda meta: (triton.cdiv(meta["n"], meta["BLOCK"]),)](out, 1.5, 40)
        self.assertIn("times nothing; using the first config that compiles, [BLOCK: 16, num_warps: 2",
                      str(cm.warning))
        self.assertTrue((out == 1.5).all())
        self.assertIs(k.best_config, configs[1])          # BLOCK=3 is no power of two
        self.assertIsNone(k.configs_timings)
        self.assertEqual(k.cache, {(40, "float32"): configs[1]})   # key values, then tensor dtypes
        with warnings.catch_warnings():
            warnings.simplefilter("error")                # the same key: cached, no second warning
            k[lambda meta: (triton.cdiv(meta["n"], meta["BLOCK"]),)](out, 2.5, 40)
        self.assertTrue((out == 2.5).all())
        self.assertIn("BLOCK: 16", str(k.best_config))

    def test_autotune_with_do_bench_takes_the_fastest(self):
        configs = [triton.Config({"BLOCK": 8}), triton.Config({"BLOCK": 3}), triton.Config({"BLOCK": 16}),
                   triton.Config({"BLOCK": 32})]
        fake_ms = iter([3.0, 99.0, 1.0, 2.0])             # the configs are timed in order
        seen = []
        out = np.full(32, 5.0, np.float32)

        def bench(call):
            ms = next(fake_ms)
            call()
            seen.append(out.copy())
            return ms

        k = triton.autotune(configs, key=["n"], reset_to_zero=["out"], restore_value=["out"],
                            do_bench=bench)(triton.jit(kernels.acc_kernel.fn))
        buf = io.StringIO()
        os.environ["MYTRITON_PRINT_AUTOTUNING"] = "1"
        try:
            with redirect_stdout(buf):
                k[lambda meta: (triton.cdiv(meta["n"], meta["BLOCK"]),)](out, 1.0, 32)
        finally:
            del os.environ["MYTRITON_PRINT_AUTOTUNING"]
        self.assertIs(k.best_config, configs[2])
        self.assertEqual(k.configs_timings[configs[1]], float("inf"))    # BLOCK=3 does not compile
        self.assertEqual(len(seen), 3)
        for s in seen:                                    # reset_to_zero before each timed call
            np.testing.assert_array_equal(s, np.ones(32, np.float32))
        np.testing.assert_array_equal(out, np.full(32, 6.0, np.float32))   # restored, then launched once
        self.assertIn("best config selected: BLOCK: 16", buf.getvalue())
        self.assertIn("[BLOCK: 16, num_warps: 4, num_stages: 3] 1 ms", buf.getvalue())

    def test_pre_and_post_hooks_while_timing(self):
        calls = []
        out = np.zeros(16, np.float32)

        def pre(args):
            calls.append(("pre", float(args["out"][0])))
            args["out"].fill(10)

        def post(args, exception):
            calls.append(("post", type(exception).__name__ if exception else None))

        configs = [triton.Config({"BLOCK": 16}), triton.Config({"BLOCK": 5})]
        k = triton.autotune(configs, key=[], pre_hook=pre, post_hook=post,
                            do_bench=lambda call: (call(), 1.0)[1])(triton.jit(kernels.acc_kernel.fn))
        k[(1,)](out, 1.0, 16)
        self.assertEqual(calls, [("pre", 0.0), ("post", None), ("pre", 11.0), ("post", "CompilationError")])
        np.testing.assert_array_equal(out, np.full(16, 11.0, np.float32))   # no hook on the real launch

    def test_config_num_stages_is_a_launch_option(self):
        k = triton.autotune([triton.Config({"BLOCK": 16}, num_warps=2, num_stages=1)], key=[])(
            triton.jit(kernels.fill_kernel.fn))
        out = np.zeros(16, np.float32)
        k[(1,)](out, 3.0, 16)
        self.assertTrue((out == 3).all())
        self.assertEqual([key[2:] for key in k.fn.cache], [(2, 1)])   # num_warps, num_stages

    def test_autotune_over_heuristics(self):
        k = triton.autotune([triton.Config({}, num_warps=2)], key=[])(
            triton.heuristics({"BLOCK": lambda args: args["n"]})(triton.jit(kernels.fill_kernel.fn)))
        out = np.zeros(8, np.float32)
        k[(1,)](out, 2.0, 8)
        self.assertTrue((out == 2).all())


class Testing(unittest.TestCase):
    def test_do_bench_needs_a_gpu(self):
        if triton._C.cuda_available()[0]:
            self.skipTest("a GPU is present: do_bench uses CUPTI (test_gpu_torch)")
        out = np.zeros(1024, np.float32)
        with self.assertRaises(triton.LaunchError) as cm:
            triton.testing.do_bench(lambda: kernels.fill_kernel[(8,)](out, 1.0, 1024, BLOCK=128))
        self.assertIn("do_bench times GPU kernels (CUPTI) and there is no GPU here", str(cm.exception))
        self.assertFalse(out.any())                       # nothing ran

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
