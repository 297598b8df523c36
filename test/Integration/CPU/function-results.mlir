// RUN: gopt-opt %s -verify-each --gopt-lower-to-llvm \
// RUN: | %mlir_runner -e main -entry-point-result=void -shared-libs=%runner_libs 2>&1 \
// RUN: | FileCheck %s

// Results that are an argument, a constant, and one value returned twice:
// the caller owns them (copies of the argument and the constant) and frees
// the shared buffer once.

func.func @weird(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %c = gopt.constant dense<[7.0, 8.0, 9.0]> : tensor<3xf32>
  %e = gopt.neg %x : tensor<3xf32>
  return %x, %c, %e, %e : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}
func.func @main() {
  %x = gopt.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %r:4 = call @weird(%x) : (tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>)
  %u0 = tensor.cast %r#0 : tensor<3xf32> to tensor<*xf32>
  call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  %u1 = tensor.cast %r#1 : tensor<3xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %u2 = tensor.cast %r#2 : tensor<3xf32> to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  %u3 = tensor.cast %r#3 : tensor<3xf32> to tensor<*xf32>
  call @printMemrefF32(%u3) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)

// CHECK: [1, 2, 3]
// CHECK: [7, 8, 9]
// CHECK: [-1, -2, -3]
// CHECK: [-1, -2, -3]
// CHECK: gopt-test-alloc: 0 live
