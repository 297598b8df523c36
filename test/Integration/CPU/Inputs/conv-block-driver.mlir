// Driver for examples/conv_block.mlir (its @main renamed @graph): a varied
// input x[c, h, w] = (h - 3.5) * s[c] + w / 8, built with gopt ops.
func.func @main() {
  %h = gopt.constant dense<[[-3.5], [-2.5], [-1.5], [-0.5], [0.5], [1.5], [2.5], [3.5]]> : tensor<8x1xf32>
  %w = gopt.constant dense<[0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875]> : tensor<8xf32>
  %s = gopt.constant dense<[[[1.0]], [[-0.5]], [[0.25]], [[2.0]], [[-1.0]], [[0.75]], [[-2.0]], [[0.5]]]> : tensor<8x1x1xf32>
  %hs = gopt.mul %h, %s : tensor<8x1xf32>, tensor<8x1x1xf32> -> tensor<8x8x1xf32>
  %x3 = gopt.add %hs, %w : tensor<8x8x1xf32>, tensor<8xf32> -> tensor<8x8x8xf32>
  %x = gopt.reshape %x3 : tensor<8x8x8xf32> -> tensor<1x8x8x8xf32>
  %y = call @graph(%x) : (tensor<1x8x8x8xf32>) -> tensor<1x10xf32>
  %u = tensor.cast %y : tensor<1x10xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)
