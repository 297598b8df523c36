// Driver for examples/attention_redundant.mlir (its @main renamed @graph):
// varied q, k, v built with gopt ops, and a causal mask (0 / -1e9).
func.func @main() {
  %r = gopt.constant dense<[[[0.1], [-0.2], [0.3], [-0.4], [0.5], [-0.6], [0.7], [-0.8]], [[0.2], [0.4], [-0.6], [0.8], [-1.0], [1.2], [-1.4], [1.6]]]> : tensor<2x8x1xf32>
  %c = gopt.constant dense<[1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 3.0, -3.0, 1.5, -1.5, 0.25, -0.25, 4.0, -4.0, 0.0, 1.0]> : tensor<16xf32>
  %d = gopt.constant dense<[0.5, 0.25, -1.0, 1.0, 2.0, -0.5, 0.0, 1.5, -2.0, 0.75, 1.0, -1.25, 0.5, 0.5, -0.25, 3.0]> : tensor<16xf32>
  %q = gopt.mul %r, %c : tensor<2x8x1xf32>, tensor<16xf32> -> tensor<2x8x16xf32>
  %k = gopt.mul %r, %d : tensor<2x8x1xf32>, tensor<16xf32> -> tensor<2x8x16xf32>
  %v = gopt.add %q, %k : tensor<2x8x16xf32>
  %mask = gopt.constant dense<[[0.0, -1.0e9, -1.0e9, -1.0e9, -1.0e9, -1.0e9, -1.0e9, -1.0e9], [0.0, 0.0, -1.0e9, -1.0e9, -1.0e9, -1.0e9, -1.0e9, -1.0e9], [0.0, 0.0, 0.0, -1.0e9, -1.0e9, -1.0e9, -1.0e9, -1.0e9], [0.0, 0.0, 0.0, 0.0, -1.0e9, -1.0e9, -1.0e9, -1.0e9], [0.0, 0.0, 0.0, 0.0, 0.0, -1.0e9, -1.0e9, -1.0e9], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0e9, -1.0e9], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0e9], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]> : tensor<8x8xf32>
  %o:2 = call @graph(%q, %k, %v, %mask) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<8x8xf32>) -> (tensor<2x8x16xf32>, tensor<2x8x1xf32>)
  %u0 = tensor.cast %o#0 : tensor<2x8x16xf32> to tensor<*xf32>
  call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  %u1 = tensor.cast %o#1 : tensor<2x8x1xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)
