// RUN: gopt-opt %s -verify-each --gopt-lower-to-llvm \
// RUN: | %mlir_runner -e main -entry-point-result=void -shared-libs=%runner_libs 2>&1 \
// RUN: | FileCheck %s
// RUN: gopt-opt %s -verify-each --gopt-optimize --gopt-lower-to-llvm=vectorize=false \
// RUN: | %mlir_runner -e main -entry-point-result=void -shared-libs=%runner_libs 2>&1 \
// RUN: | FileCheck %s

// Data movement ops and a dense_resource constant, on x = [[1, 2, 3],
// [4, 5, 6]].

func.func @moves(%x: tensor<2x3xf32>, %idx: tensor<2xi64>)
    -> (tensor<3x2xf32>, tensor<3x2xf32>, tensor<2x3xf32>, tensor<2x5xf32>,
        tensor<1x2xf32>, tensor<2x1xf32>, tensor<2x2xf32>, tensor<2x2xf32>,
        tensor<3x5xf32>, tensor<2xi64>, tensor<2x3xf32>) {
  %t = gopt.transpose %x perm = [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  %r = gopt.reshape %x : tensor<2x3xf32> -> tensor<3x2xf32>
  %row = gopt.constant dense<[10.0, 20.0, 30.0]> : tensor<3xf32>
  %b = gopt.broadcast_to %row : tensor<3xf32> -> tensor<2x3xf32>
  %half = gopt.slice %x starts = [0, 1] ends = [2, 3] steps = [1, 1] : tensor<2x3xf32> -> tensor<2x2xf32>
  %c = gopt.concat %x, %half axis = 1 : tensor<2x3xf32>, tensor<2x2xf32> -> tensor<2x5xf32>
  %s = gopt.slice %x starts = [-1, 0] ends = [100, 3] steps = [1, 2] : tensor<2x3xf32> -> tensor<1x2xf32>
  %p:2 = gopt.split %x axis = 1 sizes = [1, 2] : tensor<2x3xf32> -> tensor<2x1xf32>, tensor<2x2xf32>
  %g = gopt.gather %x[%idx] axis = 1 : tensor<2x3xf32>, tensor<2xi64> -> tensor<2x2xf32>
  %pad = gopt.pad %x low = [0, 1] high = [1, 1] value = -1.0 : tensor<2x3xf32> -> tensor<3x5xf32>
  %shape = gopt.shape %x : tensor<2x3xf32> -> tensor<2xi64>
  %w = gopt.constant dense_resource<weights> : tensor<2x3xf32>
  %sum = gopt.add %x, %w : tensor<2x3xf32>
  return %t, %r, %b, %c, %s, %p#0, %p#1, %g, %pad, %shape, %sum
      : tensor<3x2xf32>, tensor<3x2xf32>, tensor<2x3xf32>, tensor<2x5xf32>,
        tensor<1x2xf32>, tensor<2x1xf32>, tensor<2x2xf32>, tensor<2x2xf32>,
        tensor<3x5xf32>, tensor<2xi64>, tensor<2x3xf32>
}

func.func @main() {
  %x = gopt.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %idx = gopt.constant dense<[-1, 0]> : tensor<2xi64>
  %m:11 = call @moves(%x, %idx) : (tensor<2x3xf32>, tensor<2xi64>)
      -> (tensor<3x2xf32>, tensor<3x2xf32>, tensor<2x3xf32>, tensor<2x5xf32>,
          tensor<1x2xf32>, tensor<2x1xf32>, tensor<2x2xf32>, tensor<2x2xf32>,
          tensor<3x5xf32>, tensor<2xi64>, tensor<2x3xf32>)
  %m0 = tensor.cast %m#0 : tensor<3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%m0) : (tensor<*xf32>) -> ()
  %m1 = tensor.cast %m#1 : tensor<3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%m1) : (tensor<*xf32>) -> ()
  %m2 = tensor.cast %m#2 : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%m2) : (tensor<*xf32>) -> ()
  %m3 = tensor.cast %m#3 : tensor<2x5xf32> to tensor<*xf32>
  call @printMemrefF32(%m3) : (tensor<*xf32>) -> ()
  %m4 = tensor.cast %m#4 : tensor<1x2xf32> to tensor<*xf32>
  call @printMemrefF32(%m4) : (tensor<*xf32>) -> ()
  %m5 = tensor.cast %m#5 : tensor<2x1xf32> to tensor<*xf32>
  call @printMemrefF32(%m5) : (tensor<*xf32>) -> ()
  %m6 = tensor.cast %m#6 : tensor<2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%m6) : (tensor<*xf32>) -> ()
  %m7 = tensor.cast %m#7 : tensor<2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%m7) : (tensor<*xf32>) -> ()
  %m8 = tensor.cast %m#8 : tensor<3x5xf32> to tensor<*xf32>
  call @printMemrefF32(%m8) : (tensor<*xf32>) -> ()
  %m9 = tensor.cast %m#9 : tensor<2xi64> to tensor<*xi64>
  call @printMemrefI64(%m9) : (tensor<*xi64>) -> ()
  %m10 = tensor.cast %m#10 : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%m10) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)
func.func private @printMemrefI64(tensor<*xi64>)

{-#
  dialect_resources: {
    builtin: {
      // 0.5, 0.25, 0.125, 1, 2, 4 as little-endian f32 (alignment 4).
      weights: "0x040000000000003F0000803E0000003E0000803F0000004000008040"
    }
  }
#-}

// transpose; reshape (row-major, no single reassociation); broadcast_to.
// CHECK: {{\[\[}}1, 4],
// CHECK-NEXT: [2, 5],
// CHECK-NEXT: [3, 6]]
// CHECK: {{\[\[}}1, 2],
// CHECK-NEXT: [3, 4],
// CHECK-NEXT: [5, 6]]
// CHECK: {{\[\[}}10, 20, 30],
// CHECK-NEXT: [10, 20, 30]]
// concat of x and x[:, 1:3].
// CHECK: {{\[\[}}1, 2, 3, 2, 3],
// CHECK-NEXT: [4, 5, 6, 5, 6]]
// slice [-1:100, 0:3:2] (clamped, strided).
// CHECK: {{\[\[}}4, 6]]
// split [1, 2] along axis 1.
// CHECK: {{\[\[}}1],
// CHECK-NEXT: [4]]
// CHECK: {{\[\[}}2, 3],
// CHECK-NEXT: [5, 6]]
// gather columns [-1, 0] = [2, 0].
// CHECK: {{\[\[}}3, 1],
// CHECK-NEXT: [6, 4]]
// pad low [0, 1] high [1, 1] with -1.
// CHECK: {{\[\[}}-1, 1, 2, 3, -1],
// CHECK-NEXT: [-1, 4, 5, 6, -1],
// CHECK-NEXT: [-1, -1, -1, -1, -1]]
// shape.
// CHECK: [2, 3]
// x + dense_resource weights.
// CHECK: {{\[\[}}1.5, 2.25, 3.125],
// CHECK-NEXT: [5, 7, 10]]
// CHECK: gopt-test-alloc: 0 live
