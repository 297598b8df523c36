// Two linear layers with bias vectors (arguments, so no constant folds
// them): the first with a ReLU, the second without.
func.func @main(%x: tensor<8x16xf32>, %w1: tensor<16x32xf32>, %b1: tensor<32xf32>, %w2: tensor<32x10xf32>, %b2: tensor<10xf32>) -> tensor<8x10xf32> {
  %h = gopt.linear %x, %w1 : tensor<8x16xf32>, tensor<16x32xf32> -> tensor<8x32xf32>
  %hb = gopt.add %h, %b1 : tensor<8x32xf32>, tensor<32xf32> -> tensor<8x32xf32>
  %a = gopt.relu %hb : tensor<8x32xf32>
  %o = gopt.linear %a, %w2 : tensor<8x32xf32>, tensor<32x10xf32> -> tensor<8x10xf32>
  %ob = gopt.add %o, %b2 : tensor<8x10xf32>, tensor<10xf32> -> tensor<8x10xf32>
  return %ob : tensor<8x10xf32>
}
