// RUN: gopt-opt %s -split-input-file -verify-each --convert-gopt-to-linalg --gopt-select-library-contractions | FileCheck %s

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

// An f32 convolution becomes im2col (a gather generic into
// [N, C·KH·KW, OH·OW]) and a marked contraction of the collapsed filter with
// it, into the collapsed bias; the result is expanded back to NCHW.
// CHECK-LABEL: func.func @conv
// CHECK: %[[PAD:.*]] = tensor.pad
// CHECK: %[[BIAS:.*]] = linalg.generic
// CHECK-DAG: %[[FILTER:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2, 3]] : tensor<8x4x3x3xf32> into tensor<8x36xf32>
// CHECK-DAG: %[[INIT:.*]] = tensor.collapse_shape %[[BIAS]] {{\[\[}}0], [1], [2, 3]] : tensor<1x8x6x6xf32> into tensor<1x8x36xf32>
// CHECK: %[[COLS:.*]] = linalg.generic {{.*}} ins(%[[PAD]] : tensor<1x4x8x8xf32>) outs(%{{.*}} : tensor<1x36x36xf32>)
// CHECK: %[[MM:.*]] = linalg.generic {{.*}}library_call = "gopt_sgemm"} ins(%[[FILTER]], %[[COLS]] : tensor<8x36xf32>, tensor<1x36x36xf32>) outs(%[[INIT]] : tensor<1x8x36xf32>)
// CHECK: tensor.expand_shape %[[MM]] {{.*}} into tensor<1x8x6x6xf32>
// CHECK-NOT: linalg.conv_2d
func.func @conv(%x: tensor<1x4x6x6xf32>, %w: tensor<8x4x3x3xf32>, %b: tensor<8xf32>) -> tensor<1x8x6x6xf32> {
  %y = gopt.conv2d %x, %w, %b strides = [1, 1] padding = [1, 1, 1, 1] dilations = [1, 1] groups = 1 : tensor<1x4x6x6xf32>, tensor<8x4x3x3xf32>, tensor<8xf32> -> tensor<1x8x6x6xf32>
  return %y : tensor<1x8x6x6xf32>
}

// -----

// Dilated (upstream im2col takes no dilation) or grouped convolutions stay
// on the codegen path.
// CHECK-LABEL: func.func @conv_fallbacks
// CHECK-NOT: library_call
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK-NOT: library_call
func.func @conv_fallbacks(%x: tensor<1x4x9x9xf32>, %w: tensor<8x4x3x3xf32>, %g: tensor<8x2x3x3xf32>) -> (tensor<1x8x5x5xf32>, tensor<1x8x7x7xf32>) {
  %d = gopt.conv2d %x, %w strides = [1, 1] padding = [0, 0, 0, 0] dilations = [2, 2] groups = 1 : tensor<1x4x9x9xf32>, tensor<8x4x3x3xf32> -> tensor<1x8x5x5xf32>
  %e = gopt.conv2d %x, %g strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 2 : tensor<1x4x9x9xf32>, tensor<8x2x3x3xf32> -> tensor<1x8x7x7xf32>
  return %d, %e : tensor<1x8x5x5xf32>, tensor<1x8x7x7xf32>
}
