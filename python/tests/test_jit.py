"""@jit, kernel[grid](...), the specialisation cache and the errors, on
numpy arrays (the CPU interpreter): no GPU needed."""
import os
import unittest
from unittest import mock

import support  # noqa: F401  (numpy or skip)
import numpy as np

import kernels
import mytriton as triton
import mytriton.language as tl

KERNELS = os.path.abspath(kernels.__file__)


def line_of(marker):
    with open(KERNELS) as f:
        return next(i for i, ln in enumerate(f, 1) if marker in ln)


class Launch(unittest.TestCase):
    def test_grid_tuple_lambda_and_defaults(self):
        x = np.arange(300, dtype=np.float32)
        out = np.zeros_like(x)
        kernels.scale_kernel[(5,)](x, out, 300)                       # BLOCK's default, 64
        np.testing.assert_array_equal(out, x * 3)
        out[:] = 0
        kernels.scale_kernel[lambda meta: (triton.cdiv(meta["n"], meta["BLOCK"]),)](x, out, n=300, BLOCK=128)
        np.testing.assert_array_equal(out, x * 3)

    def test_grid_of_one_int_and_list(self):
        x = np.ones(64, np.float32)
        out = np.zeros_like(x)
        kernels.scale_kernel[1](x, out, 64)
        kernels.scale_kernel[[1]](x, out, 64)
        np.testing.assert_array_equal(out, 3 * x)

    def test_dtypes(self):
        for dt in (np.int32, np.int64, np.float16, np.float64, np.int8, np.uint8):
            out = np.zeros(20, dt)
            kernels.fill_kernel[(1,)](out, 5, 20, BLOCK=32)
            np.testing.assert_array_equal(out, np.full(20, 5, dt), err_msg=str(dt))

    def test_non_contiguous_view(self):
        src = np.arange(40, dtype=np.float32)
        dst = np.zeros(10, np.float32)
        kernels.strided_copy[(1,)](src[::4], dst, 10, 4, BLOCK=16)
        np.testing.assert_array_equal(dst, src[::4])

    def test_helpers_and_module_constants(self):
        x = np.full(10, 2, np.float32)
        out = np.zeros_like(x)
        kernels.scale_kernel[(1,)](x, out, 10)
        self.assertTrue((out == 6).all())   # scaled() reads SCALE = 3

    def test_kernel_defined_in_a_function(self):
        @triton.jit
        def negate(x, out, n, BLOCK: tl.constexpr):
            offs = tl.arange(0, BLOCK)
            tl.store(out + offs, -tl.load(x + offs, mask=offs < n), mask=offs < n)

        x = np.arange(5, dtype=np.float32)
        out = np.zeros_like(x)
        negate[(1,)](x, out, 5, BLOCK=8)
        np.testing.assert_array_equal(out, -x)

    def test_jit_called_as_a_function(self):
        x = np.arange(100, dtype=np.float32)
        out = np.zeros_like(x)
        kernels.double_kernel[(2,)](x, out, 100, BLOCK=64)       # f = triton.jit(f), helper likewise
        np.testing.assert_array_equal(out, 2 * x)

        def local_add(x, out, n, BLOCK: tl.constexpr):
            offs = tl.arange(0, BLOCK)
            tl.store(out + offs, tl.load(x + offs, mask=offs < n) + 1, mask=offs < n)

        out[:] = 0
        triton.jit(local_add)[(1,)](x, out, 64, BLOCK=64)
        np.testing.assert_array_equal(out[:64], x[:64] + 1)

    def test_empty_grid_launches_nothing(self):
        out = np.zeros(8, np.float32)
        kernels.fill_kernel[(0,)](out, 1.0, 8, BLOCK=8)
        self.assertFalse(out.any())


