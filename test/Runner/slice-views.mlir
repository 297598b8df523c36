// Slices as views inside the kernels that read them (gopt-fuse-slice-inputs,
// which the GPU pipeline runs before outlining), and the GEMM parameters
// gopt-split-attention-kernels lets the products take: an attention layer
// whose Q, K and V are slices of one projection, run on the CPU with both
// passes in the graph pipeline, against the graph run without graph
// passes. The slices are then strided views of the projection, read by the
// library GEMMs through strides (library-min-flops=0: every GEMM a library
// call) or by generated loops (contractions=codegen); the scaling of Q (by
// 3: 1/3 is inexact) is the first GEMM's alpha
// (gopt-fold-scaling-into-contractions), and the second GEMM writes its
// result with the heads merged (gopt-fold-permutations-into-contractions).
// No slice, scaling or transpose is a kernel of its own. Weights are
// arguments: seeded random values.

// RUN: rm -rf %t && mkdir -p %t
// RUN: gopt-run %s --reps=0 --output-dir=%t/plain
// RUN: gopt-run %s --reps=1 --kernel-timers --pipeline='builtin.module(gopt-optimize,gopt-split-attention-kernels,gopt-fuse-slice-inputs)' --lowering-options='library-min-flops=0' --inputs=%t/plain/input0.npy,%t/plain/input1.npy,%t/plain/input2.npy --expect=%t/plain/result0.npy 2>&1 | FileCheck %s --check-prefixes=CHECK,LIB --implicit-check-not='{{_k[0-9]+_(slice|div|transpose)$}}'
// RUN: gopt-run %s --reps=1 --kernel-timers --pipeline='builtin.module(gopt-optimize,gopt-split-attention-kernels,gopt-fuse-slice-inputs)' --lowering-options='contractions=codegen' --inputs=%t/plain/input0.npy,%t/plain/input1.npy,%t/plain/input2.npy --expect=%t/plain/result0.npy 2>&1 | FileCheck %s --check-prefixes=CHECK,LOOPS --implicit-check-not='{{_k[0-9]+_(slice|div|transpose)$}}'

// The GPU pipeline's lowering (Q, K and V read through strides by the
// GEMMs), emulated on the CPU thread by thread (--target=cuda-emulated;
// docs/GPU.md):
// RUN: gopt-run %s --target=cuda-emulated --pipeline=gopt-optimize --inputs=%t/plain/input0.npy,%t/plain/input1.npy,%t/plain/input2.npy --expect=%t/plain/result0.npy 2>&1 | FileCheck %s --check-prefix=EMU
// RUN: gopt-run %s --target=cuda-emulated --pipeline=gopt-optimize --nvvm-options=emulate-reverse-threads --inputs=%t/plain/input0.npy,%t/plain/input1.npy,%t/plain/input2.npy --expect=%t/plain/result0.npy 2>&1 | FileCheck %s --check-prefix=EMU

// EMU: 5 kernels (3 with GEMMs
// EMU: main_k1_slice_reshape_slice_reshape_etc  [gopt_sgemm]
// EMU: result #0 vs {{.*}}result0.npy: match (0 of

// CHECK: result #0 vs {{.*}}result0.npy: match (0 of
// LIB:   kernels 5 (library calls in 3, generated loops only in 2)
// LOOPS: kernels 5 (library calls in 0, generated loops only in 5)
// LIB:   main_k{{[0-9]+}}_matmul_add  [gopt_sgemm]
// LIB:   main_k{{[0-9]+}}_slice_reshape_slice_reshape_etc  [gopt_sgemm]
// CHECK: main_k{{[0-9]+}}_softmax
// LIB:   main_k{{[0-9]+}}_slice_reshape_transpose_matmul_etc  [gopt_sgemm]
// LOOPS: main_k{{[0-9]+}}_slice_reshape_transpose_matmul_etc
// CHECK: main_k{{[0-9]+}}_reshape

func.func @main(%x: tensor<32x64xf32>, %w: tensor<64x192xf32>, %b: tensor<192xf32>) -> tensor<32x64xf32> {
  %scale = gopt.constant dense<3.0> : tensor<f32>
  %p = gopt.matmul %x, %w : tensor<32x64xf32>, tensor<64x192xf32> -> tensor<32x192xf32>
  %qkv = gopt.add %p, %b : tensor<32x192xf32>, tensor<192xf32> -> tensor<32x192xf32>
  %q = gopt.slice %qkv starts = [0, 0] ends = [32, 64] steps = [1, 1] : tensor<32x192xf32> -> tensor<32x64xf32>
  %k = gopt.slice %qkv starts = [0, 64] ends = [32, 128] steps = [1, 1] : tensor<32x192xf32> -> tensor<32x64xf32>
  %v = gopt.slice %qkv starts = [0, 128] ends = [32, 192] steps = [1, 1] : tensor<32x192xf32> -> tensor<32x64xf32>
  %q4 = gopt.reshape %q : tensor<32x64xf32> -> tensor<32x4x16xf32>
  %k4 = gopt.reshape %k : tensor<32x64xf32> -> tensor<32x4x16xf32>
  %v4 = gopt.reshape %v : tensor<32x64xf32> -> tensor<32x4x16xf32>
  %qs = gopt.div %q4, %scale : tensor<32x4x16xf32>, tensor<f32> -> tensor<32x4x16xf32>
  %qt = gopt.transpose %qs perm = [1, 0, 2] : tensor<32x4x16xf32> -> tensor<4x32x16xf32>
  %kt = gopt.transpose %k4 perm = [1, 2, 0] : tensor<32x4x16xf32> -> tensor<4x16x32xf32>
  %vt = gopt.transpose %v4 perm = [1, 0, 2] : tensor<32x4x16xf32> -> tensor<4x32x16xf32>
  %s = gopt.matmul %qt, %kt : tensor<4x32x16xf32>, tensor<4x16x32xf32> -> tensor<4x32x32xf32>
  %a = gopt.softmax %s axis = 2 : tensor<4x32x32xf32>
  %o = gopt.matmul %a, %vt : tensor<4x32x32xf32>, tensor<4x32x16xf32> -> tensor<4x32x16xf32>
  %ot = gopt.transpose %o perm = [1, 0, 2] : tensor<4x32x16xf32> -> tensor<32x4x16xf32>
  %y = gopt.reshape %ot : tensor<32x4x16xf32> -> tensor<32x64xf32>
  return %y : tensor<32x64xf32>
}
