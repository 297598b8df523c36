// RUN: gopt-opt %s -split-input-file -verify-each --gopt-optimize --gopt-lower-to-nvvm=format=isa | grep -o "gpu.binary @[a-z0-9_]*_k[0-9][a-z0-9_]*\|\.entry [a-z0-9_]*_k[0-9][a-z0-9_]*" | FileCheck %s --implicit-check-not=gpu.binary --implicit-check-not=.entry
// Every case of the op-by-op lowering test (every op family, unfused)
// becomes PTX, and cubins that ptxas accepts for sm_90:
// RUN: gopt-opt %gopt_src_root/test/Conversion/convert-gopt-to-linalg.mlir -split-input-file --gopt-lower-to-nvvm=format=isa | FileCheck %s --check-prefix=PTX
// RUN: %if ptxas %{ gopt-opt %gopt_src_root/test/Conversion/convert-gopt-to-linalg.mlir -split-input-file --gopt-lower-to-nvvm=format=bin | FileCheck %s --check-prefix=CUBIN %}

// PTX-NOT: bin = "
// PTX: assembly = "{{.*}}.target sm_90
// CUBIN-NOT: assembly = "
// CUBIN: bin = "{{\\}}7FELF

// One binary per fusion group (kernel function @<entry>_k<N>_<ops>), each
// one gpu.func (.entry), except concat and pad: one launch per input copied
// (and one for a pad's border). The entry's own @<entry>_kernel binaries,
// left out here, copy results it does not own (views); they run only then.

// An elementwise chain with a broadcast bias: one kernel, one thread per
// element.
// CHECK: gpu.binary @elementwise_k0_add_mul_tanh_kernel
// CHECK-NEXT: .entry elementwise_k0_add_mul_tanh_kernel
func.func @elementwise(%x: tensor<64x128xf32>, %b: tensor<128xf32>) -> tensor<64x128xf32> {
  %0 = gopt.add %x, %b : tensor<64x128xf32>, tensor<128xf32> -> tensor<64x128xf32>
  %1 = gopt.mul %0, %0 : tensor<64x128xf32>, tensor<64x128xf32> -> tensor<64x128xf32>
  %2 = gopt.tanh %1 : tensor<64x128xf32>
  return %2 : tensor<64x128xf32>
}

// -----

// Normalizations and reductions: a thread per row.
// CHECK: gpu.binary @normalizations_k0_softmax_kernel
// CHECK-NEXT: .entry normalizations_k0_softmax_kernel
// CHECK-NEXT: gpu.binary @normalizations_k1_layer_norm_kernel
// CHECK-NEXT: .entry normalizations_k1_layer_norm_kernel
// CHECK-NEXT: gpu.binary @normalizations_k2_reduce_kernel
// CHECK-NEXT: .entry normalizations_k2_reduce_kernel
func.func @normalizations(%x: tensor<32x256xf32>, %g: tensor<256xf32>, %b: tensor<256xf32>) -> (tensor<32x256xf32>, tensor<32x256xf32>, tensor<32xf32>) {
  %0 = gopt.softmax %x axis = 1 : tensor<32x256xf32>
  %1 = gopt.layer_norm %x, %g, %b axes = [1] eps = 1.0e-05 : tensor<32x256xf32>, tensor<256xf32>, tensor<256xf32>
  %2 = gopt.reduce max %x axes = [1] : tensor<32x256xf32> -> tensor<32xf32>
  return %0, %1, %2 : tensor<32x256xf32>, tensor<32x256xf32>, tensor<32xf32>
}

// -----

// Contractions with their epilogues fused: matmul + bias + gelu is one
// kernel, a cuBLAS call and one launch for the epilogue; a matmul alone is
// a cuBLAS call and no launch (gopt-lower-to-nvvm-library.mlir).
// CHECK: gpu.binary @contractions_k0_linear_add_gelu_kernel
// CHECK-NEXT: .entry contractions_k0_linear_add_gelu_kernel
func.func @contractions(%x: tensor<16x64xf32>, %w: tensor<64x32xf32>, %b: tensor<32xf32>, %y: tensor<2x16x64xf32>, %z: tensor<2x64x8xf32>) -> (tensor<16x32xf32>, tensor<2x16x8xf32>) {
  %0 = gopt.linear %x, %w : tensor<16x64xf32>, tensor<64x32xf32> -> tensor<16x32xf32>
  %1 = gopt.add %0, %b : tensor<16x32xf32>, tensor<32xf32> -> tensor<16x32xf32>
  %2 = gopt.gelu %1 : tensor<16x32xf32>
  %3 = gopt.matmul %y, %z : tensor<2x16x64xf32>, tensor<2x64x8xf32> -> tensor<2x16x8xf32>
  return %2, %3 : tensor<16x32xf32>, tensor<2x16x8xf32>
}

