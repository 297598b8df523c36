// Scaled dot-product attention (2 heads, seq 8, head dim 16) as a careless
// exporter might emit it, with work the default pipeline removes:
//
//   - the scale 1/sqrt(16) computed at run time from constants (gopt-fold);
//   - the same scaled logits computed twice, once for the softmax and once
//     for the returned row maxima (cse);
//   - an add whose result nobody uses, and a relu of the query nobody uses
//     (gopt-dce);
//   - x + (-0.0) and x * 1 on the probabilities (gopt-fold identities).
//
//   gopt-opt examples/attention_redundant.mlir --gopt-optimize
//
// Expected: one kernel {matmul Q.K^T, scale}, then softmax, matmul with V and
// the row-max reduce as single ops: 16 gopt ops before, 6 after (counting
// constants, and the fusion op as one).
func.func @main(%q: tensor<2x8x16xf32>, %k: tensor<2x8x16xf32>,
                %v: tensor<2x8x16xf32>, %mask: tensor<8x8xf32>)
    -> (tensor<2x8x16xf32>, tensor<2x8x1xf32>) {
  // scale = 1 / sqrt(head_dim), evaluated from constants.
  %dim = gopt.constant dense<16.0> : tensor<1xf32>
  %sq = gopt.sqrt %dim : tensor<1xf32>
  %scale = gopt.reciprocal %sq : tensor<1xf32>
  %negzero = gopt.constant dense<-0.0> : tensor<1xf32>
  %one = gopt.constant dense<1.0> : tensor<1xf32>

  %kt = gopt.transpose %k perm = [0, 2, 1] : tensor<2x8x16xf32> -> tensor<2x16x8xf32>
  %s = gopt.matmul %q, %kt : tensor<2x8x16xf32>, tensor<2x16x8xf32> -> tensor<2x8x8xf32>
  %logits = gopt.mul %s, %scale : tensor<2x8x8xf32>, tensor<1xf32> -> tensor<2x8x8xf32>
  // Dead: a masked variant that nothing reads.
  %masked = gopt.add %logits, %mask : tensor<2x8x8xf32>, tensor<8x8xf32> -> tensor<2x8x8xf32>
  // Dead: an activation of the query that nothing reads.
  %qr = gopt.relu %q : tensor<2x8x16xf32>
  %p = gopt.softmax %logits axis = 2 : tensor<2x8x8xf32>
  // Identities.
  %p0 = gopt.add %p, %negzero : tensor<2x8x8xf32>, tensor<1xf32> -> tensor<2x8x8xf32>
  %p1 = gopt.mul %p0, %one : tensor<2x8x8xf32>, tensor<1xf32> -> tensor<2x8x8xf32>
  %o = gopt.matmul %p1, %v : tensor<2x8x8xf32>, tensor<2x8x16xf32> -> tensor<2x8x16xf32>
  // Duplicate of %logits.
  %logits2 = gopt.mul %s, %scale : tensor<2x8x8xf32>, tensor<1xf32> -> tensor<2x8x8xf32>
  %rowmax = gopt.reduce max %logits2 axes = [2] keepdims : tensor<2x8x8xf32> -> tensor<2x8x1xf32>
  return %o, %rowmax : tensor<2x8x16xf32>, tensor<2x8x1xf32>
}