class Cache(unittest.TestCase):
    def setUp(self):
        self.k = triton.jit(kernels.fill_kernel.fn)   # a fresh cache

    def test_compiles_once_per_key(self):
        a = np.zeros(32, np.float32)
        for _ in range(3):
            self.k[(1,)](a, 1.0, 32, BLOCK=32)
        self.assertEqual(self.k.compiles, 1)
        self.k[(1,)](a, 2.0, 48, BLOCK=32)             # another n, same types: same key
        self.assertEqual(self.k.compiles, 1)
        self.k[(2,)](a, 1.0, 32, BLOCK=16)             # another constexpr
        self.assertEqual(self.k.compiles, 2)
        self.k[(1,)](np.zeros(32, np.float64), 1.0, 32, BLOCK=32)   # another dtype
        self.assertEqual(self.k.compiles, 3)
        self.k[(1,)](a, 1.0, 32, BLOCK=32, num_warps=8)  # another num_warps
        self.assertEqual(self.k.compiles, 4)
        self.k[(1,)](a, 1.0, 32, BLOCK=32, num_warps=8, num_stages=1)  # another num_stages
        self.assertEqual(self.k.compiles, 5)
        self.assertEqual(len(self.k.cache), 5)

    def test_launch_options_reach_the_compiler(self):
        a = np.zeros(32, np.float32)
        with mock.patch.object(triton._C, "compile", wraps=triton._C.compile) as compile:
            self.k[(1,)](a, 1.0, 32, BLOCK=32)
            self.k[(1,)](a, 1.0, 32, BLOCK=32, num_warps=2, num_stages=1)
        self.assertEqual([(c.kwargs["num_warps"], c.kwargs["num_stages"]) for c in compile.call_args_list],
                         [(0, 0), (2, 1)])

    def test_key_is_the_signature(self):
        a = np.zeros(64, np.float32)
        self.k[(1,)](a, 1.0, 48, BLOCK=16)
        self.k[(1,)](a[1:], 1.0, 40, BLOCK=16)          # misaligned: no :16; 40 % 16 != 0
        sigs = sorted(key[0] for key in self.k.cache)
        self.assertEqual(sigs, ["*fp32,fp32,i32,16", "*fp32:16,fp32,i32:16,16"])

    def test_large_ints_are_i64(self):
        a = np.zeros(4, np.float32)
        self.k[(1,)](a, 1.0, 2**40, BLOCK=4)
        self.assertIn("*fp32:16,fp32,i64:16,4", [key[0] for key in self.k.cache])
        np.testing.assert_array_equal(a, np.ones(4, np.float32))

    def test_do_not_specialize(self):
        k = triton.jit(kernels.fill_kernel.fn, do_not_specialize=["n"])
        k[(1,)](np.zeros(32, np.float32), 1.0, 32, BLOCK=32)
        self.assertEqual([key[0] for key in k.cache], ["*fp32:16,fp32,i32,32"])

    def test_warmup_compiles_without_running(self):
        a = np.zeros(8, np.float32)
        compiled = self.k.warmup(a, 1.0, 8, BLOCK=8, grid=(1,))
        self.assertFalse(a.any())
        self.assertEqual([key[0] for key in self.k.cache], ["*fp32:16,fp32,i32,8"])
        self.assertTrue(compiled.signature.startswith("*fp32"), compiled.signature)
        self.assertIn("store", compiled.text("ssa"))
        self.assertEqual([p[0] for p in compiled.params], ["out", "value", "n", "BLOCK"])


class _TorchDtype:
    """Stands in for a torch.dtype (what the constexpr path reads: its type's
    name and module, and str())."""
    __module__ = "torch"

    def __init__(self, name):
        self.name = name

    def __str__(self):
        return f"torch.{self.name}"


_TorchDtype.__name__ = _TorchDtype.__qualname__ = "dtype"


def _torch_dtype(name):
    """torch.<name> when torch is importable, else the stand-in."""
    try:
        import torch
        return getattr(torch, name)
    except ImportError:
        return _TorchDtype(name)


def _bf16(a):
    """float32 values rounded to bfloat16 (to nearest even), as float32."""
    b = np.asarray(a, np.float32).view(np.uint32).astype(np.uint64)
    b = (b + 0x7FFF + ((b >> 16) & 1)) & 0xFFFF0000
    return b.astype(np.uint32).view(np.float32)


