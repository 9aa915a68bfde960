"""triton.Config, @triton.autotune and @triton.heuristics.

Both decorators wrap a JITFunction (or each other) and keep its launch
interface: ``kernel[grid](*args, **kwargs)``.

@autotune(configs, key): on the first launch for each value of the `key`
arguments (plus the dtypes of the tensor arguments, as Triton does) every
config is compiled and timed with mytriton.testing.do_bench (CUPTI kernel
times on the GPU), the fastest is remembered (``.best_config``, ``.cache``)
and used from then on. reset_to_zero arguments are zeroed before each
timed run and restore_value arguments restored after timing. On the CPU
interpreter nothing is timed (the interpreter's speed says nothing about
a GPU's): the first config that compiles is used, every time, and an
AutotuneWarning says so -- unless the caller passed do_bench=, which is
then used as on the GPU. MYTRITON_PRINT_AUTOTUNING=1 (or Triton's
TRITON_PRINT_AUTOTUNING=1) prints each choice with its timings.

@heuristics({"NAME": lambda args: ...}): each launch computes the named
meta-parameters from the other arguments (a dict of every argument by name)
and passes them as constexprs.
"""
import builtins
import os
import time
import warnings

from . import _C
from . import args as _args


class AutotuneWarning(UserWarning):
    """Autotuning on the CPU interpreter: no config was timed."""


def _print_autotuning():
    return any(os.environ.get(v, "") not in ("", "0") for v in ("MYTRITON_PRINT_AUTOTUNING",
                                                                 "TRITON_PRINT_AUTOTUNING"))


def _zero(v):
    if hasattr(v, "zero_"):
        v.zero_()           # torch
    else:
        v.fill(0)           # numpy


def _saved(v):
    return v.clone() if hasattr(v, "clone") else v.copy()


def _restore(v, saved):
    if hasattr(v, "copy_"):
        v.copy_(saved)
    else:
        v[...] = saved


class Config:
    """One autotuning candidate: constexpr values (kwargs) and launch options."""

    def __init__(self, kwargs, num_warps=4, num_stages=3, num_ctas=1, maxnreg=None, pre_hook=None):
        self.kwargs = dict(kwargs)
        self.num_warps = num_warps
        self.num_stages = num_stages
        self.num_ctas = num_ctas
        self.maxnreg = maxnreg
        self.pre_hook = pre_hook

    def all_kwargs(self):
        return {**self.kwargs, "num_warps": self.num_warps, "num_stages": self.num_stages}

    def __str__(self):
        items = [f"{k}: {v}" for k, v in self.kwargs.items()]
        items += [f"num_warps: {self.num_warps}", f"num_stages: {self.num_stages}"]
        return ", ".join(items)

    __repr__ = __str__


def _jit_of(fn):
    while not hasattr(fn, "arg_names"):
        fn = fn.fn
    return fn


