// A kernel that transposes its input to NHWC and convolves it channels
// last (what gopt-channels-last produced inside a gopt.fusion when it ran
// after gopt-fuse): bufferization may give the convolution's result the
// transposed input's buffer (dead once copied into the padded one), and the
// library call must not then read that buffer unpadded while writing it
// (found by gopt-explore on ResNet-18: fuse+layout computed wrong outputs).
// @fused computes what @plain computes (weights and bias are arguments:
// seeded random values, not uniform).

// RUN: rm -rf %t && mkdir -p %t
// RUN: gopt-run %s --entry=plain --reps=0 --output-dir=%t/plain
// RUN: gopt-run %s --entry=fused --reps=0 --inputs=%t/plain/input0.npy,%t/plain/input1.npy,%t/plain/input2.npy --expect=%t/plain/result0.npy 2>&1 | FileCheck %s
// CHECK: result #0 vs {{.*}}result0.npy: match (0 of

// gopt-fuse, then gopt-channels-last, is correct too (it now leaves fused
// convolutions alone).
// RUN: gopt-run %s --entry=plain --reps=0 --pipeline='builtin.module(gopt-fuse,gopt-channels-last)' --inputs=%t/plain/input0.npy,%t/plain/input1.npy,%t/plain/input2.npy --expect=%t/plain/result0.npy 2>&1 | FileCheck %s

func.func @plain(%x: tensor<1x64x16x16xf32>, %w: tensor<64x64x3x3xf32>, %b: tensor<64xf32>) -> tensor<1x64x16x16xf32> {
  %c = gopt.conv2d %x, %w, %b strides = [1, 1] padding = [1, 1, 1, 1] dilations = [1, 1] groups = 1 : tensor<1x64x16x16xf32>, tensor<64x64x3x3xf32>, tensor<64xf32> -> tensor<1x64x16x16xf32>
  %a = gopt.add %c, %x : tensor<1x64x16x16xf32>
  %r = gopt.relu %a : tensor<1x64x16x16xf32>
  return %r : tensor<1x64x16x16xf32>
}

func.func @fused(%x: tensor<1x64x16x16xf32>, %w: tensor<64x64x3x3xf32>, %b: tensor<64xf32>) -> tensor<1x64x16x16xf32> {
  %0 = gopt.fusion(%x, %w, %b : tensor<1x64x16x16xf32>, tensor<64x64x3x3xf32>, tensor<64xf32>) -> tensor<1x64x16x16xf32> {
  ^bb0(%arg1: tensor<1x64x16x16xf32>, %arg2: tensor<64x64x3x3xf32>, %arg3: tensor<64xf32>):
    %7 = gopt.transpose %arg1 perm = [0, 2, 3, 1] : tensor<1x64x16x16xf32> -> tensor<1x16x16x64xf32>
    %8 = gopt.transpose %arg2 perm = [0, 2, 3, 1] : tensor<64x64x3x3xf32> -> tensor<64x3x3x64xf32>
    %9 = gopt.conv2d %7, %8, %arg3 strides = [1, 1] padding = [1, 1, 1, 1] dilations = [1, 1] groups = 1 channels_last : tensor<1x16x16x64xf32>, tensor<64x3x3x64xf32>, tensor<64xf32> -> tensor<1x16x16x64xf32>
    %10 = gopt.transpose %9 perm = [0, 3, 1, 2] : tensor<1x16x16x64xf32> -> tensor<1x64x16x16xf32>
    %11 = gopt.add %10, %arg1 : tensor<1x64x16x16xf32>
    %12 = gopt.relu %11 : tensor<1x64x16x16xf32>
    gopt.yield %12 : tensor<1x64x16x16xf32>
  }
  return %0 : tensor<1x64x16x16xf32>
}
