// RUN: gopt-opt %s -split-input-file -verify-each --gopt-lower-to-llvm=library-min-flops=0 | FileCheck %s --check-prefix=LIB
// RUN: gopt-opt %s -split-input-file -verify-each --gopt-lower-to-llvm="contractions=library library-min-flops=0" | FileCheck %s --check-prefix=LIB
// RUN: gopt-opt %s -split-input-file -verify-each --gopt-lower-to-llvm=contractions=codegen | FileCheck %s --check-prefix=CODEGEN
// RUN: not gopt-opt %s --gopt-lower-to-llvm=contractions=blas 2>&1 | FileCheck %s --check-prefix=BAD

// The two contraction paths of gopt-lower-to-llvm (the contractions here
// are small enough that by default, library-min-flops, the row-major ones
// would stay generated loops: test/Codegen/CPU/gopt-select-library-contractions-min-flops.mlir). Library (the default):
// the kernel calls gopt_sgemm on the result buffer its caller allocated, then runs the epilogue (bias, relu) over the
// result in place, in the same kernel function: still one kernel. Codegen:
// the contraction is vectorized loops (FMAs), no call.
// LIB: llvm.func @gopt_sgemm(i64, i64, i64, i64, f32, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, f32, !llvm.ptr, i64, i64, i64)
// LIB-LABEL: llvm.func @linear(
// LIB: llvm.call @_mlir_memref_to_llvm_aligned_alloc
// LIB: llvm.call @linear_k0_linear_add_relu(
// LIB-NOT: llvm.call @linear_k1
// LIB-LABEL: llvm.func @linear_k0_linear_add_relu(
// LIB-NOT: llvm.call
// LIB: llvm.call @gopt_sgemm(
// LIB-NOT: llvm.call
// LIB: llvm.fadd {{.*}} : vector<32xf32>
// LIB: llvm.fcmp "ugt" {{.*}} : vector<32xf32>
// LIB-NOT: llvm.call
// LIB: llvm.return
// CODEGEN-NOT: gopt_sgemm
// CODEGEN-LABEL: llvm.func @linear_k0_linear_add_relu(
// CODEGEN: llvm.intr.fmuladd
// CODEGEN: llvm.fcmp "ugt"
// CODEGEN: llvm.return
// BAD: Cannot find option named 'blas'
func.func @linear(%x: tensor<4x16xf32>, %w: tensor<16x32xf32>, %b: tensor<32xf32>) -> tensor<4x32xf32> {
  %r = gopt.fusion(%x, %w, %b : tensor<4x16xf32>, tensor<16x32xf32>, tensor<32xf32>) -> tensor<4x32xf32> {
  ^bb0(%a: tensor<4x16xf32>, %c: tensor<16x32xf32>, %d: tensor<32xf32>):
    %l = gopt.linear %a, %c : tensor<4x16xf32>, tensor<16x32xf32> -> tensor<4x32xf32>
    %s = gopt.add %l, %d : tensor<4x32xf32>, tensor<32xf32> -> tensor<4x32xf32>
    %t = gopt.relu %s : tensor<4x32xf32>
    gopt.yield %t : tensor<4x32xf32>
  }
  return %r : tensor<4x32xf32>
}

// -----

// Integer matmul: sgemm cannot compute it, the codegen path does, on both.
// LIB-LABEL: llvm.func @integer_k0_matmul(
// LIB-NOT: gopt_sgemm
// LIB: llvm.return
// CODEGEN-LABEL: llvm.func @integer_k0_matmul(
func.func @integer(%a: tensor<4x8xi32>, %b: tensor<8x5xi32>) -> tensor<4x5xi32> {
  %c = gopt.matmul %a, %b : tensor<4x8xi32>, tensor<8x5xi32> -> tensor<4x5xi32>
  return %c : tensor<4x5xi32>
}
