// RUN: gopt-difftest %s | FileCheck %s

// Found by the 10,000-graph difftest run (seed 30, 194 ops): with no graph
// pass, the bias kernel (a mul of two constants) folds to a constant during
// lowering and returned the constant's read-only global; the linear kernel's
// GEMM accumulated into that buffer in place and the compiled code crashed.
// gopt-copy-constant-kernel-results returns a copy instead. The compiled
// reference is compared with the constant evaluator.

// CHECK: constant-kernel-result.mlir: ok (16 configurations, {{.*}}; checked against the evaluator)

func.func @main(%x: tensor<8x5xf32>, %w: tensor<7x5xf32>) -> tensor<8x7xf32> {
  %half = gopt.constant dense<5.000000e-01> : tensor<f32>
  %c = gopt.constant dense<6.875000e-01> : tensor<8x7xf32>
  %b = gopt.mul %c, %half : tensor<8x7xf32>, tensor<f32> -> tensor<8x7xf32>
  %r = gopt.linear %x, %w, %b transpose_weight : tensor<8x5xf32>, tensor<7x5xf32>, tensor<8x7xf32> -> tensor<8x7xf32>
  return %r : tensor<8x7xf32>
}
