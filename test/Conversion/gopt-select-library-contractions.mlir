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
