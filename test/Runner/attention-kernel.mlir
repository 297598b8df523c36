// The attention kernel (gopt-fuse's `attention`, one gopt_attention call on
// the library path) against the graph as written (three kernels, the scores
// written out): the heads read through strides with a broadcast mask, a
// rank-3 chain with a -10000 mask on some keys and more rows than one block,
// and a causal decoder's chain, its future filled with -inf (gopt-fuse
// makes the fill an additive mask; gopt_attention leaves the keys after a
// block's last row out of its work).

// RUN: rm -rf %t && mkdir -p %t
// RUN: gopt-run %s --reps=0 --output-dir=%t/ref
// RUN: gopt-run %s --reps=0 --pipeline=gopt-optimize --inputs=%t/ref/input0.npy,%t/ref/input1.npy,%t/ref/input2.npy,%t/ref/input3.npy,%t/ref/input4.npy,%t/ref/input5.npy,%t/ref/input6.npy,%t/ref/input7.npy,%t/ref/input8.npy,%t/ref/input9.npy --expect=%t/ref/result0.npy,%t/ref/result1.npy,%t/ref/result2.npy 2>&1 | FileCheck %s
// RUN: gopt-run %s --reps=1 --pipeline=gopt-optimize --threads=2 --inputs=%t/ref/input0.npy,%t/ref/input1.npy,%t/ref/input2.npy,%t/ref/input3.npy,%t/ref/input4.npy,%t/ref/input5.npy,%t/ref/input6.npy,%t/ref/input7.npy,%t/ref/input8.npy,%t/ref/input9.npy --expect=%t/ref/result0.npy,%t/ref/result1.npy,%t/ref/result2.npy 2>&1 | FileCheck %s --check-prefixes=CHECK,TABLE
// CHECK: result #0 vs {{.*}}result0.npy: match (0 of
// CHECK: result #1 vs {{.*}}result1.npy: match (0 of
// CHECK: result #2 vs {{.*}}result2.npy: match (0 of
// With a timed run, the kernel table names the call each kernel makes.
// The causal chain's condition is 90,000 elements, more than gopt-fold
// evaluates: its mask is computed by a kernel of its own (k2).
// TABLE: kernels 4 (library calls in 3,
// TABLE: _k0_transpose_transpose_matmul_mul_etc  [gopt_attention]
// TABLE: _k1_transpose_matmul_div_add_etc  [gopt_attention]
// TABLE: _k2_compare_select
// TABLE: _k3_transpose_matmul_mul_add_etc  [gopt_attention]

// The same through gopt-opt: each chain is one attention kernel and one
// gopt_attention call.
// RUN: gopt-opt %s --gopt-optimize --gopt-lower-to-llvm | FileCheck %s --check-prefix=CALLS
// CALLS-COUNT-3: llvm.call @gopt_attention(
// CALLS-NOT: llvm.call @gopt_attention(

