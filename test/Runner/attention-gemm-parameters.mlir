// The kernels gopt-split-attention-kernels makes for GEMMs (the GPU's, and
// the CPU's with contractions=codegen), run on the CPU with the split in
// the graph pipeline, against the graph run without graph passes: scaled,
// masked attention over 4-D heads as most exporters write it, the scores
// scaled after Q·Kᵀ (by 1/sqrt(24): the GEMM's alpha,
// gopt-fold-scaling-into-contractions), the mask added in the softmax's
// kernel, and the heads merged back after P·V (the GEMM writes them
// through strides, gopt-fold-permutations-into-contractions). Library GEMMs
// (library-min-flops=0: every GEMM a library call) and generated loops
// (contractions=codegen). Q·Kᵀ's kernel is the GEMM alone, and no scaling,
// mask or transpose is a kernel of its own.

// RUN: rm -rf %t && mkdir -p %t
// RUN: gopt-run %s --reps=0 --output-dir=%t/plain
// RUN: gopt-run %s --reps=1 --kernel-timers --pipeline='builtin.module(gopt-optimize,gopt-split-attention-kernels)' --lowering-options='library-min-flops=0' --inputs=%t/plain/input0.npy,%t/plain/input1.npy,%t/plain/input2.npy,%t/plain/input3.npy --expect=%t/plain/result0.npy 2>&1 | FileCheck %s --check-prefixes=CHECK,LIB --implicit-check-not='{{_k[0-9]+_(mul|add|transpose)$}}'
// RUN: gopt-run %s --reps=1 --kernel-timers --pipeline='builtin.module(gopt-optimize,gopt-split-attention-kernels)' --lowering-options='contractions=codegen' --inputs=%t/plain/input0.npy,%t/plain/input1.npy,%t/plain/input2.npy,%t/plain/input3.npy --expect=%t/plain/result0.npy 2>&1 | FileCheck %s --check-prefixes=CHECK,LOOPS --implicit-check-not='{{_k[0-9]+_(mul|add|transpose)$}}'

// The GPU pipeline's own lowering of it (alpha, the mask in the softmax's
// launch, C written with the heads merged), emulated on the CPU thread by
// thread (--target=cuda-emulated; docs/GPU.md), in both thread orders:
// RUN: gopt-run %s --target=cuda-emulated --pipeline=gopt-optimize --inputs=%t/plain/input0.npy,%t/plain/input1.npy,%t/plain/input2.npy,%t/plain/input3.npy --expect=%t/plain/result0.npy 2>&1 | FileCheck %s --check-prefix=EMU
// RUN: gopt-run %s --target=cuda-emulated --pipeline=gopt-optimize --nvvm-options='emulate-reverse-threads block-size=32' --inputs=%t/plain/input0.npy,%t/plain/input1.npy,%t/plain/input2.npy,%t/plain/input3.npy --expect=%t/plain/result0.npy 2>&1 | FileCheck %s --check-prefix=EMU

// Attention is two GEMMs and one launch (the GEMM kernels launch nothing):
// EMU: 4 kernels (2 with GEMMs
// EMU-NEXT: main_k0_transpose_transpose_matmul_mul  [gopt_sgemm]
// EMU-NEXT: main_k1_add_softmax
// EMU-NEXT: launch: 128 blocks of {{32|256}} threads ({{.*}}, 2 block reductions)
// EMU-NEXT: main_k2_transpose_matmul_transpose  [gopt_sgemm]
// EMU: result #0 vs {{.*}}result0.npy: match (0 of

// CHECK: result #0 vs {{.*}}result0.npy: match (0 of
// LIB:   kernels 4 (library calls in 2, generated loops only in 2)
// LOOPS: kernels 4 (library calls in 0, generated loops only in 4)
// LIB:   main_k{{[0-9]+}}_transpose_transpose_matmul_mul  [gopt_sgemm]
// CHECK: main_k{{[0-9]+}}_add_softmax
// LIB:   main_k{{[0-9]+}}_transpose_matmul_transpose  [gopt_sgemm]
// CHECK: main_k{{[0-9]+}}_reshape

func.func @main(%q4: tensor<1x32x4x24xf32>, %k4: tensor<1x32x4x24xf32>,
                %v4: tensor<1x32x4x24xf32>, %mask: tensor<1x1x1x32xf32>)
    -> tensor<1x32x96xf32> {
  %c = gopt.constant dense<0.204124153> : tensor<1xf32>
  %qh = gopt.transpose %q4 perm = [0, 2, 1, 3] : tensor<1x32x4x24xf32> -> tensor<1x4x32x24xf32>
  %kt = gopt.transpose %k4 perm = [0, 2, 3, 1] : tensor<1x32x4x24xf32> -> tensor<1x4x24x32xf32>
  %vh = gopt.transpose %v4 perm = [0, 2, 1, 3] : tensor<1x32x4x24xf32> -> tensor<1x4x32x24xf32>
  %s = gopt.matmul %qh, %kt : tensor<1x4x32x24xf32>, tensor<1x4x24x32xf32> -> tensor<1x4x32x32xf32>
  %t = gopt.mul %s, %c : tensor<1x4x32x32xf32>, tensor<1xf32> -> tensor<1x4x32x32xf32>
  %u = gopt.add %t, %mask : tensor<1x4x32x32xf32>, tensor<1x1x1x32xf32> -> tensor<1x4x32x32xf32>
  %p = gopt.softmax %u axis = 3 : tensor<1x4x32x32xf32>
  %o = gopt.matmul %p, %vh : tensor<1x4x32x32xf32>, tensor<1x4x32x24xf32> -> tensor<1x4x32x24xf32>
  %m = gopt.transpose %o perm = [0, 2, 1, 3] : tensor<1x4x32x24xf32> -> tensor<1x32x4x24xf32>
  %y = gopt.reshape %m : tensor<1x32x4x24xf32> -> tensor<1x32x96xf32>
  return %y : tensor<1x32x96xf32>
}