class Constexprs(unittest.TestCase):
    """Dtype and string constexprs: part of the key and of the compile call."""

    def setUp(self):
        self.k = triton.jit(kernels.act_cast.fn)   # a fresh cache
        self.x = np.linspace(-3, 3, 100, dtype=np.float32) + np.float32(1 / 3)
        self.out = np.zeros_like(self.x)

    def run_act(self, dtype, activation):
        self.out[:] = np.nan
        self.k[(2,)](self.x, self.out, 100, DTYPE=dtype, ACTIVATION=activation, BLOCK=64)
        return self.out

    def test_dtype_constexpr_selects_the_cast(self):
        x = self.x
        np.testing.assert_array_equal(self.run_act(tl.float16, "none"), x.astype(np.float16).astype(np.float32))
        np.testing.assert_array_equal(self.run_act(tl.bfloat16, "none"), _bf16(x))
        np.testing.assert_array_equal(self.run_act(tl.float32, "none"), x)
        np.testing.assert_array_equal(self.run_act(tl.constexpr(tl.float16), "none"),
                                      x.astype(np.float16).astype(np.float32))
        self.assertFalse((self.run_act(tl.float16, "none") == x).all())    # the cast happened
        # a torch dtype is the same value as the tl one: the same key
        np.testing.assert_array_equal(self.run_act(_torch_dtype("bfloat16"), "none"), _bf16(x))
        self.assertEqual(sorted(key[0].split(",")[3] for key in self.k.cache),
                         ["tl.bfloat16", "tl.float16", "tl.float32"])

    def test_string_constexpr_selects_the_activation(self):
        x = self.x
        leaky = np.where(x >= 0, x, x * np.float32(0.125))
        np.testing.assert_array_equal(self.run_act(tl.float32, "leaky_relu"), leaky)
        np.testing.assert_array_equal(self.run_act(tl.float32, "relu"), np.maximum(x, 0))
        np.testing.assert_array_equal(self.run_act(tl.float16, "leaky_relu"),
                                      leaky.astype(np.float16).astype(np.float32))
        # quotes, commas, a backslash and a newline arrive as they are (repr() is the literal)
        for s in ("it's, \"x\"", "a\\b\n", "x" * 300, ""):
            np.testing.assert_array_equal(self.run_act(tl.float32, s), np.full(100, len(s), np.float32), repr(s))

    def test_compiles_once_per_distinct_value(self):
        for _ in range(3):
            for dtype in (tl.float16, _torch_dtype("float16"), tl.bfloat16):
                for act in ("relu", "leaky_relu"):
                    self.run_act(dtype, act)
        self.assertEqual(self.k.compiles, 4)   # {fp16, bf16} x {relu, leaky_relu}
        self.assertEqual(sorted(key[0] for key in self.k.cache), [
            "*fp32:16,*fp32:16,i32,tl.bfloat16,'leaky_relu',64", "*fp32:16,*fp32:16,i32,tl.bfloat16,'relu',64",
            "*fp32:16,*fp32:16,i32,tl.float16,'leaky_relu',64", "*fp32:16,*fp32:16,i32,tl.float16,'relu',64"])
        compiled = self.k.warmup(self.x, self.out, 100, DTYPE=tl.float16, ACTIVATION="relu", BLOCK=64, grid=(2,))
        self.assertEqual(compiled.signature, "*fp32:16,*fp32:16,i32,tl.float16,'relu',64")  # its key's
        self.assertEqual(self.k.compiles, 4)

    def test_errors(self):
        with self.assertRaises(triton.LaunchError) as cm:
            self.run_act(_TorchDtype("complex64"), "relu")
        self.assertIn("the dtype torch.complex64 is not one mytriton has", str(cm.exception))
        with self.assertRaises(triton.LaunchError) as cm:
            self.k[(1,)](self.x, tl.float16, 100, DTYPE=tl.float16, ACTIVATION="relu", BLOCK=64)
        self.assertIn("argument out: triton.language.float16 is a compile-time value; annotate the parameter "
                      "`out: tl.constexpr`", str(cm.exception))
        with self.assertRaises(triton.LaunchError) as cm:
            self.run_act(object(), "relu")
        self.assertIn("a tl.constexpr must be an int, float, bool, str, None or a dtype", str(cm.exception))


