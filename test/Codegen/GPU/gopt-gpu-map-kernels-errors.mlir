// RUN: not gopt-opt %s --gopt-gpu-map-kernels=block-size=0 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not gopt-opt %s --gopt-gpu-map-kernels=block-size=2048 2>&1 | FileCheck %s --check-prefix=LARGE

// ZERO: error: gopt-gpu-map-kernels: block-size must be in [1, 1024], got 0
// LARGE: error: gopt-gpu-map-kernels: block-size must be in [1, 1024], got 2048
func.func @f() {
  return
}
