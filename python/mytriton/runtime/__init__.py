"""mytriton.runtime: the part of ``triton.runtime`` that Triton programs
reach for in their set-up lines --

    DEVICE = triton.runtime.driver.active.get_active_torch_device()

-- and the classes Triton exports there (JITFunction, Autotuner, Config,
Heuristics). The driver answers for mytriton's one GPU (MYTRITON_DEVICE,
default 0), or for the CPU when launches go to the interpreter (no GPU,
or MYTRITON_INTERPRET=1), as Triton's interpreter driver does.
"""
from .. import args as _args
from ..autotuner import Autotuner, Config, Heuristics
from ..jit import JITFunction


class GPUTarget:
    """What a compilation targets: backend "cuda" and the SM (90 for the
    H200), or backend "cpu" for the interpreter."""

    def __init__(self, backend, arch, warp_size):
        self.backend, self.arch, self.warp_size = backend, arch, warp_size

    def __repr__(self):
        return f"GPUTarget(backend={self.backend!r}, arch={self.arch!r}, warp_size={self.warp_size})"


class _ActiveDriver:
    def _on_gpu(self):
        return not _args.interpret_all() and _args.gpu_available()

    def get_current_device(self):
        """The device's ordinal (MYTRITON_DEVICE), 0 on the interpreter."""
        return _args.device_info()["ordinal"] if self._on_gpu() else 0

    def get_active_torch_device(self):
        """torch.device("cuda", n) for mytriton's GPU, torch.device("cpu")
        when launches run on the interpreter."""
        import torch
        return torch.device("cuda", self.get_current_device()) if self._on_gpu() else torch.device("cpu")

    def get_current_stream(self, device=None):
        """The stream a launch goes to (a CUstream as an int; 0 on the interpreter)."""
        return _args.current_stream(self.get_current_device() if device is None else device) \
            if self._on_gpu() else 0

    def get_current_target(self):
        if self._on_gpu():
            return GPUTarget("cuda", _args.device_sm(), 32)
        return GPUTarget("cpu", "interpreter", 1)


class _Driver:
    """``triton.runtime.driver``: ``.active`` is the driver launches use."""
    active = _ActiveDriver()


driver = _Driver()

__all__ = ["driver", "GPUTarget", "JITFunction", "Autotuner", "Config", "Heuristics"]
