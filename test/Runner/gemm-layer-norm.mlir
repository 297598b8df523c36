// A sublayer's end (a GEMM, its bias, the residual, a layer norm of the
// sum) with gopt-fuse-gemm-layer-norms in the graph pipeline, as the GPU
// pipeline runs it: the layer norm in the GEMM's kernel, which the CPU
// computes too (a library GEMM, then the epilogue and the norm row by row,
// or generated loops), against the graph run without graph passes.

// RUN: rm -rf %t && mkdir -p %t
// RUN: gopt-run %s --reps=0 --output-dir=%t/plain
// RUN: gopt-run %s --reps=1 --kernel-timers --pipeline='builtin.module(gopt-optimize,gopt-fuse-gemm-layer-norms)' --lowering-options='library-min-flops=0' --inputs=%t/plain/input0.npy,%t/plain/input1.npy --expect=%t/plain/result0.npy 2>&1 | FileCheck %s --check-prefixes=CHECK,LIB
// RUN: gopt-run %s --reps=1 --kernel-timers --pipeline='builtin.module(gopt-optimize,gopt-fuse-gemm-layer-norms)' --lowering-options='contractions=codegen' --inputs=%t/plain/input0.npy,%t/plain/input1.npy --expect=%t/plain/result0.npy 2>&1 | FileCheck %s

// The GPU pipeline's launch for it (one block per row, the epilogue applied
// as the row is normalized, block reductions), emulated on the CPU thread
// by thread (--target=cuda-emulated; docs/GPU.md), in both thread orders
// and with blocks of 32 threads:
// RUN: gopt-run %s --target=cuda-emulated --pipeline=gopt-optimize --inputs=%t/plain/input0.npy,%t/plain/input1.npy --expect=%t/plain/result0.npy 2>&1 | FileCheck %s --check-prefix=EMU
// RUN: gopt-run %s --target=cuda-emulated --pipeline=gopt-optimize --nvvm-options='emulate-reverse-threads block-size=32' --inputs=%t/plain/input0.npy,%t/plain/input1.npy --expect=%t/plain/result0.npy 2>&1 | FileCheck %s --check-prefix=EMU

// EMU: 1 kernel (1 with GEMMs
// EMU-NEXT: main_k0_matmul_add_add_layer_norm  [gopt_sgemm]
// EMU: result #0 vs {{.*}}result0.npy: match (0 of

// CHECK: result #0 vs {{.*}}result0.npy: match (0 of
// CHECK: kernels 1 (
// LIB: main_k0_matmul_add_add_layer_norm  [gopt_sgemm]

func.func @main(%x: tensor<1x16x64xf32>, %r: tensor<1x16x64xf32>) -> tensor<1x16x64xf32> {
  %w = gopt.constant dense<0.03125> : tensor<64x64xf32>
  %b = gopt.constant dense<0.5> : tensor<64xf32>
  %g = gopt.constant dense<1.5> : tensor<64xf32>
  %be = gopt.constant dense<-0.25> : tensor<64xf32>
  %m = gopt.matmul %x, %w : tensor<1x16x64xf32>, tensor<64x64xf32> -> tensor<1x16x64xf32>
  %s = gopt.add %m, %b : tensor<1x16x64xf32>, tensor<64xf32> -> tensor<1x16x64xf32>
  %t = gopt.add %s, %r : tensor<1x16x64xf32>
  %n = gopt.layer_norm %t, %g, %be axes = [2] eps = 1.0e-05 : tensor<1x16x64xf32>, tensor<64xf32>, tensor<64xf32>
  return %n : tensor<1x16x64xf32>
}
