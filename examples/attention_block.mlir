// One self-attention block of a pre-LN transformer (batch 1, seq 256,
// d_model 512, 8 heads of 64) as an exporter leaves it: the graph computes
// the right thing, but carries the work real exported graphs carry, which
// GOpt's graph passes remove:
//
//   - constant subgraphs left to run time (gopt-fold): the weights come from
//     an fp16 checkpoint in torch.nn.Linear's [out, in] layout, so every
//     projection casts and transposes its 512x512 weight on every call; the
//     scale 1/sqrt(64) is computed from constants; the additive attention
//     mask (1 - mask) * -10000 is computed from an all-ones mask baked in at
//     export, and is -0 everywhere, so adding it is an identity;
//   - redundant subgraphs (cse): Q, K and V each normalize the input again,
//     and the KV-cache output (present key) projects K a second time, from
//     a weight transform cse sees as the same only after gopt-fold (the
//     pair's synergy);
//   - a dead subgraph (gopt-dce): the head-averaged attention weights that
//     torch.nn.MultiheadAttention computes for need_weights=True, which no
//     output returns;
//   - kernels to fuse (gopt-fuse): bias, scale, mask and residual epilogues.
//
//   h       = x + Wo · attention(LN(x))
//   present = heads(Wk · LN(x) + bk)
//
//   gopt-opt examples/attention_block.mlir --gopt-optimize
//   gopt-explore                       (this graph is its embedded default)
func.func @main(%x: tensor<1x256x512xf32>)
    -> (tensor<1x256x512xf32>, tensor<1x8x256x64xf32>) {
  %ln_g = gopt.constant dense<1.0> : tensor<512xf32>
  %ln_b = gopt.constant dense<0.0> : tensor<512xf32>
  // fp16 weights, [out, in] (distinct values, so cse does not merge them).
  %wq16 = gopt.constant dense<0.01> : tensor<512x512xf16>
  %wk16 = gopt.constant dense<0.02> : tensor<512x512xf16>
  %wv16 = gopt.constant dense<0.03> : tensor<512x512xf16>
  %wo16 = gopt.constant dense<0.04> : tensor<512x512xf16>
  %bq = gopt.constant dense<0.001> : tensor<512xf32>
  %bk = gopt.constant dense<0.002> : tensor<512xf32>
  %bv = gopt.constant dense<0.003> : tensor<512xf32>
  %bo = gopt.constant dense<0.004> : tensor<512xf32>
  %head_dim = gopt.constant dense<64.0> : tensor<1xf32>
  %mask = gopt.constant dense<1.0> : tensor<1x1x1x256xf32>
  %one = gopt.constant dense<1.0> : tensor<1xf32>
  %lowest = gopt.constant dense<-10000.0> : tensor<1xf32>

  // Weight transforms, at run time: cast to f32, transpose to [in, out].
  %wq32 = gopt.cast %wq16 : tensor<512x512xf16> to tensor<512x512xf32>
  %wq = gopt.transpose %wq32 perm = [1, 0] : tensor<512x512xf32> -> tensor<512x512xf32>
  %wk32 = gopt.cast %wk16 : tensor<512x512xf16> to tensor<512x512xf32>
  %wk = gopt.transpose %wk32 perm = [1, 0] : tensor<512x512xf32> -> tensor<512x512xf32>
  %wv32 = gopt.cast %wv16 : tensor<512x512xf16> to tensor<512x512xf32>
  %wv = gopt.transpose %wv32 perm = [1, 0] : tensor<512x512xf32> -> tensor<512x512xf32>
  %wo32 = gopt.cast %wo16 : tensor<512x512xf16> to tensor<512x512xf32>
  %wo = gopt.transpose %wo32 perm = [1, 0] : tensor<512x512xf32> -> tensor<512x512xf32>
  // scale = 1 / sqrt(head_dim); additive mask = (1 - mask) * -10000.
  %sqrt = gopt.sqrt %head_dim : tensor<1xf32>
  %scale = gopt.reciprocal %sqrt : tensor<1xf32>
  %unmasked = gopt.sub %one, %mask : tensor<1xf32>, tensor<1x1x1x256xf32> -> tensor<1x1x1x256xf32>
  %additive = gopt.mul %unmasked, %lowest : tensor<1x1x1x256xf32>, tensor<1xf32> -> tensor<1x1x1x256xf32>

  // Q, K and V, each from its own layer norm of x.
  %ln_q = gopt.layer_norm %x, %ln_g, %ln_b axes = [2] eps = 1.0e-05 : tensor<1x256x512xf32>, tensor<512xf32>, tensor<512xf32>
  %ln_k = gopt.layer_norm %x, %ln_g, %ln_b axes = [2] eps = 1.0e-05 : tensor<1x256x512xf32>, tensor<512xf32>, tensor<512xf32>
  %ln_v = gopt.layer_norm %x, %ln_g, %ln_b axes = [2] eps = 1.0e-05 : tensor<1x256x512xf32>, tensor<512xf32>, tensor<512xf32>
  %q = gopt.linear %ln_q, %wq, %bq : tensor<1x256x512xf32>, tensor<512x512xf32>, tensor<512xf32> -> tensor<1x256x512xf32>
  %k = gopt.linear %ln_k, %wk, %bk : tensor<1x256x512xf32>, tensor<512x512xf32>, tensor<512xf32> -> tensor<1x256x512xf32>
  %v = gopt.linear %ln_v, %wv, %bv : tensor<1x256x512xf32>, tensor<512x512xf32>, tensor<512xf32> -> tensor<1x256x512xf32>
  %q4 = gopt.reshape %q : tensor<1x256x512xf32> -> tensor<1x256x8x64xf32>
  %k4 = gopt.reshape %k : tensor<1x256x512xf32> -> tensor<1x256x8x64xf32>
  %v4 = gopt.reshape %v : tensor<1x256x512xf32> -> tensor<1x256x8x64xf32>
  %qh = gopt.transpose %q4 perm = [0, 2, 1, 3] : tensor<1x256x8x64xf32> -> tensor<1x8x256x64xf32>
  %kt = gopt.transpose %k4 perm = [0, 2, 3, 1] : tensor<1x256x8x64xf32> -> tensor<1x8x64x256xf32>
  %vh = gopt.transpose %v4 perm = [0, 2, 1, 3] : tensor<1x256x8x64xf32> -> tensor<1x8x256x64xf32>

  // Scaled, masked dot-product attention.
  %s = gopt.matmul %qh, %kt : tensor<1x8x256x64xf32>, tensor<1x8x64x256xf32> -> tensor<1x8x256x256xf32>
  %scaled = gopt.mul %s, %scale : tensor<1x8x256x256xf32>, tensor<1xf32> -> tensor<1x8x256x256xf32>
  %logits = gopt.add %scaled, %additive : tensor<1x8x256x256xf32>, tensor<1x1x1x256xf32> -> tensor<1x8x256x256xf32>
  %p = gopt.softmax %logits axis = 3 : tensor<1x8x256x256xf32>
  // Dead: the head-averaged attention weights, which no output returns.
  %avg = gopt.reduce mean %p axes = [1] keepdims : tensor<1x8x256x256xf32> -> tensor<1x1x256x256xf32>
  %oh = gopt.matmul %p, %vh : tensor<1x8x256x256xf32>, tensor<1x8x256x64xf32> -> tensor<1x8x256x64xf32>
  %ot = gopt.transpose %oh perm = [0, 2, 1, 3] : tensor<1x8x256x64xf32> -> tensor<1x256x8x64xf32>
  %o = gopt.reshape %ot : tensor<1x256x8x64xf32> -> tensor<1x256x512xf32>
  %proj = gopt.linear %o, %wo, %bo : tensor<1x256x512xf32>, tensor<512x512xf32>, tensor<512xf32> -> tensor<1x256x512xf32>
  %h = gopt.add %x, %proj : tensor<1x256x512xf32>

  // The KV-cache output, projected again from a fresh layer norm, with K's
  // weight as a second trace made it: transposed in fp16, then cast. cse
  // cannot tell it is the same weight until gopt-fold has made both the
  // same constant: fold then cse merges the projection, either alone not.
  %ln_c = gopt.layer_norm %x, %ln_g, %ln_b axes = [2] eps = 1.0e-05 : tensor<1x256x512xf32>, tensor<512xf32>, tensor<512xf32>
  %wk16t = gopt.transpose %wk16 perm = [1, 0] : tensor<512x512xf16> -> tensor<512x512xf16>
  %wkc = gopt.cast %wk16t : tensor<512x512xf16> to tensor<512x512xf32>
  %kc = gopt.linear %ln_c, %wkc, %bk : tensor<1x256x512xf32>, tensor<512x512xf32>, tensor<512xf32> -> tensor<1x256x512xf32>
  %kc4 = gopt.reshape %kc : tensor<1x256x512xf32> -> tensor<1x256x8x64xf32>
  %present = gopt.transpose %kc4 perm = [0, 2, 1, 3] : tensor<1x256x8x64xf32> -> tensor<1x8x256x64xf32>
  return %h, %present : tensor<1x256x512xf32>, tensor<1x8x256x64xf32>
}
