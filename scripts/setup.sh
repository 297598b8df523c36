#!/usr/bin/env bash
# Installs GOpt's build dependencies (Debian packages, idempotently) and
# configures + builds the project into ./build.
#
#   scripts/setup.sh            install what is missing, configure, build
#   GOPT_BUILD_DIR=dir ...      build somewhere else
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${GOPT_BUILD_DIR:-$ROOT/build}"
LLVM_PREFIX=/usr/lib/llvm-22

PACKAGES=(
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
  cmake ninja-build ccache g++ python3
  libgtest-dev libgmock-dev libbenchmark-dev libopenblas-dev libdnnl-dev
  zlib1g-dev libzstd-dev libedit-dev libxml2-dev libffi-dev libcurl4-openssl-dev
  # ONNX import (lib/Import/ONNX) and its test-data generators.
  libonnx-dev libprotobuf-dev protobuf-compiler
  python3-onnx python3-numpy python3-torch python3-torchvision
)

missing=()
for pkg in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done
if ((${#missing[@]})); then
  echo "== installing: ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  echo "== configuring $BUILD_DIR"
  cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ \
    -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" \
    -DLLVM_DIR="$LLVM_PREFIX/lib/cmake/llvm" \
    -DLLVM_EXTERNAL_LIT="$LLVM_PREFIX/bin/lit" \
    ${GOPT_CMAKE_ARGS:-}
fi

echo "== building"
# Two cores, ~24 GiB: two jobs keep the link steps within memory.
cmake --build "$BUILD_DIR" -- -j"${GOPT_JOBS:-2}"

# The roofline description of this CPU that `gopt-explore --predict=host`
# reads (build/share/gopt/host-target.json): measured once, a few seconds;
# measured again only when the CPU or the thread count changed.
"$BUILD_DIR/bin/gopt-probe-target" --if-missing ||
  echo "== warning: gopt-probe-target failed: --predict=host will say how to measure this CPU" >&2