func.func @main(%q4: tensor<1x128x4x64xf32>, %k4: tensor<1x128x4x64xf32>, %v4: tensor<1x128x4x64xf32>,
                %mask: tensor<1x1x1x128xf32>,
                %q: tensor<6x300x16xf32>, %k: tensor<6x300x16xf32>, %v: tensor<6x300x24xf32>,
                %q3: tensor<2x300x16xf32>, %k3: tensor<2x300x16xf32>, %v3: tensor<2x300x8xf32>)
    -> (tensor<1x4x128x64xf32>, tensor<6x300x24xf32>, tensor<2x300x8xf32>) {
  %qh = gopt.transpose %q4 perm = [0, 2, 1, 3] : tensor<1x128x4x64xf32> -> tensor<1x4x128x64xf32>
  %kt = gopt.transpose %k4 perm = [0, 2, 3, 1] : tensor<1x128x4x64xf32> -> tensor<1x4x64x128xf32>
  %vh = gopt.transpose %v4 perm = [0, 2, 1, 3] : tensor<1x128x4x64xf32> -> tensor<1x4x128x64xf32>
  %c = gopt.constant dense<0.125> : tensor<1xf32>
  %s = gopt.matmul %qh, %kt : tensor<1x4x128x64xf32>, tensor<1x4x64x128xf32> -> tensor<1x4x128x128xf32>
  %t = gopt.mul %s, %c : tensor<1x4x128x128xf32>, tensor<1xf32> -> tensor<1x4x128x128xf32>
  %u = gopt.add %t, %mask : tensor<1x4x128x128xf32>, tensor<1x1x1x128xf32> -> tensor<1x4x128x128xf32>
  %p = gopt.softmax %u axis = 3 : tensor<1x4x128x128xf32>
  %o = gopt.matmul %p, %vh : tensor<1x4x128x128xf32>, tensor<1x4x128x64xf32> -> tensor<1x4x128x64xf32>

  %m2 = gopt.constant dense<[0.0, -10000.0, 0.0]> : tensor<3xf32>
  %m2b = gopt.broadcast_to %m2 : tensor<3xf32> -> tensor<100x3xf32>
  %m2r = gopt.reshape %m2b : tensor<100x3xf32> -> tensor<300xf32>
  %kt2 = gopt.transpose %k perm = [0, 2, 1] : tensor<6x300x16xf32> -> tensor<6x16x300xf32>
  %four = gopt.constant dense<4.0> : tensor<1xf32>
  %s2 = gopt.matmul %q, %kt2 : tensor<6x300x16xf32>, tensor<6x16x300xf32> -> tensor<6x300x300xf32>
  %t2 = gopt.div %s2, %four : tensor<6x300x300xf32>, tensor<1xf32> -> tensor<6x300x300xf32>
  %u2 = gopt.add %m2r, %t2 : tensor<300xf32>, tensor<6x300x300xf32> -> tensor<6x300x300xf32>
  %p2 = gopt.softmax %u2 axis = -1 : tensor<6x300x300xf32>
  %o2 = gopt.matmul %p2, %v : tensor<6x300x300xf32>, tensor<6x300x24xf32> -> tensor<6x300x24xf32>

  // Key j is in query i's future when j > i.
  %iota = gopt.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 128, 129, 130, 131, 132, 133, 134, 135, 136, 137, 138, 139, 140, 141, 142, 143, 144, 145, 146, 147, 148, 149, 150, 151, 152, 153, 154, 155, 156, 157, 158, 159, 160, 161, 162, 163, 164, 165, 166, 167, 168, 169, 170, 171, 172, 173, 174, 175, 176, 177, 178, 179, 180, 181, 182, 183, 184, 185, 186, 187, 188, 189, 190, 191, 192, 193, 194, 195, 196, 197, 198, 199, 200, 201, 202, 203, 204, 205, 206, 207, 208, 209, 210, 211, 212, 213, 214, 215, 216, 217, 218, 219, 220, 221, 222, 223, 224, 225, 226, 227, 228, 229, 230, 231, 232, 233, 234, 235, 236, 237, 238, 239, 240, 241, 242, 243, 244, 245, 246, 247, 248, 249, 250, 251, 252, 253, 254, 255, 256, 257, 258, 259, 260, 261, 262, 263, 264, 265, 266, 267, 268, 269, 270, 271, 272, 273, 274, 275, 276, 277, 278, 279, 280, 281, 282, 283, 284, 285, 286, 287, 288, 289, 290, 291, 292, 293, 294, 295, 296, 297, 298, 299]> : tensor<300xi64>
  %rows = gopt.reshape %iota : tensor<300xi64> -> tensor<300x1xi64>
  %future = gopt.compare gt, %iota, %rows : tensor<300xi64>, tensor<300x1xi64>
  %inf = gopt.constant dense<0xFF800000> : tensor<f32>
  %kt3 = gopt.transpose %k3 perm = [0, 2, 1] : tensor<2x300x16xf32> -> tensor<2x16x300xf32>
  %s3 = gopt.matmul %q3, %kt3 : tensor<2x300x16xf32>, tensor<2x16x300xf32> -> tensor<2x300x300xf32>
  %quarter = gopt.constant dense<0.25> : tensor<f32>
  %t3 = gopt.mul %s3, %quarter : tensor<2x300x300xf32>, tensor<f32> -> tensor<2x300x300xf32>
  %u3 = gopt.select %future, %inf, %t3 : tensor<300x300xi1>, tensor<f32>, tensor<2x300x300xf32>
  %p3 = gopt.softmax %u3 axis = 2 : tensor<2x300x300xf32>
  %o3 = gopt.matmul %p3, %v3 : tensor<2x300x300xf32>, tensor<2x300x8xf32> -> tensor<2x300x8xf32>
  return %o, %o2, %o3 : tensor<1x4x128x64xf32>, tensor<6x300x24xf32>, tensor<2x300x8xf32>
}
