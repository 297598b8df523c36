// RUN: gopt-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(gopt-copy-constant-kernel-results))' | FileCheck %s

// A kernel that folded to a constant returns a copy of it, also through a
// reshape; a computed result and a non-kernel function are left alone.

// CHECK-LABEL: func.func private @k0
// CHECK: %[[C:.*]] = arith.constant dense<3.437500e-01> : tensor<8x7xf32>
// CHECK: %[[R:.*]] = tensor.collapse_shape %[[C]]
// CHECK: %[[COPY:.*]] = bufferization.alloc_tensor() copy(%[[C]]) : tensor<8x7xf32>
// CHECK: %[[COPY2:.*]] = bufferization.alloc_tensor() copy(%[[R]]) : tensor<56xf32>
// CHECK: return %[[COPY]], %[[COPY2]], %arg0
func.func private @k0(%x: tensor<4xf32>) -> (tensor<8x7xf32>, tensor<56xf32>, tensor<4xf32>) attributes {gopt.kernel = 0 : i64} {
  %c = arith.constant dense<3.437500e-01> : tensor<8x7xf32>
  %r = tensor.collapse_shape %c [[0, 1]] : tensor<8x7xf32> into tensor<56xf32>
  return %c, %r, %x : tensor<8x7xf32>, tensor<56xf32>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @main
// CHECK-NOT: alloc_tensor
func.func @main() -> tensor<3xf32> {
  %c = arith.constant dense<1.0> : tensor<3xf32>
  return %c : tensor<3xf32>
}
