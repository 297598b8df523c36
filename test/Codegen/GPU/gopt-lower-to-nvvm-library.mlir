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
// CHECK: llvm.call @gopt_cuda_sgemm_async(%{{[^,]*}}, %{{.*}}, %[[M]], %[[N]], %[[K]], %{{.*}}, %{{.*}}, %{{.*}}, %[[K]], %{{.*}}, %{{.*}}, %{{.*}}, %[[N]], %{{.*}}, %[[BETA]],
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
// CHECK: llvm.call @gopt_cuda_sgemm_async(%{{[^,]*}}, %[[BATCH]], {{.*}}, %[[C2048]], %[[C32]], %[[C1]], %{{.*}}, %[[C2048]], %[[C1]], %[[C32]],
// CHECK-NOT: gpu.launch_func
// CHECK: llvm.return
// CHECK-NOT: gpu.binary @batched_transposed_k0
func.func @batched_transposed(%q: tensor<12x64x32xf32>, %k: tensor<12x64x32xf32>) -> tensor<12x64x64xf32> {
  %kt = gopt.transpose %k perm = [0, 2, 1] : tensor<12x64x32xf32> -> tensor<12x32x64xf32>
  %s = gopt.matmul %q, %kt : tensor<12x64x32xf32>, tensor<12x32x64xf32> -> tensor<12x64x64xf32>
  return %s : tensor<12x64x64xf32>
}

// -----

// Q and K sliced out of one projection and split into heads: the slices
// are views inside the kernel that reads them (gopt-fuse-slice-inputs), so
// the GEMM reads both from the projection itself through strides (A: batch
// stride 16, row stride 192; Kᵀ: column stride 192, at an offset of 64
// elements): no launch at all, no copy of Q or K.
// CHECK-LABEL: llvm.func @qk_slices(
// CHECK-DAG: %[[C4:.*]] = llvm.mlir.constant(4 : i64) : i64
// CHECK-DAG: %[[C32:.*]] = llvm.mlir.constant(32 : i64) : i64
// CHECK-DAG: %[[C16:.*]] = llvm.mlir.constant(16 : i64) : i64
// CHECK-DAG: %[[C192:.*]] = llvm.mlir.constant(192 : i64) : i64
// CHECK-DAG: %[[C1:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-DAG: %[[C1024:.*]] = llvm.mlir.constant(1024 : i64) : i64
// CHECK-DAG: %[[KBYTES:.*]] = llvm.mlir.constant(256 : index) : i64
// CHECK-NOT: gpu.launch_func
// CHECK: %[[KADDR:.*]] = llvm.add %{{.*}}, %[[KBYTES]] : i64
// CHECK: %[[K:.*]] = llvm.inttoptr %[[KADDR]] : i64 to !llvm.ptr
// CHECK: llvm.call @gopt_cuda_sgemm_async(%{{[^,]*}}, %[[C4]], %[[C32]], %[[C32]], %[[C16]], %{{.*}}, %{{.*}}, %[[C16]], %[[C192]], %[[C1]], %[[K]], %[[C16]], %[[C1]], %[[C192]], %{{.*}}, %{{.*}}, %[[C1024]], %[[C32]], %[[C1]])
// CHECK-NOT: gpu.launch_func
// CHECK: llvm.return
func.func @qk_slices(%qkv: tensor<32x192xf32>) -> tensor<4x32x32xf32> {
  %q = gopt.slice %qkv starts = [0, 0] ends = [32, 64] steps = [1, 1] : tensor<32x192xf32> -> tensor<32x64xf32>
  %k = gopt.slice %qkv starts = [0, 64] ends = [32, 128] steps = [1, 1] : tensor<32x192xf32> -> tensor<32x64xf32>
  %q4 = gopt.reshape %q : tensor<32x64xf32> -> tensor<32x4x16xf32>
  %k4 = gopt.reshape %k : tensor<32x64xf32> -> tensor<32x4x16xf32>
  %qt = gopt.transpose %q4 perm = [1, 0, 2] : tensor<32x4x16xf32> -> tensor<4x32x16xf32>
  %kt = gopt.transpose %k4 perm = [1, 2, 0] : tensor<32x4x16xf32> -> tensor<4x16x32xf32>
  %s = gopt.matmul %qt, %kt : tensor<4x32x16xf32>, tensor<4x16x32xf32> -> tensor<4x32x32xf32>
  return %s : tensor<4x32x32xf32>
}

