"""Shared by the Python tests: numpy (Debian's python3-numpy) or a skip,
`import triton` answered by mytriton (so unchanged Triton code imports it),
the examples folder, and the GPU gate."""
import importlib.util
import os
import sys
import unittest

try:
    import numpy as np  # noqa: F401
except ImportError:
    raise unittest.SkipTest("numpy is not installed (apt-get install python3-numpy)")

import mytriton
import mytriton.language

EXAMPLES = os.environ.get("MYTRITON_EXAMPLES") or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples")


def as_triton():
    """Make `import triton` and `import triton.language` give mytriton."""
    for name, module in list(sys.modules.items()):
        if name == "mytriton" or name.startswith("mytriton."):
            sys.modules["triton" + name[len("mytriton"):]] = module


def load_example(stem):
    """Import examples/<stem>.py (it says `import triton`) as a module."""
    as_triton()
    path = os.path.join(EXAMPLES, stem + ".py")
    spec = importlib.util.spec_from_file_location(f"example_{stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TUTORIALS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tutorials")


def load_tutorial(stem):
    """Import python/tutorials/<stem>.py as a module (its checks do not run)."""
    path = os.path.join(TUTORIALS, stem + ".py")
    spec = importlib.util.spec_from_file_location("tutorial_" + stem.replace("-", "_"), path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def require_gpu():
    """Skip (raise SkipTest) without a GPU, or fail under MYTRITON_REQUIRE_CUDA=1."""
    ok, why = mytriton._C.cuda_available()
    if not ok:
        if os.environ.get("MYTRITON_REQUIRE_CUDA") == "1":
            raise RuntimeError(f"MYTRITON_REQUIRE_CUDA=1 but there is no GPU: {why}")
        raise unittest.SkipTest(f"no GPU ({why})")
