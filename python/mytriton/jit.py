"""@jit and kernel[grid](...): specialise, compile once per key, launch.

A launch binds the arguments to the kernel's parameters, makes the
specialisation key -- the Triton-AOT-style signature the C compiler takes,
one entry per parameter: ``*fp32:16`` for a tensor of float32 whose address
is a multiple of 16, ``i32`` / ``i64`` / ``fp32`` / ``i1`` for Python
scalars (``:16`` on an int divisible by 16, ``1`` for an int equal to 1), the literal value of a
``tl.constexpr`` -- plus the backend, num_warps and num_stages, looks the
compiled kernel up in the function's cache (compiling through
``mytriton._C`` on a miss), and launches it:

- torch CUDA tensors and ``__cuda_array_interface__`` objects (CuPy):
  on the GPU, asynchronously on torch's current stream;
- numpy arrays and CPU torch tensors: on the CPU interpreter, in place;
- ``MYTRITON_INTERPRET=1``: everything on the interpreter, torch CUDA
  tensors copied to the CPU and back (Triton's ``TRITON_INTERPRET=1``).

The compiler reads the kernel's whole file, so its helpers, module-level
constants and every diagnostic's file:line:col are the user's own.
"""
import functools
import inspect
import linecache
import re
import textwrap

from . import _C
from . import args as _args
from .language import constexpr


def _is_constexpr_annotation(ann):
    if ann is constexpr or isinstance(ann, constexpr):
        return True
    return isinstance(ann, str) and ann.split(".")[-1] == "constexpr"


_MISSING = object()
_EMPTY = inspect.Parameter.empty


class _Param:
    __slots__ = ("name", "index", "is_constexpr", "default", "do_not_specialize")

    def __init__(self, p, index, do_not_specialize):
        self.name = p.name
        self.index = index
        self.is_constexpr = _is_constexpr_annotation(p.annotation)
        self.default = p.default
        self.do_not_specialize = do_not_specialize


class JITFunction(_C.Dispatcher):
    """A ``@jit`` kernel. ``kernel[grid](*args, **kwargs)`` launches it;
    ``kernel.cache`` maps each specialisation key to its compiled kernel.

    ``kernel[grid]`` is the C Dispatcher's (python/src/dispatch.c): a
    launch of a cached kernel on GPU tensors runs there, in C, by the
    rules of ``run`` below; every other launch (a first compile, launch
    options, the interpreter, errors) is ``run``'s."""

    def __init__(self, fn, do_not_specialize=(), debug=None, noinline=None, repr=None, launch_metadata=None):
        self.fn = fn
        self.module = fn.__module__
        self.__name__ = fn.__name__
        functools.update_wrapper(self, fn)
        sig = inspect.signature(fn)
        dns = set(do_not_specialize)
        self.params = [_Param(p, i, p.name in dns or i in dns) for i, p in enumerate(sig.parameters.values())]
        self.arg_names = [p.name for p in self.params]
        # what _C.classify reads: each parameter's kind, its name, the slow path
        self.flags = tuple(1 if p.is_constexpr else 2 if p.do_not_specialize else 0 for p in self.params)
        self.names = tuple(self.arg_names)
        self.slow = functools.partial(_args.slow, self)
        # MYTRITON_INTERPRET=1 when the kernel is decorated (as Triton reads
        # TRITON_INTERPRET): every launch of it runs on the interpreter
        self.interpret = _args.interpret_all()
        self._index = {p.name: p.index for p in self.params}
        self.cache = {}
        self.compiles = 0             # compilations so far (a key missing from the cache)
        self._dispatch(self.flags, self.names, tuple(p.default for p in self.params), _EMPTY, self.cache,
                       _args.FAST_TYPES, _args.SIG_OF_TORCH, self.slow, _args.current_stream, self.interpret)
        self._source = None
        # a function jit(f) was called on rather than decorated: its def's line
        self._undecorated = _undecorated_def(fn)

    # -- the source the compiler reads ----------------------------------------------

    def source(self):
        """(path, text): the kernel's whole file, or for a kernel defined
        inside a function, its own source placed at its line. A function
        made a kernel by calling ``jit(f)`` rather than decorating it (its
        def and every such def of the file) gets ``@mytriton.jit`` on the
        blank or comment line above its def, so the compiler sees a jit
        function and every line keeps its number."""
        if self._source is None:
            path = inspect.getsourcefile(self.fn) or inspect.getfile(self.fn)
            lines = linecache.getlines(path, self.fn.__globals__)
            if not lines:
                raise _C.CompilationError(f"{self.__name__}: the source of the kernel cannot be read "
                                          f"(kernels must be defined in a file)")
            lines = list(lines)
            if "<locals>" in self.fn.__qualname__:
                # a kernel inside a function: its own lines (dedented) at
                # their place, and the file's top-level imports
                src, start = inspect.getsourcelines(self.fn)
                body = textwrap.dedent("".join(src)).splitlines(keepends=True)
                lines = [ln if ln.startswith(("import ", "from ")) else "\n" for ln in lines]
                lines[start - 1:start - 1 + len(body)] = body
                if self._undecorated is not None:
                    _mark_jit(lines, start, self.__name__, path)
            else:
                for start, name in _UNDECORATED.get(path, ()):
                    _mark_jit(lines, start, name, path)
                    _drop_rebinding(lines, name)
            self._source = (path, "".join(lines))
        return self._source

    # -- launching --------------------------------------------------------------------

    def __call__(self, *args, **kwargs):
        raise RuntimeError(f"{self.__name__} is a @jit kernel: launch it with {self.__name__}[grid](...); "
                           "it cannot be called as a Python function")

    def bind(self, args, kwargs):
        """The value of every parameter, in order (defaults filled in)."""
        params = self.params
        nargs = len(args)
        if nargs > len(params):
            raise TypeError(f"{self.__name__}() takes {len(params)} arguments, got {nargs}")
        values = list(args)
        used = 0
        for p in params[nargs:]:
            v = kwargs.get(p.name, _MISSING)
            if v is _MISSING:
                if p.default is _EMPTY:
                    raise TypeError(f"{self.__name__}() missing argument '{p.name}'")
                v = p.default
            else:
                used += 1
            values.append(v)
        if used != len(kwargs):
            unknown = [k for k in kwargs if k not in self._index or self._index[k] < nargs]
            raise TypeError(f"{self.__name__}() got unexpected or repeated arguments: {', '.join(unknown)}")
        return values

    def run(self, *args, grid, num_warps=None, num_stages=None, num_ctas=None, warmup=False, **kwargs):
        values = self.bind(args, kwargs)
        # the signature, the backend and the launch arguments (args.py's rules)
        signature, backend, launch, device = _C.classify(self.flags, self.names, values, _args.FAST_TYPES,
                                                         _args.SIG_OF_TORCH, self.slow, self.interpret)
        if backend is None or self.interpret:
            backend = _args.backend_for(self.interpret)
        key = (signature, backend, num_warps, num_stages)
        kernel = self.cache.get(key)
        if kernel is None:
            kernel = self._compile(key, backend, device)
        if callable(grid):
            meta = dict(zip(self.arg_names, values))
            meta["num_warps"] = num_warps
            meta["num_stages"] = num_stages
            grid = grid(meta)
        if not isinstance(grid, tuple):
            grid = tuple(grid) if isinstance(grid, list) else (grid,)
        if warmup:
            return kernel
        if backend == "cuda":
            kernel.run_cuda(grid, launch, _args.current_stream(device))
        else:
            _args.run_interp(kernel, grid, launch)
        return kernel

    def warmup(self, *args, grid, **kwargs):
        """Compile for these arguments without launching; returns the
        compiled kernel (``.text('cuda')``, ``.signature``, ...)."""
        return self.run(*args, grid=grid, warmup=True, **kwargs)

    def _compile(self, key, backend, device):
        signature, _, num_warps, num_stages = key
        path, text = self.source()
        if backend == "cuda":
            _args.check_device(device)
            stage, sm = "cuda", _args.device_sm()
        else:
            stage, sm = "ssa", 90
        kernel = _C.compile(path, text, self.__name__, signature, stage=stage, num_warps=num_warps or 0,
                            num_stages=num_stages or 0, sm=sm)
        self.compiles += 1
        self.cache[key] = kernel
        return kernel

    def __repr__(self):
        return f"JITFunction({self.module}:{self.__name__})"


