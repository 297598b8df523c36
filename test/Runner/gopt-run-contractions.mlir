// The library path (gopt_sgemm, the default) computes what the codegen path
// computes, fused (gopt-optimize: epilogues in the contraction's kernel) and
// unfused, on seeded random inputs: each entry is run with
// contractions=codegen, and its results are the references for the library
// path (--expect, relative 1e-4: the summation orders differ).

// RUN: rm -rf %t && mkdir -p %t
// RUN: gopt-run %s --entry=mlp --reps=0 --lowering-options=contractions=codegen --outputs=%t/mlp.npy
// RUN: gopt-run %s --entry=mlp --reps=0 --expect=%t/mlp.npy --rtol=1e-4 --atol=1e-5 2>&1 | FileCheck %s
// RUN: gopt-run %s --entry=mlp --reps=0 --pipeline=gopt-optimize --expect=%t/mlp.npy --rtol=1e-4 --atol=1e-5 2>&1 | FileCheck %s
// RUN: gopt-run %s --entry=batched --reps=0 --lowering-options=contractions=codegen --outputs=%t/batched.npy
// RUN: gopt-run %s --entry=batched --reps=0 --pipeline=gopt-optimize --expect=%t/batched.npy --rtol=1e-4 --atol=1e-5 2>&1 | FileCheck %s
// RUN: gopt-run %s --entry=transposed --reps=0 --lowering-options=contractions=codegen --outputs=%t/t0.npy,%t/t1.npy
// RUN: gopt-run %s --entry=transposed --reps=0 --pipeline=gopt-optimize --expect=%t/t0.npy,%t/t1.npy --rtol=1e-4 --atol=1e-5 2>&1 | FileCheck %s
// Attention with head transposes (gopt-optimize makes the chain one kernel
// reading them through strides: one gopt_attention call on the library
// path; the codegen path splits it into its matmuls' kernels, which fold the
// transposes into the contractions): both match the unoptimized codegen
// reference.
// RUN: gopt-run %s --entry=attention --reps=0 --lowering-options=contractions=codegen --outputs=%t/attention.npy
// RUN: gopt-run %s --entry=attention --reps=0 --pipeline=gopt-optimize --expect=%t/attention.npy --rtol=1e-4 --atol=1e-5 2>&1 | FileCheck %s
// RUN: gopt-run %s --entry=attention --reps=0 --pipeline=gopt-optimize --lowering-options=contractions=codegen --expect=%t/attention.npy --rtol=1e-4 --atol=1e-5 2>&1 | FileCheck %s
// CHECK: result #0 vs {{.*}}: match (0 of
// RUN: gopt-run %s --entry=attention --reps=1 --warmup=0 --pipeline=gopt-optimize | FileCheck %s --check-prefix=ATTENTION
// ATTENTION: attention_k{{[0-9]+}}_div_transpose_transpose_matmul_etc  [gopt_attention]
// Fused without the attention kernel, each matmul's kernel reads its
// transposes through strides.
// RUN: gopt-run %s --entry=attention --reps=1 --warmup=0 --pipeline='builtin.module(gopt-fuse{attention=false})' | FileCheck %s --check-prefix=STRIDED
// Q·Kᵀ reads K transposed: the library, whatever its size; P·V reads V
// row-major and its GEMMs are small (2·32·32·16 FLOPs, under
// library-min-flops): generated loops.
// STRIDED: attention_k{{[0-9]+}}_transpose_transpose_matmul  [gopt_sgemm]
// STRIDED: attention_k{{[0-9]+}}_transpose_matmul{{$}}

// The report names the kernels that call a library (the general path, the
// generated loops, is the rest) and what they call (the count covers every
// function of the module).
// RUN: gopt-run %s --entry=mlp --reps=1 --warmup=0 --pipeline=gopt-optimize | FileCheck %s --check-prefix=PATH
// RUN: gopt-run %s --entry=mlp --reps=1 --warmup=0 --pipeline=gopt-optimize --lowering-options=contractions=codegen | FileCheck %s --check-prefix=CODEGEN
// PATH: kernels {{[0-9]+}} (library calls in {{[1-9][0-9]*}}, generated loops only in {{[0-9]+}})
// PATH: mlp_k0_linear_gelu  [gopt_sgemm]
// PATH: mlp_k1_linear_add  [gopt_sgemm]
// CODEGEN: kernels {{[0-9]+}} (library calls in 0, generated loops only in {{[0-9]+}})
// CODEGEN-NOT: [gopt_sgemm]

// Linear with bias, transposed weight and a GELU epilogue, then a second
// linear with a residual: two kernels when fused.
func.func @mlp(%x: tensor<24x64xf32>, %w1: tensor<96x64xf32>, %b1: tensor<96xf32>,
               %w2: tensor<96x64xf32>) -> tensor<24x64xf32> {
  %h = gopt.linear %x, %w1, %b1 transpose_weight : tensor<24x64xf32>, tensor<96x64xf32>, tensor<96xf32> -> tensor<24x96xf32>
  %g = gopt.gelu %h : tensor<24x96xf32>
  %o = gopt.linear %g, %w2 : tensor<24x96xf32>, tensor<96x64xf32> -> tensor<24x64xf32>
  %r = gopt.add %o, %x : tensor<24x64xf32>, tensor<24x64xf32> -> tensor<24x64xf32>
  return %r : tensor<24x64xf32>
}

