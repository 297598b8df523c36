// RUN: gopt-opt %s -split-input-file --gopt-fuse | FileCheck %s
// Fusing again changes nothing.
// RUN: gopt-opt %s -split-input-file --gopt-fuse --gopt-fuse | FileCheck %s
// RUN: gopt-opt %s -split-input-file --gopt-fuse=absorb-slice-views=false | FileCheck %s --check-prefix=OFF

// An LSTM step's gates, four slices of one GEMM's result: each slice joins
// the elementwise op that reads it, and the gates' math is one kernel
// reading the GEMM's result (the slices views of it) instead of four copy
// kernels and four elementwise groups.
// CHECK-LABEL: func.func @gates
// CHECK-SAME: (%[[X:[^:]*]]: tensor<1x32xf32>, %[[W:[^:]*]]: tensor<32x32xf32>, %[[C:[^:]*]]: tensor<1x8xf32>)
// CHECK: %[[G:.*]] = gopt.linear %[[X]], %[[W]]
// CHECK-NEXT: %[[F:.*]]:2 = gopt.fusion(%[[G]], %[[C]] : tensor<1x32xf32>, tensor<1x8xf32>)
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<1x32xf32>, %{{.*}}: tensor<1x8xf32>):
// CHECK-NEXT: gopt.slice %[[A]] starts = [0, 0] ends = [1, 8]
// CHECK-NEXT: gopt.sigmoid
// CHECK-NEXT: gopt.slice %[[A]] starts = [0, 8] ends = [1, 16]
// CHECK-NEXT: gopt.sigmoid
// CHECK-NEXT: gopt.slice %[[A]] starts = [0, 16] ends = [1, 24]
// CHECK-NEXT: gopt.sigmoid
// CHECK-NEXT: gopt.slice %[[A]] starts = [0, 24] ends = [1, 32]
// CHECK-NEXT: gopt.tanh
// CHECK: gopt.yield
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]#1, %[[F]]#0
// OFF-LABEL: func.func @gates
// OFF-COUNT-4: gopt.slice %{{.*}} starts
// OFF-NOT: gopt.slice
// OFF: return
func.func @gates(%x: tensor<1x32xf32>, %w: tensor<32x32xf32>, %c: tensor<1x8xf32>) -> (tensor<1x8xf32>, tensor<1x8xf32>) {
  %g = gopt.linear %x, %w : tensor<1x32xf32>, tensor<32x32xf32> -> tensor<1x32xf32>
  %si = gopt.slice %g starts = [0, 0] ends = [1, 8] steps = [1, 1] : tensor<1x32xf32> -> tensor<1x8xf32>
  %i = gopt.sigmoid %si : tensor<1x8xf32>
  %so = gopt.slice %g starts = [0, 8] ends = [1, 16] steps = [1, 1] : tensor<1x32xf32> -> tensor<1x8xf32>
  %o = gopt.sigmoid %so : tensor<1x8xf32>
  %sf = gopt.slice %g starts = [0, 16] ends = [1, 24] steps = [1, 1] : tensor<1x32xf32> -> tensor<1x8xf32>
  %f = gopt.sigmoid %sf : tensor<1x8xf32>
  %sc = gopt.slice %g starts = [0, 24] ends = [1, 32] steps = [1, 1] : tensor<1x32xf32> -> tensor<1x8xf32>
  %cc = gopt.tanh %sc : tensor<1x8xf32>
  %fc = gopt.mul %f, %c : tensor<1x8xf32>
  %ic = gopt.mul %i, %cc : tensor<1x8xf32>
  %c2 = gopt.add %fc, %ic : tensor<1x8xf32>
  %tc = gopt.tanh %c2 : tensor<1x8xf32>
  %h = gopt.mul %o, %tc : tensor<1x8xf32>
  return %h, %c2 : tensor<1x8xf32>, tensor<1x8xf32>
}

// -----

// A step's part of a projection computed once for every step, a slice and
// a reshape, joins the GEMM's epilogue that adds it.
// CHECK-LABEL: func.func @epilogue
// CHECK-SAME: (%[[P:[^:]*]]: tensor<4x1x32xf32>, %[[H:[^:]*]]: tensor<1x8xf32>, %[[W:[^:]*]]: tensor<8x32xf32>)
// CHECK: gopt.fusion(%[[P]], %[[H]], %[[W]] :
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<4x1x32xf32>, %{{.*}}: tensor<1x8xf32>, %{{.*}}: tensor<8x32xf32>):
// CHECK-NEXT: gopt.slice %[[A]] starts = [2, 0, 0] ends = [3, 1, 32]
// CHECK-NEXT: gopt.reshape
// CHECK-NEXT: gopt.linear
// CHECK-NEXT: gopt.add
// CHECK-NOT: gopt.slice
// CHECK: return
// OFF-LABEL: func.func @epilogue
// OFF: gopt.slice
// OFF-NEXT: gopt.reshape
// OFF-NEXT: gopt.fusion
func.func @epilogue(%p: tensor<4x1x32xf32>, %h: tensor<1x8xf32>, %w: tensor<8x32xf32>) -> tensor<1x32xf32> {
  %s = gopt.slice %p starts = [2, 0, 0] ends = [3, 1, 32] steps = [1, 1, 1] : tensor<4x1x32xf32> -> tensor<1x1x32xf32>
  %x = gopt.reshape %s : tensor<1x1x32xf32> -> tensor<1x32xf32>
  %g = gopt.linear %h, %w : tensor<1x8xf32>, tensor<8x32xf32> -> tensor<1x32xf32>
  %y = gopt.add %g, %x : tensor<1x32xf32>
  return %y : tensor<1x32xf32>
}

