"""Launch arguments: what each Python value is to the compiler and the runtime.

``slow`` (and its fast form in C, ``_C.classify``, which jit.py calls on
every launch) turns the bound parameter values of one launch into
  - the signature entries (the specialisation key): ``*fp16:16`` for an
    array of float16 at an address that is a multiple of 16, ``i32`` /
    ``i64`` / ``u64`` / ``fp32`` / ``i1`` for Python scalars (``:16`` on
    an int divisible by 16, ``1`` for an int equal to 1, which is then a
    constant of the compile and no launch argument, as Triton specialises
    them; neither when the parameter is in do_not_specialize),
    the literal of a constexpr (``256``, ``'relu'``, ``tl.float16``);
  - the backend: "cuda" for torch CUDA tensors, objects with
    ``__cuda_array_interface__`` (CuPy) and DLPack tensors on a CUDA
    device, "interp" for numpy arrays, CPU torch tensors and CPU DLPack
    tensors, everything "interp" under MYTRITON_INTERPRET=1;
  - the runtime arguments as the C launch takes them: device addresses
    for the GPU; for the interpreter, numpy arrays themselves (buffer
    protocol) or (address, element span) pairs, torch CUDA tensors copied
    to the CPU first (``Staged``) and back after the run.
torch, numpy and CuPy are never imported here: a value is recognised by
its type's module, so a program that uses only one of them pays for that one.
"""
import os
import sys

from . import _C
from .language import constexpr, dtype as _tl_dtype

