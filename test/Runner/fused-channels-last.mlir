// gopt-fuse, then gopt-channels-last: the fused kernel transposes its input
// to NHWC and convolves it; bufferization may give the convolution's result
// the transposed input's buffer (dead once copied into the padded one), and
// the library call must not then read that buffer unpadded while writing
// it (found by gopt-explore on ResNet-18: the pair fuse+layout computed
// wrong outputs). Both orders compute what the unoptimized graph computes
// (weights and bias are arguments: seeded random values, not uniform).

// RUN: rm -rf %t && mkdir -p %t
// RUN: gopt-run %s --reps=0 --output-dir=%t/plain
// RUN: gopt-run %s --reps=0 --pipeline='builtin.module(gopt-fuse,gopt-channels-last)' --inputs=%t/plain/input0.npy,%t/plain/input1.npy,%t/plain/input2.npy --expect=%t/plain/result0.npy 2>&1 | FileCheck %s
// RUN: gopt-run %s --reps=0 --pipeline='builtin.module(gopt-channels-last,gopt-fuse)' --inputs=%t/plain/input0.npy,%t/plain/input1.npy,%t/plain/input2.npy --expect=%t/plain/result0.npy 2>&1 | FileCheck %s
// CHECK: result #0 vs {{.*}}result0.npy: match (0 of

func.func @main(%x: tensor<1x64x16x16xf32>, %w: tensor<64x64x3x3xf32>, %b: tensor<64xf32>) -> tensor<1x64x16x16xf32> {
  %c = gopt.conv2d %x, %w, %b strides = [1, 1] padding = [1, 1, 1, 1] dilations = [1, 1] groups = 1 : tensor<1x64x16x16xf32>, tensor<64x64x3x3xf32>, tensor<64xf32> -> tensor<1x64x16x16xf32>
  %a = gopt.add %c, %x : tensor<1x64x16x16xf32>
  %r = gopt.relu %a : tensor<1x64x16x16xf32>
  return %r : tensor<1x64x16x16xf32>
}
