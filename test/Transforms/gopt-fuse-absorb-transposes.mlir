// RUN: gopt-opt %s -split-input-file --gopt-fuse=attention=false | FileCheck %s
// RUN: gopt-opt %s -split-input-file --gopt-fuse="attention=false absorb-transposes=false" | FileCheck %s --check-prefix=OFF
// Fusing twice changes nothing.
// RUN: gopt-opt %s -split-input-file --gopt-fuse=attention=false --gopt-fuse=attention=false | FileCheck %s

// gopt-fuse puts a transpose that only a batched matmul reads into the
// matmul's kernel, where gopt-fold-permutations-into-contractions turns it
// into strides (test/Codegen/Common/gopt-fold-permutations-into-contractions.mlir).
// Without `attention`: the attention chains here are one kernel with it
// (test/Transforms/gopt-fuse-attention.mlir, @query_scaled).

// Attention scores Q·Kᵀ with both operands head-transposed: both
// transposes join, though K's is computed after Q's.
// CHECK-LABEL: func.func @scores
// CHECK-SAME: (%[[Q:.*]]: tensor<16x4x8xf32>, %[[K:.*]]: tensor<16x4x8xf32>)
// CHECK-NEXT: %[[S:.*]] = gopt.fusion(%[[Q]], %[[K]] : tensor<16x4x8xf32>, tensor<16x4x8xf32>) -> tensor<4x16x16xf32> {
// CHECK-NEXT: ^bb0(%[[A0:.*]]: tensor<16x4x8xf32>, %[[A1:.*]]: tensor<16x4x8xf32>):
// CHECK-NEXT: %[[QH:.*]] = gopt.transpose %[[A0]] perm = [1, 0, 2]
// CHECK-NEXT: %[[KT:.*]] = gopt.transpose %[[A1]] perm = [1, 2, 0]
// CHECK-NEXT: %[[MM:.*]] = gopt.matmul %[[QH]], %[[KT]]
// CHECK-NEXT: gopt.yield %[[MM]]
// CHECK-NEXT: }
// CHECK-NEXT: return %[[S]]
// OFF-LABEL: func.func @scores
// OFF-NOT: gopt.fusion
// OFF: return
func.func @scores(%q: tensor<16x4x8xf32>, %k: tensor<16x4x8xf32>) -> tensor<4x16x16xf32> {
  %qh = gopt.transpose %q perm = [1, 0, 2] : tensor<16x4x8xf32> -> tensor<4x16x8xf32>
  %kt = gopt.transpose %k perm = [1, 2, 0] : tensor<16x4x8xf32> -> tensor<4x8x16xf32>
  %s = gopt.matmul %qh, %kt : tensor<4x16x8xf32>, tensor<4x8x16xf32> -> tensor<4x16x16xf32>
  return %s : tensor<4x16x16xf32>
}

// -----

// The attention scale between Q's transpose and the matmul is applied
// before the transpose, which then joins the matmul; the transpose of V,
// computed before the softmax the matmul also reads, moves to the matmul.
// CHECK-LABEL: func.func @scaled_and_late
// CHECK-SAME: (%[[Q:.*]]: tensor<16x4x8xf32>, %[[K:.*]]: tensor<4x8x16xf32>, %[[V:.*]]: tensor<16x4x8xf32>)
// CHECK: %[[SCALED:.*]] = gopt.div %[[Q]], %{{.*}} : tensor<16x4x8xf32>, tensor<f32> -> tensor<16x4x8xf32>
// CHECK-NEXT: %[[S:.*]] = gopt.fusion(%[[SCALED]], %[[K]] :
// CHECK-NEXT: ^bb0
// CHECK-NEXT: gopt.transpose %{{.*}} perm = [1, 0, 2]
// CHECK-NEXT: gopt.matmul
// CHECK-NEXT: gopt.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[P:.*]] = gopt.softmax %[[S]]
// CHECK-NEXT: %[[O:.*]] = gopt.fusion(%[[V]], %[[P]] :
// CHECK-NEXT: ^bb0
// CHECK-NEXT: gopt.transpose %{{.*}} perm = [1, 0, 2]
// CHECK-NEXT: gopt.matmul
// CHECK-NEXT: gopt.yield
// CHECK-NEXT: }
// CHECK-NEXT: return %[[O]]
// OFF-LABEL: func.func @scaled_and_late
// OFF: gopt.transpose %{{.*}} perm = [1, 0, 2]
// OFF-NEXT: gopt.transpose %{{.*}} perm = [1, 0, 2]
// OFF-NEXT: gopt.div
// OFF-NOT: gopt.fusion
func.func @scaled_and_late(%q: tensor<16x4x8xf32>, %k: tensor<4x8x16xf32>, %v: tensor<16x4x8xf32>) -> tensor<4x16x8xf32> {
  %c = gopt.constant dense<8.0> : tensor<f32>
  %qh = gopt.transpose %q perm = [1, 0, 2] : tensor<16x4x8xf32> -> tensor<4x16x8xf32>
  %vh = gopt.transpose %v perm = [1, 0, 2] : tensor<16x4x8xf32> -> tensor<4x16x8xf32>
  %qs = gopt.div %qh, %c : tensor<4x16x8xf32>, tensor<f32> -> tensor<4x16x8xf32>
  %s = gopt.matmul %qs, %k : tensor<4x16x8xf32>, tensor<4x8x16xf32> -> tensor<4x16x16xf32>
  %p = gopt.softmax %s axis = 2 : tensor<4x16x16xf32>
  %o = gopt.matmul %p, %vh : tensor<4x16x16xf32>, tensor<4x16x8xf32> -> tensor<4x16x8xf32>
  return %o : tensor<4x16x8xf32>
}

