// RUN: gopt-opt %s -verify-each --gopt-lower-to-llvm \
// RUN: | %mlir_runner -e main -entry-point-result=void -shared-libs=%runner_libs 2>&1 \
// RUN: | FileCheck %s
// RUN: gopt-opt %s -verify-each --gopt-optimize --gopt-lower-to-llvm \
// RUN: | %mlir_runner -e main -entry-point-result=void -shared-libs=%runner_libs 2>&1 \
// RUN: | FileCheck %s
// RUN: gopt-opt %s -verify-each --gopt-optimize --gopt-lower-to-llvm="vectorize=false tile-sizes=2,4" \
// RUN: | %mlir_runner -e main -entry-point-result=void -shared-libs=%runner_libs 2>&1 \
// RUN: | FileCheck %s
// RUN: gopt-opt %s -verify-each --gopt-optimize --gopt-lower-to-llvm=contractions=codegen \
// RUN: | %mlir_runner -e main -entry-point-result=void -shared-libs=%runner_libs 2>&1 \
// RUN: | FileCheck %s

// examples/mlp.mlir at batch 2, unfused and fused (three kernels:
// {linear, add, relu}, {linear, add}, softmax), must print the same values.
//
// x = [[1, 2, 3, 4], [-1, -2, -3, -4]], W1 = 0.25, b1 = [0, 1, -20],
// h = relu(x·W1 + b1) = [[2.5, 3.5, 0], [0, 0, 0]] (row 2: −2.5, −1.5, −22.5),
// o = h·W2 + b2 with W2 = [[1, 0], [0, 1], [1, 1]], b2 = [0, 1]:
// [[2.5, 4.5], [0, 1]], softmax rows: [e^-2/(1+e^-2), 1/(1+e^-2)] =
// [0.119203, 0.880797], and [e^-1/(1+e^-1), ...] = [0.268941, 0.731059].

func.func @mlp(%x: tensor<2x4xf32>) -> tensor<2x2xf32> {
  %w1 = gopt.constant dense<0.25> : tensor<4x3xf32>
  %b1 = gopt.constant dense<[0.0, 1.0, -20.0]> : tensor<3xf32>
  %w2 = gopt.constant dense<[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]> : tensor<3x2xf32>
  %b2 = gopt.constant dense<[0.0, 1.0]> : tensor<2xf32>
  %h = gopt.linear %x, %w1 : tensor<2x4xf32>, tensor<4x3xf32> -> tensor<2x3xf32>
  %hb = gopt.add %h, %b1 : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
  %a = gopt.relu %hb : tensor<2x3xf32>
  %o = gopt.linear %a, %w2 : tensor<2x3xf32>, tensor<3x2xf32> -> tensor<2x2xf32>
  %ob = gopt.add %o, %b2 : tensor<2x2xf32>, tensor<2xf32> -> tensor<2x2xf32>
  %p = gopt.softmax %ob axis = 1 : tensor<2x2xf32>
  return %p : tensor<2x2xf32>
}

func.func @main() {
  %x = gopt.constant dense<[[1.0, 2.0, 3.0, 4.0], [-1.0, -2.0, -3.0, -4.0]]> : tensor<2x4xf32>
  %p = call @mlp(%x) : (tensor<2x4xf32>) -> tensor<2x2xf32>
  %u = tensor.cast %p : tensor<2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)

// CHECK: Unranked Memref
// CHECK-SAME: sizes = [2, 2]
// CHECK-NEXT: [0.119203, 0.880797]
// CHECK-NEXT: [0.268941, 0.731059]
// CHECK: gopt-test-alloc: 0 live
