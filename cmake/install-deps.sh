#!/bin/sh
# install-deps.sh: install the Debian packages mytriton needs, if missing.
# Used by the Makefile's targets and by .ci/run; safe to run repeatedly.
#   install-deps.sh          building (make demo, make build, make install; python3-dev for
#                            the Python package; Check and libcurl because the build
#                            includes the test programs)
#   install-deps.sh test     and testing (make test): Check, Neovim, Emacs with eglot and
#                            lsp-mode, Vim with ALE for the editor tests, Chromium, node and
#                            npm for the dashboard's tests, python3-numpy for the
#                            numpy references of the example kernels, python3-pip,
#                            -setuptools and -venv for python.test_pip_install
#   install-deps.sh fuzz     and fuzzing (make fuzz): clang 14 with libFuzzer
set -eu

# MLIR 22 for the MLIR backend: the C API and libMLIR (libmlir-22-dev),
# MLIRConfig.cmake's LLVMConfig.cmake (llvm-22-dev), mlir-opt for its tests
# (mlir-22-tools). A build without them has the backend off.
need="cmake make gcc pkg-config python3-dev libcjson-dev libmicrohttpd-dev libsqlite3-dev check libsubunit-dev libcurl4-openssl-dev libmlir-22-dev mlir-22-tools llvm-22-dev"
case "${1:-}" in
  "") ;;
  test)
    need="$need neovim emacs-nox elpa-eglot elpa-lsp-mode vim vim-ale chromium python3-numpy python3-pip python3-setuptools python3-venv"
    # The dashboard's page tests run node and npm: Debian's, unless a node
    # is already installed (NodeSource's brings its own npm).
    command -v node >/dev/null 2>&1 || need="$need nodejs"
    command -v npm >/dev/null 2>&1 || need="$need npm"
    ;;
  fuzz) need="$need clang-14 libclang-rt-14-dev" ;;
  *) echo "usage: install-deps.sh [test|fuzz]" >&2; exit 2 ;;
esac
missing=""
for p in $need; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
    echo "install-deps: missing packages:$missing (run as root or install them)" >&2
    exit 1
  fi
else
  SUDO=
fi
echo "install-deps: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
