// RUN: gopt-opt %s -split-input-file --convert-gopt-to-linalg --gopt-select-library-contractions=min-flops=131072 | FileCheck %s
// RUN: gopt-opt %s -split-input-file --convert-gopt-to-linalg --gopt-select-library-contractions | FileCheck %s --check-prefix=ALL
// The default CPU pipeline sets the same threshold:
// RUN: gopt-opt %s -split-input-file --gopt-lower-to-llvm | FileCheck %s --check-prefix=PIPELINE

// A GEMM of fewer than 2^17 FLOPs in row-major layout is faster as
// generated loops than as a library call (measured crossover: 16x64x64
// ties; docs/Lowering.md). Batches count apart: 4 GEMMs of 2·32·32·32.
// CHECK-LABEL: func.func @small_row_major
// CHECK-NOT: library_call
// CHECK: return
// ALL-LABEL: func.func @small_row_major
// ALL: library_call = "gopt_sgemm"
// PIPELINE-LABEL: llvm.func @small_row_major
// PIPELINE-NOT: gopt_sgemm
// PIPELINE: llvm.return
func.func @small_row_major(%a: tensor<4x32x32xf32>, %b: tensor<4x32x32xf32>) -> tensor<4x32x32xf32> {
  %0 = gopt.matmul %a, %b : tensor<4x32x32xf32>, tensor<4x32x32xf32> -> tensor<4x32x32xf32>
  return %0 : tensor<4x32x32xf32>
}

// -----

// At the threshold and above: the library.
// CHECK-LABEL: func.func @at_threshold
// CHECK: library_call = "gopt_sgemm"
func.func @at_threshold(%a: tensor<16x64xf32>, %b: tensor<64x64xf32>) -> tensor<16x64xf32> {
  %0 = gopt.matmul %a, %b : tensor<16x64xf32>, tensor<64x64xf32> -> tensor<16x64xf32>
  return %0 : tensor<16x64xf32>
}

// -----

// A transposed right operand (a linear layer's weight as torch stores it)
// is read strided by the loops: the library even when small.
// CHECK-LABEL: func.func @small_transposed
// CHECK: library_call = "gopt_sgemm"
func.func @small_transposed(%x: tensor<8x32xf32>, %w: tensor<32x32xf32>) -> tensor<8x32xf32> {
  %0 = gopt.linear %x, %w transpose_weight : tensor<8x32xf32>, tensor<32x32xf32> -> tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}
