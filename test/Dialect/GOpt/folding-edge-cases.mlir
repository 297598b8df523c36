// Edge cases of constant evaluation found in review: empty tensors, integers
// above 2^53, narrow-integer division overflow, signed zeros in sums and
// integer-to-float rounding.
// RUN: gopt-opt %s -split-input-file --gopt-fold | FileCheck %s

// Empty tensors are left alone (and do not crash the evaluator).
// CHECK-LABEL: func @empty_mean
// CHECK: gopt.reduce mean
func.func @empty_mean() -> tensor<2xi32> {
  %c = gopt.constant dense<> : tensor<2x0xi32>
  %0 = gopt.reduce mean %c axes = [1] : tensor<2x0xi32> -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

// A concat's empty inputs add nothing: it folds to the others.
// CHECK-LABEL: func @empty_concat_input
// CHECK-NOT: gopt.concat
// CHECK: gopt.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-NOT: gopt.concat
// CHECK: return
func.func @empty_concat_input() -> tensor<2xf32> {
  %a = gopt.constant dense<> : tensor<0xf32>
  %b = gopt.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %0 = gopt.concat %a, %b axis = 0 : tensor<0xf32>, tensor<2xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// i64 values above 2^53 keep every bit.
// CHECK-LABEL: func @big_i64
// CHECK-DAG: gopt.constant dense<9007199254740993> : tensor<3xi64>
// CHECK-DAG: gopt.constant dense<9223372036854775807> : tensor<1x2xi64>
// CHECK-DAG: gopt.constant dense<9007199254740993> : tensor<i64>
// CHECK-DAG: gopt.constant dense<false> : tensor<1xi1>
// CHECK-DAG: gopt.constant dense<[9007199254740993, 0]> : tensor<2xi64>
func.func @big_i64() -> (tensor<3xi64>, tensor<1x2xi64>, tensor<i64>, tensor<1xi1>, tensor<2xi64>) {
  %a = gopt.constant dense<9007199254740993> : tensor<1xi64>
  %b = gopt.broadcast_to %a : tensor<1xi64> -> tensor<3xi64>
  %m = gopt.constant dense<9223372036854775807> : tensor<2x1xi64>
  %t = gopt.transpose %m perm = [1, 0] : tensor<2x1xi64> -> tensor<1x2xi64>
  %s = gopt.reduce sum %a axes = [0] : tensor<1xi64> -> tensor<i64>
  %c = gopt.constant dense<9007199254740992> : tensor<1xi64>
  %e = gopt.compare eq, %a, %c : tensor<1xi64>, tensor<1xi64>
  %v = gopt.constant dense<[9007199254740993, 0]> : tensor<2xi64>
  %k = gopt.clip %v min = 0.0 max = 1.0e18 : tensor<2xi64>
  return %b, %t, %s, %e, %k : tensor<3xi64>, tensor<1x2xi64>, tensor<i64>, tensor<1xi1>, tensor<2xi64>
}

// -----

// An integer converts to float with one rounding: 2^60 + 2^37 + 1 is nearest
// to 2^60 + 2^37 in f32, not 2^60 (which double rounding through f64 gives).
// CHECK-LABEL: func @int_to_float_rounds_once
// CHECK: gopt.constant dense<1.15292164E+18> : tensor<1xf32>
func.func @int_to_float_rounds_once() -> tensor<1xf32> {
  %a = gopt.constant dense<[1152921642045800449]> : tensor<1xi64>
  %0 = gopt.cast %a : tensor<1xi64> to tensor<1xf32>
  return %0 : tensor<1xf32>
}

// -----

// The most negative value divided by -1 overflows at every width: unfolded.
// CHECK-LABEL: func @div_overflow
// CHECK: gopt.div
// CHECK: gopt.div
func.func @div_overflow() -> (tensor<1xi32>, tensor<1xi8>) {
  %a = gopt.constant dense<[-2147483648]> : tensor<1xi32>
  %m = gopt.constant dense<[-1]> : tensor<1xi32>
  %0 = gopt.div %a, %m : tensor<1xi32>
  %b = gopt.constant dense<[-128]> : tensor<1xi8>
  %n = gopt.constant dense<[-1]> : tensor<1xi8>
  %1 = gopt.div %b, %n : tensor<1xi8>
  return %0, %1 : tensor<1xi32>, tensor<1xi8>
}

// -----

// A sum of negative zeros is a negative zero, stored dense or splat.
// CHECK-LABEL: func @sum_of_negative_zeros
// CHECK: gopt.constant dense<[-0.000000e+00, 3.000000e+00]> : tensor<2xf32>
func.func @sum_of_negative_zeros() -> tensor<2xf32> {
  %a = gopt.constant dense<[[-0.0, -0.0], [1.0, 2.0]]> : tensor<2x2xf32>
  %0 = gopt.reduce sum %a axes = [1] : tensor<2x2xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
