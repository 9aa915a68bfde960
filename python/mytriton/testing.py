"""mytriton.testing: Triton's benchmarking helpers, so benchmark scripts
written for ``triton.testing`` run unchanged.

do_bench(fn) times the GPU kernels fn launches with CUPTI (the runtime's
profiler: each kernel's own start and end on the GPU, summed over the
kernels of one call), falling back to CUDA events where CUPTI cannot be
loaded. Without a GPU it raises LaunchError: the CPU interpreter's time
says nothing about a GPU's, and a wall-clock figure would pass for one.
Results are in milliseconds, as Triton's. Triton flushes the L2 cache between calls; this
does not, so memory-bound kernels with inputs that fit in L2 can time
faster than Triton reports.
"""
import math
import statistics

from . import _C
from . import args as _args

last_timer = None   # "cupti" or "cuda-events": what the last do_bench used


def _stat(ms, quantiles, return_mode):
    if quantiles is not None:
        s = sorted(ms)
        out = []
        for q in quantiles:
            pos = q * (len(s) - 1)
            lo = math.floor(pos)
            hi = min(lo + 1, len(s) - 1)
            out.append(s[lo] + (s[hi] - s[lo]) * (pos - lo))
        return out[0] if len(out) == 1 else out
    if return_mode == "all":
        return list(ms)
    return {"min": min, "max": max, "mean": statistics.fmean, "median": statistics.median}[return_mode](ms)


def do_bench(fn, warmup=25, rep=100, grad_to_none=None, quantiles=None, return_mode="mean"):
    """Time fn: about `warmup` ms of warm-up calls, then about `rep` ms of
    timed ones. Returns the mean (or return_mode: "min", "max", "median",
    "all") in ms, or the given quantiles."""
    global last_timer
    assert return_mode in ("min", "max", "mean", "median", "all")
    if not _args.gpu_available():
        raise _C.LaunchError(f"mytriton.testing.do_bench times GPU kernels (CUPTI) and there is no GPU here "
                             f"({_args.gpu_error()}); the CPU interpreter's time is not a kernel time -- time "
                             f"interpreter runs with time.perf_counter if you need them")
    def call():
        if grad_to_none is not None:
            for x in grad_to_none:
                x.grad = None
        fn()

    timer, ns, _ = _C.profile(call, warmup=1, iters=5)
    est = max(statistics.median(ns) / 1e6, 1e-4)
    n_warmup = max(1, int(warmup / est))
    n_rep = max(1, min(int(rep / est), 100000))
    timer, ns, _ = _C.profile(call, warmup=n_warmup, iters=n_rep)
    last_timer = timer
    return _stat([t / 1e6 for t in ns], quantiles, return_mode)


def assert_close(x, y, atol=None, rtol=None, err_msg=""):
    """Assert two arrays (numpy, torch, or sequences) are close:
    |x - y| <= atol + rtol * |y| everywhere (NaN equal to NaN)."""
    import numpy as np

    def host(a):
        if hasattr(a, "detach"):
            a = a.detach().float().cpu().numpy() if "bfloat16" in str(a.dtype) else a.detach().cpu().numpy()
        return np.asarray(a)

    x, y = host(x), host(y)
    atol = 1e-2 if atol is None else atol
    rtol = 0.0 if rtol is None else rtol
    np.testing.assert_allclose(x, y, atol=atol, rtol=rtol, equal_nan=True, err_msg=err_msg)


class Benchmark:
    """One benchmark table: x values, one line per provider (Triton's fields)."""

    def __init__(self, x_names, x_vals, line_arg, line_vals, line_names, plot_name, args, xlabel="", ylabel="",
                 x_log=False, y_log=False, styles=None, color=None):
        self.x_names = list(x_names)
        self.x_vals = list(x_vals)
        self.line_arg = line_arg
        self.line_vals = list(line_vals)
        self.line_names = list(line_names)
        self.plot_name = plot_name
        self.args = dict(args)
        self.xlabel = xlabel
        self.ylabel = ylabel
        self.x_log = x_log
        self.y_log = y_log
        self.styles = styles


class Mark:
    def __init__(self, fn, benchmarks):
        self.fn = fn
        self.benchmarks = benchmarks

    def _table(self, bench, **kwargs):
        rows = []
        for x in bench.x_vals:
            xs = x if isinstance(x, (list, tuple)) else [x] * len(bench.x_names)
            xargs = dict(zip(bench.x_names, xs))
            row = list(xs)
            for lv in bench.line_vals:
                r = self.fn(**xargs, **{bench.line_arg: lv}, **bench.args, **kwargs)
                row.append(r[0] if isinstance(r, (tuple, list)) else r)
            rows.append(row)
        return rows

    def run(self, show_plots=False, print_data=False, save_path="", return_df=False, **kwargs):
        """Run every benchmark; print its table (print_data) and write it as
        CSV to save_path/<plot_name>.csv. Returns the tables with return_df
        (lists of rows: pandas is not required)."""
        import os
        tables = []
        for bench in (self.benchmarks if isinstance(self.benchmarks, list) else [self.benchmarks]):
            rows = self._table(bench, **kwargs)
            header = bench.x_names + bench.line_names
            if print_data:
                print(f"{bench.plot_name}:")
                width = [max(len(str(h)), 12) for h in header]
                print("  ".join(str(h).rjust(w) for h, w in zip(header, width)))
                for r in rows:
                    print("  ".join((f"{v:.6g}" if isinstance(v, float) else str(v)).rjust(w)
                                    for v, w in zip(r, width)))
            if save_path:
                os.makedirs(save_path, exist_ok=True)
                with open(os.path.join(save_path, f"{bench.plot_name}.csv"), "w") as f:
                    f.write(",".join(header) + "\n")
                    for r in rows:
                        f.write(",".join(str(v) for v in r) + "\n")
            tables.append((header, rows))
        if return_df:
            return tables[0] if len(tables) == 1 else tables
        return None


def perf_report(benchmarks):
    """Decorator: the function becomes a Mark whose .run() fills the tables."""
    return lambda fn: Mark(fn, benchmarks)
