#!/bin/sh
# stage.sh BUILD DEST: a copy of BUILD small enough to carry to the GPU
# machine (docs/testing.md, "The GPU machine"): every CTestTestfile.cmake,
# the programs the gpu-labelled tests and the GPU benchmarks run (stripped),
# the MLIR backend's PTX that `ctest -L mlir` wrote, the Python package, and
# the shared libraries those programs need that a machine with only the CUDA
# image lacks (DEST/.libs). The MLIR module and its libraries stay here.
# There, with the source tree at the same path as here (CTest files name
# it), `ln -sfn DEST BUILD` and run ctest on BUILD.
set -eu
src=${1:?usage: stage.sh BUILD DEST}
dst=${2:?usage: stage.sh BUILD DEST}
rm -rf "$dst"
mkdir -p "$dst/.libs"

# CTest's files, so `ctest --test-dir` finds every test there.
(cd "$src" && find . -name CTestTestfile.cmake -not -path '*/node_modules/*') | while read -r f; do
  mkdir -p "$dst/$(dirname "$f")"
  cp "$src/$f" "$dst/$f"
done

# The programs, stripped of their debug information.
for p in cli/mytriton bench/gpu_bench bench/launch_overhead tests/web/gpu_web_fault \
         $(cd "$src" && ls tests/gpu/gpu_* 2>/dev/null); do
  [ -f "$src/$p" ] || continue
  mkdir -p "$dst/$(dirname "$p")"
  strip -o "$dst/$p" "$src/$p"
done
[ -d "$src/tests/mlir/ptx" ] && mkdir -p "$dst/tests/mlir" && cp -r "$src/tests/mlir/ptx" "$dst/tests/mlir/"
[ -d "$src/bench/mlir-ptx" ] && mkdir -p "$dst/bench" && cp -r "$src/bench/mlir-ptx" "$dst/bench/"
# cuda.h, for the repro launcher gpu.web_fault builds (MYTRITON_CUDA_INCLUDE=DEST/include there).
for h in /usr/local/cuda/include/cuda.h /usr/include/cuda.h; do
  [ -f "$h" ] && mkdir -p "$dst/include" && cp "$h" "$dst/include/" && break
done
if [ -d "$src/python/mytriton" ]; then
  mkdir -p "$dst/python"
  cp -r "$src/python/mytriton" "$dst/python/"
  find "$dst/python" -name '*.so' -exec strip {} \;
fi

# The shared libraries, as /work/shared/gpu/pack-libs chooses them.
find "$dst" -path "$dst/.libs" -prune -o -type f -perm -u+x -print -o -name '*.so' -print | while read -r bin; do
  ldd "$bin" 2>/dev/null | awk '/=> \// {print $3}' | while read -r lib; do
    case "$lib" in
      */libc.so*|*/libm.so*|*/libdl.so*|*/libpthread.so*|*/librt.so*|*/ld-linux*|*/libutil.so*|*/libgcc_s.so*|*/libstdc++.so*) ;;
      */libcuda.so*|*/cuda*/*|*/nvidia/*) ;;
      *) cp -Lu "$lib" "$dst/.libs/" ;;
    esac
  done
done
du -sh "$dst"