// -----

// Attention over heads split from [seq, heads, dim] and merged back: the
// scaling of Q is the first GEMM's alpha (gopt-split-attention-kernels puts
// it into Q·Kᵀ's kernel, gopt-fold-scaling-into-contractions into the
// contraction), and the second GEMM writes its result with the heads merged
// (C: batch stride 16, row stride 64), so the softmax is the one launch.
// CHECK-LABEL: llvm.func @attention_heads(
// CHECK-DAG: %[[QUARTER:.*]] = llvm.mlir.constant(2.500000e-01 : f32) : f32
// CHECK-DAG: %[[ONE:.*]] = llvm.mlir.constant(1.000000e+00 : f32) : f32
// CHECK-DAG: %[[C4:.*]] = llvm.mlir.constant(4 : i64) : i64
// CHECK-DAG: %[[C32:.*]] = llvm.mlir.constant(32 : i64) : i64
// CHECK-DAG: %[[C16:.*]] = llvm.mlir.constant(16 : i64) : i64
// CHECK-DAG: %[[C64:.*]] = llvm.mlir.constant(64 : i64) : i64
// CHECK-DAG: %[[C1:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-NOT: gpu.launch_func
// CHECK: llvm.call @gopt_cuda_sgemm_async(%{{[^,]*}}, %[[C4]], %[[C32]], %[[C32]], %[[C16]], %[[QUARTER]], %{{.*}}, %[[C16]], %[[C64]], %[[C1]], %{{.*}}, %[[C16]], %[[C1]], %[[C64]],
// CHECK: gpu.launch_func {{.*}}@attention_heads_k{{[0-9]+}}_softmax_kernel
// CHECK-NOT: gpu.launch_func
// CHECK: llvm.call @gopt_cuda_sgemm_async(%{{[^,]*}}, %[[C4]], %[[C32]], %[[C16]], %[[C32]], %[[ONE]], {{.*}}, %{{.*}}, %{{.*}}, %[[C16]], %[[C64]], %[[C1]])
// CHECK-NOT: gpu.launch_func
// CHECK: llvm.return
func.func @attention_heads(%q: tensor<32x4x16xf32>, %k: tensor<32x4x16xf32>, %v: tensor<32x4x16xf32>) -> tensor<32x4x16xf32> {
  %c = gopt.constant dense<4.0> : tensor<f32>
  %qs = gopt.div %q, %c : tensor<32x4x16xf32>, tensor<f32> -> tensor<32x4x16xf32>
  %qt = gopt.transpose %qs perm = [1, 0, 2] : tensor<32x4x16xf32> -> tensor<4x32x16xf32>
  %kt = gopt.transpose %k perm = [1, 2, 0] : tensor<32x4x16xf32> -> tensor<4x16x32xf32>
  %vt = gopt.transpose %v perm = [1, 0, 2] : tensor<32x4x16xf32> -> tensor<4x32x16xf32>
  %s = gopt.matmul %qt, %kt : tensor<4x32x16xf32>, tensor<4x16x32xf32> -> tensor<4x32x32xf32>
  %p = gopt.softmax %s axis = 2 : tensor<4x32x32xf32>
  %o = gopt.matmul %p, %vt : tensor<4x32x32xf32>, tensor<4x32x16xf32> -> tensor<4x32x16xf32>
  %m = gopt.transpose %o perm = [1, 0, 2] : tensor<4x32x16xf32> -> tensor<32x4x16xf32>
  return %m : tensor<32x4x16xf32>
}

// -----