// Two batch dims (a loop around the call), the right operand broadcast along
// the first; a residual epilogue.
func.func @batched(%a: tensor<2x3x8x16xf32>, %b: tensor<3x16x12xf32>,
                   %c: tensor<2x3x8x12xf32>) -> tensor<2x3x8x12xf32> {
  %m = gopt.matmul %a, %b : tensor<2x3x8x16xf32>, tensor<3x16x12xf32> -> tensor<2x3x8x12xf32>
  %s = gopt.mul %m, %c : tensor<2x3x8x12xf32>, tensor<2x3x8x12xf32> -> tensor<2x3x8x12xf32>
  return %s : tensor<2x3x8x12xf32>
}

// A transposed input (rows of the buffer are k), and a contraction result
// that is returned as well as consumed (no in-place epilogue).
func.func @transposed(%x: tensor<16x8xf32>, %w: tensor<16x12xf32>)
    -> (tensor<8x12xf32>, tensor<8x12xf32>) {
  %l = gopt.linear %x, %w transpose_input : tensor<16x8xf32>, tensor<16x12xf32> -> tensor<8x12xf32>
  %t = gopt.tanh %l : tensor<8x12xf32>
  return %l, %t : tensor<8x12xf32>, tensor<8x12xf32>
}

// Convolutions go through im2col and sgemm: padded, strided, with a bias
// and a relu epilogue; a dilated one stays on the codegen path (upstream
// im2col takes no dilation).
// RUN: gopt-run %s --entry=conv --reps=0 --lowering-options=contractions=codegen --outputs=%t/c0.npy,%t/c1.npy,%t/c2.npy
// RUN: gopt-run %s --entry=conv --reps=0 --expect=%t/c0.npy,%t/c1.npy,%t/c2.npy --rtol=1e-4 --atol=1e-5 2>&1 | FileCheck %s
// RUN: gopt-run %s --entry=conv --reps=0 --pipeline=gopt-optimize --expect=%t/c0.npy,%t/c1.npy,%t/c2.npy --rtol=1e-4 --atol=1e-5 2>&1 | FileCheck %s
func.func @conv(%x: tensor<2x5x11x9xf32>, %w: tensor<7x5x3x3xf32>, %b: tensor<7xf32>,
                %w2: tensor<6x5x2x3xf32>)
    -> (tensor<2x7x11x9xf32>, tensor<2x6x6x4xf32>, tensor<2x6x5x3xf32>) {
  %y = gopt.conv2d %x, %w, %b strides = [1, 1] padding = [1, 1, 1, 1] dilations = [1, 1] groups = 1 : tensor<2x5x11x9xf32>, tensor<7x5x3x3xf32>, tensor<7xf32> -> tensor<2x7x11x9xf32>
  %r = gopt.relu %y : tensor<2x7x11x9xf32>
  %s = gopt.conv2d %x, %w2 strides = [2, 2] padding = [1, 0, 0, 1] dilations = [1, 1] groups = 1 : tensor<2x5x11x9xf32>, tensor<6x5x2x3xf32> -> tensor<2x6x6x4xf32>
  %z = gopt.conv2d %x, %w2 strides = [2, 3] padding = [0, 1, 1, 0] dilations = [2, 1] groups = 1 : tensor<2x5x11x9xf32>, tensor<6x5x2x3xf32> -> tensor<2x6x5x3xf32>
  return %r, %s, %z : tensor<2x7x11x9xf32>, tensor<2x6x6x4xf32>, tensor<2x6x5x3xf32>
}

// Multi-head attention on a sequence-first projection [seq, heads, dim]:
// Q scaled and head-transposed, Kᵀ, softmax, ·V.
func.func @attention(%q: tensor<32x4x16xf32>, %k: tensor<32x4x16xf32>, %v: tensor<32x4x16xf32>) -> tensor<4x32x16xf32> {
  %c = gopt.constant dense<4.0> : tensor<f32>
  %qh = gopt.transpose %q perm = [1, 0, 2] : tensor<32x4x16xf32> -> tensor<4x32x16xf32>
  %vh = gopt.transpose %v perm = [1, 0, 2] : tensor<32x4x16xf32> -> tensor<4x32x16xf32>
  %qs = gopt.div %qh, %c : tensor<4x32x16xf32>, tensor<f32> -> tensor<4x32x16xf32>
  %kt = gopt.transpose %k perm = [1, 2, 0] : tensor<32x4x16xf32> -> tensor<4x16x32xf32>
  %s = gopt.matmul %qs, %kt : tensor<4x32x16xf32>, tensor<4x16x32xf32> -> tensor<4x32x32xf32>
  %p = gopt.softmax %s axis = 2 : tensor<4x32x32xf32>
  %o = gopt.matmul %p, %vh : tensor<4x32x32xf32>, tensor<4x32x16xf32> -> tensor<4x32x16xf32>
  return %o : tensor<4x32x16xf32>
}
