// The attention kernel (gopt-fuse's `attention`, one gopt_attention call on
// the library path) against the graph as written (three kernels, the scores
// written out): the heads read through strides with a broadcast mask, and a
// rank-3 chain with a -10000 mask on some keys and more rows than one block.

// RUN: rm -rf %t && mkdir -p %t
// RUN: gopt-run %s --reps=0 --output-dir=%t/ref
// RUN: gopt-run %s --reps=0 --pipeline=gopt-optimize --inputs=%t/ref/input0.npy,%t/ref/input1.npy,%t/ref/input2.npy,%t/ref/input3.npy,%t/ref/input4.npy,%t/ref/input5.npy,%t/ref/input6.npy --expect=%t/ref/result0.npy,%t/ref/result1.npy 2>&1 | FileCheck %s
// RUN: gopt-run %s --reps=1 --pipeline=gopt-optimize --threads=2 --inputs=%t/ref/input0.npy,%t/ref/input1.npy,%t/ref/input2.npy,%t/ref/input3.npy,%t/ref/input4.npy,%t/ref/input5.npy,%t/ref/input6.npy --expect=%t/ref/result0.npy,%t/ref/result1.npy 2>&1 | FileCheck %s --check-prefixes=CHECK,TABLE
// CHECK: result #0 vs {{.*}}result0.npy: match (0 of
// CHECK: result #1 vs {{.*}}result1.npy: match (0 of
// With a timed run, the kernel table names the call each kernel makes.
// TABLE: kernels 2 (library calls in 2,
// TABLE: _k0_transpose_transpose_matmul_mul_etc  [gopt_attention]
// TABLE: _k1_transpose_matmul_div_add_etc  [gopt_attention]

// The same through gopt-opt: each chain is one attention kernel and one
// gopt_attention call.
// RUN: gopt-opt %s --gopt-optimize --gopt-lower-to-llvm | FileCheck %s --check-prefix=CALLS
// CALLS-COUNT-2: llvm.call @gopt_attention(
// CALLS-NOT: llvm.call @gopt_attention(

func.func @main(%q4: tensor<1x128x4x64xf32>, %k4: tensor<1x128x4x64xf32>, %v4: tensor<1x128x4x64xf32>,
                %mask: tensor<1x1x1x128xf32>,
                %q: tensor<6x300x16xf32>, %k: tensor<6x300x16xf32>, %v: tensor<6x300x24xf32>)
    -> (tensor<1x4x128x64xf32>, tensor<6x300x24xf32>) {
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
  return %o, %o2 : tensor<1x4x128x64xf32>, tensor<6x300x24xf32>
}
