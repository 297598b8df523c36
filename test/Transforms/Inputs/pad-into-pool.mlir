// Pads gopt-fold absorbs into the pooling after them (avg counting the
// padding, max after a -inf pad) and one it keeps (zeros before a max).
func.func @main(%x: tensor<1x3x9x9xf32>) -> (tensor<1x3x9x9xf32>, tensor<1x3x5x5xf32>, tensor<1x3x5x5xf32>) {
  %p = gopt.pad %x low = [0, 0, 1, 2] high = [0, 0, 1, 0] value = 0.0 : tensor<1x3x9x9xf32> -> tensor<1x3x11x11xf32>
  %a = gopt.pool2d avg %p kernel = [3, 3] strides = [1, 1] padding = [0, 0, 0, 0] : tensor<1x3x11x11xf32> -> tensor<1x3x9x9xf32>
  %r = gopt.pad %x low = [0, 0, 0, 1] high = [0, 0, 1, 0] value = 0xFFF0000000000000 : tensor<1x3x9x9xf32> -> tensor<1x3x10x10xf32>
  %m = gopt.pool2d max %r kernel = [3, 3] strides = [2, 2] padding = [0, 0, 1, 1] : tensor<1x3x10x10xf32> -> tensor<1x3x5x5xf32>
  %z = gopt.pad %x low = [0, 0, 1, 1] high = [0, 0, 0, 0] value = 0.0 : tensor<1x3x9x9xf32> -> tensor<1x3x10x10xf32>
  %k = gopt.pool2d max %z kernel = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] : tensor<1x3x10x10xf32> -> tensor<1x3x5x5xf32>
  return %a, %m, %k : tensor<1x3x9x9xf32>, tensor<1x3x5x5xf32>, tensor<1x3x5x5xf32>
}