// -----

// Convolution with bias and relu, pooling, global average pooling, channels
// last (gopt-optimize's gopt-channels-last): the input, the weight (an
// argument here, so transposed at run time) and the pooled result are
// transposed; the averaged [1, 1, 1, C] is a reshape, no kernel.
// CHECK: gpu.binary @convolutions_k0_transpose_kernel
// CHECK-NEXT: .entry convolutions_k0_transpose_kernel
// CHECK-NEXT: gpu.binary @convolutions_k1_transpose_kernel
// CHECK-NEXT: .entry convolutions_k1_transpose_kernel
// CHECK-NEXT: gpu.binary @convolutions_k2_conv2d_relu_kernel
// CHECK-NEXT: .entry convolutions_k2_conv2d_relu_kernel
// CHECK-NEXT: gpu.binary @convolutions_k3_pool2d_kernel
// CHECK-NEXT: .entry convolutions_k3_pool2d_kernel
// CHECK-NEXT: gpu.binary @convolutions_k4_transpose_kernel
// CHECK-NEXT: .entry convolutions_k4_transpose_kernel
// CHECK-NEXT: gpu.binary @convolutions_k5_global_avg_pool_kernel
// CHECK-NEXT: .entry convolutions_k5_global_avg_pool_kernel
func.func @convolutions(%x: tensor<1x8x16x16xf32>, %w: tensor<16x8x3x3xf32>, %b: tensor<16xf32>) -> (tensor<1x16x8x8xf32>, tensor<1x16x1x1xf32>) {
  %0 = gopt.conv2d %x, %w, %b strides = [1, 1] padding = [1, 1, 1, 1] dilations = [1, 1] groups = 1 : tensor<1x8x16x16xf32>, tensor<16x8x3x3xf32>, tensor<16xf32> -> tensor<1x16x16x16xf32>
  %1 = gopt.relu %0 : tensor<1x16x16x16xf32>
  %2 = gopt.pool2d max %1 kernel = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] : tensor<1x16x16x16xf32> -> tensor<1x16x8x8xf32>
  %3 = gopt.global_avg_pool %1 : tensor<1x16x16x16xf32> -> tensor<1x16x1x1xf32>
  return %2, %3 : tensor<1x16x8x8xf32>, tensor<1x16x1x1xf32>
}

// -----

// Data movement: a transpose, a concat, a slice and a pad each a kernel; a
// reshape is a view and launches nothing.
// CHECK: gpu.binary @data_movement_k0_transpose_kernel
// CHECK-NEXT: .entry data_movement_k0_transpose_kernel
// CHECK-NEXT: gpu.binary @data_movement_k1_concat_kernel
// CHECK-NEXT: .entry data_movement_k1_concat_kernel
// CHECK-NEXT: gpu.binary @data_movement_k1_concat_kernel_3
// CHECK-NEXT: .entry data_movement_k1_concat_kernel
// CHECK-NEXT: gpu.binary @data_movement_k2_slice_kernel
// CHECK-NEXT: .entry data_movement_k2_slice_kernel
// CHECK-NEXT: gpu.binary @data_movement_k3_pad_kernel
// CHECK-NEXT: .entry data_movement_k3_pad_kernel
// CHECK-NEXT: gpu.binary @data_movement_k3_pad_kernel_4
// CHECK-NEXT: .entry data_movement_k3_pad_kernel
func.func @data_movement(%x: tensor<8x16xf32>, %y: tensor<16x4xf32>) -> (tensor<16x12xf32>, tensor<4x16xf32>, tensor<10x18xf32>, tensor<128xf32>) {
  %0 = gopt.transpose %x perm = [1, 0] : tensor<8x16xf32> -> tensor<16x8xf32>
  %1 = gopt.concat %0, %y axis = 1 : tensor<16x8xf32>, tensor<16x4xf32> -> tensor<16x12xf32>
  %2 = gopt.slice %x starts = [0, 0] ends = [8, 16] steps = [2, 1] : tensor<8x16xf32> -> tensor<4x16xf32>
  %3 = gopt.pad %x low = [1, 1] high = [1, 1] value = 0.0 : tensor<8x16xf32> -> tensor<10x18xf32>
  %4 = gopt.reshape %x : tensor<8x16xf32> -> tensor<128xf32>
  return %1, %2, %3, %4 : tensor<16x12xf32>, tensor<4x16xf32>, tensor<10x18xf32>, tensor<128xf32>
}
