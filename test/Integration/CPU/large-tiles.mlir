// RUN: gopt-opt %s -verify-each --gopt-optimize --gopt-lower-to-llvm \
// RUN: | %mlir_runner -e main -entry-point-result=void -shared-libs=%runner_libs 2>&1 \
// RUN: | FileCheck %s
// RUN: gopt-opt %s -verify-each --gopt-optimize --gopt-lower-to-llvm \
// RUN: | %mlir_runner -e main -entry-point-result=void -shared-libs=%runner_libs 2>&1 \
// RUN: | grep -v "^Unranked" > %t.vectorized
// RUN: gopt-opt %s -verify-each --gopt-lower-to-llvm=vectorize=false \
// RUN: | %mlir_runner -e main -entry-point-result=void -shared-libs=%runner_libs 2>&1 \
// RUN: | grep -v "^Unranked" > %t.scalar
// RUN: %allclose %t.vectorized %t.scalar

// Ops whose tiles are larger than one vector (a 1x128x64 contraction tile,
// rows of 4096) are tiled again into register-sized pieces before
// vectorization, reductions included; the results match the scalar code.

func.func @large(%r: tensor<8x1xf32>, %y: tensor<2x4096xf32>)
    -> (tensor<8x128xf32>, tensor<2xf32>, tensor<2x4096xf32>) {
  %x = gopt.broadcast_to %r : tensor<8x1xf32> -> tensor<8x64xf32>
  %w = gopt.constant dense<0.5> : tensor<64x128xf32>
  %b = gopt.constant dense<1.0> : tensor<128xf32>
  %l = gopt.linear %x, %w, %b : tensor<8x64xf32>, tensor<64x128xf32>, tensor<128xf32> -> tensor<8x128xf32>
  %s = gopt.reduce sum %y axes = [1] : tensor<2x4096xf32> -> tensor<2xf32>
  %p = gopt.softmax %y axis = 1 : tensor<2x4096xf32>
  return %l, %s, %p : tensor<8x128xf32>, tensor<2xf32>, tensor<2x4096xf32>
}

func.func @main() {
  %r = gopt.constant dense<[[0.0], [1.0], [2.0], [3.0], [4.0], [5.0], [6.0], [7.0]]> : tensor<8x1xf32>
  %one = gopt.constant dense<1.0> : tensor<2x4096xf32>
  %y = gopt.exp %one : tensor<2x4096xf32>
  %o:3 = call @large(%r, %y) : (tensor<8x1xf32>, tensor<2x4096xf32>)
      -> (tensor<8x128xf32>, tensor<2xf32>, tensor<2x4096xf32>)
  // Row i of the linear is 64 · 0.5 · i + 1; print its min and max.
  %mx = gopt.reduce max %o#0 axes = [1] : tensor<8x128xf32> -> tensor<8xf32>
  %mn = gopt.reduce min %o#0 axes = [1] : tensor<8x128xf32> -> tensor<8xf32>
  %u0 = tensor.cast %mx : tensor<8xf32> to tensor<*xf32>
  call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  %u1 = tensor.cast %mn : tensor<8xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %u2 = tensor.cast %o#1 : tensor<2xf32> to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  // A uniform softmax row is 1/4096 everywhere: its max and min.
  %pmx = gopt.reduce max %o#2 axes = [1] : tensor<2x4096xf32> -> tensor<2xf32>
  %pmn = gopt.reduce min %o#2 axes = [1] : tensor<2x4096xf32> -> tensor<2xf32>
  %u3 = tensor.cast %pmx : tensor<2xf32> to tensor<*xf32>
  call @printMemrefF32(%u3) : (tensor<*xf32>) -> ()
  %u4 = tensor.cast %pmn : tensor<2xf32> to tensor<*xf32>
  call @printMemrefF32(%u4) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)

// CHECK: [1, 33, 65, 97, 129, 161, 193, 225]
// CHECK: [1, 33, 65, 97, 129, 161, 193, 225]
// 4096 · e = 11134.0...
// CHECK: [11134{{(\.[0-9]*)?}}, 11134{{(\.[0-9]*)?}}]
// CHECK: [0.00024414{{[0-9]*}}, 0.00024414{{[0-9]*}}]
// CHECK: [0.00024414{{[0-9]*}}, 0.00024414{{[0-9]*}}]
// CHECK: gopt-test-alloc: 0 live