class Errors(unittest.TestCase):
    def test_compile_error_points_into_the_file(self):
        with self.assertRaises(triton.CompilationError) as cm:
            kernels.bad_arange[(1,)](np.zeros(3, np.int32), BLOCK=3)
        e = cm.exception
        d = e.diagnostics[0]
        self.assertEqual((d.severity, d.code, d.file, d.line, d.col), ("error", "E0413", KERNELS,
                                                                       line_of("BAD-ARANGE"), 12))
        self.assertIn(f"{KERNELS}:{d.line}:12: error:", str(e))
        self.assertIn("^~~~", str(e))
        self.assertIsInstance(e, triton.MytritonError)

    def test_error_in_a_kernel_made_by_calling_jit(self):
        with self.assertRaises(triton.CompilationError) as cm:
            kernels.bad_plain[(1,)](np.zeros(4, np.float32), BLOCK=4)
        d = cm.exception.diagnostics[0]
        self.assertEqual((d.file, d.line), (KERNELS, line_of("PLAIN-ERROR")))
        self.assertIn("undefined_name", str(cm.exception))

    def test_out_of_bounds_raises_with_the_line(self):
        with self.assertRaises(triton.LaunchError) as cm:
            kernels.oob_kernel[(1,)](np.zeros(10, np.float32), np.zeros(16, np.float32), 10, BLOCK=16)
        d = cm.exception.diagnostics[0]
        self.assertEqual((d.code, d.file, d.line), ("R0701", KERNELS, line_of("# OOB")))
        self.assertIn("x has 10 elements", d.message)
        self.assertIn(f"{KERNELS}:{d.line}:{d.col}: error: out-of-bounds load in oob_kernel", str(cm.exception))
        self.assertIn("^~~~", str(cm.exception))

    def test_arguments(self):
        a = np.zeros(8, np.float32)
        with self.assertRaises(TypeError):
            kernels.fill_kernel[(1,)](a, 1.0, BLOCK=8)               # n missing
        with self.assertRaises(TypeError):
            kernels.fill_kernel[(1,)](a, 1.0, 8, BLOCK=8, BLOCKK=8)  # misspelt
        with self.assertRaises(triton.LaunchError):
            kernels.fill_kernel[(1,)]([0.0] * 8, 1.0, 8, BLOCK=8)    # a list is no array
        with self.assertRaises(triton.LaunchError):
            kernels.fill_kernel[(1,)](np.zeros(8, np.complex64), 1.0, 8, BLOCK=8)
        with self.assertRaises(ValueError):
            kernels.fill_kernel[(1, 1, 1, 1)](a, 1.0, 8, BLOCK=8)

    def test_read_only_array(self):
        a = np.zeros(8, np.float32)
        a.flags.writeable = False
        with self.assertRaises(triton.LaunchError) as cm:
            kernels.fill_kernel[(1,)](a, 1.0, 8, BLOCK=8)
        self.assertIn("writable", str(cm.exception))

    def test_kernels_are_not_python_functions(self):
        with self.assertRaises(RuntimeError):
            kernels.fill_kernel(np.zeros(8), 1.0, 8, 8)
        with self.assertRaises(RuntimeError) as cm:
            tl.load(None)
        self.assertIn("@jit", str(cm.exception))


class _Tensor:
    """Stands in for a torch CUDA tensor (what the launch path reads)."""
    __module__ = "torch"

    def __init__(self, ptr, dtype="float32"):
        self.ptr, self.dtype, self.is_cuda = ptr, dtype, True

    def data_ptr(self):
        return self.ptr

    def get_device(self):
        return 0


