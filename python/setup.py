"""pip install ./python: build mytriton._C with the project's CMake build
(the compiler and runtime libraries it links are C, built by CMake), then
package it with the pure-Python modules. Needs what the CMake build needs
(cmake, gcc, cmake/install-deps.sh's packages, the CUDA toolkit for NVRTC);
setuptools is the only Python package used (Debian's python3-setuptools:
pip install --no-build-isolation ./python works without a network).

MYTRITON_BUILD_DIR=DIR packages the extension an existing CMake build
directory already built (DIR/python/mytriton/_C.abi3.so) instead of
building it again.

The extension keeps to the stable ABI of Python 3.11 (python/CMakeLists.txt),
so the wheel is tagged abi3: one wheel serves 3.11 and every later Python."""
import os
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        name = os.path.basename(self.get_ext_filename(ext.name))
        build = os.environ.get("MYTRITON_BUILD_DIR")
        if build:
            built = os.path.join(os.path.abspath(build), "python", "mytriton", name)
            if not os.path.exists(built):
                sys.exit(f"MYTRITON_BUILD_DIR={build}: no {built} (build the mytriton_python target there, "
                         f"or unset MYTRITON_BUILD_DIR)")
        else:
            build = os.path.join(os.path.abspath(self.build_temp), "cmake")
            subprocess.check_call(["cmake", "-S", ROOT, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
                                   "-DMT_TESTS=OFF", f"-DPython3_EXECUTABLE={sys.executable}"])
            subprocess.check_call(["cmake", "--build", build, "--target", "mytriton_python",
                                   "-j", str(os.cpu_count() or 2)])
            built = os.path.join(build, "python", "mytriton", name)
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        self.copy_file(built, target)


setup(
    name="mytriton",
    version="0.1.0",
    description="Triton-style GPU kernels compiled by a compiler written in C",
    packages=["mytriton", "mytriton.language", "mytriton.runtime"],
    # py_limited_api: the file is _C.abi3.so, and the wheel cp311-abi3
    ext_modules=[Extension("mytriton._C", sources=[], py_limited_api=True)],
    cmdclass={"build_ext": CMakeBuild},
    options={"bdist_wheel": {"py_limited_api": "cp311"}},
    python_requires=">=3.11",
)
