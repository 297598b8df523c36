// A residual conv block and classifier head (NCHW, batch 1, 8 channels, 8x8):
//
//   y   = relu(conv2(relu(conv1(x) + b1)) + b2 + x)
//   out = linear(reshape(global_avg_pool(maxpool2x2(y))))
//
//   gopt-opt examples/conv_block.mlir --gopt-optimize
//
// Expected: two kernels, {conv2d, add, relu} and {conv2d, add, add, relu}.
// pool2d takes no producer into its kernel (its windows overlap), and
// global_avg_pool and the final linear are anchors of their own.
func.func @main(%x: tensor<1x8x8x8xf32>) -> tensor<1x10xf32> {
  %w1 = gopt.constant dense<0.02> : tensor<8x8x3x3xf32>
  %b1 = gopt.constant dense<0.1> : tensor<8x1x1xf32>
  %w2 = gopt.constant dense<-0.01> : tensor<8x8x3x3xf32>
  %b2 = gopt.constant dense<0.2> : tensor<8x1x1xf32>
  %wfc = gopt.constant dense<0.125> : tensor<8x10xf32>
  %bfc = gopt.constant dense<[0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]> : tensor<10xf32>
  %c1 = gopt.conv2d %x, %w1 strides = [1, 1] padding = [1, 1, 1, 1] dilations = [1, 1] groups = 1 : tensor<1x8x8x8xf32>, tensor<8x8x3x3xf32> -> tensor<1x8x8x8xf32>
  %c1b = gopt.add %c1, %b1 : tensor<1x8x8x8xf32>, tensor<8x1x1xf32> -> tensor<1x8x8x8xf32>
  %r1 = gopt.relu %c1b : tensor<1x8x8x8xf32>
  %c2 = gopt.conv2d %r1, %w2 strides = [1, 1] padding = [1, 1, 1, 1] dilations = [1, 1] groups = 1 : tensor<1x8x8x8xf32>, tensor<8x8x3x3xf32> -> tensor<1x8x8x8xf32>
  %c2b = gopt.add %c2, %b2 : tensor<1x8x8x8xf32>, tensor<8x1x1xf32> -> tensor<1x8x8x8xf32>
  %res = gopt.add %c2b, %x : tensor<1x8x8x8xf32>
  %r2 = gopt.relu %res : tensor<1x8x8x8xf32>
  %mp = gopt.pool2d max %r2 kernel = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] : tensor<1x8x8x8xf32> -> tensor<1x8x4x4xf32>
  %gap = gopt.global_avg_pool %mp : tensor<1x8x4x4xf32> -> tensor<1x8x1x1xf32>
  %flat = gopt.reshape %gap : tensor<1x8x1x1xf32> -> tensor<1x8xf32>
  %fc = gopt.linear %flat, %wfc, %bfc : tensor<1x8xf32>, tensor<8x10xf32>, tensor<10xf32> -> tensor<1x10xf32>
  return %fc : tensor<1x10xf32>
}