// -----

// Left alone: a transpose that moves its input's innermost dim to a batch
// dim (no GEMM takes a matrix without a unit stride), one read elsewhere
// too, and the batched left operand of a product with one weight matrix
// for every batch (its rows are one GEMM as they are; strided, one GEMM per
// batch).
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: gopt.fusion
// CHECK: return
func.func @left_alone(%a: tensor<8x16x4xf32>, %b: tensor<4x8x16xf32>, %c: tensor<4x16x8xf32>, %x: tensor<16x4x8xf32>, %w: tensor<8x32xf32>) -> (tensor<4x16x16xf32>, tensor<4x8x16xf32>, tensor<4x16x16xf32>, tensor<4x16x32xf32>) {
  %at = gopt.transpose %a perm = [2, 1, 0] : tensor<8x16x4xf32> -> tensor<4x16x8xf32>
  %s = gopt.matmul %at, %b : tensor<4x16x8xf32>, tensor<4x8x16xf32> -> tensor<4x16x16xf32>
  %ct = gopt.transpose %c perm = [0, 2, 1] : tensor<4x16x8xf32> -> tensor<4x8x16xf32>
  %t = gopt.matmul %c, %ct : tensor<4x16x8xf32>, tensor<4x8x16xf32> -> tensor<4x16x16xf32>
  %xt = gopt.transpose %x perm = [1, 0, 2] : tensor<16x4x8xf32> -> tensor<4x16x8xf32>
  %y = gopt.matmul %xt, %w : tensor<4x16x8xf32>, tensor<8x32xf32> -> tensor<4x16x32xf32>
  return %s, %ct, %t, %y : tensor<4x16x16xf32>, tensor<4x8x16xf32>, tensor<4x16x16xf32>, tensor<4x16x32xf32>
}

// -----

// A 2-D left operand, transposed, is a transposed GEMM operand even with a
// shared right one.
// CHECK-LABEL: func.func @transposed_matrix
// CHECK: gopt.fusion
// CHECK-NEXT: ^bb0
// CHECK-NEXT: gopt.transpose %{{.*}} perm = [1, 0]
// CHECK-NEXT: gopt.matmul
func.func @transposed_matrix(%a: tensor<8x16xf32>, %w: tensor<8x32xf32>) -> tensor<16x32xf32> {
  %at = gopt.transpose %a perm = [1, 0] : tensor<8x16xf32> -> tensor<16x8xf32>
  %y = gopt.matmul %at, %w : tensor<16x8xf32>, tensor<8x32xf32> -> tensor<16x32xf32>
  return %y : tensor<16x32xf32>
}

// -----

// A cast between the transpose and the matmul moves before the transpose
// too, keeping its own element type on the transpose's input shape.
// CHECK-LABEL: func.func @cast_then_matmul
// CHECK-SAME: (%[[A:.*]]: tensor<4x16x8xf32>, %[[K:.*]]: tensor<16x4x8xf16>)
// CHECK-NEXT: %[[C:.*]] = gopt.cast %[[K]] : tensor<16x4x8xf16> to tensor<16x4x8xf32>
// CHECK-NEXT: gopt.fusion(%[[C]], %[[A]] :
// CHECK-NEXT: ^bb0
// CHECK-NEXT: gopt.transpose %{{.*}} perm = [1, 2, 0] : tensor<16x4x8xf32> -> tensor<4x8x16xf32>
// CHECK-NEXT: gopt.matmul
func.func @cast_then_matmul(%a: tensor<4x16x8xf32>, %k: tensor<16x4x8xf16>) -> tensor<4x16x16xf32> {
  %kt = gopt.transpose %k perm = [1, 2, 0] : tensor<16x4x8xf16> -> tensor<4x8x16xf16>
  %kc = gopt.cast %kt : tensor<4x8x16xf16> to tensor<4x8x16xf32>
  %s = gopt.matmul %a, %kc : tensor<4x16x8xf32>, tensor<4x8x16xf32> -> tensor<4x16x16xf32>
  return %s : tensor<4x16x16xf32>
}
