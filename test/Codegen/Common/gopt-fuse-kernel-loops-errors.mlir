// RUN: not gopt-opt %s --gopt-fuse-kernel-loops=tile-sizes=-1 2>&1 | FileCheck %s

// CHECK: error: gopt-fuse-kernel-loops: tile sizes must be non-negative
func.func @f() {
  return
}
