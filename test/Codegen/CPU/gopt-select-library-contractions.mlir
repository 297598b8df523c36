// RUN: gopt-opt %s -split-input-file -verify-each --convert-gopt-to-linalg --gopt-select-library-contractions | FileCheck %s
// The GPU pipeline's selection marks contractions only:
// RUN: gopt-opt %s -split-input-file -verify-each --convert-gopt-to-linalg --gopt-select-library-contractions=windowed-ops=false | FileCheck %s --check-prefix=GPU
// GPU-NOT: gopt.library_call
// GPU: library_call = "gopt_sgemm"
// GPU-NOT: gopt.library_call

// f32 linear: the contraction generic is marked for gopt_sgemm; the bias
// broadcast that initializes it is not.
// CHECK-LABEL: func.func @linear_bias
// CHECK: %[[INIT:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]}
// CHECK-NOT: library_call
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"], library_call = "gopt_sgemm"}
// CHECK-SAME: outs(%[[INIT]] :
func.func @linear_bias(%x: tensor<4x16xf32>, %w: tensor<16x32xf32>, %b: tensor<32xf32>) -> tensor<4x32xf32> {
  %y = gopt.linear %x, %w, %b : tensor<4x16xf32>, tensor<16x32xf32>, tensor<32xf32> -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}

// -----

// Transposed operands are maps the runtime reads as strides: still sgemm.
// CHECK-LABEL: func.func @linear_transposed
// CHECK: linalg.generic {{.*}}library_call = "gopt_sgemm"
func.func @linear_transposed(%x: tensor<16x4xf32>, %w: tensor<32x16xf32>) -> tensor<4x32xf32> {
  %y = gopt.linear %x, %w transpose_input transpose_weight : tensor<16x4xf32>, tensor<32x16xf32> -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}

// -----

// Batched matmul with a broadcast batch dim.
// CHECK-LABEL: func.func @batched
// CHECK: linalg.fill
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"], library_call = "gopt_sgemm"}
func.func @batched(%a: tensor<2x3x4x8xf32>, %b: tensor<3x8x5xf32>) -> tensor<2x3x4x5xf32> {
  %c = gopt.matmul %a, %b : tensor<2x3x4x8xf32>, tensor<3x8x5xf32> -> tensor<2x3x4x5xf32>
  return %c : tensor<2x3x4x5xf32>
}

// -----

// Not f32: the codegen path keeps it.
// CHECK-LABEL: func.func @integer
// CHECK: linalg.generic
// CHECK-NOT: library_call
func.func @integer(%a: tensor<4x8xi32>, %b: tensor<8x5xi32>) -> tensor<4x5xi32> {
  %c = gopt.matmul %a, %b : tensor<4x8xi32>, tensor<8x5xi32> -> tensor<4x5xi32>
  return %c : tensor<4x5xi32>
}

// -----

// CHECK-LABEL: func.func @half
// CHECK-NOT: library_call
func.func @half(%a: tensor<4x8xf16>, %b: tensor<8x5xf16>) -> tensor<4x5xf16> {
  %c = gopt.matmul %a, %b : tensor<4x8xf16>, tensor<8x5xf16> -> tensor<4x5xf16>
  return %c : tensor<4x5xf16>
}

// -----

