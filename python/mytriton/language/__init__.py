"""mytriton.language: the kernel language, ``import mytriton.language as tl``.

Kernels are compiled by mytriton's C compiler, never run by Python, so
the functions here are names to import and to read the documentation of:
calling one outside a ``@jit`` kernel raises. The names, their parameter
lists and their documentation come from the compiler's own table
(``mt_api_at``), so this module offers exactly what the compiler binds.
"""
import sys as _sys
import types as _types

from .. import _C


class constexpr:
    """Marks a compile-time parameter (``BLOCK: tl.constexpr``); each value
    makes its own specialisation of the kernel. ``tl.constexpr(v)`` wraps a
    value as Triton's does: ``.value`` is v."""

    def __init__(self, value=None):
        self.value = value.value if isinstance(value, constexpr) else value

    def __repr__(self):
        return f"constexpr[{self.value!r}]"

    def __eq__(self, other):
        return self.value == (other.value if isinstance(other, constexpr) else other)

    def __hash__(self):
        return hash(self.value)

    def __bool__(self):
        return bool(self.value)

    def __index__(self):
        return self.value.__index__()


class dtype:
    """An element type: ``tl.float32``, ``tl.int64``, ... (dtypes.def)."""

    def __init__(self, name, sig, numpy_name, bits, kind):
        self.name = name
        self.sig = sig
        self.numpy_name = numpy_name
        self.primitive_bitwidth = bits
        self.kind = kind

    def is_floating(self):
        return self.kind == "float"

    def is_int(self):
        return self.kind in ("int", "uint", "bool")

    def is_int_signed(self):
        return self.kind == "int"

    def is_int_unsigned(self):
        return self.kind == "uint"

    def is_bool(self):
        return self.kind == "bool"

    def __repr__(self):
        return f"triton.language.{self.name}"

    def __str__(self):
        return self.name

    def __eq__(self, other):
        return isinstance(other, dtype) and other.name == self.name

    def __hash__(self):
        return hash(self.name)


class tensor:
    """The type of a block value inside a kernel (for annotations)."""


class pointer_type:
    """The type of a pointer (for annotations)."""

    def __init__(self, element_ty):
        self.element_ty = element_ty


def _stub(name, params, doc):
    def f(*args, **kwargs):
        raise RuntimeError(
            f"tl.{name}({params or '...'}) can only be used inside a @jit kernel, which mytriton compiles; "
            "it does not run as Python")

    f.__name__ = name
    f.__qualname__ = name
    f.__doc__ = f"{name}({params or '...'})\n\n{doc or ''}"
    return f


dtypes = []
for _name, _sig, _np, _bits, _kind in _C.dtypes():
    globals()[_name] = dtype(_name, _sig, _np, _bits, _kind)
    dtypes.append(globals()[_name])
float8 = None  # fp8 formats: not in mytriton yet (docs/python.md)


def _submodule(name, doc):
    m = _types.ModuleType(f"{__name__}.{name}", doc)
    _sys.modules[m.__name__] = m
    return m


extra = _submodule("extra", "Vendor libraries: extra.libdevice (CUDA's libdevice functions).")
extra.libdevice = _submodule("extra.libdevice", "CUDA libdevice functions the compiler binds.")
_sys.modules[f"{__name__}.extra.libdevice"] = extra.libdevice
extra.cuda = _submodule("extra.cuda", "CUDA's vendor library: extra.cuda.libdevice.")
extra.cuda.libdevice = extra.libdevice
_sys.modules[f"{__name__}.extra.cuda.libdevice"] = extra.libdevice
math = _submodule("math", "The math functions (tl.math.exp is tl.exp; libdevice's are here too).")


class PropagateNan:
    """How tl.maximum / tl.minimum treat NaN."""
    NONE = 0
    ALL = 0xFFFF


for _path, _name, _kind, _params, _doc in _C.api():
    if _kind != "function":
        continue
    if _path.startswith("triton.language.extra.libdevice."):
        _short = _path.rsplit(".", 1)[1]
        setattr(extra.libdevice, _short, _stub(f"extra.libdevice.{_short}", _params, _doc))
        if not hasattr(math, _short):
            setattr(math, _short, getattr(extra.libdevice, _short))
    elif _path.startswith("triton.language.") and _path.count(".") == 2:
        _short = _path.rsplit(".", 1)[1]
        if _short in ("constexpr",):
            continue
        globals()[_short] = _stub(_short, _params, _doc)
        setattr(math, _short, globals()[_short])

del _path, _name, _kind, _params, _doc, _short, _sig, _np, _bits
