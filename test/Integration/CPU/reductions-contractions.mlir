// RUN: gopt-opt %s -verify-each --gopt-lower-to-llvm \
// RUN: | %mlir_runner -e main -entry-point-result=void -shared-libs=%runner_libs 2>&1 \
// RUN: | FileCheck %s
// RUN: gopt-opt %s -verify-each --gopt-optimize --gopt-lower-to-llvm \
// RUN: | %mlir_runner -e main -entry-point-result=void -shared-libs=%runner_libs 2>&1 \
// RUN: | FileCheck %s
// RUN: gopt-opt %s -verify-each --gopt-optimize --gopt-lower-to-llvm="vectorize=false tile-sizes=1,1,1,1" \
// RUN: | %mlir_runner -e main -entry-point-result=void -shared-libs=%runner_libs 2>&1 \
// RUN: | FileCheck %s
// RUN: gopt-opt %s -verify-each --gopt-optimize --gopt-lower-to-llvm=contractions=codegen \
// RUN: | %mlir_runner -e main -entry-point-result=void -shared-libs=%runner_libs 2>&1 \
// RUN: | FileCheck %s

// Reductions, normalizations, contractions and pooling, unfused and fused
// (prologues/epilogues join the anchors under gopt-optimize), with default
// and explicit tile sizes. Expected values are computed by hand in the
// comments. f32 contractions take the library path (gopt_sgemm, from the
// test library) except on the contractions=codegen line.

func.func @reductions(%x: tensor<2x3xf32>, %i: tensor<2x2xi32>)
    -> (tensor<2xf32>, tensor<1x3xf32>, tensor<1x1xf32>, tensor<2xf32>,
        tensor<2x3xf32>, tensor<2xi32>, tensor<2xf32>) {
  %sum = gopt.reduce sum %x axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
  %mean = gopt.reduce mean %x axes = [0] keepdims : tensor<2x3xf32> -> tensor<1x3xf32>
  %max = gopt.reduce max %x axes = [0, 1] keepdims : tensor<2x3xf32> -> tensor<1x1xf32>
  %min = gopt.reduce min %x axes = [-1] : tensor<2x3xf32> -> tensor<2xf32>
  %soft = gopt.softmax %x axis = 0 : tensor<2x3xf32>
  %imean = gopt.reduce mean %i axes = [1] : tensor<2x2xi32> -> tensor<2xi32>
  // A fused prologue: sum of relu(x - 2).
  %two = gopt.constant dense<2.0> : tensor<f32>
  %d = gopt.sub %x, %two : tensor<2x3xf32>, tensor<f32> -> tensor<2x3xf32>
  %r = gopt.relu %d : tensor<2x3xf32>
  %rs = gopt.reduce sum %r axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
  return %sum, %mean, %max, %min, %soft, %imean, %rs
      : tensor<2xf32>, tensor<1x3xf32>, tensor<1x1xf32>, tensor<2xf32>,
        tensor<2x3xf32>, tensor<2xi32>, tensor<2xf32>
}

func.func @layer_norm(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %g = gopt.constant dense<[1.0, 2.0, 1.0, 1.0]> : tensor<4xf32>
  %b = gopt.constant dense<[0.0, 0.0, 1.0, 0.0]> : tensor<4xf32>
  %y = gopt.layer_norm %x, %g, %b axes = [1] eps = 1.0e-05 : tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>
  return %y : tensor<2x4xf32>
}

// matmul with a broadcast batch dim and a fused epilogue; linear with
// transposed weight and bias; linear with transposed input.
func.func @contractions(%a: tensor<2x2x3xf32>, %b: tensor<1x3x2xf32>,
                        %x: tensor<2x3xf32>, %w: tensor<2x3xf32>)
    -> (tensor<2x2x2xf32>, tensor<2x2xf32>, tensor<3x3xf32>) {
  %m = gopt.matmul %a, %b : tensor<2x2x3xf32>, tensor<1x3x2xf32> -> tensor<2x2x2xf32>
  %one = gopt.constant dense<1.0> : tensor<2xf32>
  %e = gopt.add %m, %one : tensor<2x2x2xf32>, tensor<2xf32> -> tensor<2x2x2xf32>
  %bias = gopt.constant dense<[0.5, -0.5]> : tensor<2xf32>
  %l = gopt.linear %x, %w, %bias transpose_weight : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2xf32> -> tensor<2x2xf32>
  %t = gopt.linear %x, %w transpose_input : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<3x3xf32>
  return %e, %l, %t : tensor<2x2x2xf32>, tensor<2x2xf32>, tensor<3x3xf32>
}

