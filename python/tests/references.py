"""The example kernels' references: examples/*.json names each kernel, its
grid, its constexprs and its arguments; REFS computes with numpy what each
kernel must write. Shared by test_examples (numpy arrays, the interpreter)
and test_gpu_torch (the same arrays as torch CUDA tensors)."""
import glob
import json
import math
import os

import numpy as np

from support import EXAMPLES, load_example


def f32(x):
    return np.asarray(x, dtype=np.float32)


def gelu_erf(a, s):
    x = a["x_ptr"].astype(np.float64)
    y = 0.5 * x * (1.0 + np.vectorize(math.erf)(x * 0.7071067811865476))
    return {"out_ptr": (y.astype(np.float16), 1e-3, 1e-6)}


def gelu_tanh(a, s):
    x = a["x_ptr"].astype(np.float64)
    y = 0.5 * x * (1.0 + np.tanh(0.7978845608028654 * (x + 0.044715 * x ** 3)))
    return {"out_ptr": (y.astype(np.float16), 1e-3, 1e-3)}


def tile_shape(a, s):
    want = np.full((s["M"], s["N"]), -1.0, np.float32)
    m, n = np.meshgrid(np.arange(s["M"]), np.arange(s["N"]), indexing="ij")
    want[:] = m * s["N"] + n
    return {"out": (want, 0, 0)}


# kernel name -> reference: (inputs, scalars and constexprs) -> {array: (want, rtol, atol)}
REFS = {
    "add_kernel": lambda a, s: {"out": (a["x"] + a["y"], 0, 0)},
    "copy_kernel": lambda a, s: {"dst": (a["src"], 0, 0)},
    "relu_kernel": lambda a, s: {"out": (np.maximum(a["x"], 0), 0, 0)},
    "leaky_relu_kernel": lambda a, s: {"out": (np.where(a["x"] > 0, a["x"], a["x"] * f32(s["slope"])), 0, 0)},
    "sigmoid_kernel": lambda a, s: {"out": (1 / (1 + np.exp(-a["x"].astype(np.float64))), 1e-6, 1e-7)},
    "dot_shapes_kernel": lambda a, s: {"out": (np.zeros((s["BM"], s["BN"]), np.float32), 0, 0)},
    "matmul_kernel": lambda a, s: {"c": (a["a"].astype(np.float64) @ a["b"], 1e-5, 1e-5)},
    "factories_kernel": lambda a, s: {"out": (np.full(s["BLOCK"], 2.5, np.float32), 0, 0)},
    "full_2d_kernel": lambda a, s: {"out": (np.full((s["BM"], s["BN"]), s["value"], np.float32), 0, 0)},
    "gelu_erf_kernel": gelu_erf,
    "gelu_tanh_kernel": gelu_tanh,
    "long_row_sum_kernel": lambda a, s: {"out": (a["x"].astype(np.float64).sum(axis=1), 1e-5, 1e-5)},
    "matmul_2d_kernel": lambda a, s: {"c": (a["a"].astype(np.float64) @ a["b"], 1e-5, 1e-6)},
    "matmul_2d_runtime_kernel": lambda a, s: {"c": (a["a"].astype(np.float64) @ a["b"], 1e-5, 1e-6)},
    "matrix_add_kernel": lambda a, s: {"out": (a["x"] + a["y"], 0, 0)},
    "matrix_add_2d_kernel": lambda a, s: {"out": (a["x"] + a["y"], 0, 0)},
    "naive_matmul_kernel": lambda a, s: {"c": (a["a"].astype(np.float64) @ a["b"], 1e-5, 1e-6)},
    "row_argmax_kernel": lambda a, s: {"out_ptr": (np.argmax(a["x_ptr"], axis=1), 0, 0)},
    "row_cumsum_kernel": lambda a, s: {"out_ptr": (np.cumsum(a["x_ptr"].astype(np.float32), axis=1,
                                                             dtype=np.float32), 0, 0)},
    "row_max_kernel": lambda a, s: {"out": (a["x"].max(axis=1), 0, 0)},
    "row_min_kernel": lambda a, s: {"out": (a["x"].min(axis=1), 0, 0)},
    "row_sum_kernel": lambda a, s: {"out": (a["x"].astype(np.float64).sum(axis=1), 1e-6, 1e-6)},
    "runtime_sum_kernel": lambda a, s: {"out": (a["x"].astype(np.float64).sum(keepdims=True), 1e-5, 1e-5)},
    "softmax_kernel": lambda a, s: {"out": (np.exp(a["x"] - a["x"].max(axis=1, keepdims=True)) /
                                            np.exp(a["x"] - a["x"].max(axis=1, keepdims=True)).sum(
                                                axis=1, keepdims=True), 1e-5, 1e-6)},
    "tile_shape_kernel": tile_shape,
}


def make_array(arg, rng):
    dt = np.dtype(arg["dtype"])
    shape = tuple(arg["shape"])
    init = arg["init"]
    if init == "zeros":
        return np.zeros(shape, dt)
    if init == "constant":
        return np.full(shape, arg["value"], dt)
    if init == "normal":
        return rng.normal(arg.get("mean", 0), arg.get("std", 1), shape).astype(dt)
    return rng.uniform(arg.get("low", 0), arg.get("high", 1), shape).astype(dt)


def grid_of(spec, scalars):
    env = dict(scalars, cdiv=lambda a, b: -(-a // b))
    return tuple(g if isinstance(g, int) else eval(g, {}, env) for g in spec["grid"])


def specs():
    return sorted(glob.glob(os.path.join(EXAMPLES, "*.json")))


def prepare(spec_path):
    """(spec, kernel, numpy arrays, scalars and constexprs, grid, inputs' copies)."""
    with open(spec_path) as f:
        spec = json.load(f)
    stem = os.path.basename(spec["source"])[:-3]
    kernel = getattr(load_example(stem), spec["kernel"])
    rng = np.random.default_rng(17)
    arrays = {n: make_array(v, rng) for n, v in spec["args"].items() if isinstance(v, dict)}
    scalars = {n: v for n, v in spec["args"].items() if not isinstance(v, dict)}
    scalars.update(spec.get("constexprs") or {})
    inputs = {n: a.copy() for n, a in arrays.items()}
    return spec, kernel, arrays, scalars, grid_of(spec, scalars), inputs


def check(test, spec, got_arrays, inputs, scalars, gpu=False):
    """Every array the reference names agrees with it: within the
    reference's tolerance, or on the GPU (where reductions and scans may
    add in another order) within the spec's, when that is wider."""
    loose = (spec.get("tolerance") or {}) if gpu else {}
    for name, (want, rtol, atol) in REFS[spec["kernel"]](inputs, scalars).items():
        rtol = max(rtol, loose.get("rtol", 0))
        atol = max(atol, loose.get("atol", 0))
        got = np.asarray(got_arrays[name]).astype(np.float64)
        want = np.asarray(want, np.float64)
        test.assertEqual(got.shape, want.shape, name)
        np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, err_msg=f"{spec['kernel']}: {name}")
