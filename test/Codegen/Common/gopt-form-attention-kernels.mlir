// RUN: gopt-opt %s --pass-pipeline='builtin.module(func.func(gopt-form-attention-kernels))' -split-input-file | FileCheck %s

// The attention chain of a kernel becomes one gopt.attention_kernel; the
// transposes its products read (the head split) become its permutations,
// composed when there are two.

// CHECK-LABEL: func.func @heads
// CHECK-SAME: (%[[Q:.*]]: tensor<1x128x4x32xf32>, %[[K:.*]]: tensor<1x128x4x32xf32>, %[[V:.*]]: tensor<1x128x4x32xf32>, %[[M:.*]]: tensor<1x1x1x128xf32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x4x128x32xf32>
// CHECK: %[[O:.*]] = gopt.attention_kernel ins(%[[Q]], %[[K]], %[[V]] mask %[[M]] : {{.*}}) outs(%[[E]] : tensor<1x4x128x32xf32>) {key_perm = array<i64: 0, 2, 3, 1>, query_perm = array<i64: 0, 2, 1, 3>, scale = 1.250000e-01 : f32, value_perm = array<i64: 0, 2, 1, 3>}
// CHECK-NOT: gopt.
// CHECK: return %[[O]]
func.func @heads(%q4: tensor<1x128x4x32xf32>, %k4: tensor<1x128x4x32xf32>,
                 %v4: tensor<1x128x4x32xf32>, %mask: tensor<1x1x1x128xf32>)
    -> tensor<1x4x128x32xf32> {
  %c = gopt.constant dense<0.125> : tensor<1xf32>
  %qh = gopt.transpose %q4 perm = [0, 2, 1, 3] : tensor<1x128x4x32xf32> -> tensor<1x4x128x32xf32>
  %kt = gopt.transpose %k4 perm = [0, 2, 3, 1] : tensor<1x128x4x32xf32> -> tensor<1x4x32x128xf32>
  %vh = gopt.transpose %v4 perm = [0, 2, 1, 3] : tensor<1x128x4x32xf32> -> tensor<1x4x128x32xf32>
  %s = gopt.matmul %qh, %kt : tensor<1x4x128x32xf32>, tensor<1x4x32x128xf32> -> tensor<1x4x128x128xf32>
  %t = gopt.mul %c, %s : tensor<1xf32>, tensor<1x4x128x128xf32> -> tensor<1x4x128x128xf32>
  %u = gopt.add %mask, %t : tensor<1x1x1x128xf32>, tensor<1x4x128x128xf32> -> tensor<1x4x128x128xf32>
  %p = gopt.softmax %u axis = -1 : tensor<1x4x128x128xf32>
  %o = gopt.matmul %p, %vh : tensor<1x4x128x128xf32>, tensor<1x4x128x32xf32> -> tensor<1x4x128x32xf32>
  return %o : tensor<1x4x128x32xf32>
}

// -----

// Kᵀ as the transpose of a transpose ([B, H, Sk, D] from [B, Sk, H, D],
// then its last two dims swapped): one permutation, [0, 2, 3, 1]; a
// division scales by its reciprocal.

