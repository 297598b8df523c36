// RUN: gopt-opt %s -split-input-file -verify-each --gopt-outline-kernels --convert-gopt-to-linalg --gopt-select-library-contractions --gopt-fuse-kernel-loops=convolution-epilogues | FileCheck %s
// RUN: gopt-opt %s -split-input-file --gopt-outline-kernels --convert-gopt-to-linalg --gopt-select-library-contractions --gopt-fuse-kernel-loops | FileCheck %s --check-prefix=OFF

// gopt-fuse-kernel-loops{convolution-epilogues}: the elementwise epilogue
// of a channels-last library convolution, once it writes in place into the
// convolution's result, is marked for the convolution when its payload is
// a chain of steps the runtime applies as it writes (bias, linear, clip,
// hardswish, per-channel), and then left whole (no tiling, no
// vectorization). Without the option it is tiled and vectorized as before.
// OFF-NOT: gopt_conv2d_epilogue

// Bias and hardswish as ONNX writes it: x · clip(x/6 + 1/2, 0, 1).
// CHECK-LABEL: func.func private @hardswish_k0
// CHECK: %[[C:.*]] = linalg.conv_2d_nhwc_fhwc {{.*}}gopt.library_call = "gopt_conv2d"
// CHECK-NEXT: linalg.generic {{.*}} ins(%{{.*}} : tensor<16xf32>) outs(%[[C]] : tensor<1x4x4x16xf32>) attrs = {gopt.library_call = "gopt_conv2d_epilogue"}
// CHECK-NOT: scf.forall
// CHECK: return
func.func @hardswish(%x: tensor<1x6x6x8xf32>, %w: tensor<16x3x3x8xf32>, %b: tensor<16xf32>) -> tensor<1x4x4x16xf32> {
  %k = gopt.constant dense<0.166666672> : tensor<f32>
  %h = gopt.constant dense<5.000000e-01> : tensor<f32>
  %0 = gopt.fusion(%x, %w, %b, %k, %h : tensor<1x6x6x8xf32>, tensor<16x3x3x8xf32>, tensor<16xf32>, tensor<f32>, tensor<f32>) -> tensor<1x4x4x16xf32> {
  ^bb0(%ax: tensor<1x6x6x8xf32>, %aw: tensor<16x3x3x8xf32>, %ab: tensor<16xf32>, %ak: tensor<f32>, %ah: tensor<f32>):
    %c = gopt.conv2d %ax, %aw, %ab strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 channels_last : tensor<1x6x6x8xf32>, tensor<16x3x3x8xf32>, tensor<16xf32> -> tensor<1x4x4x16xf32>
    %s = gopt.mul %c, %ak : tensor<1x4x4x16xf32>, tensor<f32> -> tensor<1x4x4x16xf32>
    %t = gopt.add %s, %ah : tensor<1x4x4x16xf32>, tensor<f32> -> tensor<1x4x4x16xf32>
    %g = gopt.clip %t min = 0.000000e+00 max = 1.000000e+00 : tensor<1x4x4x16xf32>
    %r = gopt.mul %g, %c : tensor<1x4x4x16xf32>
    gopt.yield %r : tensor<1x4x4x16xf32>
  }
  return %0 : tensor<1x4x4x16xf32>
}

// -----

// A depthwise (grouped) convolution with ReLU.
// CHECK-LABEL: func.func private @depthwise_relu_k0
// CHECK: %[[C:.*]] = linalg.generic {{.*}}gopt.library_call = "gopt_conv2d"
// CHECK: linalg.generic {{.*}} outs(%[[C]] : tensor<1x4x4x8xf32>) attrs = {gopt.library_call = "gopt_conv2d_epilogue"}
func.func @depthwise_relu(%x: tensor<1x6x6x8xf32>, %w: tensor<8x3x3x1xf32>) -> tensor<1x4x4x8xf32> {
  %0 = gopt.fusion(%x, %w : tensor<1x6x6x8xf32>, tensor<8x3x3x1xf32>) -> tensor<1x4x4x8xf32> {
  ^bb0(%ax: tensor<1x6x6x8xf32>, %aw: tensor<8x3x3x1xf32>):
    %c = gopt.conv2d %ax, %aw strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 8 channels_last : tensor<1x6x6x8xf32>, tensor<8x3x3x1xf32> -> tensor<1x4x4x8xf32>
    %r = gopt.relu %c : tensor<1x4x4x8xf32>
    gopt.yield %r : tensor<1x4x4x8xf32>
  }
  return %0 : tensor<1x4x4x8xf32>
}

