// RUN: gopt-opt %s -split-input-file -verify-each --gopt-optimize --gopt-lower-to-nvvm="format=isa cublaslt-epilogues=true" | FileCheck %s

// gopt-lower-to-nvvm{cublaslt-epilogues}: a contraction whose kernel's
// epilogue is a bias along the result's last dim, or a bias and a ReLU, is
// one call of gopt_cuda_sgemm_epilogue (cuBLASLt applies them in the GEMM):
// gopt_cuda_sgemm's arguments without beta, then the bias and the
// epilogue's code (1: bias, 2: bias then ReLU). No launch is left.
// CHECK-LABEL: llvm.func @linear_bias_relu(
// CHECK-SAME: %[[ARG:[^:]*]]: !llvm.ptr
// CHECK-DAG: %[[M:.*]] = llvm.mlir.constant(128 : i64) : i64
// CHECK-DAG: %[[N:.*]] = llvm.mlir.constant(64 : i64) : i64
// CHECK-DAG: %[[K:.*]] = llvm.mlir.constant(256 : i64) : i64
// CHECK-DAG: %[[RELU:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-NOT: gpu.launch_func
// CHECK: llvm.call @gopt_cuda_sgemm_epilogue_async(%{{[^,]*}}, %{{.*}}, %[[M]], %[[N]], %[[K]], %{{.*}}, %{{.*}}, %{{.*}}, %[[K]], %{{.*}}, %{{.*}}, %{{.*}}, %[[N]], %{{.*}}, %{{.*}}, %{{.*}}, %[[N]], %{{.*}}, %{{.*}}, %[[RELU]])
// CHECK-NOT: gpu.launch_func
// CHECK-NOT: @gopt_cuda_sgemm_async(
// CHECK: llvm.return
// CHECK-NOT: gpu.binary @linear_bias_relu_k0
func.func @linear_bias_relu(%x: tensor<128x256xf32>, %w: tensor<256x64xf32>, %b: tensor<64xf32>) -> tensor<128x64xf32> {
  %0 = gopt.matmul %x, %w : tensor<128x256xf32>, tensor<256x64xf32> -> tensor<128x64xf32>
  %1 = gopt.add %0, %b : tensor<128x64xf32>, tensor<64xf32> -> tensor<128x64xf32>
  %2 = gopt.relu %1 : tensor<128x64xf32>
  return %2 : tensor<128x64xf32>
}

// -----

// A bias alone, over a batch that shares the weight (a linear layer over a
// sequence): one call of batch 2, its rows one after the other, code 1.
// CHECK-LABEL: llvm.func @batched_linear_bias(
// CHECK-DAG: %[[BATCH:.*]] = llvm.mlir.constant(2 : i64) : i64
// CHECK-DAG: %[[BIAS:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NOT: gpu.launch_func
// CHECK: llvm.call @gopt_cuda_sgemm_epilogue_async(%{{[^,]*}}, %[[BATCH]], {{.*}}, %[[BIAS]])
// CHECK-NOT: gpu.launch_func
// CHECK: llvm.return
func.func @batched_linear_bias(%x: tensor<2x128x256xf32>, %w: tensor<256x64xf32>, %b: tensor<64xf32>) -> tensor<2x128x64xf32> {
  %0 = gopt.matmul %x, %w : tensor<2x128x256xf32>, tensor<256x64xf32> -> tensor<2x128x64xf32>
  %1 = gopt.add %0, %b : tensor<2x128x64xf32>, tensor<64xf32> -> tensor<2x128x64xf32>
  return %1 : tensor<2x128x64xf32>
}

// -----

// What cuBLASLt does not apply stays a cuBLAS call and a launch: a residual
// of the result's shape, and a bias followed by a scaling.
// CHECK-LABEL: llvm.func @residual(
// CHECK: llvm.call @gopt_cuda_sgemm_async(%{{[^,]*}},
// CHECK: gpu.launch_func
// CHECK-NOT: @gopt_cuda_sgemm_epilogue_async
// CHECK: llvm.return
func.func @residual(%x: tensor<128x256xf32>, %w: tensor<256x64xf32>, %r: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %0 = gopt.matmul %x, %w : tensor<128x256xf32>, tensor<256x64xf32> -> tensor<128x64xf32>
  %1 = gopt.add %0, %r : tensor<128x64xf32>
  return %1 : tensor<128x64xf32>
}

