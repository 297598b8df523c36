// RUN: gopt-opt %s -split-input-file -verify-each --gopt-outline-kernels --gopt-deduplicate-kernels | FileCheck %s
// RUN: gopt-opt %s -split-input-file --gopt-outline-kernels=timers=true --gopt-deduplicate-kernels | FileCheck %s --check-prefix=TIMERS

// Two layers of the same shapes, their weights arguments: the second
// layer's kernels are the first's. Each call of a merged kernel calls the
// one kept, which lists the kernels it replaced with their ids.
// CHECK-LABEL: func.func @layers
// CHECK-SAME: (%[[X:[^:]*]]: tensor<4x8xf32>, %[[W0:[^:]*]]: tensor<8xf32>, %[[W1:[^:]*]]: tensor<8xf32>)
// CHECK: %[[A:.*]] = call @layers_k0_add_relu(%[[X]], %[[W0]])
// CHECK: %[[B:.*]] = call @layers_k1_exp(%[[A]])
// CHECK: %[[C:.*]] = call @layers_k0_add_relu(%[[B]], %[[W1]])
// CHECK: %[[D:.*]] = call @layers_k1_exp(%[[C]])
// CHECK: return %[[D]]
// CHECK: func.func private @layers_k0_add_relu({{.*}} attributes {gopt.kernel = 0 : i64, gopt.kernel_copies = {layers_k2_add_relu = 2 : i64}}
// CHECK: func.func private @layers_k1_exp({{.*}} attributes {gopt.kernel = 1 : i64, gopt.kernel_copies = {layers_k3_exp = 3 : i64}}
// CHECK-NOT: func.func private @layers_k2
// CHECK-NOT: func.func private @layers_k3

// Timers keep each call's own id.
// TIMERS-LABEL: func.func @layers
// TIMERS: %[[ID2:.*]] = arith.constant 2 : i64
// TIMERS-NEXT: call @gopt_kernel_begin(%[[ID2]])
// TIMERS-NEXT: call @layers_k0_add_relu
// TIMERS-NEXT: call @gopt_kernel_end(%[[ID2]])

func.func @layers(%x: tensor<4x8xf32>, %w0: tensor<8xf32>, %w1: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = gopt.fusion(%x, %w0 : tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: tensor<4x8xf32>, %b: tensor<8xf32>):
    %s = gopt.add %a, %b : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
    %r = gopt.relu %s : tensor<4x8xf32>
    gopt.yield %r : tensor<4x8xf32>
  }
  %1 = gopt.exp %0 : tensor<4x8xf32>
  %2 = gopt.fusion(%1, %w1 : tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: tensor<4x8xf32>, %b: tensor<8xf32>):
    %s = gopt.add %a, %b : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
    %r = gopt.relu %s : tensor<4x8xf32>
    gopt.yield %r : tensor<4x8xf32>
  }
  %3 = gopt.exp %2 : tensor<4x8xf32>
  return %3 : tensor<4x8xf32>
}

// -----

// Not the same function: other shapes, another splat constant the kernel
// holds, another op attribute, a weight (a constant argument, marked
// gopt.weight) where the other kernel reads an activation.
// CHECK-LABEL: func.func @different
// CHECK: call @different_k0_exp
// CHECK: call @different_k1_exp
// CHECK: call @different_k2_mul
// CHECK: call @different_k3_mul
// CHECK: call @different_k4_transpose
// CHECK: call @different_k5_transpose
// CHECK: call @different_k6_add
// CHECK: call @different_k7_add
// CHECK-NOT: gopt.kernel_copies
func.func @different(%x: tensor<4x8xf32>, %y: tensor<8x4xf32>, %z: tensor<4x4xf32>, %t: tensor<2x2x2xf32>) -> (tensor<4x8xf32>, tensor<8x4xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<2x2x2xf32>, tensor<2x2x2xf32>, tensor<4x4xf32>, tensor<4x4xf32>) {
  %0 = gopt.exp %x : tensor<4x8xf32>
  %1 = gopt.exp %y : tensor<8x4xf32>
  %two = gopt.constant dense<2.0> : tensor<4x8xf32>
  %three = gopt.constant dense<3.0> : tensor<4x8xf32>
  %2 = gopt.mul %x, %two : tensor<4x8xf32>
  %3 = gopt.mul %x, %three : tensor<4x8xf32>
  %4 = gopt.transpose %t perm = [1, 0, 2] : tensor<2x2x2xf32> -> tensor<2x2x2xf32>
  %5 = gopt.transpose %t perm = [0, 2, 1] : tensor<2x2x2xf32> -> tensor<2x2x2xf32>
  %c = gopt.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tensor<4x4xf32>
  %6 = gopt.add %z, %c : tensor<4x4xf32>
  %7 = gopt.add %z, %6 : tensor<4x4xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<4x8xf32>, tensor<8x4xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<2x2x2xf32>, tensor<2x2x2xf32>, tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// Kernels merged by an earlier run: the copies a merged kernel had move to
// the one kept. A public kernel (callable from outside) is left alone.
// CHECK-LABEL: func.func @again
// CHECK: call @k0(
// CHECK: call @k0(
// CHECK: call @k4(
// CHECK: func.func private @k0({{.*}} attributes {gopt.kernel = 0 : i64, gopt.kernel_copies = {k1 = 1 : i64, k2 = 2 : i64, k3 = 3 : i64}}
// CHECK-NOT: func.func private @k2
// CHECK: func.func @k4(
// CHECK-SAME: gopt.kernel = 4 : i64
func.func @again(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = call @k0(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = call @k2(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = call @k4(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
func.func private @k0(%a: tensor<4xf32>) -> tensor<4xf32> attributes {gopt.kernel = 0 : i64, gopt.kernel_copies = {k1 = 1 : i64}} {
  %r = gopt.exp %a : tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func private @k2(%a: tensor<4xf32>) -> tensor<4xf32> attributes {gopt.kernel = 2 : i64, gopt.kernel_copies = {k3 = 3 : i64}} {
  %r = gopt.exp %a : tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @k4(%a: tensor<4xf32>) -> tensor<4xf32> attributes {gopt.kernel = 4 : i64} {
  %r = gopt.exp %a : tensor<4xf32>
  return %r : tensor<4xf32>
}
