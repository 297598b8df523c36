// Contractions for gopt_cuda_sgemm (test/Deploy/cublas.test): a linear
// layer with a transposed weight over a batch of rows (one GEMM of all
// rows), and a batched matmul with a transposed right operand.
func.func @main(%x: tensor<2x8x16xf32>, %w: tensor<32x16xf32>, %q: tensor<4x8x16xf32>, %k: tensor<4x8x16xf32>) -> (tensor<2x8x32xf32>, tensor<4x8x8xf32>) {
  %y = gopt.linear %x, %w transpose_weight : tensor<2x8x16xf32>, tensor<32x16xf32> -> tensor<2x8x32xf32>
  %kt = gopt.transpose %k perm = [0, 2, 1] : tensor<4x8x16xf32> -> tensor<4x16x8xf32>
  %s = gopt.matmul %q, %kt : tensor<4x8x16xf32>, tensor<4x16x8xf32> -> tensor<4x8x8xf32>
  return %y, %s : tensor<2x8x32xf32>, tensor<4x8x8xf32>
}
