// RUN: gopt-opt %s -verify-each --gopt-lower-to-llvm \
// RUN: | %mlir_runner -e main -entry-point-result=void -shared-libs=%runner_libs 2>&1 \
// RUN: | FileCheck %s
// RUN: gopt-opt %s -verify-each --gopt-optimize --gopt-lower-to-llvm=vectorize=false \
// RUN: | %mlir_runner -e main -entry-point-result=void -shared-libs=%runner_libs 2>&1 \
// RUN: | FileCheck %s

// gopt.resize compiled and run on x = [[1, 2, 3], [4, 5, 6]], each result
// worked out by hand from the coordinate map `o · scale + offset`.

func.func @resizes(%x: tensor<2x3xf32>, %xi: tensor<2x3xi32>)
    -> (tensor<4x6xf32>, tensor<4x6xf32>, tensor<1x2xi32>, tensor<3x5xf32>,
        tensor<1x6xf32>) {
  // Bilinear x2, half_pixel: coordinates -0.25, 0.25, 0.75, 1.25 (rows)
  // and -0.25 .. 2.25 (columns), clamped at the edges. Rows grow: the
  // columns are interpolated first, in a pass of their own.
  %l = gopt.resize linear %x scale = [0.5, 0.5] offset = [-0.25, -0.25] : tensor<2x3xf32> -> tensor<4x6xf32>
  // Nearest x2, floor of o / 2.
  %n = gopt.resize nearest_floor %x scale = [0.5, 0.5] offset = [0.0, 0.0] : tensor<2x3xf32> -> tensor<4x6xf32>
  // Down to 1x2, half_pixel, ties up: rows at 0.5 → 1, columns at 0.25
  // and 1.75 → 0 and 2.
  %d = gopt.resize nearest_round_prefer_ceil %xi scale = [2.0, 1.5] offset = [0.5, 0.25] : tensor<2x3xi32> -> tensor<1x2xi32>
  // f16, align_corners to 3x5: steps of 1/2 on both dims.
  %h = gopt.cast %x : tensor<2x3xf32> to tensor<2x3xf16>
  %hr = gopt.resize linear %h scale = [0.5, 0.5] offset = [0.0, 0.0] : tensor<2x3xf16> -> tensor<3x5xf16>
  %hf = gopt.cast %hr : tensor<3x5xf16> to tensor<3x5xf32>
  // Rows shrink (2 → 1 at 0.5: the mean of the two), then columns grow:
  // the rows' pass first.
  %s = gopt.resize linear %x scale = [2.0, 0.5] offset = [0.5, -0.25] : tensor<2x3xf32> -> tensor<1x6xf32>
  return %l, %n, %d, %hf, %s : tensor<4x6xf32>, tensor<4x6xf32>, tensor<1x2xi32>, tensor<3x5xf32>, tensor<1x6xf32>
}

func.func @main() {
  %x = gopt.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %xi = gopt.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %r:5 = call @resizes(%x, %xi) : (tensor<2x3xf32>, tensor<2x3xi32>)
      -> (tensor<4x6xf32>, tensor<4x6xf32>, tensor<1x2xi32>, tensor<3x5xf32>,
          tensor<1x6xf32>)
  %r0 = tensor.cast %r#0 : tensor<4x6xf32> to tensor<*xf32>
  call @printMemrefF32(%r0) : (tensor<*xf32>) -> ()
  %r1 = tensor.cast %r#1 : tensor<4x6xf32> to tensor<*xf32>
  call @printMemrefF32(%r1) : (tensor<*xf32>) -> ()
  %r2 = tensor.cast %r#2 : tensor<1x2xi32> to tensor<*xi32>
  call @printMemrefI32(%r2) : (tensor<*xi32>) -> ()
  %r3 = tensor.cast %r#3 : tensor<3x5xf32> to tensor<*xf32>
  call @printMemrefF32(%r3) : (tensor<*xf32>) -> ()
  %r4 = tensor.cast %r#4 : tensor<1x6xf32> to tensor<*xf32>
  call @printMemrefF32(%r4) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)
func.func private @printMemrefI32(tensor<*xi32>)

// CHECK: {{\[\[}}1, 1.25, 1.75, 2.25, 2.75, 3],
// CHECK-NEXT: [1.75, 2, 2.5, 3, 3.5, 3.75],
// CHECK-NEXT: [3.25, 3.5, 4, 4.5, 5, 5.25],
// CHECK-NEXT: [4, 4.25, 4.75, 5.25, 5.75, 6]]
// CHECK: {{\[\[}}1, 1, 2, 2, 3, 3],
// CHECK-NEXT: [1, 1, 2, 2, 3, 3],
// CHECK-NEXT: [4, 4, 5, 5, 6, 6],
// CHECK-NEXT: [4, 4, 5, 5, 6, 6]]
// CHECK: {{\[\[}}4, 6]]
// CHECK: {{\[\[}}1, 1.5, 2, 2.5, 3],
// CHECK-NEXT: [2.5, 3, 3.5, 4, 4.5],
// CHECK-NEXT: [4, 4.5, 5, 5.5, 6]]
// CHECK: {{\[\[}}2.5, 2.75, 3.25, 3.75, 4.25, 4.5]]