// Other reductions and elementwise generics are no contractions.
// CHECK-LABEL: func.func @not_contractions
// CHECK-NOT: library_call
func.func @not_contractions(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %e = gopt.exp %x : tensor<4x8xf32>
  %s = gopt.reduce sum %e axes = [1] : tensor<4x8xf32> -> tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

// An f32 convolution is marked for gopt_conv2d on its padded input, into
// zeros, the bias added after by an unmarked generic; no im2col here (the
// runtime's fallback does that when it has no oneDNN).
// CHECK-LABEL: func.func @conv
// CHECK: %[[PAD:.*]] = tensor.pad
// CHECK: %[[ZERO:.*]] = linalg.fill
// CHECK: %[[CONV:.*]] = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, gopt.library_call = "gopt_conv2d", strides = dense<1> : tensor<2xi64>} ins(%[[PAD]], %{{.*}} : tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>) outs(%[[ZERO]] : tensor<1x8x6x6xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[CONV]], %{{.*}} : tensor<1x8x6x6xf32>, tensor<8xf32>)
// CHECK-NOT: library_call
func.func @conv(%x: tensor<1x4x6x6xf32>, %w: tensor<8x4x3x3xf32>, %b: tensor<8xf32>) -> tensor<1x8x6x6xf32> {
  %y = gopt.conv2d %x, %w, %b strides = [1, 1] padding = [1, 1, 1, 1] dilations = [1, 1] groups = 1 : tensor<1x4x6x6xf32>, tensor<8x4x3x3xf32>, tensor<8xf32> -> tensor<1x8x6x6xf32>
  return %y : tensor<1x8x6x6xf32>
}

// -----

// Dilated and grouped (here depthwise-like, groups = 2) convolutions are
// marked too; a non-f32 convolution is not.
// CHECK-LABEL: func.func @conv_variants
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<2> : tensor<2xi64>, gopt.library_call = "gopt_conv2d"
// CHECK: linalg.generic {{.*}} attrs = {gopt.grouped_conv2d = {dilations = array<i64: 1, 1>, groups = 2 : i64, strides = array<i64: 1, 1>}, gopt.library_call = "gopt_conv2d"}
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK-NOT: library_call
func.func @conv_variants(%x: tensor<1x4x9x9xf32>, %w: tensor<8x4x3x3xf32>, %g: tensor<8x2x3x3xf32>, %h: tensor<1x4x9x9xf16>, %wh: tensor<8x4x3x3xf16>) -> (tensor<1x8x5x5xf32>, tensor<1x8x7x7xf32>, tensor<1x8x7x7xf16>) {
  %d = gopt.conv2d %x, %w strides = [1, 1] padding = [0, 0, 0, 0] dilations = [2, 2] groups = 1 : tensor<1x4x9x9xf32>, tensor<8x4x3x3xf32> -> tensor<1x8x5x5xf32>
  %e = gopt.conv2d %x, %g strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 2 : tensor<1x4x9x9xf32>, tensor<8x2x3x3xf32> -> tensor<1x8x7x7xf32>
  %f = gopt.conv2d %h, %wh strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x4x9x9xf16>, tensor<8x4x3x3xf16> -> tensor<1x8x7x7xf16>
  return %d, %e, %f : tensor<1x8x5x5xf32>, tensor<1x8x7x7xf32>, tensor<1x8x7x7xf16>
}

// -----

// f32 max and average pooling are marked for gopt_pool2d (average pooling
// is a sum pooling, then the division); non-f32 pooling is not.
// CHECK-LABEL: func.func @pooling
// CHECK: linalg.pooling_nchw_max {{.*}}gopt.library_call = "gopt_pool2d"
// CHECK: linalg.pooling_nchw_sum {{.*}}gopt.library_call = "gopt_pool2d"
// CHECK: linalg.pooling_nchw_max
// CHECK-NOT: library_call
func.func @pooling(%x: tensor<1x4x9x9xf32>, %h: tensor<1x4x9x9xf16>) -> (tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>, tensor<1x4x4x4xf16>) {
  %m = gopt.pool2d max %x kernel = [3, 3] strides = [2, 2] padding = [0, 0, 0, 0] : tensor<1x4x9x9xf32> -> tensor<1x4x4x4xf32>
  %a = gopt.pool2d avg %x kernel = [3, 3] strides = [2, 2] padding = [0, 0, 0, 0] : tensor<1x4x9x9xf32> -> tensor<1x4x4x4xf32>
  %n = gopt.pool2d max %h kernel = [3, 3] strides = [2, 2] padding = [0, 0, 0, 0] : tensor<1x4x9x9xf16> -> tensor<1x4x4x4xf16>
  return %m, %a, %n : tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>, tensor<1x4x4x4xf16>
}

// -----

// An operand whose innermost dim is the batch dim has no unit matrix
// stride, which no GEMM takes: the codegen path keeps it.
// CHECK-LABEL: func.func @batch_innermost
// CHECK: linalg.generic
// CHECK-NOT: library_call
#a = affine_map<(b, m, n, k) -> (m, k, b)>
#b = affine_map<(b, m, n, k) -> (b, k, n)>
#c = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @batch_innermost(%x: tensor<4x8x2xf32>, %y: tensor<2x8x5xf32>, %z: tensor<2x4x5xf32>) -> tensor<2x4x5xf32> {
  %r = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %y : tensor<4x8x2xf32>, tensor<2x8x5xf32>) outs(%z : tensor<2x4x5xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x4x5xf32>
  return %r : tensor<2x4x5xf32>
}