# source file -> [(line of the def, name)] of functions made kernels by
# calling jit(f) on them: each gets @mytriton.jit in the text the compiler reads
_UNDECORATED = {}


def _undecorated_def(fn):
    """The line of fn's def when fn has no decorator in its source (jit(f)
    called on a plain function), else None."""
    try:
        src, start = inspect.getsourcelines(fn)
    except (OSError, TypeError):
        return None
    if src[0].lstrip().startswith("@"):
        return None
    path = inspect.getsourcefile(fn) or inspect.getfile(fn)
    if "<locals>" not in fn.__qualname__:
        entry = (start, fn.__name__)
        if entry not in _UNDECORATED.setdefault(path, []):
            _UNDECORATED[path].append(entry)
    return start


def _mark_jit(lines, start, name, path):
    """@mytriton.jit on the line above the def at `start` (1-based), which
    must hold no code: the line numbers of the file stay as they are."""
    above = lines[start - 2] if start >= 2 else None
    if above is None or above.strip() and not above.lstrip().startswith("#"):
        raise _C.CompilationError(f"{path}:{start}: {name} is made a kernel by calling jit({name}); mytriton "
                                  f"needs a blank or comment line above its def for that (or decorate it "
                                  f"with @triton.jit)")
    lines[start - 2] = lines[start - 1][:len(lines[start - 1]) - len(lines[start - 1].lstrip())] + \
        "@mytriton.jit\n"


def _drop_rebinding(lines, name):
    """Blank the one-line statements `name = triton.jit(name, ...)`: to the
    compiler `name` is the jit function, not a module-level assignment."""
    pattern = re.compile(rf"\s*{name}\s*=\s*(?:[A-Za-z_][\w.]*\.)?jit\(\s*{name}\s*[,)].*")
    for i, ln in enumerate(lines):
        if pattern.fullmatch(ln.rstrip("\n")):
            lines[i] = "\n"


def jit(fn=None, *, do_not_specialize=(), debug=None, noinline=None, **kwargs):
    """Decorator: the function is a kernel (or a helper other kernels call),
    compiled by mytriton on its first launch for each specialisation."""
    def decorator(f):
        return JITFunction(f, do_not_specialize=do_not_specialize, debug=debug, noinline=noinline)

    return decorator(fn) if fn is not None else decorator