// -----

// CHECK-LABEL: llvm.func @bias_then_scale(
// CHECK: llvm.call @gopt_cuda_sgemm_async(%{{[^,]*}},
// CHECK: gpu.launch_func
// CHECK-NOT: @gopt_cuda_sgemm_epilogue_async
// CHECK: llvm.return
func.func @bias_then_scale(%x: tensor<128x256xf32>, %w: tensor<256x64xf32>, %b: tensor<64xf32>, %s: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %0 = gopt.matmul %x, %w : tensor<128x256xf32>, tensor<256x64xf32> -> tensor<128x64xf32>
  %1 = gopt.add %0, %b : tensor<128x64xf32>, tensor<64xf32> -> tensor<128x64xf32>
  %2 = gopt.mul %1, %s : tensor<128x64xf32>
  return %2 : tensor<128x64xf32>
}

// -----

// A linear's bias operand starts its GEMM's result (beta 1 after a
// broadcast launch); here the GEMM starts from zero and the bias, with the
// ReLU after it, is the call's epilogue: no launch.
// CHECK-LABEL: llvm.func @linear_bias_operand_relu(
// CHECK-DAG: %[[RELU:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-NOT: gpu.launch_func
// CHECK: llvm.call @gopt_cuda_sgemm_epilogue_async(%{{[^,]*}}, {{.*}}, %[[RELU]])
// CHECK-NOT: gpu.launch_func
// CHECK: llvm.return
func.func @linear_bias_operand_relu(%x: tensor<128x256xf32>, %w: tensor<256x64xf32>, %b: tensor<64xf32>) -> tensor<128x64xf32> {
  %0 = gopt.linear %x, %w, %b : tensor<128x256xf32>, tensor<256x64xf32>, tensor<64xf32> -> tensor<128x64xf32>
  %1 = gopt.relu %0 : tensor<128x64xf32>
  return %1 : tensor<128x64xf32>
}

// -----

// CHECK-LABEL: llvm.func @linear_bias_operand(
// CHECK-DAG: %[[BIAS:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NOT: gpu.launch_func
// CHECK: llvm.call @gopt_cuda_sgemm_epilogue_async(%{{[^,]*}}, {{.*}}, %[[BIAS]])
// CHECK-NOT: gpu.launch_func
// CHECK: llvm.return
func.func @linear_bias_operand(%x: tensor<128x256xf32>, %w: tensor<64x256xf32>, %b: tensor<64xf32>) -> tensor<128x64xf32> {
  %0 = gopt.linear %x, %w, %b transpose_weight : tensor<128x256xf32>, tensor<64x256xf32>, tensor<64xf32> -> tensor<128x64xf32>
  return %0 : tensor<128x64xf32>
}

// -----

// A batch with a B of its own per batch is no GEMM of all rows, which is
// all cuBLASLt's bias takes here (gopt_cuda_sgemm_epilogue stops the program
// on any other batch): a strided-batched cuBLAS call and the epilogue's
// launch.
// CHECK-LABEL: llvm.func @batched_weights_bias(
// CHECK: llvm.call @gopt_cuda_sgemm_async(
// CHECK: gpu.launch_func
// CHECK-NOT: @gopt_cuda_sgemm_epilogue_async
// CHECK: llvm.return
func.func @batched_weights_bias(%x: tensor<4x16x8xf32>, %y: tensor<4x8x32xf32>, %b: tensor<32xf32>) -> tensor<4x16x32xf32> {
  %m = gopt.matmul %x, %y : tensor<4x16x8xf32>, tensor<4x8x32xf32> -> tensor<4x16x32xf32>
  %r = gopt.add %m, %b : tensor<4x16x32xf32>, tensor<32xf32> -> tensor<4x16x32xf32>
  return %r : tensor<4x16x32xf32>
}