// Three linears of one input (Q, K and V projected apart) are one GEMM of
// their weights joined along N (gopt-merge-sibling-linears: n = 3·8), and
// the GEMMs that read the three projections read them as strided views of
// its result (row stride 24, K at 8 elements, V at 16): three cuBLAS calls
// where there were five, no launch.
// CHECK-LABEL: llvm.func @sibling_linears(
// CHECK-DAG: %[[C32:.*]] = llvm.mlir.constant(32 : i64) : i64
// CHECK-DAG: %[[C24:.*]] = llvm.mlir.constant(24 : i64) : i64
// CHECK-DAG: %[[C16:.*]] = llvm.mlir.constant(16 : i64) : i64
// CHECK-DAG: %[[C8:.*]] = llvm.mlir.constant(8 : i64) : i64
// CHECK-DAG: %[[C1:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-NOT: gpu.launch_func
// CHECK: llvm.call @gopt_cuda_sgemm_async(%{{[^,]*}}, %{{[^,]*}}, %[[C32]], %[[C24]], %[[C16]],
// CHECK: llvm.call @gopt_cuda_sgemm_async(%{{[^,]*}}, %{{[^,]*}}, %[[C32]], %[[C32]], %[[C8]], %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %[[C24]], %[[C1]], %{{[^,]*}}, %{{[^,]*}}, %[[C1]], %[[C24]],
// CHECK: llvm.call @gopt_cuda_sgemm_async(%{{[^,]*}}, %{{[^,]*}}, %[[C32]], %[[C8]], %[[C32]], %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %[[C32]], %[[C1]], %{{[^,]*}}, %{{[^,]*}}, %[[C24]], %[[C1]],
// CHECK-NOT: gpu.launch_func
// CHECK-NOT: llvm.call @gopt_cuda_sgemm
// CHECK: llvm.return
func.func @sibling_linears(%x: tensor<32x16xf32>) -> tensor<32x8xf32> {
  %wq = gopt.constant dense<0.5> : tensor<16x8xf32>
  %wk = gopt.constant dense<0.25> : tensor<16x8xf32>
  %wv = gopt.constant dense<0.125> : tensor<16x8xf32>
  %q = gopt.linear %x, %wq : tensor<32x16xf32>, tensor<16x8xf32> -> tensor<32x8xf32>
  %k = gopt.linear %x, %wk : tensor<32x16xf32>, tensor<16x8xf32> -> tensor<32x8xf32>
  %v = gopt.linear %x, %wv : tensor<32x16xf32>, tensor<16x8xf32> -> tensor<32x8xf32>
  %kt = gopt.transpose %k perm = [1, 0] : tensor<32x8xf32> -> tensor<8x32xf32>
  %s = gopt.matmul %q, %kt : tensor<32x8xf32>, tensor<8x32xf32> -> tensor<32x32xf32>
  %o = gopt.matmul %s, %v : tensor<32x32xf32>, tensor<32x8xf32> -> tensor<32x8xf32>
  return %o : tensor<32x8xf32>
}

// -----

// A sublayer's end: the GEMM's epilogue (bias, residual) and the layer norm
// of the sum are one launch after the cuBLAS call
// (gopt-fuse-gemm-layer-norms), where they were two.
// CHECK-LABEL: llvm.func @residual_norm(
// CHECK-NOT: gpu.launch_func
// CHECK: llvm.call @gopt_cuda_sgemm_async(
// CHECK-NEXT: gpu.launch_func {{.*}}@residual_norm_k0_matmul_add_add_layer_norm_kernel
// CHECK-NOT: gpu.launch_func
// CHECK: llvm.return
func.func @residual_norm(%x: tensor<16x64xf32>, %r: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %w = gopt.constant dense<0.03125> : tensor<64x64xf32>
  %b = gopt.constant dense<0.5> : tensor<64xf32>
  %g = gopt.constant dense<1.5> : tensor<64xf32>
  %be = gopt.constant dense<-0.25> : tensor<64xf32>
  %m = gopt.matmul %x, %w : tensor<16x64xf32>, tensor<64x64xf32> -> tensor<16x64xf32>
  %s = gopt.add %m, %b : tensor<16x64xf32>, tensor<64xf32> -> tensor<16x64xf32>
  %t = gopt.add %s, %r : tensor<16x64xf32>
  %n = gopt.layer_norm %t, %g, %be axes = [1] eps = 1.0e-05 : tensor<16x64xf32>, tensor<64xf32>, tensor<64xf32>
  return %n : tensor<16x64xf32>
}
