"""mytriton: Triton-style GPU kernels compiled by a compiler written in C.

    import mytriton as triton
    import mytriton.language as tl

    @triton.jit
    def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
        offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offsets < n
        tl.store(out + offsets, tl.load(x + offsets, mask=mask) + tl.load(y + offsets, mask=mask), mask=mask)

    add_kernel[(triton.cdiv(n, 256),)](x, y, out, n, BLOCK=256)

torch CUDA tensors run on the GPU (torch's current stream), numpy arrays
on the CPU interpreter; MYTRITON_INTERPRET=1 sends every launch to the
interpreter. docs/python.md has the whole API and what differs from Triton.
"""
from . import _C
from ._C import CompilationError, Diagnostic, LaunchError, MytritonError
from . import language
from .jit import JITFunction, jit
from .autotuner import Autotuner, AutotuneWarning, Config, Heuristics, autotune, heuristics
from . import testing
from . import runtime

__version__ = _C.version


def cdiv(x, y):
    """Ceiling division: the number of blocks of y that cover x."""
    return (x + y - 1) // y


def next_power_of_2(n):
    """The smallest power of two >= n (1 for n <= 1)."""
    n = int(n)
    return 1 if n <= 1 else 1 << (n - 1).bit_length()


__all__ = ["jit", "JITFunction", "Config", "autotune", "heuristics", "Autotuner", "AutotuneWarning", "Heuristics",
           "cdiv", "next_power_of_2", "language", "testing", "runtime", "CompilationError", "LaunchError",
           "MytritonError", "Diagnostic"]