class Classify(unittest.TestCase):
    def test_gpu_tensors_scalars_and_constexprs(self):
        from mytriton import args
        k = triton.jit(kernels.strided_copy.fn, do_not_specialize=["stride"])
        args.SIG_OF_TORCH.setdefault("float32", "fp32")
        args.SIG_OF_TORCH.setdefault("float16", "fp16")
        # the first time through the slow path (which registers the type), then the C one
        for _ in range(2):
            sig, backend, launch, device = triton._C.classify(
                k.flags, k.names, [_Tensor(4096), _Tensor(4100, "float16"), 2**33, 32, 128], args.FAST_TYPES,
                args.SIG_OF_TORCH, k.slow, False)
            self.assertEqual(sig, "*fp32:16,*fp16,i64:16,i32,128")
            self.assertEqual((backend, launch, device), ("cuda", [4096, 4100, 2**33, 32], 0))
            self.assertIn(_Tensor, args.FAST_TYPES)

    def test_an_int_equal_to_1_is_a_constant(self):
        # as Triton specialises it: the compile folds it (a unit stride
        # makes a tile contiguous), and it is no launch argument; not with
        # do_not_specialize
        from mytriton import args
        args.SIG_OF_TORCH.setdefault("float32", "fp32")
        k = triton.jit(kernels.strided_copy.fn)
        sig, _, launch, _ = triton._C.classify(k.flags, k.names, [_Tensor(4096), _Tensor(8192), 512, 1, 128],
                                               args.FAST_TYPES, args.SIG_OF_TORCH, k.slow, False)
        self.assertEqual((sig, launch), ("*fp32:16,*fp32:16,i32:16,1,128", [4096, 8192, 512]))
        self.assertEqual(args._one(k.params[3], np.int32(1), False), ("1", None, None, None))
        k = triton.jit(kernels.strided_copy.fn, do_not_specialize=["stride"])
        sig, _, launch, _ = triton._C.classify(k.flags, k.names, [_Tensor(4096), _Tensor(8192), 512, 1, 128],
                                               args.FAST_TYPES, args.SIG_OF_TORCH, k.slow, False)
        self.assertEqual((sig, launch), ("*fp32:16,*fp32:16,i32:16,i32,128", [4096, 8192, 512, 1]))

    def test_mixing_gpu_and_cpu_arrays(self):
        from mytriton import args
        k = triton.jit(kernels.strided_copy.fn)
        args.SIG_OF_TORCH.setdefault("float32", "fp32")
        with self.assertRaises(triton.LaunchError) as cm:
            triton._C.classify(k.flags, k.names, [_Tensor(64), np.zeros(4, np.float32), 4, 1, 16],
                               args.FAST_TYPES, args.SIG_OF_TORCH, k.slow, False)
        self.assertIn("argument dst: one launch cannot mix", str(cm.exception))


class Dispatch(unittest.TestCase):
    """kernel[grid](...) of a cached kernel on GPU tensors runs in C
    (python/src/dispatch.c) up to the launch; without a GPU the launch
    itself raises the driver's error, which shows the path was taken
    (no compile, no Python run). On a GPU machine test_gpu_torch covers it."""

    def setUp(self):
        if triton._C.cuda_available()[0]:
            self.skipTest("a GPU is present: the stand-in tensors would be launched (test_gpu_torch covers this)")
        from mytriton import args
        args.SIG_OF_TORCH.setdefault("float32", "fp32")
        args.FAST_TYPES.add(_Tensor)
        self.k = triton.jit(kernels.strided_copy.fn)
        self.sig = "*fp32:16,*fp32:16,i32:16,1,128"
        self.k.cache[(self.sig, "cuda", None, None)] = triton._C.compile(*self.k.source(), "strided_copy", self.sig)

    def test_cached_kernel_launches_from_c(self):
        self.k.run = mock.Mock(side_effect=AssertionError("run was called"))
        with self.assertRaises(triton.LaunchError) as cm:
            self.k[(4,)](_Tensor(4096), _Tensor(8192), 512, 1, BLOCK=128)
        self.assertIn("driver", str(cm.exception))
        self.assertEqual(self.k.compiles, 0)

    def test_callable_grid_gets_the_meta_parameters(self):
        seen = []

        def grid(meta):
            seen.append(dict(meta))
            return (triton.cdiv(meta["n"], meta["BLOCK"]),)

        self.k.run = mock.Mock(side_effect=AssertionError("run was called"))
        with self.assertRaises(triton.LaunchError):
            self.k[grid](_Tensor(4096), _Tensor(8192), n=512, stride=1, BLOCK=128)
        self.assertEqual(seen[0]["n"], 512)
        self.assertEqual(seen[0]["BLOCK"], 128)
        self.assertEqual((seen[0]["num_warps"], seen[0]["num_stages"]), (None, None))
        self.assertEqual(self.k.compiles, 0)

    def test_other_launches_are_runs(self):
        # a launch option, a missing argument, an unknown keyword: run's rules and messages
        with self.assertRaises(TypeError) as cm:
            self.k[(4,)](_Tensor(4096), _Tensor(8192), 512, BLOCK=128)
        self.assertIn("missing argument 'stride'", str(cm.exception))
        with self.assertRaises(TypeError) as cm:
            self.k[(4,)](_Tensor(4096), _Tensor(8192), 512, 1, BLOCK=128, BLOK=2)
        self.assertIn("BLOK", str(cm.exception))
        x = np.arange(64, dtype=np.float32)
        out = np.zeros_like(x)
        self.k[(1,)](x, out, 64, 1, BLOCK=64, num_warps=2)      # numpy: the interpreter, through run
        np.testing.assert_array_equal(out, x)
        self.assertEqual(self.k.compiles, 1)