// -----

// Left out: a strided slice (a copy, not a view a GEMM library reads), a
// slice something else reads too, a chain of reshapes alone (a view
// already), and a slice of a value the reader's group computes (not a view
// of the kernel's input): the mul cannot join that group without it (the
// slice is computed after the group starts), so the slice joins the mul in a
// kernel of their own, a view of the group's result.
// CHECK-LABEL: func.func @kept
// CHECK: %[[STRIDED:.*]] = gopt.slice %{{.*}} steps = [1, 2]
// CHECK: %[[SHARED:.*]] = gopt.slice %{{.*}} starts = [0, 0] ends = [4, 4] steps = [1, 1]
// CHECK: %[[R:.*]] = gopt.reshape
// CHECK: gopt.fusion(%[[STRIDED]], %[[SHARED]] :
// CHECK: gopt.exp %[[R]]
// CHECK: %[[E:.*]]:2 = gopt.fusion(
// CHECK: gopt.fusion(%[[E]]#0, %[[E]]#1 :
// CHECK-NEXT: ^bb0(%[[E0:.*]]: tensor<4x4xf32>, %[[E1:.*]]: tensor<4x4xf32>):
// CHECK-NEXT: %[[INNER:.*]] = gopt.slice %[[E0]]
// CHECK-NEXT: gopt.mul %[[E1]], %[[INNER]]
func.func @kept(%x: tensor<4x8xf32>, %y: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<16xf32>, tensor<4x4xf32>) {
  %a = gopt.slice %x starts = [0, 0] ends = [4, 8] steps = [1, 2] : tensor<4x8xf32> -> tensor<4x4xf32>
  %b = gopt.slice %x starts = [0, 0] ends = [4, 4] steps = [1, 1] : tensor<4x8xf32> -> tensor<4x4xf32>
  %r = gopt.reshape %y : tensor<4x4xf32> -> tensor<16xf32>
  %ea = gopt.exp %a : tensor<4x4xf32>
  %eb = gopt.exp %b : tensor<4x4xf32>
  %s = gopt.add %ea, %eb : tensor<4x4xf32>
  %er = gopt.exp %r : tensor<16xf32>
  %e1 = gopt.exp %y : tensor<4x4xf32>
  %e2 = gopt.neg %e1 : tensor<4x4xf32>
  %inner = gopt.slice %e1 starts = [0, 0] ends = [1, 4] steps = [1, 1] : tensor<4x4xf32> -> tensor<1x4xf32>
  %m = gopt.mul %e2, %inner : tensor<4x4xf32>, tensor<1x4xf32> -> tensor<4x4xf32>
  return %s, %b, %er, %m : tensor<4x4xf32>, tensor<4x4xf32>, tensor<16xf32>, tensor<4x4xf32>
}

// -----

// An attention chain's scaling of Q takes no view in: the attention kernel
// takes the scaling as its first product's alpha, a group of its own.
// CHECK-LABEL: func.func @attention_query
// CHECK: %[[Q:.*]] = gopt.slice
// CHECK: gopt.fusion(%[[Q]],
// CHECK-NEXT: ^bb0(
// CHECK-NEXT: gopt.div
// CHECK-NEXT: gopt.matmul
func.func @attention_query(%qk: tensor<2x16x16xf32>, %kt: tensor<2x8x16xf32>, %v: tensor<2x16x8xf32>) -> tensor<2x16x8xf32> {
  %c = gopt.constant dense<4.0> : tensor<f32>
  %q = gopt.slice %qk starts = [0, 0, 0] ends = [2, 16, 8] steps = [1, 1, 1] : tensor<2x16x16xf32> -> tensor<2x16x8xf32>
  %qs = gopt.div %q, %c : tensor<2x16x8xf32>, tensor<f32> -> tensor<2x16x8xf32>
  %s = gopt.matmul %qs, %kt : tensor<2x16x8xf32>, tensor<2x8x16xf32> -> tensor<2x16x16xf32>
  %p = gopt.softmax %s axis = -1 : tensor<2x16x16xf32>
  %o = gopt.matmul %p, %v : tensor<2x16x16xf32>, tensor<2x16x8xf32> -> tensor<2x16x8xf32>
  return %o : tensor<2x16x8xf32>
}