_SIG_OF_NUMPY = {}      # numpy dtype name -> signature name ("float32" -> "fp32")
_SIG_OF_TYPESTR = {}    # __cuda_array_interface__ typestr -> signature name ("<f4" -> "fp32")
_TL_OF_SIG = {}         # signature name -> triton.language name ("fp16" -> "float16")
_SIG_OF_DLPACK = {}     # DLPack (type code, bits) -> signature name ((2, 32) -> "fp32")
_DLPACK_CODE = {"bool": 6, "int": 0, "uint": 1, "float": 2}       # kDLBool, kDLInt, kDLUInt, kDLFloat
for _tl, _sig, _np, _bits, _kind in _C.dtypes():
    _TL_OF_SIG[_sig] = _tl
    _SIG_OF_DLPACK[(4 if _sig == "bf16" else _DLPACK_CODE[_kind], max(_bits, 8))] = _sig   # kDLBfloat 4
    if _np:
        _SIG_OF_NUMPY[_np] = _sig
        _code = {"bool": "b", "int": "i", "uint": "u", "float": "f"}[_kind]
        _SIG_OF_TYPESTR[("|" if _bits <= 8 else "<") + _code + str(max(_bits // 8, 1))] = _sig
SIG_OF_TORCH = {}      # torch.dtype -> signature name, filled on first use


def _torch_sig(dt):
    s = SIG_OF_TORCH.get(dt)
    if s is None:
        name = str(dt).replace("torch.", "")
        s = "bf16" if name == "bfloat16" else _SIG_OF_NUMPY.get(name)
        if s is None:
            raise _C.LaunchError(f"torch tensors of {dt} are not supported by mytriton "
                                 f"(supported: {', '.join(sorted(_SIG_OF_NUMPY))}, bfloat16)")
        SIG_OF_TORCH[dt] = s
    return s


def _span(shape, strides):
    """Elements from the first to one past the last one a strided view reaches."""
    if any(n == 0 for n in shape):
        return 0
    if any(s < 0 for s in strides):
        raise _C.LaunchError("arrays with negative strides cannot be passed to a kernel; pass a copy")
    return 1 + sum((n - 1) * s for n, s in zip(shape, strides))


def _is_torch_dtype(v):
    tp = type(v)
    return tp.__name__ == "dtype" and tp.__module__.startswith("torch")


def literal(v):
    """A constexpr value as the signature literal the compiler reads (the
    rule of -D, mt_literal_parse): 256, True, None, 1e-05, a string as
    repr() writes it ('leaky_relu'), a dtype as tl.float16 -- a
    mytriton.language dtype, or a torch dtype, which is the same value
    (torch.float16 and tl.float16 make one specialisation)."""
    if isinstance(v, constexpr):
        v = v.value
    if v is None or isinstance(v, (bool, str)):
        return repr(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, _tl_dtype):
        return f"tl.{v.name}"
    if _is_torch_dtype(v):
        try:
            return "tl." + _TL_OF_SIG[_torch_sig(v)]
        except _C.LaunchError:
            raise _C.LaunchError(f"the dtype {v} is not one mytriton has (tl.float16, tl.bfloat16, tl.float32, "
                                 "tl.float64, tl.int1, tl.int8 ... tl.uint64)") from None
    if hasattr(v, "item") and getattr(v, "ndim", 1) == 0:      # a numpy scalar
        return literal(v.item())
    raise _C.LaunchError(f"a tl.constexpr must be an int, float, bool, str, None or a dtype (tl.float16, "
                         f"torch.float16), got {type(v).__name__}")


def _int_sig(v, specialize):
    if specialize and v == 1:
        return "1"      # Triton's specialisation: a constant of the compile, no launch argument
    if -2**31 <= v < 2**31:
        s = "i32"
    elif -2**63 <= v < 2**63:
        s = "i64"
    elif v < 2**64:
        s = "u64"
    else:
        raise _C.LaunchError(f"the integer {v} does not fit in 64 bits")
    return s + ":16" if specialize and v % 16 == 0 and v != 0 else s


class Staged:
    """A torch CUDA tensor run on the interpreter: a CPU copy with the same
    strides, copied back after the run."""
    __slots__ = ("tensor", "copy")

    def __init__(self, t):
        import torch
        self.tensor = t
        self.copy = torch.empty_strided(t.size(), t.stride(), dtype=t.dtype, device="cpu")
        self.copy.copy_(t.detach())

    def host(self):
        return (self.copy.data_ptr(), _span(self.copy.shape, self.copy.stride()))

    def finish(self):
        self.tensor.detach().copy_(self.copy)


_KIND_OF_TYPE = {}     # type -> its kind: the checks below once per type


def _kind(v):
    tp = type(v)
    kind = _KIND_OF_TYPE.get(tp, False)
    if kind is False:
        kind = _KIND_OF_TYPE[tp] = _kind_of_type(v)
    return kind


def _kind_of_type(v):
    m = type(v).__module__
    if m.startswith("torch"):
        return "torch" if hasattr(v, "data_ptr") else None
    if m == "numpy":
        return "numpy" if type(v).__name__ == "ndarray" else "npscalar"
    if hasattr(v, "__cuda_array_interface__"):
        return "cai"
    if hasattr(v, "__dlpack__") and hasattr(v, "__dlpack_device__"):
        return "dlpack"
    return None


_DL_CPU, _DL_CUDA, _DL_CUDA_HOST, _DL_CUDA_MANAGED = 1, 2, 3, 13      # DLPack's device types


def _dlpack(p, v, interp):
    """A DLPack tensor's (signature name, address, launch arg, backend,
    device): on the GPU, its producer ordered before the launch's stream
    (the protocol's `stream` argument); on the CPU, for the interpreter."""
    dev_type, dev_id = v.__dlpack_device__()
    if dev_type in (_DL_CUDA, _DL_CUDA_MANAGED):
        if interp:
            raise _C.LaunchError(f"argument {p.name}: MYTRITON_INTERPRET=1 copies torch tensors only; pass "
                                 "a numpy array or a torch tensor")
        stream = current_stream(dev_id) or 1          # 1: the legacy default stream (0 is not allowed)
        try:
            capsule = v.__dlpack__(stream=stream)
        except TypeError:                              # a producer without the stream argument
            capsule = v.__dlpack__()
    elif dev_type in (_DL_CPU, _DL_CUDA_HOST):
        capsule = v.__dlpack__()
    else:
        raise _C.LaunchError(f"argument {p.name}: a DLPack tensor on device type {dev_type}; mytriton runs "
                             "tensors of CUDA devices (type 2) and the CPU (type 1, on the interpreter)")
    ptr, (code, bits, lanes), shape, strides, _ = _C.dlpack_info(capsule)
    sig = _SIG_OF_DLPACK.get((code, bits)) if lanes == 1 else None
    if sig is None:
        raise _C.LaunchError(f"argument {p.name}: DLPack tensors of type code {code}, {bits} bits, {lanes} lanes "
                             "are not supported by mytriton")
    if dev_type in (_DL_CUDA, _DL_CUDA_MANAGED):
        return sig, ptr, ptr, "cuda", dev_id
    if strides is None:                                # compact row-major
        strides = [1] * len(shape)
        for i in range(len(shape) - 2, -1, -1):
            strides[i] = strides[i + 1] * shape[i + 1]
    return sig, ptr, (ptr, _span(shape, strides)), "interp", None


def interpret_all():
    return os.environ.get("MYTRITON_INTERPRET", "") not in ("", "0")


FAST_TYPES = set()     # tensor types _C.classify handles itself (torch.Tensor, nn.Parameter, ...)


def backend_for(interp):
    """Where a launch goes when its arguments do not say (only scalars), or
    under MYTRITON_INTERPRET=1."""
    if interp:
        return "interp"
    return "cuda" if gpu_available() else "interp"


def slow(jitfn, v, i):
    """The rules of a launch's arguments (jit.py's run; _C.classify is
    their fast form, for Python scalars and torch GPU tensors). What
    _C.classify does not do itself: the literal of a constexpr of
    another type, or (entry, launch arg or None, backend or None, device or
    None) for a runtime argument."""
    p = jitfn.params[i]
    if p.is_constexpr:
        return literal(v)
    return _one(p, v, jitfn.interpret)


def _one(p, v, interp):
    kind = _kind(v)
    if kind == "torch":
        sig = _torch_sig(v.dtype)
        FAST_TYPES.add(type(v))
        ptr = v.data_ptr()
        device = None
        if v.is_cuda:
            device = v.get_device()
            arg, where = (Staged(v), "interp") if interp else (ptr, "cuda")
        else:
            arg, where = (ptr, _span(v.shape, v.stride())), "interp"
    elif kind == "numpy":
        sig = _SIG_OF_NUMPY.get(v.dtype.name)
        if sig is None:
            raise _C.LaunchError(f"argument {p.name}: numpy arrays of {v.dtype} are not supported by mytriton")
        ptr = v.__array_interface__["data"][0]
        if v.flags.c_contiguous:
            arg = v
        else:
            item = v.itemsize
            if any(st % item for st in v.strides):
                raise _C.LaunchError(f"argument {p.name}: strides {v.strides} are not whole elements")
            arg = (ptr, _span(v.shape, [st // item for st in v.strides]))
        where, device = "interp", None
    elif kind == "cai":
        if interp:
            raise _C.LaunchError(f"argument {p.name}: MYTRITON_INTERPRET=1 copies torch tensors only; pass "
                                 "a numpy array or a torch tensor")
        cai = v.__cuda_array_interface__
        sig = _SIG_OF_TYPESTR.get(cai["typestr"])
        if sig is None:
            raise _C.LaunchError(f"argument {p.name}: arrays of {cai['typestr']} are not supported by mytriton")
        ptr = cai["data"][0]
        arg, where, device = ptr, "cuda", None
    elif kind == "dlpack":
        sig, ptr, arg, where, device = _dlpack(p, v, interp)
    elif kind == "npscalar":
        x = v.item()
        if isinstance(x, bool):
            entry = "i1"
        elif isinstance(x, float):
            entry = "fp32"
        else:
            entry = _int_sig(x, not p.do_not_specialize)
        return entry, None if entry == "1" else x, None, None
    elif isinstance(v, (_tl_dtype, str)) or _is_torch_dtype(v):
        raise _C.LaunchError(f"argument {p.name}: {v!r} is a compile-time value; annotate the parameter "
                             f"`{p.name}: tl.constexpr` to pass a {'string' if isinstance(v, str) else 'dtype'}")
    else:
        tp = type(v)
        raise _C.LaunchError(f"argument {p.name}: mytriton cannot pass a {tp.__module__}.{tp.__qualname__} to "
                             "a kernel (tensors, arrays, int, float, bool, None)")
    entry = ("*" + sig + ":16") if ptr % 16 == 0 and not p.do_not_specialize else "*" + sig
    return entry, arg, where, device


def runs_on_gpu(values):
    """Whether a launch with these values goes to the GPU."""
    if interpret_all():
        return False
    for v in values:
        kind = _kind(v)
        if (kind == "torch" and v.is_cuda) or kind == "cai" or \
                (kind == "dlpack" and v.__dlpack_device__()[0] in (_DL_CUDA, _DL_CUDA_MANAGED)):
            return True
    return False


# -- the GPU ----------------------------------------------------------------------------

_gpu = {}


def gpu_available():
    if "ok" not in _gpu:
        _gpu["ok"], _gpu["why"] = _C.cuda_available()
    return _gpu["ok"]


def gpu_error():
    """Why there is no GPU (empty when there is one)."""
    gpu_available()
    return _gpu["why"]


def device_info():
    if "info" not in _gpu:
        _gpu["info"] = _C.cuda_device()
    return _gpu["info"]


def device_sm():
    major, minor = device_info()["capability"]
    return major * 10 + minor


def check_device(device):
    if device is not None and device != device_info()["ordinal"]:
        raise _C.LaunchError(f"the tensors are on cuda:{device} but mytriton launches on cuda:"
                             f"{device_info()['ordinal']}; set MYTRITON_DEVICE={device} (one device per process)")


def current_stream(device):
    """torch's current stream on `device` (a CUstream as an int), else
    CuPy's current stream, else 0 (the default stream)."""
    torch = sys.modules.get("torch")
    if torch is not None and device is not None:
        raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
        return raw(device) if raw else torch.cuda.current_stream(device).cuda_stream
    cupy = sys.modules.get("cupy")
    if cupy is not None:
        return cupy.cuda.get_current_stream().ptr
    return 0


def run_interp(kernel, grid, launch):
    staged = [a for a in launch if isinstance(a, Staged)]
    if staged:
        launch = [a.host() if isinstance(a, Staged) else a for a in launch]
    kernel.run_interp(grid, launch)
    for s in staged:
        s.finish()