// -----

// SiLU is a chain of steps, but oneDNN's post-op is slower than the
// convolution and the vectorized loop: it stays generated (tiled).
// CHECK-LABEL: func.func private @silu_k0
// CHECK-NOT: gopt_conv2d_epilogue
// CHECK: scf.for
// CHECK: return
func.func @silu(%x: tensor<1x6x6x8xf32>, %w: tensor<16x3x3x8xf32>) -> tensor<1x4x4x16xf32> {
  %0 = gopt.fusion(%x, %w : tensor<1x6x6x8xf32>, tensor<16x3x3x8xf32>) -> tensor<1x4x4x16xf32> {
  ^bb0(%ax: tensor<1x6x6x8xf32>, %aw: tensor<16x3x3x8xf32>):
    %c = gopt.conv2d %ax, %aw strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 channels_last : tensor<1x6x6x8xf32>, tensor<16x3x3x8xf32> -> tensor<1x4x4x16xf32>
    %r = gopt.silu %c : tensor<1x4x4x16xf32>
    gopt.yield %r : tensor<1x4x4x16xf32>
  }
  return %0 : tensor<1x4x4x16xf32>
}

// -----

// Not chains of steps: an exp, and a residual of the output's shape (the
// runtime's convolution takes per-channel operands only).
// CHECK-LABEL: func.func private @exp_k0
// CHECK-NOT: gopt_conv2d_epilogue
// CHECK: return
func.func @exp(%x: tensor<1x6x6x8xf32>, %w: tensor<16x3x3x8xf32>) -> tensor<1x4x4x16xf32> {
  %0 = gopt.fusion(%x, %w : tensor<1x6x6x8xf32>, tensor<16x3x3x8xf32>) -> tensor<1x4x4x16xf32> {
  ^bb0(%ax: tensor<1x6x6x8xf32>, %aw: tensor<16x3x3x8xf32>):
    %c = gopt.conv2d %ax, %aw strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 channels_last : tensor<1x6x6x8xf32>, tensor<16x3x3x8xf32> -> tensor<1x4x4x16xf32>
    %r = gopt.exp %c : tensor<1x4x4x16xf32>
    gopt.yield %r : tensor<1x4x4x16xf32>
  }
  return %0 : tensor<1x4x4x16xf32>
}

// -----

// CHECK-LABEL: func.func private @residual_k0
// CHECK-NOT: gopt_conv2d_epilogue
// CHECK: return
func.func @residual(%x: tensor<1x6x6x8xf32>, %w: tensor<16x3x3x8xf32>, %y: tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32> {
  %0 = gopt.fusion(%x, %w, %y : tensor<1x6x6x8xf32>, tensor<16x3x3x8xf32>, tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32> {
  ^bb0(%ax: tensor<1x6x6x8xf32>, %aw: tensor<16x3x3x8xf32>, %ay: tensor<1x4x4x16xf32>):
    %c = gopt.conv2d %ax, %aw strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 channels_last : tensor<1x6x6x8xf32>, tensor<16x3x3x8xf32> -> tensor<1x4x4x16xf32>
    %s = gopt.add %c, %ay : tensor<1x4x4x16xf32>
    %r = gopt.relu %s : tensor<1x4x4x16xf32>
    gopt.yield %r : tensor<1x4x4x16xf32>
  }
  return %0 : tensor<1x4x4x16xf32>
}

// -----

// An NCHW convolution: the runtime's convolution takes epilogues channels
// last only.
// CHECK-LABEL: func.func private @nchw_k0
// CHECK-NOT: gopt_conv2d_epilogue
// CHECK: return
func.func @nchw(%x: tensor<1x8x6x6xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<1x16x4x4xf32> {
  %0 = gopt.fusion(%x, %w : tensor<1x8x6x6xf32>, tensor<16x8x3x3xf32>) -> tensor<1x16x4x4xf32> {
  ^bb0(%ax: tensor<1x8x6x6xf32>, %aw: tensor<16x8x3x3xf32>):
    %c = gopt.conv2d %ax, %aw strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x8x6x6xf32>, tensor<16x8x3x3xf32> -> tensor<1x16x4x4xf32>
    %r = gopt.relu %c : tensor<1x16x4x4xf32>
    gopt.yield %r : tensor<1x16x4x4xf32>
  }
  return %0 : tensor<1x16x4x4xf32>
}
