// RUN: gopt-opt %s -split-input-file --gopt-fuse-slice-inputs | FileCheck %s

// Q, K and V sliced out of one projection (an exported attention layer):
// the chains a fusion reads move into it, onto one input for their shared
// source; the op that is a kernel of its own (the scaling of Q) becomes
// one fusion with its chain. No slice is left outside a fusion.
// CHECK-LABEL: func.func @qkv
// CHECK-SAME: (%[[QKV:[a-z0-9]+]]: tensor<16x1x192xf32>
// CHECK: %[[Q:.*]] = gopt.fusion(%[[QKV]], %{{.*}} : tensor<16x1x192xf32>, tensor<f32>) -> tensor<16x4x16xf32> {
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<16x1x192xf32>, %[[S:.*]]: tensor<f32>):
// CHECK-NEXT: %[[QS:.*]] = gopt.slice %[[A]] starts = [0, 0, 0] ends = [16, 1, 64]
// CHECK-NEXT: %[[QR:.*]] = gopt.reshape %[[QS]]
// CHECK-NEXT: %[[QD:.*]] = gopt.div %[[QR]], %[[S]]
// CHECK-NEXT: gopt.yield %[[QD]]
// CHECK: gopt.fusion(%[[Q]], %[[QKV]] : tensor<16x4x16xf32>, tensor<16x1x192xf32>)
// CHECK-NEXT: ^bb0(%[[Q2:.*]]: tensor<16x4x16xf32>, %[[B:.*]]: tensor<16x1x192xf32>):
// CHECK-NEXT: %[[KS:.*]] = gopt.slice %[[B]] starts = [0, 0, 64] ends = [16, 1, 128]
// CHECK-NEXT: %[[KR:.*]] = gopt.reshape %[[KS]]
// CHECK-NEXT: gopt.transpose %[[Q2]]
// CHECK-NEXT: gopt.transpose %[[KR]]
// CHECK-NOT: gopt.slice
// CHECK: return
func.func @qkv(%qkv: tensor<16x1x192xf32>, %scale: tensor<f32>) -> tensor<4x16x16xf32> {
  %q = gopt.slice %qkv starts = [0, 0, 0] ends = [16, 1, 64] steps = [1, 1, 1] : tensor<16x1x192xf32> -> tensor<16x1x64xf32>
  %k = gopt.slice %qkv starts = [0, 0, 64] ends = [16, 1, 128] steps = [1, 1, 1] : tensor<16x1x192xf32> -> tensor<16x1x64xf32>
  %q4 = gopt.reshape %q : tensor<16x1x64xf32> -> tensor<16x4x16xf32>
  %k4 = gopt.reshape %k : tensor<16x1x64xf32> -> tensor<16x4x16xf32>
  %qs = gopt.div %q4, %scale : tensor<16x4x16xf32>, tensor<f32> -> tensor<16x4x16xf32>
  %s = gopt.fusion(%qs, %k4 : tensor<16x4x16xf32>, tensor<16x4x16xf32>) -> tensor<4x16x16xf32> {
  ^bb0(%a: tensor<16x4x16xf32>, %b: tensor<16x4x16xf32>):
    %qt = gopt.transpose %a perm = [1, 0, 2] : tensor<16x4x16xf32> -> tensor<4x16x16xf32>
    %kt = gopt.transpose %b perm = [1, 2, 0] : tensor<16x4x16xf32> -> tensor<4x16x16xf32>
    %m = gopt.matmul %qt, %kt : tensor<4x16x16xf32>, tensor<4x16x16xf32> -> tensor<4x16x16xf32>
    gopt.yield %m : tensor<4x16x16xf32>
  }
  return %s : tensor<4x16x16xf32>
}

// -----

