"""pip install ./python works with Debian's pip and setuptools and no
network (--no-build-isolation --no-index): into a virtual environment made
with --system-site-packages (numpy from Debian) and into a --target folder.
The installed package, imported from outside the source and build trees,
launches a kernel on numpy arrays. The extension is the one this build made
(MYTRITON_BUILD_DIR, setup.py's switch for that), so the test does not
rebuild the compiler; the packaging -- setup.py, the wheel, the modules,
the extension's place -- is pip's and setuptools' own."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import support  # noqa: F401  (numpy or skip)
import mytriton

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.dirname(HERE)
BUILD = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(mytriton._C.__file__))))

for _module, _package in (("pip", "python3-pip"), ("setuptools", "python3-setuptools"), ("venv", "python3-venv")):
    if subprocess.run([sys.executable, "-c", f"import {_module}"], capture_output=True).returncode != 0:
        raise unittest.SkipTest(f"{_module} is not installed for {sys.executable} (apt-get install {_package})")

PROGRAM = '''
import numpy as np
import mytriton as triton
import mytriton.language as tl


@triton.jit
def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=mask) + tl.load(y + offs, mask=mask), mask=mask)


x = np.arange(1000, dtype=np.float32)
out = np.zeros_like(x)
add_kernel[(triton.cdiv(1000, 256),)](x, x, out, 1000, BLOCK=256)
assert (out == 2 * x).all()
print("installed at", triton.__file__, "version", triton.__version__, "ok")
'''


class PipInstall(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="mt-pip-")
        # a copy of python/: an in-tree build leaves build/ and *.egg-info behind
        self.src = os.path.join(self.tmp, "python")
        shutil.copytree(PACKAGE, self.src, ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info",
                                                                         "tests"))
        with open(os.path.join(self.tmp, "program.py"), "w") as f:
            f.write(PROGRAM)
        self.env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        self.env["MYTRITON_BUILD_DIR"] = BUILD
        self.env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def run_ok(self, cmd, env=None):
        r = subprocess.run(cmd, cwd=self.tmp, env=env or self.env, capture_output=True, text=True, timeout=600)
        self.assertEqual(r.returncode, 0, f"{' '.join(cmd)}:\n{r.stdout}{r.stderr}")
        return r.stdout

    def check_program(self, python, where, env=None):
        out = self.run_ok([python, "program.py"], env)
        self.assertIn(f"installed at {where}", out)
        self.assertIn(f"version {mytriton.__version__} ok", out)

    def test_venv(self):
        venv = os.path.join(self.tmp, "venv")
        self.run_ok([sys.executable, "-m", "venv", "--system-site-packages", venv])
        python = os.path.join(venv, "bin", "python")
        out = self.run_ok([python, "-m", "pip", "install", "--no-build-isolation", "--no-index", "./python"])
        self.assertIn("Successfully installed mytriton", out)
        self.check_program(python, venv)

    def test_target(self):
        target = os.path.join(self.tmp, "site")
        out = self.run_ok([sys.executable, "-m", "pip", "install", "--no-build-isolation", "--no-index",
                           "--no-deps", "--target", target, "./python"])
        self.assertIn("Successfully installed mytriton", out)
        self.assertTrue(any(n.startswith("_C.") for n in os.listdir(os.path.join(target, "mytriton"))))
        self.check_program(sys.executable, target, dict(self.env, PYTHONPATH=target))


if __name__ == "__main__":
    unittest.main()
