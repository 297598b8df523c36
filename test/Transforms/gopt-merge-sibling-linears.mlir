// RUN: gopt-opt %s -split-input-file --gopt-merge-sibling-linears | FileCheck %s

// Three linears of one input (Q, K and V projected apart): one linear whose
// weight and bias join theirs along N, and a slice of its result for each.
// CHECK-LABEL: func.func @qkv
// CHECK-SAME: (%[[X:.*]]: tensor<2x16x8xf32>)
// CHECK-DAG: %[[W:.*]] = gopt.constant dense<{{\[}}[1.000000e+00, 1.000000e+00, 2.000000e+00, 2.000000e+00, 2.000000e+00, 3.000000e+00]{{.*}}> : tensor<8x6xf32>
// CHECK-DAG: %[[B:.*]] = gopt.constant dense<[1.000000e-01, 1.000000e-01, 2.000000e-01, 2.000000e-01, 2.000000e-01, 3.000000e-01]> : tensor<6xf32>
// CHECK: %[[L:.*]] = gopt.linear %[[X]], %[[W]], %[[B]] : tensor<2x16x8xf32>, tensor<8x6xf32>, tensor<6xf32> -> tensor<2x16x6xf32>
// CHECK-NEXT: %[[Q:.*]] = gopt.slice %[[L]] starts = [0, 0, 0] ends = [2, 16, 2] steps = [1, 1, 1] : tensor<2x16x6xf32> -> tensor<2x16x2xf32>
// CHECK-NEXT: %[[K:.*]] = gopt.slice %[[L]] starts = [0, 0, 2] ends = [2, 16, 5] steps = [1, 1, 1] : tensor<2x16x6xf32> -> tensor<2x16x3xf32>
// CHECK-NEXT: %[[V:.*]] = gopt.slice %[[L]] starts = [0, 0, 5] ends = [2, 16, 6] steps = [1, 1, 1] : tensor<2x16x6xf32> -> tensor<2x16x1xf32>
// CHECK-NOT: gopt.linear
// CHECK: return %[[Q]], %[[K]], %[[V]]
func.func @qkv(%x: tensor<2x16x8xf32>) -> (tensor<2x16x2xf32>, tensor<2x16x3xf32>, tensor<2x16x1xf32>) {
  %wq = gopt.constant dense<1.0> : tensor<8x2xf32>
  %wk = gopt.constant dense<2.0> : tensor<8x3xf32>
  %wv = gopt.constant dense<3.0> : tensor<8x1xf32>
  %bq = gopt.constant dense<0.1> : tensor<2xf32>
  %bk = gopt.constant dense<0.2> : tensor<3xf32>
  %bv = gopt.constant dense<0.3> : tensor<1xf32>
  %q = gopt.linear %x, %wq, %bq : tensor<2x16x8xf32>, tensor<8x2xf32>, tensor<2xf32> -> tensor<2x16x2xf32>
  %k = gopt.linear %x, %wk, %bk : tensor<2x16x8xf32>, tensor<8x3xf32>, tensor<3xf32> -> tensor<2x16x3xf32>
  %v = gopt.linear %x, %wv, %bv : tensor<2x16x8xf32>, tensor<8x1xf32>, tensor<1xf32> -> tensor<2x16x1xf32>
  return %q, %k, %v : tensor<2x16x2xf32>, tensor<2x16x3xf32>, tensor<2x16x1xf32>
}

// -----

// torch.nn.Linear's layout ([N, K], transpose_weight): joined along the
// weight's first dim; without biases.
// CHECK-LABEL: func.func @transposed_weights
// CHECK: %[[W:.*]] = gopt.constant dense<{{\[}}[1.000000e+00, 1.000000e+00{{.*}}> : tensor<3x4xf32>
// CHECK: %[[L:.*]] = gopt.linear %arg0, %[[W]] transpose_weight : tensor<5x4xf32>, tensor<3x4xf32> -> tensor<5x3xf32>
// CHECK: gopt.slice %[[L]] starts = [0, 0] ends = [5, 1]
// CHECK: gopt.slice %[[L]] starts = [0, 1] ends = [5, 3]
func.func @transposed_weights(%x: tensor<5x4xf32>) -> (tensor<5x1xf32>, tensor<5x2xf32>) {
  %w1 = gopt.constant dense<1.0> : tensor<1x4xf32>
  %w2 = gopt.constant dense<2.0> : tensor<2x4xf32>
  %a = gopt.linear %x, %w1 transpose_weight : tensor<5x4xf32>, tensor<1x4xf32> -> tensor<5x1xf32>
  %b = gopt.linear %x, %w2 transpose_weight : tensor<5x4xf32>, tensor<2x4xf32> -> tensor<5x2xf32>
  return %a, %b : tensor<5x1xf32>, tensor<5x2xf32>
}

// -----

// Kept apart: other inputs, a weight that is not a constant, a bias on one
// of two, weights of two layouts, a linear inside a fusion.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-7: gopt.linear
// CHECK-NOT: gopt.slice
func.func @kept(%x: tensor<5x4xf32>, %y: tensor<5x4xf32>, %w: tensor<4x2xf32>) -> (tensor<5x2xf32>, tensor<5x2xf32>, tensor<5x2xf32>, tensor<5x2xf32>, tensor<5x2xf32>, tensor<5x2xf32>, tensor<5x2xf32>) {
  %c = gopt.constant dense<1.0> : tensor<4x2xf32>
  %ct = gopt.constant dense<1.0> : tensor<2x4xf32>
  %b = gopt.constant dense<0.5> : tensor<2xf32>
  %0 = gopt.linear %x, %c : tensor<5x4xf32>, tensor<4x2xf32> -> tensor<5x2xf32>
  %1 = gopt.linear %y, %c : tensor<5x4xf32>, tensor<4x2xf32> -> tensor<5x2xf32>
  %2 = gopt.linear %y, %w : tensor<5x4xf32>, tensor<4x2xf32> -> tensor<5x2xf32>
  %3 = gopt.linear %x, %c, %b : tensor<5x4xf32>, tensor<4x2xf32>, tensor<2xf32> -> tensor<5x2xf32>
  %4 = gopt.linear %x, %ct transpose_weight : tensor<5x4xf32>, tensor<2x4xf32> -> tensor<5x2xf32>
  %5 = gopt.fusion(%x, %c : tensor<5x4xf32>, tensor<4x2xf32>) -> tensor<5x2xf32> {
  ^bb0(%a: tensor<5x4xf32>, %m: tensor<4x2xf32>):
    %l = gopt.linear %a, %m : tensor<5x4xf32>, tensor<4x2xf32> -> tensor<5x2xf32>
    %r = gopt.relu %l : tensor<5x2xf32>
    gopt.yield %r : tensor<5x2xf32>
  }
  %6 = gopt.fusion(%x, %c : tensor<5x4xf32>, tensor<4x2xf32>) -> tensor<5x2xf32> {
  ^bb0(%a: tensor<5x4xf32>, %m: tensor<4x2xf32>):
    %l = gopt.linear %a, %m : tensor<5x4xf32>, tensor<4x2xf32> -> tensor<5x2xf32>
    gopt.yield %l : tensor<5x2xf32>
  }
  return %0, %1, %2, %3, %4, %5, %6 : tensor<5x2xf32>, tensor<5x2xf32>, tensor<5x2xf32>, tensor<5x2xf32>, tensor<5x2xf32>, tensor<5x2xf32>, tensor<5x2xf32>
}
