// The causal self-attention of a decoder-only language model (GPT-2
// style: batch 1, seq 256, 4 heads of 64) as torch exports it: Q, K and V
// split into heads by reshapes and transposes, the scores scaled by 1/8,
// the future masked with -inf (masked_fill, ONNX Where) by a causal
// condition, the softmax along the keys, P·V, the heads merged back.
//
// gopt-optimize makes the chain one attention kernel: gopt-fuse rewrites
// the fill as an additive mask (gopt-fold has made the condition a
// constant), and gopt_attention skips the keys the mask hides from every
// row of a block, half of them (docs/Lowering.md, "Attention kernels").
//
//   gopt-bench-attention-kernel examples/causal_attention.mlir
func.func @main(%q: tensor<1x256x256xf32>, %k: tensor<1x256x256xf32>,
                %v: tensor<1x256x256xf32>) -> tensor<1x256x256xf32> {
  // Key j is in query i's future when j > i.
  %pos = gopt.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 128, 129, 130, 131, 132, 133, 134, 135, 136, 137, 138, 139, 140, 141, 142, 143, 144, 145, 146, 147, 148, 149, 150, 151, 152, 153, 154, 155, 156, 157, 158, 159, 160, 161, 162, 163, 164, 165, 166, 167, 168, 169, 170, 171, 172, 173, 174, 175, 176, 177, 178, 179, 180, 181, 182, 183, 184, 185, 186, 187, 188, 189, 190, 191, 192, 193, 194, 195, 196, 197, 198, 199, 200, 201, 202, 203, 204, 205, 206, 207, 208, 209, 210, 211, 212, 213, 214, 215, 216, 217, 218, 219, 220, 221, 222, 223, 224, 225, 226, 227, 228, 229, 230, 231, 232, 233, 234, 235, 236, 237, 238, 239, 240, 241, 242, 243, 244, 245, 246, 247, 248, 249, 250, 251, 252, 253, 254, 255]> : tensor<256xi64>
  %rows = gopt.reshape %pos : tensor<256xi64> -> tensor<256x1xi64>
  %future = gopt.compare gt, %pos, %rows : tensor<256xi64>, tensor<256x1xi64>
  %inf = gopt.constant dense<0xFF800000> : tensor<f32>
  %eight = gopt.constant dense<8.0> : tensor<f32>
  %q4 = gopt.reshape %q : tensor<1x256x256xf32> -> tensor<1x256x4x64xf32>
  %k4 = gopt.reshape %k : tensor<1x256x256xf32> -> tensor<1x256x4x64xf32>
  %v4 = gopt.reshape %v : tensor<1x256x256xf32> -> tensor<1x256x4x64xf32>
  %qh = gopt.transpose %q4 perm = [0, 2, 1, 3] : tensor<1x256x4x64xf32> -> tensor<1x4x256x64xf32>
  %kt = gopt.transpose %k4 perm = [0, 2, 3, 1] : tensor<1x256x4x64xf32> -> tensor<1x4x64x256xf32>
  %vh = gopt.transpose %v4 perm = [0, 2, 1, 3] : tensor<1x256x4x64xf32> -> tensor<1x4x256x64xf32>
  %s = gopt.matmul %qh, %kt : tensor<1x4x256x64xf32>, tensor<1x4x64x256xf32> -> tensor<1x4x256x256xf32>
  %t = gopt.div %s, %eight : tensor<1x4x256x256xf32>, tensor<f32> -> tensor<1x4x256x256xf32>
  %u = gopt.select %future, %inf, %t : tensor<256x256xi1>, tensor<f32>, tensor<1x4x256x256xf32>
  %p = gopt.softmax %u axis = 3 : tensor<1x4x256x256xf32>
  %o = gopt.matmul %p, %vh : tensor<1x4x256x256xf32>, tensor<1x4x256x64xf32> -> tensor<1x4x256x64xf32>
  %m = gopt.transpose %o perm = [0, 2, 1, 3] : tensor<1x4x256x64xf32> -> tensor<1x256x4x64xf32>
  %y = gopt.reshape %m : tensor<1x256x4x64xf32> -> tensor<1x256x256xf32>
  return %y : tensor<1x256x256xf32>
}