// conv2d: valid, padded+strided with bias, dilated, grouped; pooling.
func.func @windows(%x: tensor<1x1x3x3xf32>, %g: tensor<1x2x2x2xf32>)
    -> (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>,
        tensor<1x2x2x2xf32>, tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>,
        tensor<1x1x2x2xf32>, tensor<1x2x1x1xf32>) {
  %ones = gopt.constant dense<1.0> : tensor<1x1x2x2xf32>
  %bias = gopt.constant dense<0.5> : tensor<1xf32>
  %valid = gopt.conv2d %x, %ones strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32> -> tensor<1x1x2x2xf32>
  %padded = gopt.conv2d %x, %ones, %bias strides = [2, 2] padding = [1, 1, 1, 1] dilations = [1, 1] groups = 1 : tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>, tensor<1xf32> -> tensor<1x1x2x2xf32>
  %dilated = gopt.conv2d %x, %ones strides = [1, 1] padding = [0, 0, 0, 0] dilations = [2, 2] groups = 1 : tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32> -> tensor<1x1x1x1xf32>
  %gw = gopt.constant dense<[[[[2.0]]], [[[3.0]]]]> : tensor<2x1x1x1xf32>
  %grouped = gopt.conv2d %g, %gw strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 2 : tensor<1x2x2x2xf32>, tensor<2x1x1x1xf32> -> tensor<1x2x2x2xf32>
  %maxp = gopt.pool2d max %x kernel = [2, 2] strides = [1, 1] padding = [0, 0, 0, 0] : tensor<1x1x3x3xf32> -> tensor<1x1x2x2xf32>
  %avg = gopt.pool2d avg %x kernel = [2, 2] strides = [2, 2] padding = [1, 1, 1, 1] : tensor<1x1x3x3xf32> -> tensor<1x1x2x2xf32>
  %avgp = gopt.pool2d avg %x kernel = [2, 2] strides = [2, 2] padding = [1, 1, 1, 1] count_include_pad : tensor<1x1x3x3xf32> -> tensor<1x1x2x2xf32>
  %gap = gopt.global_avg_pool %g : tensor<1x2x2x2xf32> -> tensor<1x2x1x1xf32>
  return %valid, %padded, %dilated, %grouped, %maxp, %avg, %avgp, %gap
      : tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>,
        tensor<1x2x2x2xf32>, tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>,
        tensor<1x1x2x2xf32>, tensor<1x2x1x1xf32>
}

func.func @main() {
  %x = gopt.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %i = gopt.constant dense<[[1, 2], [-3, -4]]> : tensor<2x2xi32>
  %r:7 = call @reductions(%x, %i) : (tensor<2x3xf32>, tensor<2x2xi32>)
      -> (tensor<2xf32>, tensor<1x3xf32>, tensor<1x1xf32>, tensor<2xf32>,
          tensor<2x3xf32>, tensor<2xi32>, tensor<2xf32>)
  %r0 = tensor.cast %r#0 : tensor<2xf32> to tensor<*xf32>
  call @printMemrefF32(%r0) : (tensor<*xf32>) -> ()
  %r1 = tensor.cast %r#1 : tensor<1x3xf32> to tensor<*xf32>
  call @printMemrefF32(%r1) : (tensor<*xf32>) -> ()
  %r2 = tensor.cast %r#2 : tensor<1x1xf32> to tensor<*xf32>
  call @printMemrefF32(%r2) : (tensor<*xf32>) -> ()
  %r3 = tensor.cast %r#3 : tensor<2xf32> to tensor<*xf32>
  call @printMemrefF32(%r3) : (tensor<*xf32>) -> ()
  %r4 = tensor.cast %r#4 : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%r4) : (tensor<*xf32>) -> ()
  %r5 = tensor.cast %r#5 : tensor<2xi32> to tensor<*xi32>
  call @printMemrefI32(%r5) : (tensor<*xi32>) -> ()
  %r6 = tensor.cast %r#6 : tensor<2xf32> to tensor<*xf32>
  call @printMemrefF32(%r6) : (tensor<*xf32>) -> ()

  %ln_in = gopt.constant dense<[[1.0, 2.0, 3.0, 4.0], [2.0, 2.0, 2.0, 2.0]]> : tensor<2x4xf32>
  %ln = call @layer_norm(%ln_in) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %ln_u = tensor.cast %ln : tensor<2x4xf32> to tensor<*xf32>
  call @printMemrefF32(%ln_u) : (tensor<*xf32>) -> ()

  %a = gopt.constant dense<[[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], [[1.0, 1.0, 1.0], [0.0, 0.0, 2.0]]]> : tensor<2x2x3xf32>
  %b = gopt.constant dense<[[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]]> : tensor<1x3x2xf32>
  %w = gopt.constant dense<[[1.0, 0.0, -1.0], [2.0, 2.0, 2.0]]> : tensor<2x3xf32>
  %c:3 = call @contractions(%a, %b, %x, %w)
      : (tensor<2x2x3xf32>, tensor<1x3x2xf32>, tensor<2x3xf32>, tensor<2x3xf32>)
      -> (tensor<2x2x2xf32>, tensor<2x2xf32>, tensor<3x3xf32>)
  %c0 = tensor.cast %c#0 : tensor<2x2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%c0) : (tensor<*xf32>) -> ()
  %c1 = tensor.cast %c#1 : tensor<2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%c1) : (tensor<*xf32>) -> ()
  %c2 = tensor.cast %c#2 : tensor<3x3xf32> to tensor<*xf32>
  call @printMemrefF32(%c2) : (tensor<*xf32>) -> ()

  %img = gopt.constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]]]> : tensor<1x1x3x3xf32>
  %two = gopt.constant dense<[[[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]]> : tensor<1x2x2x2xf32>
  %v:8 = call @windows(%img, %two) : (tensor<1x1x3x3xf32>, tensor<1x2x2x2xf32>)
      -> (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>,
          tensor<1x2x2x2xf32>, tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>,
          tensor<1x1x2x2xf32>, tensor<1x2x1x1xf32>)
  %v0 = tensor.cast %v#0 : tensor<1x1x2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%v0) : (tensor<*xf32>) -> ()
  %v1 = tensor.cast %v#1 : tensor<1x1x2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%v1) : (tensor<*xf32>) -> ()
  %v2 = tensor.cast %v#2 : tensor<1x1x1x1xf32> to tensor<*xf32>
  call @printMemrefF32(%v2) : (tensor<*xf32>) -> ()
  %v3 = tensor.cast %v#3 : tensor<1x2x2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%v3) : (tensor<*xf32>) -> ()
  %v4 = tensor.cast %v#4 : tensor<1x1x2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%v4) : (tensor<*xf32>) -> ()
  %v5 = tensor.cast %v#5 : tensor<1x1x2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%v5) : (tensor<*xf32>) -> ()
  %v6 = tensor.cast %v#6 : tensor<1x1x2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%v6) : (tensor<*xf32>) -> ()
  %v7 = tensor.cast %v#7 : tensor<1x2x1x1xf32> to tensor<*xf32>
  call @printMemrefF32(%v7) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)