class Autotuner:
    def __init__(self, fn, configs, key, reset_to_zero=None, restore_value=None, prune_configs_by=None,
                 warmup=None, rep=None, do_bench=None, pre_hook=None, post_hook=None):
        self.fn = fn
        # while timing: pre_hook(args) before each call (in place of zeroing
        # reset_to_zero, as Triton), post_hook(args, exception) after each config
        self.pre_hook = pre_hook
        self.post_hook = post_hook
        self.configs = list(configs) or [Config({})]
        self.keys = list(key)
        self.reset_to_zero = list(reset_to_zero or [])
        self.restore_value = list(restore_value or [])
        prune = prune_configs_by or {}
        self.perf_model = prune.get("perf_model")
        self.top_k = prune.get("top_k")
        self.early_config_prune = prune.get("early_config_prune")
        self.warmup = warmup or 25
        self.rep = rep or 100
        self.user_bench = do_bench
        self.cache = {}
        self.best_config = None
        self.configs_timings = None
        jit = _jit_of(fn)
        self.arg_names = jit.arg_names
        self.__name__ = jit.__name__
        self.__doc__ = jit.__doc__

    def __getitem__(self, grid):
        return lambda *args, **kwargs: self.run(*args, grid=grid, **kwargs)

    def _key(self, named):
        key = [named[k] for k in self.keys if k in named]
        key += [str(v.dtype) for v in named.values() if hasattr(v, "dtype") and hasattr(v, "shape")]
        return tuple(key)

    def _pruned(self, named):
        configs = self.configs
        if self.early_config_prune:
            configs = self.early_config_prune(configs, named)
        if self.perf_model and self.top_k:
            k = self.top_k if self.top_k >= 1 else int(len(configs) * self.top_k)
            configs = sorted(configs, key=lambda c: self.perf_model(**named, **c.all_kwargs()))[:max(k, 1)]
        return configs

    def _launch(self, config, args, kwargs, grid):
        if config.pre_hook:
            config.pre_hook({**dict(zip(self.arg_names, args)), **kwargs, **config.all_kwargs()})
        return self.fn.run(*args, grid=grid, num_warps=config.num_warps, num_stages=config.num_stages,
                           **config.kwargs, **kwargs)

    def _bench(self, config, args, kwargs, grid, named):
        from .testing import do_bench

        def call():
            if self.pre_hook:
                self.pre_hook(named)
            else:
                for name in self.reset_to_zero:
                    _zero(named[name])
            self._launch(config, args, kwargs, grid)

        bench = self.user_bench or (lambda f: do_bench(f, warmup=self.warmup, rep=self.rep, quantiles=None))
        try:
            ms = bench(call)
        except _C.CompilationError as e:
            if self.post_hook:
                self.post_hook(named, exception=e)
            return float("inf")
        if self.post_hook:
            self.post_hook(named, exception=None)
        return ms

    def run(self, *args, grid, **kwargs):
        named = {**dict(zip(self.arg_names, args)), **kwargs}
        key = self._key(named)
        config = self.cache.get(key)
        if config is None:
            start = time.perf_counter()
            configs = self._pruned(named)
            if len(configs) > 1 and (self.user_bench or _args.runs_on_gpu(named.values())):
                saved = {n: _saved(named[n]) for n in self.restore_value}
                timings = {c: self._bench(c, args, kwargs, grid, named) for c in configs}
                for n, v in saved.items():
                    _restore(named[n], v)
                self.configs_timings = timings
                config = builtins.min(timings, key=timings.get)
                if timings[config] == float("inf"):
                    raise _C.CompilationError(f"{self.__name__}: no autotuning config compiles")
                how = "timings: " + "; ".join(f"[{c}] {t:.4g} ms" for c, t in timings.items())
            else:
                config = self._first_compiling(configs, args, kwargs)
                self.configs_timings = None
                how = "not timed"
                if len(configs) > 1:
                    warnings.warn(f"{self.__name__}: autotuning on the CPU interpreter times nothing; using the "
                                  f"first config that compiles, [{config}], for key {key}", AutotuneWarning,
                                  stacklevel=3)
            self.cache[key] = config
            if _print_autotuning():
                print(f"mytriton autotuning for function {self.__name__} finished after "
                      f"{time.perf_counter() - start:.2f}s; best config selected: {config}; {how}")
        self.best_config = config
        return self._launch(config, args, kwargs, grid)

    def _first_compiling(self, configs, args, kwargs):
        error = None
        for c in configs:
            try:
                self.fn.warmup(*args, grid=(1,), num_warps=c.num_warps, num_stages=c.num_stages, **c.kwargs,
                               **kwargs)
                return c
            except _C.CompilationError as e:
                error = error or e
        raise error

    def warmup(self, *args, grid, **kwargs):
        return self.fn.warmup(*args, grid=grid, **kwargs)


def autotune(configs, key, prune_configs_by=None, reset_to_zero=None, restore_value=None, pre_hook=None,
             post_hook=None, warmup=None, rep=None, use_cuda_graph=False, do_bench=None, cache_results=False):
    """Decorator: choose the fastest of `configs` for each value of `key`."""
    def decorator(fn):
        return Autotuner(fn, configs, key, reset_to_zero=reset_to_zero, restore_value=restore_value,
                         prune_configs_by=prune_configs_by, warmup=warmup, rep=rep, do_bench=do_bench,
                         pre_hook=pre_hook, post_hook=post_hook)

    return decorator


class Heuristics:
    def __init__(self, fn, values):
        self.fn = fn
        self.values = values
        jit = _jit_of(fn)
        self.arg_names = jit.arg_names
        self.__name__ = jit.__name__
        self.__doc__ = jit.__doc__

    def __getitem__(self, grid):
        return lambda *args, **kwargs: self.run(*args, grid=grid, **kwargs)

    def run(self, *args, grid, **kwargs):
        named = {**dict(zip(self.arg_names, args)), **kwargs}
        for name, f in self.values.items():
            kwargs[name] = named[name] = f(named)
        return self.fn.run(*args, grid=grid, **kwargs)

    def warmup(self, *args, grid, **kwargs):
        named = {**dict(zip(self.arg_names, args)), **kwargs}
        for name, f in self.values.items():
            kwargs[name] = named[name] = f(named)
        return self.fn.warmup(*args, grid=grid, **kwargs)


def heuristics(values):
    """Decorator: meta-parameters computed from the other arguments."""
    def decorator(fn):
        return Heuristics(fn, values)

    return decorator
