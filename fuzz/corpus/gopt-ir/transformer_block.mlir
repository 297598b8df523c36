// One pre-LN transformer encoder block (batch 1, seq 16, d_model 32, 2 heads
// of 16, MLP hidden 64):
//
//   h   = x + Wo · attention(LN1(x))
//   out = h + W2 · gelu(W1 · LN2(h))
//
//   gopt-opt examples/transformer_block.mlir --gopt-optimize
//
// Expected: four kernels, {matmul QK^T, scale}, {out-proj linear, residual
// add}, {MLP linear, gelu} and {MLP linear, residual add}. The layer norms,
// the softmax and the Q/K/V projections stay single ops: each is an anchor
// whose producer is already in another anchored group or is data movement.
func.func @main(%x: tensor<1x16x32xf32>) -> tensor<1x16x32xf32> {
  // Weights (distinct values, so cse does not merge them).
  %ln1_g = gopt.constant dense<1.0> : tensor<32xf32>
  %ln1_b = gopt.constant dense<0.0> : tensor<32xf32>
  %wq = gopt.constant dense<0.01> : tensor<32x32xf32>
  %bq = gopt.constant dense<0.001> : tensor<32xf32>
  %wk = gopt.constant dense<0.02> : tensor<32x32xf32>
  %bk = gopt.constant dense<0.002> : tensor<32xf32>
  %wv = gopt.constant dense<0.03> : tensor<32x32xf32>
  %bv = gopt.constant dense<0.003> : tensor<32xf32>
  %wo = gopt.constant dense<0.04> : tensor<32x32xf32>
  %bo = gopt.constant dense<0.004> : tensor<32xf32>
  %ln2_g = gopt.constant dense<0.9> : tensor<32xf32>
  %ln2_b = gopt.constant dense<0.1> : tensor<32xf32>
  %w1 = gopt.constant dense<0.05> : tensor<64x32xf32>
  %b1 = gopt.constant dense<0.005> : tensor<64xf32>
  %w2 = gopt.constant dense<0.06> : tensor<32x64xf32>
  %b2 = gopt.constant dense<0.006> : tensor<32xf32>
  %scale = gopt.constant dense<0.25> : tensor<1xf32>

  // Self-attention.
  %ln1 = gopt.layer_norm %x, %ln1_g, %ln1_b axes = [2] eps = 1.0e-05 : tensor<1x16x32xf32>, tensor<32xf32>, tensor<32xf32>
  %q = gopt.linear %ln1, %wq, %bq : tensor<1x16x32xf32>, tensor<32x32xf32>, tensor<32xf32> -> tensor<1x16x32xf32>
  %k = gopt.linear %ln1, %wk, %bk : tensor<1x16x32xf32>, tensor<32x32xf32>, tensor<32xf32> -> tensor<1x16x32xf32>
  %v = gopt.linear %ln1, %wv, %bv : tensor<1x16x32xf32>, tensor<32x32xf32>, tensor<32xf32> -> tensor<1x16x32xf32>
  %q4 = gopt.reshape %q : tensor<1x16x32xf32> -> tensor<1x16x2x16xf32>
  %k4 = gopt.reshape %k : tensor<1x16x32xf32> -> tensor<1x16x2x16xf32>
  %v4 = gopt.reshape %v : tensor<1x16x32xf32> -> tensor<1x16x2x16xf32>
  %qh = gopt.transpose %q4 perm = [0, 2, 1, 3] : tensor<1x16x2x16xf32> -> tensor<1x2x16x16xf32>
  %kt = gopt.transpose %k4 perm = [0, 2, 3, 1] : tensor<1x16x2x16xf32> -> tensor<1x2x16x16xf32>
  %vh = gopt.transpose %v4 perm = [0, 2, 1, 3] : tensor<1x16x2x16xf32> -> tensor<1x2x16x16xf32>
  %s = gopt.matmul %qh, %kt : tensor<1x2x16x16xf32>, tensor<1x2x16x16xf32> -> tensor<1x2x16x16xf32>
  %ss = gopt.mul %s, %scale : tensor<1x2x16x16xf32>, tensor<1xf32> -> tensor<1x2x16x16xf32>
  %p = gopt.softmax %ss axis = 3 : tensor<1x2x16x16xf32>
  %oh = gopt.matmul %p, %vh : tensor<1x2x16x16xf32>, tensor<1x2x16x16xf32> -> tensor<1x2x16x16xf32>
  %ot = gopt.transpose %oh perm = [0, 2, 1, 3] : tensor<1x2x16x16xf32> -> tensor<1x16x2x16xf32>
  %o = gopt.reshape %ot : tensor<1x16x2x16xf32> -> tensor<1x16x32xf32>
  %proj = gopt.linear %o, %wo, %bo : tensor<1x16x32xf32>, tensor<32x32xf32>, tensor<32xf32> -> tensor<1x16x32xf32>
  %h = gopt.add %x, %proj : tensor<1x16x32xf32>

  // MLP (torch.nn.Linear weight layout).
  %ln2 = gopt.layer_norm %h, %ln2_g, %ln2_b axes = [2] eps = 1.0e-05 : tensor<1x16x32xf32>, tensor<32xf32>, tensor<32xf32>
  %m1 = gopt.linear %ln2, %w1, %b1 transpose_weight : tensor<1x16x32xf32>, tensor<64x32xf32>, tensor<64xf32> -> tensor<1x16x64xf32>
  %g = gopt.gelu %m1 : tensor<1x16x64xf32>
  %m2 = gopt.linear %g, %w2, %b2 transpose_weight : tensor<1x16x64xf32>, tensor<32x64xf32>, tensor<32xf32> -> tensor<1x16x32xf32>
  %out = gopt.add %h, %m2 : tensor<1x16x32xf32>
  return %out : tensor<1x16x32xf32>
}