func.func private @printMemrefI32(tensor<*xi32>)

// x = [[1, 2, 3], [4, 5, 6]]: sum over rows, mean over columns (keepdims),
// max of all (keepdims), min over the last axis.
// CHECK: [6, 15]
// CHECK: {{\[\[}}2.5, 3.5, 4.5]]
// CHECK: {{\[\[}}6]]
// CHECK: [1, 4]
// softmax over axis 0: 1/(1+e^3) = 0.0474259 and e^3/(1+e^3) = 0.952574.
// CHECK: {{\[\[}}0.047425{{[0-9]}}, 0.047425{{[0-9]}}, 0.047425{{[0-9]}}],
// CHECK-NEXT: [0.95257{{[0-9]}}, 0.95257{{[0-9]}}, 0.95257{{[0-9]}}]]
// Integer mean truncates: [1.5, -3.5] -> [1, -3].
// CHECK: [1, -3]
// Σ relu(x - 2) over rows (a fused prologue): [1, 9].
// CHECK: [1, 9]
// layer_norm of [1, 2, 3, 4] (mean 2.5, var 1.25) · [1, 2, 1, 1] + [0, 0, 1, 0];
// a constant row normalizes to 0, leaving the bias.
// CHECK: {{\[\[}}-1.3416{{[0-9]}}, -0.89442{{[0-9]}}, 1.4472{{[0-9]}}, 1.3416{{[0-9]}}],
// CHECK-NEXT: [0, 0, 1, 0]]
// matmul (batch broadcast) + 1.
// CHECK: {{\[\[\[}}2, 3],
// CHECK-NEXT: [4, 5]],
// CHECK-NEXT: {{\[\[}}10, 13],
// CHECK-NEXT: [11, 13]]]
// x·wᵀ + [0.5, -0.5].
// CHECK: {{\[\[}}-1.5, 11.5],
// CHECK-NEXT: [-1.5, 29.5]]
// xᵀ·w.
// CHECK: {{\[\[}}9, 8, 7],
// CHECK-NEXT: [12, 10, 8],
// CHECK-NEXT: [15, 12, 9]]
// conv2d of 1..9 with a 2x2 box: valid; padded by 1, stride 2, bias 0.5;
// dilation 2 (corners 1+3+7+9); groups = 2 scaling the channels by 2 and 3.
// CHECK: {{\[\[\[\[}}12, 16],
// CHECK-NEXT: [24, 28]]]]
// CHECK: {{\[\[\[\[}}1.5, 5.5],
// CHECK-NEXT: [11.5, 28.5]]]]
// CHECK: {{\[\[\[\[}}20]]]]
// CHECK: {{\[\[\[\[}}2, 4],
// CHECK-NEXT: [6, 8]],
// CHECK-NEXT: {{\[\[}}15, 18],
// CHECK-NEXT: [21, 24]]]]
// max pool 2x2 stride 1; avg pool 2x2 stride 2 padded by 1, dividing by the
// non-padding count (1, 2, 2, 4), then by 4 with count_include_pad.
// CHECK: {{\[\[\[\[}}5, 6],
// CHECK-NEXT: [8, 9]]]]
// CHECK: {{\[\[\[\[}}1, 2.5],
// CHECK-NEXT: [5.5, 7]]]]
// CHECK: {{\[\[\[\[}}0.25, 1.25],
// CHECK-NEXT: [2.75, 7]]]]
// global_avg_pool: [2.5, 6.5].
// CHECK: {{\[\[\[\[}}2.5]],
// CHECK-NEXT: {{\[\[}}6.5]]]]
// CHECK: gopt-test-alloc: 0 live
