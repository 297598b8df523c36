// RUN: gopt-opt %s -split-input-file -verify-each --gopt-optimize --gopt-lower-to-nvvm=format=isa | FileCheck %s

// Contractions on the GPU are cuBLAS calls (gopt_cuda_sgemm, the runtime's
// lib/Runtime/CUDA/CuBLAS.cpp) on device pointers; the kernel's epilogue
// (bias, relu) is its one launch and runs in place over the GEMM's result.
// (The kernel functions are inlined into the entry.)
// A zero-initialized result becomes beta = 0.
// CHECK-LABEL: llvm.func @linear_bias_relu(
// CHECK-DAG: %[[BETA:.*]] = llvm.mlir.constant(0.000000e+00 : f32) : f32
// CHECK-DAG: %[[M:.*]] = llvm.mlir.constant(128 : i64) : i64
// CHECK-DAG: %[[N:.*]] = llvm.mlir.constant(64 : i64) : i64
// CHECK-DAG: %[[K:.*]] = llvm.mlir.constant(256 : i64) : i64
// CHECK: llvm.call @gopt_cuda_sgemm(%{{.*}}, %[[M]], %[[N]], %[[K]], %{{.*}}, %{{.*}}, %{{.*}}, %[[K]], %{{.*}}, %{{.*}}, %{{.*}}, %[[N]], %{{.*}}, %[[BETA]],
// CHECK: gpu.launch_func {{.*}}@linear_bias_relu_k0_matmul_add_relu_kernel::@linear_bias_relu_k0_matmul_add_relu_kernel
// CHECK-NOT: gpu.launch_func
// CHECK: llvm.return
// CHECK: gpu.binary @linear_bias_relu_k0_matmul_add_relu_kernel
func.func @linear_bias_relu(%x: tensor<128x256xf32>, %w: tensor<256x64xf32>, %b: tensor<64xf32>) -> tensor<128x64xf32> {
  %0 = gopt.matmul %x, %w : tensor<128x256xf32>, tensor<256x64xf32> -> tensor<128x64xf32>
  %1 = gopt.add %0, %b : tensor<128x64xf32>, tensor<64xf32> -> tensor<128x64xf32>
  %2 = gopt.relu %1 : tensor<128x64xf32>
  return %2 : tensor<128x64xf32>
}

// -----

// A batched matmul of a transposed operand is one strided-batched call
// (batch 12) that reads Kᵀ through strides (gopt-fuse puts the transpose
// into the matmul's kernel, which folds it: B's k stride 1, n stride 32):
// no launch, no transposed copy.
// CHECK-LABEL: llvm.func @batched_transposed(
// CHECK-DAG: %[[BATCH:.*]] = llvm.mlir.constant(12 : i64) : i64
// CHECK-DAG: %[[C32:.*]] = llvm.mlir.constant(32 : i64) : i64
// CHECK-DAG: %[[C2048:.*]] = llvm.mlir.constant(2048 : i64) : i64
// CHECK-DAG: %[[C1:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-NOT: gpu.launch_func
// CHECK: llvm.call @gopt_cuda_sgemm(%[[BATCH]], {{.*}}, %[[C2048]], %[[C32]], %[[C1]], %{{.*}}, %[[C2048]], %[[C1]], %[[C32]],
// CHECK-NOT: gpu.launch_func
// CHECK: llvm.return
// CHECK-NOT: gpu.binary @batched_transposed_k0
func.func @batched_transposed(%q: tensor<12x64x32xf32>, %k: tensor<12x64x32xf32>) -> tensor<12x64x64xf32> {
  %kt = gopt.transpose %k perm = [0, 2, 1] : tensor<12x64x32xf32> -> tensor<12x32x64xf32>
  %s = gopt.matmul %q, %kt : tensor<12x64x32xf32>, tensor<12x32x64xf32> -> tensor<12x64x64xf32>
  return %s : tensor<12x64x64xf32>
}
