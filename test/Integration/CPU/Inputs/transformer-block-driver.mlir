// Driver for examples/transformer_block.mlir (its @main renamed @graph): a
// varied input x[s, d] = r[s] * c[d] + r[s], built with gopt ops.
func.func @main() {
  %r = gopt.constant dense<[[0.1], [-0.2], [0.3], [-0.4], [0.5], [-0.6], [0.7], [-0.8], [0.9], [-1.0], [1.1], [-1.2], [1.3], [-1.4], [1.5], [-1.6]]> : tensor<16x1xf32>
  %c = gopt.constant dense<[1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 3.0, -3.0, 1.5, -1.5, 0.25, -0.25, 4.0, -4.0, 0.0, 1.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 3.0, -3.0, 1.5, -1.5, 0.25, -0.25, 4.0, -4.0, 0.0, 2.0]> : tensor<32xf32>
  %rc = gopt.mul %r, %c : tensor<16x1xf32>, tensor<32xf32> -> tensor<16x32xf32>
  %x2 = gopt.add %rc, %r : tensor<16x32xf32>, tensor<16x1xf32> -> tensor<16x32xf32>
  %x = gopt.reshape %x2 : tensor<16x32xf32> -> tensor<1x16x32xf32>
  %y = call @graph(%x) : (tensor<1x16x32xf32>) -> tensor<1x16x32xf32>
  %u = tensor.cast %y : tensor<1x16x32xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)