class _DLPackOnly:
    """An array that is only DLPack (as a JAX or MXNet array is to mytriton)."""

    def __init__(self, a):
        self.a = a

    def __dlpack__(self, stream=None):
        return self.a.__dlpack__()

    def __dlpack_device__(self):
        return self.a.__dlpack_device__()


class DLPack(unittest.TestCase):
    def test_cpu_dlpack_tensor_runs_on_the_interpreter(self):
        out = np.zeros(100, np.float32)
        k = triton.jit(kernels.fill_kernel.fn)
        k[(2,)](_DLPackOnly(out), 2.5, 100, BLOCK=64)
        np.testing.assert_array_equal(out, np.full(100, 2.5, np.float32))
        (sig, backend, _, _), = k.cache
        self.assertEqual((sig.split(",")[0].split(":")[0], backend), ("*fp32", "interp"))

    def test_strided_dlpack_view(self):
        base = np.zeros(64, np.int32)
        k = triton.jit(kernels.fill_kernel.fn)
        k[(1,)](_DLPackOnly(base[::2]), 7, 32, BLOCK=32)      # the kernel writes 32 contiguous elements
        np.testing.assert_array_equal(base[:32], np.full(32, 7, np.int32))

    def test_unsupported_dtype_names_it(self):
        k = triton.jit(kernels.fill_kernel.fn)
        with self.assertRaises(triton.LaunchError) as cm:
            k[(1,)](_DLPackOnly(np.zeros(8, np.complex64)), 1.0, 8, BLOCK=8)
        self.assertIn("argument out: DLPack tensors of type code 5, 64 bits", str(cm.exception))

    def test_used_capsule_is_refused(self):
        with self.assertRaises(triton.LaunchError) as cm:
            triton._C.dlpack_info(object())
        self.assertIn("dltensor", str(cm.exception))


class Names(unittest.TestCase):
    def test_helpers(self):
        self.assertEqual(triton.cdiv(1000, 256), 4)
        self.assertEqual([triton.next_power_of_2(n) for n in (0, 1, 3, 64, 65)], [1, 1, 4, 64, 128])

    def test_runtime_driver(self):
        from mytriton.runtime import Autotuner, Config, JITFunction, driver  # noqa: F401  (Triton's names)
        self.assertIs(triton.runtime.driver, driver)
        target = driver.active.get_current_target()
        if triton._C.cuda_available()[0]:
            self.assertEqual((target.backend, target.warp_size), ("cuda", 32))
        else:
            self.assertEqual((target.backend, driver.active.get_current_stream(), driver.active.get_current_device()),
                             ("cpu", 0, 0))

    def test_language_names_come_from_the_compiler(self):
        for name in ("load", "store", "arange", "program_id", "dot", "sum", "where", "exp", "static_range",
                     "float16", "bfloat16", "int64", "constexpr"):
            self.assertTrue(hasattr(tl, name), name)
        self.assertIn("mask", tl.load.__doc__)
        self.assertEqual(tl.float32.primitive_bitwidth, 32)
        from mytriton.language.extra import libdevice
        self.assertTrue(callable(libdevice.tanh))
        from mytriton.language.math import exp  # noqa: F401


if __name__ == "__main__":
    unittest.main()
