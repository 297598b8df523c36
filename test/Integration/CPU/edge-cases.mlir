// RUN: gopt-opt %s -verify-each --gopt-lower-to-llvm \
// RUN: | %mlir_runner -e main -entry-point-result=void -shared-libs=%runner_libs 2>&1 \
// RUN: | FileCheck %s
// RUN: gopt-opt %s -verify-each --gopt-optimize --gopt-lower-to-llvm=vectorize=false \
// RUN: | %mlir_runner -e main -entry-point-result=void -shared-libs=%runner_libs 2>&1 \
// RUN: | FileCheck %s

// Shapes and types at the edges: a rank-0 gather with a negative index, an
// empty integer mean (0, not a division by zero), a fusion exposing two
// values, a foreign elementwise op on tensors, f16/bf16/f64/i8 arithmetic.

func.func @edges(%x: tensor<3xf32>, %j: tensor<i64>, %e: tensor<2x0xi32>)
    -> (tensor<f32>, tensor<2xi32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %g = gopt.gather %x[%j] axis = 0 : tensor<3xf32>, tensor<i64> -> tensor<f32>
  %m = gopt.reduce mean %e axes = [1] : tensor<2x0xi32> -> tensor<2xi32>
  %f:2 = gopt.fusion(%x : tensor<3xf32>) -> tensor<3xf32>, tensor<3xf32> {
  ^bb0(%a: tensor<3xf32>):
    %n = gopt.neg %a : tensor<3xf32>
    %r = gopt.relu %n : tensor<3xf32>
    gopt.yield %n, %r : tensor<3xf32>, tensor<3xf32>
  }
  %s = arith.addf %f#0, %x : tensor<3xf32>
  return %g, %m, %f#1, %s, %f#0 : tensor<f32>, tensor<2xi32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}

// (x + 0.5) · x in f16, bf16 and f64, and (i + i) · 3 in i8 (wrapping).
func.func @types(%h: tensor<3xf16>, %b: tensor<3xbf16>, %d: tensor<3xf64>, %i: tensor<3xi8>)
    -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %hh = gopt.constant dense<0.5> : tensor<3xf16>
  %h1 = gopt.add %h, %hh : tensor<3xf16>
  %h2 = gopt.mul %h1, %h : tensor<3xf16>
  %hf = gopt.cast %h2 : tensor<3xf16> to tensor<3xf32>
  %bh = gopt.constant dense<0.5> : tensor<3xbf16>
  %b1 = gopt.add %b, %bh : tensor<3xbf16>
  %b2 = gopt.mul %b1, %b : tensor<3xbf16>
  %bf = gopt.cast %b2 : tensor<3xbf16> to tensor<3xf32>
  %dh = gopt.constant dense<0.5> : tensor<3xf64>
  %d1 = gopt.add %d, %dh : tensor<3xf64>
  %d2 = gopt.mul %d1, %d : tensor<3xf64>
  %df = gopt.cast %d2 : tensor<3xf64> to tensor<3xf32>
  %three = gopt.constant dense<3> : tensor<3xi8>
  %i1 = gopt.add %i, %i : tensor<3xi8>
  %i2 = gopt.mul %i1, %three : tensor<3xi8>
  %if = gopt.cast %i2 : tensor<3xi8> to tensor<3xf32>
  return %hf, %bf, %df, %if : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}

func.func @main() {
  %x = gopt.constant dense<[1.0, -2.0, 3.0]> : tensor<3xf32>
  %j = gopt.constant dense<-1> : tensor<i64>
  %e = gopt.constant dense<> : tensor<2x0xi32>
  %r:5 = call @edges(%x, %j, %e) : (tensor<3xf32>, tensor<i64>, tensor<2x0xi32>)
      -> (tensor<f32>, tensor<2xi32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>)
  %r0 = tensor.cast %r#0 : tensor<f32> to tensor<*xf32>
  call @printMemrefF32(%r0) : (tensor<*xf32>) -> ()
  %r1 = tensor.cast %r#1 : tensor<2xi32> to tensor<*xi32>
  call @printMemrefI32(%r1) : (tensor<*xi32>) -> ()
  %r2 = tensor.cast %r#2 : tensor<3xf32> to tensor<*xf32>
  call @printMemrefF32(%r2) : (tensor<*xf32>) -> ()
  %r3 = tensor.cast %r#3 : tensor<3xf32> to tensor<*xf32>
  call @printMemrefF32(%r3) : (tensor<*xf32>) -> ()
  %r4 = tensor.cast %r#4 : tensor<3xf32> to tensor<*xf32>
  call @printMemrefF32(%r4) : (tensor<*xf32>) -> ()

  %h = gopt.constant dense<[1.0, -2.0, 0.25]> : tensor<3xf16>
  %b = gopt.constant dense<[1.0, -2.0, 0.25]> : tensor<3xbf16>
  %d = gopt.constant dense<[1.0, -2.0, 0.25]> : tensor<3xf64>
  %i = gopt.constant dense<[1, -2, 50]> : tensor<3xi8>
  %t:4 = call @types(%h, %b, %d, %i) : (tensor<3xf16>, tensor<3xbf16>, tensor<3xf64>, tensor<3xi8>)
      -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>)
  %t0 = tensor.cast %t#0 : tensor<3xf32> to tensor<*xf32>
  call @printMemrefF32(%t0) : (tensor<*xf32>) -> ()
  %t1 = tensor.cast %t#1 : tensor<3xf32> to tensor<*xf32>
  call @printMemrefF32(%t1) : (tensor<*xf32>) -> ()
  %t2 = tensor.cast %t#2 : tensor<3xf32> to tensor<*xf32>
  call @printMemrefF32(%t2) : (tensor<*xf32>) -> ()
  %t3 = tensor.cast %t#3 : tensor<3xf32> to tensor<*xf32>
  call @printMemrefF32(%t3) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)
func.func private @printMemrefI32(tensor<*xi32>)

// x[-1] = 3 (rank 0).
// CHECK: rank = 0
// CHECK-NEXT: [3]
// Empty integer mean.
// CHECK: [0, 0]
// Both results of the fusion: relu(-x), and -x + x through arith.addf.
// CHECK: [0, 2, 0]
// CHECK: [0, 0, 0]
// CHECK: [-1, 2, -3]
// (x + 0.5) · x = [1.5, 3, 0.1875] in f16, bf16, f64; i8: 50·2·3 = 300
// wraps to 44.
// CHECK: [1.5, 3, 0.1875]
// CHECK: [1.5, 3, 0.1875]
// CHECK: [1.5, 3, 0.1875]
// CHECK: [6, -12, 44]
// CHECK: gopt-test-alloc: 0 live
