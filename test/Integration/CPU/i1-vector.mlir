// RUN: gopt-opt %s -verify-each --gopt-lower-to-llvm \
// RUN: | %mlir_runner -e main -entry-point-result=void -shared-libs=%runner_libs 2>&1 \
// RUN: | FileCheck %s
// RUN: gopt-opt %s --gopt-lower-to-llvm | FileCheck %s --check-prefix=LLVM

// Found by gopt-difftest (seed 4, --ops=30, configuration dce+fuse): a kernel
// {select on an i1 condition, broadcast_to of the selection} is tiled by 3
// along the 6-wide dimension and was vectorized; the vector<3xi1> read of the
// condition became an LLVM load of a bit-packed <3 x i1> from a buffer that
// holds one byte per i1, so the select saw the wrong conditions. Ops that
// touch i1 tensors now stay scalar.

// LLVM-NOT: -> vector<{{[0-9]+}}xi1>

func.func @kernel(%x: tensor<6xf32>, %a: tensor<1xf32>) -> (tensor<6xf32>, tensor<4x6xf32>) {
  %z = gopt.constant dense<0.0> : tensor<1xf32>
  %c = gopt.compare gt, %x, %z : tensor<6xf32>, tensor<1xf32>
  %k = gopt.constant dense<-1.0> : tensor<1xf32>
  %r:2 = gopt.fusion(%c, %a, %k : tensor<6xi1>, tensor<1xf32>, tensor<1xf32>) -> tensor<6xf32>, tensor<4x6xf32> {
  ^bb0(%cond: tensor<6xi1>, %t: tensor<1xf32>, %f: tensor<1xf32>):
    %s = gopt.select %cond, %t, %f : tensor<6xi1>, tensor<1xf32>, tensor<1xf32>
    %b = gopt.broadcast_to %s : tensor<6xf32> -> tensor<4x6xf32>
    gopt.yield %s, %b : tensor<6xf32>, tensor<4x6xf32>
  }
  return %r#0, %r#1 : tensor<6xf32>, tensor<4x6xf32>
}
func.func @main() {
  %x = gopt.constant dense<[1.0, -2.0, 3.0, -4.0, -5.0, 6.0]> : tensor<6xf32>
  %a = gopt.constant dense<2.0> : tensor<1xf32>
  %r:2 = call @kernel(%x, %a) : (tensor<6xf32>, tensor<1xf32>) -> (tensor<6xf32>, tensor<4x6xf32>)
  %u0 = tensor.cast %r#0 : tensor<6xf32> to tensor<*xf32>
  call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  %u1 = tensor.cast %r#1 : tensor<4x6xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)

// CHECK: [2, -1, 2, -1, -1, 2]
// CHECK: [2, -1, 2, -1, -1, 2]
// CHECK-NEXT: [2, -1, 2, -1, -1, 2]
// CHECK-NEXT: [2, -1, 2, -1, -1, 2]
// CHECK-NEXT: [2, -1, 2, -1, -1, 2]
// CHECK: gopt-test-alloc: 0 live
