// RUN: gopt-opt %s -verify-each --gopt-optimize=layout=false --gopt-lower-to-nvvm='format=isa conv-gemm=true' | FileCheck %s --check-prefix=NCHW
// RUN: gopt-opt %s -verify-each --gopt-optimize --gopt-lower-to-nvvm='format=isa conv-gemm=true' | FileCheck %s --check-prefix=NHWC
// RUN: gopt-opt %s --gopt-optimize --gopt-lower-to-nvvm=format=isa | FileCheck %s --check-prefix=DIRECT
// ptxas assembles the im2col kernel for sm_90:
// RUN: %if ptxas %{ gopt-opt %s --gopt-optimize --gopt-lower-to-nvvm='format=bin conv-gemm=true' | FileCheck %s --check-prefix=CUBIN %}
// CUBIN-NOT: assembly = "
// CUBIN-COUNT-2: gpu.binary @conv_bias_relu_k2_conv2d_relu_kernel{{.*}}ISAToBinaryTimeInMs{{.*}}bin = "{{\\}}7FELF

// With conv-gemm, a convolution (its kernel: conv2d, bias, relu) is the
// im2col launch (which reads the unpadded input and writes zeros where the
// padding is: no padded copy of the input), one cuBLAS call
// (gopt_cuda_sgemm, beta 0) and the epilogue's launch (bias, relu). The
// numerics of the same rewrite on the CPU: test/Runner/conv-gemm.mlir.

// In NCHW, C[n] (16 × 64) = filter (16 × 72, shared: A's batch stride 0) ·
// im2col[n] (72 × 64, batch stride 4608), 2 batches.
// NCHW-LABEL: llvm.func @conv_bias_relu(
// NCHW-DAG: %[[C0:.*]] = llvm.mlir.constant(0 : i64) : i64
// NCHW-DAG: %[[BETA:.*]] = llvm.mlir.constant(0.000000e+00 : f32) : f32
// NCHW-DAG: %[[C1:.*]] = llvm.mlir.constant(1 : i64) : i64
// NCHW-DAG: %[[C2:.*]] = llvm.mlir.constant(2 : i64) : i64
// NCHW-DAG: %[[C16:.*]] = llvm.mlir.constant(16 : i64) : i64
// NCHW-DAG: %[[C64:.*]] = llvm.mlir.constant(64 : i64) : i64
// NCHW-DAG: %[[C72:.*]] = llvm.mlir.constant(72 : i64) : i64
// NCHW-DAG: %[[C1024:.*]] = llvm.mlir.constant(1024 : i64) : i64
// NCHW-DAG: %[[C4608:.*]] = llvm.mlir.constant(4608 : i64) : i64
// NCHW: gpu.launch_func {{.*}}@conv_bias_relu_k0_conv2d_relu_kernel::
// NCHW-NOT: gpu.launch_func
// NCHW: llvm.call @gopt_cuda_sgemm_async(%{{[^,]*}}, %[[C2]], %[[C16]], %[[C64]], %[[C72]], %{{.*}}, %{{.*}}, %[[C0]], %[[C72]], %[[C1]], %{{.*}}, %[[C4608]], %[[C64]], %[[C1]], %[[BETA]], %{{.*}}, %[[C1024]], %[[C64]], %[[C1]])
// NCHW: gpu.launch_func {{.*}}@conv_bias_relu_k0_conv2d_relu_kernel_0::
// NCHW-NOT: gpu.launch_func
// NCHW: llvm.return

// In NHWC (gopt-channels-last; the transposes are the model's input, weight
// and output): C[n] (64 × 16) = im2col[n] (64 × 72) · filterᵀ (72 × 16,
// read along its rows: B's row stride 1, column stride 72); the runtime
// makes the batches one GEMM of 128 rows (A's and C's batches follow
// each other, B is shared).
// NHWC-LABEL: llvm.func @conv_bias_relu(
// NHWC-DAG: %[[C0:.*]] = llvm.mlir.constant(0 : i64) : i64
// NHWC-DAG: %[[BETA:.*]] = llvm.mlir.constant(0.000000e+00 : f32) : f32
// NHWC-DAG: %[[C1:.*]] = llvm.mlir.constant(1 : i64) : i64
// NHWC-DAG: %[[C2:.*]] = llvm.mlir.constant(2 : i64) : i64
// NHWC-DAG: %[[C16:.*]] = llvm.mlir.constant(16 : i64) : i64
// NHWC-DAG: %[[C64:.*]] = llvm.mlir.constant(64 : i64) : i64
// NHWC-DAG: %[[C72:.*]] = llvm.mlir.constant(72 : i64) : i64
// NHWC-DAG: %[[C1024:.*]] = llvm.mlir.constant(1024 : i64) : i64
// NHWC-DAG: %[[C4608:.*]] = llvm.mlir.constant(4608 : i64) : i64
// NHWC: gpu.launch_func {{.*}}@conv_bias_relu_k0_transpose_kernel::
// NHWC: gpu.launch_func {{.*}}@conv_bias_relu_k1_transpose_kernel::
// NHWC: gpu.launch_func {{.*}}@conv_bias_relu_k2_conv2d_relu_kernel::
// NHWC-NOT: gpu.launch_func
// NHWC: llvm.call @gopt_cuda_sgemm_async(%{{[^,]*}}, %[[C2]], %[[C64]], %[[C16]], %[[C72]], %{{.*}}, %{{.*}}, %[[C4608]], %[[C72]], %[[C1]], %{{.*}}, %[[C0]], %[[C1]], %[[C72]], %[[BETA]], %{{.*}}, %[[C1024]], %[[C16]], %[[C1]])
// NHWC: gpu.launch_func {{.*}}@conv_bias_relu_k2_conv2d_relu_kernel_0::
// NHWC: gpu.launch_func {{.*}}@conv_bias_relu_k3_transpose_kernel::
// NHWC-NOT: gpu.launch_func
// NHWC: llvm.return

// Without conv-gemm (the default): the convolution and its epilogue are one
// launch, one output element per thread, and no GEMM call.
// DIRECT-LABEL: llvm.func @conv_bias_relu(
// DIRECT-NOT: gopt_cuda_sgemm
// DIRECT: gpu.launch_func {{.*}}@conv_bias_relu_k2_conv2d_relu_kernel::
// DIRECT-NOT: gopt_cuda_sgemm
// DIRECT: gpu.launch_func {{.*}}@conv_bias_relu_k3_transpose_kernel::
// DIRECT-NOT: gpu.launch_func
// DIRECT: llvm.return
func.func @conv_bias_relu(%x: tensor<2x8x16x16xf32>, %w: tensor<16x8x3x3xf32>, %b: tensor<16xf32>) -> tensor<2x16x8x8xf32> {
  %0 = gopt.conv2d %x, %w, %b strides = [2, 2] padding = [1, 1, 1, 1] dilations = [1, 1] groups = 1 : tensor<2x8x16x16xf32>, tensor<16x8x3x3xf32>, tensor<16xf32> -> tensor<2x16x8x8xf32>
  %1 = gopt.relu %0 : tensor<2x16x8x8xf32>
  return %1 : tensor<2x16x8x8xf32>
}
