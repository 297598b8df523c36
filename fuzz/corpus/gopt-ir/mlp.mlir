// A two-layer MLP classifier: linear + bias, relu, linear + bias, softmax.
//
//   gopt-opt examples/mlp.mlir --gopt-optimize
//
// Expected: two kernels, {linear, add, relu} and {linear, add}; softmax is a
// reduction anchor of its own (a group has at most one anchor).
func.func @main(%x: tensor<8x16xf32>) -> tensor<8x10xf32> {
  %w1 = gopt.constant dense<0.05> : tensor<16x32xf32>
  %b1 = gopt.constant dense<0.01> : tensor<32xf32>
  %w2 = gopt.constant dense<-0.03> : tensor<32x10xf32>
  %b2 = gopt.constant dense<[0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]> : tensor<10xf32>
  %h = gopt.linear %x, %w1 : tensor<8x16xf32>, tensor<16x32xf32> -> tensor<8x32xf32>
  %hb = gopt.add %h, %b1 : tensor<8x32xf32>, tensor<32xf32> -> tensor<8x32xf32>
  %a = gopt.relu %hb : tensor<8x32xf32>
  %o = gopt.linear %a, %w2 : tensor<8x32xf32>, tensor<32x10xf32> -> tensor<8x10xf32>
  %ob = gopt.add %o, %b2 : tensor<8x10xf32>, tensor<10xf32> -> tensor<8x10xf32>
  %p = gopt.softmax %ob axis = 1 : tensor<8x10xf32>
  return %p : tensor<8x10xf32>
}
