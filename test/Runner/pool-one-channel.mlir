// Channels-last pooling of one channel with padding (the runtime's
// gopt_pool2d_nhwc): against the constant evaluator, which shares no code
// with the lowering. It once took the planes' path, which reads no padding,
// and returned what lay around the input (gopt-difftest seed 638 at
// --max-dim=40, through gopt-channels-last on a single-channel network).

// RUN: gopt-difftest %s --compile-all=false | FileCheck %s
// CHECK: pool-one-channel.mlir: ok (16 configurations, {{.*}}; checked against the evaluator)
// CHECK: 0 failed

func.func @main(%x: tensor<1x28x15x1xf32>, %y: tensor<2x7x9x1xf32>) -> (tensor<1x15x14x1xf32>, tensor<1x15x15x1xf32>, tensor<2x5x5x1xf32>) {
  %a = gopt.pool2d avg %x kernel = [2, 3] strides = [2, 1] padding = [1, 0, 1, 1] count_include_pad channels_last : tensor<1x28x15x1xf32> -> tensor<1x15x14x1xf32>
  %m = gopt.pool2d max %x kernel = [2, 3] strides = [2, 1] padding = [1, 1, 1, 1] channels_last : tensor<1x28x15x1xf32> -> tensor<1x15x15x1xf32>
  %r = gopt.pool2d avg %y kernel = [3, 2] strides = [1, 2] padding = [0, 0, 0, 1] channels_last : tensor<2x7x9x1xf32> -> tensor<2x5x5x1xf32>
  return %a, %m, %r : tensor<1x15x14x1xf32>, tensor<1x15x15x1xf32>, tensor<2x5x5x1xf32>
}
