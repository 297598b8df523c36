// RUN: gopt-opt %s -split-input-file --gopt-fold | FileCheck %s
// The absorbed pads compute what the pads and poolings did: every pass
// configuration against the constant evaluator and the compiled reference.
// RUN: gopt-difftest %S/Inputs/pad-into-pool.mlir | FileCheck %s --check-prefix=DIFF
// RUN: gopt-opt %S/Inputs/pad-into-pool.mlir --gopt-fold --gopt-dce | FileCheck %s --check-prefix=FILE
// DIFF: difftest: 1 graphs {{.*}} 0 failed
// FILE-COUNT-1: gopt.pad
// FILE-NOT: gopt.pad

// torch.onnx's avg_pool2d(padding=1, count_include_pad=True): a zero pad
// of H and W, then a pool without padding. The pool pads as it reads and
// counts the padding; the pad is left unused (gopt-dce's).
// CHECK-LABEL: func.func @avg_pool_counts_pad
// CHECK: %[[P:.*]] = gopt.pool2d avg %arg0 kernel = [3, 3] strides = [1, 1] padding = [1, 2, 1, 0] count_include_pad : tensor<1x2x5x5xf32> -> tensor<1x2x5x5xf32>
// CHECK: return %[[P]]
func.func @avg_pool_counts_pad(%x: tensor<1x2x5x5xf32>) -> tensor<1x2x5x5xf32> {
  %p = gopt.pad %x low = [0, 0, 1, 2] high = [0, 0, 1, 0] value = 0.0 : tensor<1x2x5x5xf32> -> tensor<1x2x7x7xf32>
  %a = gopt.pool2d avg %p kernel = [3, 3] strides = [1, 1] padding = [0, 0, 0, 0] : tensor<1x2x7x7xf32> -> tensor<1x2x5x5xf32>
  return %a : tensor<1x2x5x5xf32>
}

// -----

// Channels last (H and W are dims 1 and 2), and padding added to the
// pool's own when it counts padding.
// CHECK-LABEL: func.func @channels_last_adds
// CHECK: gopt.pool2d avg %arg0 kernel = [3, 3] strides = [1, 1] padding = [2, 2, 2, 2] count_include_pad channels_last : tensor<1x5x5x2xf32> -> tensor<1x7x7x2xf32>
func.func @channels_last_adds(%x: tensor<1x5x5x2xf32>) -> tensor<1x7x7x2xf32> {
  %p = gopt.pad %x low = [0, 1, 1, 0] high = [0, 1, 1, 0] value = 0.0 : tensor<1x5x5x2xf32> -> tensor<1x7x7x2xf32>
  %a = gopt.pool2d avg %p kernel = [3, 3] strides = [1, 1] padding = [1, 1, 1, 1] count_include_pad channels_last : tensor<1x7x7x2xf32> -> tensor<1x7x7x2xf32>
  return %a : tensor<1x7x7x2xf32>
}

// -----

// A zero pad before a convolution is its padding; a −inf pad before a max
// pooling is its (max pooling ignores padding).
// CHECK-LABEL: func.func @conv_and_max
// CHECK: gopt.conv2d %arg0, %arg1 strides = [1, 1] padding = [1, 1, 2, 2] {{.*}} : tensor<1x2x4x4xf32>, tensor<3x2x3x3xf32> -> tensor<1x3x5x5xf32>
// CHECK: gopt.pool2d max %arg0 kernel = [2, 2] strides = [2, 2] padding = [0, 1, 0, 1] : tensor<1x2x4x4xf32> -> tensor<1x2x2x3xf32>
func.func @conv_and_max(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x3x3xf32>) -> (tensor<1x3x5x5xf32>, tensor<1x2x2x3xf32>) {
  %p = gopt.pad %x low = [0, 0, 1, 1] high = [0, 0, 1, 1] value = 0.0 : tensor<1x2x4x4xf32> -> tensor<1x2x6x6xf32>
  %c = gopt.conv2d %p, %w strides = [1, 1] padding = [0, 0, 1, 1] dilations = [1, 1] groups = 1 : tensor<1x2x6x6xf32>, tensor<3x2x3x3xf32> -> tensor<1x3x5x5xf32>
  %q = gopt.pad %x low = [0, 0, 0, 1] high = [0, 0, 0, 1] value = 0xFFF0000000000000 : tensor<1x2x4x4xf32> -> tensor<1x2x4x6xf32>
  %m = gopt.pool2d max %q kernel = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] : tensor<1x2x4x6xf32> -> tensor<1x2x2x3xf32>
  return %c, %m : tensor<1x3x5x5xf32>, tensor<1x2x2x3xf32>
}

// -----

// Left as they are: a zero pad before a max pooling (zeros can be the
// maximum), a pad of the channels, a pad before an average pooling that
// pads without counting it, a pad another op reads too, and a −0 pad
// before a convolution (the convolution pads with +0).
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-5: gopt.pad
// CHECK-NOT: count_include_pad
// CHECK: return
func.func @kept(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x3x3xf32>) -> (tensor<1x2x3x3xf32>, tensor<1x4x2x2xf32>, tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>, tensor<1x2x5x5xf32>, tensor<1x3x4x4xf32>) {
  %p = gopt.pad %x low = [0, 0, 1, 1] high = [0, 0, 1, 1] value = 0.0 : tensor<1x2x4x4xf32> -> tensor<1x2x6x6xf32>
  %m = gopt.pool2d max %p kernel = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] : tensor<1x2x6x6xf32> -> tensor<1x2x3x3xf32>
  %c = gopt.pad %x low = [0, 1, 0, 0] high = [0, 1, 0, 0] value = 0.0 : tensor<1x2x4x4xf32> -> tensor<1x4x4x4xf32>
  %cm = gopt.pool2d avg %c kernel = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] : tensor<1x4x4x4xf32> -> tensor<1x4x2x2xf32>
  %n = gopt.pad %x low = [0, 0, 1, 1] high = [0, 0, 1, 1] value = 0.0 : tensor<1x2x4x4xf32> -> tensor<1x2x6x6xf32>
  %na = gopt.pool2d avg %n kernel = [3, 3] strides = [1, 1] padding = [1, 1, 1, 1] : tensor<1x2x6x6xf32> -> tensor<1x2x6x6xf32>
  %s = gopt.pad %x low = [0, 0, 1, 1] high = [0, 0, 1, 1] value = 0.0 : tensor<1x2x4x4xf32> -> tensor<1x2x6x6xf32>
  %e = gopt.relu %s : tensor<1x2x6x6xf32>
  %f = gopt.pool2d avg %s kernel = [2, 2] strides = [1, 1] padding = [0, 0, 0, 0] : tensor<1x2x6x6xf32> -> tensor<1x2x5x5xf32>
  %nz = gopt.pad %x low = [0, 0, 1, 1] high = [0, 0, 1, 1] value = -0.0 : tensor<1x2x4x4xf32> -> tensor<1x2x6x6xf32>
  %cz = gopt.conv2d %nz, %w strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x2x6x6xf32>, tensor<3x2x3x3xf32> -> tensor<1x3x4x4xf32>
  return %m, %cm, %na, %e, %f, %cz : tensor<1x2x3x3xf32>, tensor<1x4x2x2xf32>, tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>, tensor<1x2x5x5xf32>, tensor<1x3x4x4xf32>
}