// Left where they are: a strided slice (step 2: a GEMM library needs the
// innermost stride 1), a slice that is also returned (a copy either way),
// and a chain of reshapes only (a view already).
// CHECK-LABEL: func.func @kept
// CHECK: %[[STRIDED:.*]] = gopt.slice %{{.*}} steps = [1, 2]
// CHECK: %[[SHARED:.*]] = gopt.slice %{{.*}} steps = [1, 1]
// CHECK: %[[R:.*]] = gopt.reshape
// CHECK: gopt.exp %[[STRIDED]]
// CHECK: gopt.exp %[[SHARED]]
// CHECK: gopt.exp %[[R]]
// CHECK: return {{.*}}%[[SHARED]]
func.func @kept(%x: tensor<4x8xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<32xf32>) {
  %a = gopt.slice %x starts = [0, 0] ends = [4, 8] steps = [1, 2] : tensor<4x8xf32> -> tensor<4x4xf32>
  %b = gopt.slice %x starts = [0, 0] ends = [4, 4] steps = [1, 1] : tensor<4x8xf32> -> tensor<4x4xf32>
  %r = gopt.reshape %x : tensor<4x8xf32> -> tensor<32xf32>
  %ea = gopt.exp %a : tensor<4x4xf32>
  %eb = gopt.exp %b : tensor<4x4xf32>
  %er = gopt.exp %r : tensor<32xf32>
  return %ea, %eb, %b, %er : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<32xf32>
}

// -----

// A view chain two kernels read (K read by the scores and transposed into a
// cache): each kernel takes a chain of its own in, no slice is left.
// CHECK-LABEL: func.func @shared
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>)
// CHECK: gopt.fusion(%[[X]] : tensor<4x8xf32>)
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<4x8xf32>):
// CHECK-NEXT: gopt.slice %[[A]]
// CHECK-NEXT: gopt.reshape
// CHECK-NEXT: gopt.{{exp|transpose}}
// CHECK: gopt.fusion(%[[X]] : tensor<4x8xf32>)
// CHECK-NEXT: ^bb0(%[[B:.*]]: tensor<4x8xf32>):
// CHECK-NEXT: gopt.slice %[[B]]
// CHECK-NEXT: gopt.reshape
// CHECK-NEXT: gopt.{{exp|transpose}}
// CHECK-NOT: gopt.slice
// CHECK: return
func.func @shared(%x: tensor<4x8xf32>) -> (tensor<2x8xf32>, tensor<8x2xf32>) {
  %s = gopt.slice %x starts = [0, 4] ends = [4, 8] steps = [1, 1] : tensor<4x8xf32> -> tensor<4x4xf32>
  %r = gopt.reshape %s : tensor<4x4xf32> -> tensor<2x8xf32>
  %e = gopt.exp %r : tensor<2x8xf32>
  %t = gopt.transpose %r perm = [1, 0] : tensor<2x8xf32> -> tensor<8x2xf32>
  return %e, %t : tensor<2x8xf32>, tensor<8x2xf32>
}

// -----

// An op that reads a slice and a value computed after the slice (V sliced
// with Q and K, read by P·V after the scores): the fusion goes where the op
// is, after both.
// CHECK-LABEL: func.func @later_operand
// CHECK: %[[E:.*]] = gopt.exp
// CHECK: gopt.fusion(%arg0, %[[E]] :
// CHECK-NEXT: ^bb0(
// CHECK-NEXT: gopt.slice
// CHECK-NEXT: gopt.matmul
func.func @later_operand(%qkv: tensor<8x24xf32>, %s: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %v = gopt.slice %qkv starts = [0, 16] ends = [8, 24] steps = [1, 1] : tensor<8x24xf32> -> tensor<8x8xf32>
  %p = gopt.exp %s : tensor<8x8xf32>
  %o = gopt.matmul %p, %v : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  return %o : tensor<8x8xf32>
}

// -----

// An op nobody reads (dead code: the GPU pipeline runs this pass on
// graphs gopt-dce has not seen) is not fused with its slice: a fusion must
// expose a value. Found by gopt-difftest --gpu-emulated (seed 1).
// CHECK-LABEL: func.func @dead_reader(
// CHECK-NOT: gopt.fusion
// CHECK: %[[S:.*]] = gopt.slice
// CHECK: gopt.exp %[[S]]
// CHECK: return
func.func @dead_reader(%x: tensor<4xf32>) -> tensor<4xf32> {
  %s = gopt.slice %x starts = [0] ends = [1] steps = [1] : tensor<4xf32> -> tensor<1xf32>
  %e = gopt.exp %s : tensor<1xf32>
  return %x : tensor<4xf32>
}
