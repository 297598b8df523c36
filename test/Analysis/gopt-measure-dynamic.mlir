// A dynamic pipeline (the inliner runs gopt-fold on each callable as it goes)
// is recorded under the pass that ran it, and is the same without threading.
// RUN: gopt-opt %s --pass-pipeline='builtin.module(inline{default-pipeline=gopt-fold})' --gopt-measure -o /dev/null 2>&1 | FileCheck %s
// CHECK:      (baseline) - 4 0 3 32 B
// CHECK-NEXT: 0 inline {{[0-9.]+}} 2 -2 2 16 B yes
// CHECK-NEXT: 1 gopt-fold on @callee {{[0-9.]+}} 1 -1 1 16 B yes
// CHECK-NEXT: 2 gopt-fold on @main {{[0-9.]+}} 2 0 1 32 B no
// CHECK-NEXT: 3 gopt-fold on @main {{[0-9.]+}} 2 0 2 16 B yes
// RUN: gopt-opt %s --pass-pipeline='builtin.module(inline{default-pipeline=gopt-fold})' --gopt-measure -mlir-disable-threading -o /dev/null 2>&1 | FileCheck %s

func.func private @callee(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = gopt.neg %x : tensor<4xf32>
  %1 = gopt.neg %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @callee(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = gopt.exp %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}
