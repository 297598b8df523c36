// RUN: gopt-opt %s -split-input-file --pass-pipeline='builtin.module(gopt-fuse,gopt-fuse-gemm-layer-norms)' | FileCheck %s

// A sublayer's end: a GEMM, its bias and the residual (gopt-fuse's fusion),
// then the layer norm of the sum (a kernel of its own): one kernel.
// CHECK-LABEL: func.func @residual_norm
// CHECK: %[[F:.*]] = gopt.fusion
// CHECK-NEXT: ^bb0(
// CHECK-NEXT: gopt.matmul
// CHECK-NEXT: gopt.add
// CHECK-NEXT: gopt.add
// CHECK-NEXT: gopt.layer_norm
// CHECK-NEXT: gopt.yield
// CHECK-NOT: gopt.layer_norm
// CHECK: return %[[F]]
func.func @residual_norm(%x: tensor<16x64xf32>, %w: tensor<64x64xf32>, %b: tensor<64xf32>, %r: tensor<16x64xf32>, %g: tensor<64xf32>, %be: tensor<64xf32>) -> tensor<16x64xf32> {
  %m = gopt.matmul %x, %w : tensor<16x64xf32>, tensor<64x64xf32> -> tensor<16x64xf32>
  %s = gopt.add %m, %b : tensor<16x64xf32>, tensor<64xf32> -> tensor<16x64xf32>
  %t = gopt.add %s, %r : tensor<16x64xf32>
  %n = gopt.layer_norm %t, %g, %be axes = [1] eps = 1.0e-05 : tensor<16x64xf32>, tensor<64xf32>, tensor<64xf32>
  return %n : tensor<16x64xf32>
}

// -----

// Kept: the sum also returned (the next residual reads it: the fusion must
// write it anyway), a GEMM without an epilogue (no launch to save), and a
// norm that is not a kernel of its own (gopt-fuse put its scale's sqrt
// with it).
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-3: {{^    }}%{{.*}} = gopt.layer_norm
func.func @kept(%x: tensor<16x64xf32>, %w: tensor<64x64xf32>, %b: tensor<64xf32>, %r: tensor<16x64xf32>, %g: tensor<64xf32>, %be: tensor<64xf32>) -> (tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>) {
  %m = gopt.matmul %x, %w : tensor<16x64xf32>, tensor<64x64xf32> -> tensor<16x64xf32>
  %t = gopt.add %m, %r : tensor<16x64xf32>
  %n = gopt.layer_norm %t, %g, %be axes = [1] eps = 1.0e-05 : tensor<16x64xf32>, tensor<64xf32>, tensor<64xf32>
  %m2 = gopt.matmul %r, %w : tensor<16x64xf32>, tensor<64x64xf32> -> tensor<16x64xf32>
  %n2 = gopt.layer_norm %m2, %g, %be axes = [1] eps = 1.0e-05 : tensor<16x64xf32>, tensor<64xf32>, tensor<64xf32>
  %m3 = gopt.matmul %n2, %w : tensor<16x64xf32>, tensor<64x64xf32> -> tensor<16x64xf32>
  %t3 = gopt.add %m3, %b : tensor<16x64xf32>, tensor<64xf32> -> tensor<16x64xf32>
  %g3 = gopt.sqrt %g : tensor<64xf32>
  %n3 = gopt.layer_norm %t3, %g3, %be axes = [1] eps = 1.0e-05 : tensor<16x64xf32>, tensor<64xf32>, tensor<64xf32>
  return %n, %t, %n2, %n3 : tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>
}
