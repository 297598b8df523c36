// RUN: gopt-opt %s -split-input-file -verify-each --gopt-outline-kernels | FileCheck %s
// RUN: gopt-opt %s -split-input-file -verify-each --gopt-outline-kernels=timers=true | FileCheck %s --check-prefix=TIMERS

// A fusion and two unfused ops become three kernels, numbered in program
// order and placed after their parent in that order. The splat constant is
// cloned into the kernel that reads it; the dense one is passed in, to an
// argument marked gopt.weight (a constant: code generation may keep what it
// derives from it); the activation's argument is not marked.
// CHECK-LABEL: func.func @graph
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK: %[[DENSE:.*]] = gopt.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]>
// CHECK: %[[K0:.*]] = call @graph_k0_add_relu(%[[X]], %[[DENSE]]) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK: %[[K1:.*]] = call @graph_k1_mul(%[[K0]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: %[[K2:.*]]:2 = call @graph_k2_split(%[[K1]]) : (tensor<4xf32>) -> (tensor<2xf32>, tensor<2xf32>)
// CHECK: return %[[K2]]#0, %[[K2]]#1
// CHECK-NOT: gopt.fusion
// CHECK: func.func private @graph_k0_add_relu(%[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xf32> {gopt.weight}) -> tensor<4xf32> attributes {gopt.kernel = 0 : i64}
// CHECK-NEXT: %[[S:.*]] = gopt.add %[[A]], %[[B]]
// CHECK-NEXT: %[[R:.*]] = gopt.relu %[[S]]
// CHECK-NEXT: return %[[R]]
// CHECK: func.func private @graph_k1_mul(%[[M:[^:]*]]: tensor<4xf32>) -> tensor<4xf32> attributes {gopt.kernel = 1 : i64}
// CHECK-NEXT: %[[TWO:.*]] = gopt.constant dense<2.000000e+00> : tensor<4xf32>
// CHECK-NEXT: %[[P:.*]] = gopt.mul %[[M]], %[[TWO]]
// CHECK-NEXT: return %[[P]]
// CHECK: func.func private @graph_k2_split(%{{.*}}: tensor<4xf32>) -> (tensor<2xf32>, tensor<2xf32>) attributes {gopt.kernel = 2 : i64}
// CHECK-NEXT: %[[SP:.*]]:2 = gopt.split
// CHECK-NEXT: return %[[SP]]#0, %[[SP]]#1

// Timers bracket each call with the kernel's id; the hooks are declared once.
// TIMERS-LABEL: func.func @graph
// TIMERS: %[[ID0:.*]] = arith.constant 0 : i64
// TIMERS-NEXT: call @gopt_kernel_begin(%[[ID0]]) : (i64) -> ()
// TIMERS-NEXT: call @graph_k0_add_relu
// TIMERS-NEXT: call @gopt_kernel_end(%[[ID0]]) : (i64) -> ()
// TIMERS: %[[ID2:.*]] = arith.constant 2 : i64
// TIMERS-NEXT: call @gopt_kernel_begin(%[[ID2]])
// TIMERS-NEXT: call @graph_k2_split
// TIMERS-NEXT: call @gopt_kernel_end(%[[ID2]])
// TIMERS: func.func private @gopt_kernel_begin(i64)
// TIMERS: func.func private @gopt_kernel_end(i64)
// TIMERS-NOT: @gopt_kernel_begin(i64)
// TIMERS: // -----
func.func @graph(%x: tensor<4xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %dense = gopt.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %two = gopt.constant dense<2.0> : tensor<4xf32>
  %f = gopt.fusion(%x, %dense : tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    %s = gopt.add %a, %b : tensor<4xf32>
    %r = gopt.relu %s : tensor<4xf32>
    gopt.yield %r : tensor<4xf32>
  }
  %m = gopt.mul %f, %two : tensor<4xf32>
  %p:2 = gopt.split %m axis = 0 sizes = [2, 2] : tensor<4xf32> -> tensor<2xf32>, tensor<2xf32>
  return %p#0, %p#1 : tensor<2xf32>, tensor<2xf32>
}

// -----

// Ids run across functions; a splat constant read inside a fusion is cloned
// into the kernel; ops of other dialects and constants stay in place.
// CHECK-LABEL: func.func @first
// CHECK: call @first_k0_exp
// CHECK-LABEL: func.func private @first_k0_exp
// CHECK-SAME: attributes {gopt.kernel = 0 : i64}
// CHECK-LABEL: func.func @second
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: call @second_k1_add_neg(%[[E]])
// CHECK-LABEL: func.func private @second_k1_add_neg
// CHECK-SAME: (%[[A:.*]]: tensor<4xf32>) -> tensor<4xf32> attributes {gopt.kernel = 1 : i64}
// CHECK-NEXT: %[[ONE:.*]] = gopt.constant dense<1.000000e+00>
// CHECK-NEXT: gopt.add %[[A]], %[[ONE]]
func.func @first(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = gopt.exp %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @second() -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %one = gopt.constant dense<1.0> : tensor<4xf32>
  %f = gopt.fusion(%e, %one : tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    %s = gopt.add %a, %b : tensor<4xf32>
    %n = gopt.neg %s : tensor<4xf32>
    gopt.yield %n : tensor<4xf32>
  }
  return %f : tensor<4xf32>
}

// -----

// Running twice changes nothing: kernel functions are not outlined again.
// CHECK-LABEL: func.func @already
// CHECK: call @already_k3_exp
// CHECK-LABEL: func.func private @already_k3_exp
// CHECK-NEXT: gopt.exp
// CHECK-NOT: func.func private @already_k3_exp_k
func.func @already(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @already_k3_exp(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @already_k3_exp(%x: tensor<4xf32>) -> tensor<4xf32> attributes {gopt.kernel = 3 : i64} {
  %0 = gopt.exp %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A weight the function was handed (an argument marked gopt.weight, as the
// runner passes large constants) stays marked in the kernel that reads it.
// CHECK-LABEL: func.func @handed(
// CHECK: func.func private @handed_k0_mul(%{{[^:]*}}: tensor<4xf32>, %{{[^:]*}}: tensor<4xf32> {gopt.weight}) -> tensor<4xf32>
func.func @handed(%x: tensor<4xf32>, %w: tensor<4xf32> {gopt.weight}) -> tensor<4xf32> {
  %y = gopt.mul %x, %w : tensor<4xf32>
  return %y : tensor<4xf32>
}