// CHECK-LABEL: func.func @two_transposes
// CHECK: gopt.attention_kernel ins(%{{.*}}, %[[K:.*]], %{{.*}} : {{.*}}) outs({{.*}}) {key_perm = array<i64: 0, 2, 3, 1>, query_perm = array<i64: 0, 1, 2, 3>, scale = 2.500000e-01 : f32, value_perm = array<i64: 0, 1, 2, 3>}
func.func @two_transposes(%q: tensor<2x4x16x8xf32>, %k4: tensor<2x16x4x8xf32>, %v: tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32> {
  %c = gopt.constant dense<4.0> : tensor<1xf32>
  %kh = gopt.transpose %k4 perm = [0, 2, 1, 3] : tensor<2x16x4x8xf32> -> tensor<2x4x16x8xf32>
  %kt = gopt.transpose %kh perm = [0, 1, 3, 2] : tensor<2x4x16x8xf32> -> tensor<2x4x8x16xf32>
  %s = gopt.matmul %q, %kt : tensor<2x4x16x8xf32>, tensor<2x4x8x16xf32> -> tensor<2x4x16x16xf32>
  %t = gopt.div %s, %c : tensor<2x4x16x16xf32>, tensor<1xf32> -> tensor<2x4x16x16xf32>
  %p = gopt.softmax %t axis = 3 : tensor<2x4x16x16xf32>
  %o = gopt.matmul %p, %v : tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32> -> tensor<2x4x16x8xf32>
  return %o : tensor<2x4x16x8xf32>
}

// -----

// A transpose something else reads too stays, and the kernel reads its
// result.

// CHECK-LABEL: func.func @shared_transpose
// CHECK: %[[KT:.*]] = gopt.transpose
// CHECK: gopt.attention_kernel ins(%{{.*}}, %[[KT]], %{{.*}} : {{.*}}) outs({{.*}}) {key_perm = array<i64: 0, 1, 2>
// CHECK: return
func.func @shared_transpose(%q: tensor<4x16x8xf32>, %k: tensor<4x16x8xf32>, %v: tensor<4x16x8xf32>) -> (tensor<4x16x8xf32>, tensor<4x8x16xf32>) {
  %kt = gopt.transpose %k perm = [0, 2, 1] : tensor<4x16x8xf32> -> tensor<4x8x16xf32>
  %s = gopt.matmul %q, %kt : tensor<4x16x8xf32>, tensor<4x8x16xf32> -> tensor<4x16x16xf32>
  %p = gopt.softmax %s axis = 2 : tensor<4x16x16xf32>
  %o = gopt.matmul %p, %v : tensor<4x16x16xf32>, tensor<4x16x8xf32> -> tensor<4x16x8xf32>
  return %o, %kt : tensor<4x16x8xf32>, tensor<4x8x16xf32>
}

// -----

// Q scaled under its head transpose: the kernel reads Q as it was before
// the scaling, through the transpose, and scales the scores by 1/8.

// CHECK-LABEL: func.func @query_scaled
// CHECK-SAME: (%[[Q:.*]]: tensor<16x4x8xf32>,
// CHECK: gopt.attention_kernel ins(%[[Q]], %{{.*}}, %{{.*}} : {{.*}}) outs({{.*}}) {key_perm = array<i64: 0, 1, 2>, query_perm = array<i64: 1, 0, 2>, scale = 1.250000e-01 : f32, value_perm = array<i64: 1, 0, 2>}
// CHECK-NOT: gopt.div
// CHECK-NOT: gopt.transpose
func.func @query_scaled(%q: tensor<16x4x8xf32>, %k: tensor<4x8x16xf32>, %v: tensor<16x4x8xf32>) -> tensor<4x16x8xf32> {
  %c = gopt.constant dense<8.0> : tensor<f32>
  %qs = gopt.div %q, %c : tensor<16x4x8xf32>, tensor<f32> -> tensor<16x4x8xf32>
  %qh = gopt.transpose %qs perm = [1, 0, 2] : tensor<16x4x8xf32> -> tensor<4x16x8xf32>
  %s = gopt.matmul %qh, %k : tensor<4x16x8xf32>, tensor<4x8x16xf32> -> tensor<4x16x16xf32>
  %p = gopt.softmax %s axis = 2 : tensor<4x16x16xf32>
  %vh = gopt.transpose %v perm = [1, 0, 2] : tensor<16x4x8xf32> -> tensor<4x16x8xf32>
  %o = gopt.matmul %p, %vh : tensor<4x16x16xf32>, tensor<4x16x8xf32> -> tensor<4x16x8xf32>
  return %o : tensor<4x16x8xf32>
}
