// Q, K and V projected apart from one input (three linears), the heads
// split, scaled dot-product attention, the heads merged, and K returned as
// a cache: run on the CPU with the GPU's graph rewrites in the graph
// pipeline (gopt-merge-sibling-linears: one linear of the three weights
// joined, Q, K and V slices of its result; gopt-fuse-slice-inputs: the
// slices views inside the kernels that read them, K's in both of its
// readers), against the graph run without graph passes, on both
// contraction paths. One linear is left, and no slice is a kernel of its
// own.

// RUN: rm -rf %t && mkdir -p %t
// RUN: gopt-run %s --reps=0 --output-dir=%t/plain
// RUN: gopt-run %s --reps=1 --kernel-timers --pipeline='builtin.module(gopt-optimize,gopt-merge-sibling-linears,gopt-split-attention-kernels,gopt-fuse-slice-inputs)' --lowering-options='library-min-flops=0' --inputs=%t/plain/input0.npy --expect=%t/plain/result0.npy,%t/plain/result1.npy 2>&1 | FileCheck %s --implicit-check-not='{{_k[0-9]+_slice$}}'
// RUN: gopt-run %s --reps=1 --kernel-timers --pipeline='builtin.module(gopt-optimize,gopt-merge-sibling-linears,gopt-split-attention-kernels,gopt-fuse-slice-inputs)' --lowering-options='contractions=codegen' --inputs=%t/plain/input0.npy --expect=%t/plain/result0.npy,%t/plain/result1.npy 2>&1 | FileCheck %s --implicit-check-not='{{_k[0-9]+_slice$}}'

// The GPU pipeline, which merges the linears itself, emulated on the CPU
// thread by thread (--target=cuda-emulated; docs/GPU.md), with cuBLASLt's
// bias epilogue on the joined GEMM in the second run:
// RUN: gopt-run %s --target=cuda-emulated --pipeline=gopt-optimize --inputs=%t/plain/input0.npy --expect=%t/plain/result0.npy,%t/plain/result1.npy 2>&1 | FileCheck %s --check-prefix=EMU
// RUN: gopt-run %s --target=cuda-emulated --pipeline=gopt-optimize --nvvm-options='cublaslt-epilogues emulate-reverse-threads' --inputs=%t/plain/input0.npy --expect=%t/plain/result0.npy,%t/plain/result1.npy 2>&1 | FileCheck %s --check-prefix=EMU

// EMU: 6 kernels (3 with GEMMs
// EMU-NEXT: main_k0_linear  [gopt_sgemm{{(_epilogue)?}}]
// EMU: result #0 vs {{.*}}result0.npy: match (0 of
// EMU: result #1 vs {{.*}}result1.npy: match (0 of

// CHECK: result #0 vs {{.*}}result0.npy: match (0 of
// CHECK: result #1 vs {{.*}}result1.npy: match (0 of
// CHECK: main_k{{[0-9]+}}_linear
// CHECK-NOT: _linear

func.func @main(%x: tensor<1x6x8xf32>) -> (tensor<1x6x8xf32>, tensor<1x2x6x4xf32>) {
  %wq = gopt.constant dense<[[0.1251, 0.3972, 0.2757, -0.2748, -0.1998, 0.3736, -0.4947, 0.3212], [0.2971, -0.0321, -0.1970, -0.2216, -0.2451, -0.0549, 0.0045, 0.0535], [0.4955, 0.2927, 0.1222, 0.4890, -0.2847, -0.3398, 0.1125, -0.4561], [-0.4643, 0.0149, -0.0338, 0.4172, 0.1292, 0.0141, -0.0031, -0.2525], [-0.4882, -0.3076, 0.1920, -0.2994, -0.1305, -0.4963, 0.3300, -0.3455], [-0.2324, 0.3803, 0.0098, 0.3472, 0.1397, 0.2418, -0.4085, 0.0411], [0.0078, 0.3713, -0.1387, 0.0982, -0.4407, -0.1124, -0.1770, -0.3498], [0.3163, -0.1206, 0.4787, 0.0900, 0.1051, 0.1380, 0.1765, -0.3492]]> : tensor<8x8xf32>
  %bq = gopt.constant dense<[-0.0922, 0.0181, -0.0668, 0.0356, -0.0958, -0.0379, 0.0877, 0.0077]> : tensor<8xf32>
  %wk = gopt.constant dense<[[-0.0597, -0.2604, -0.0975, -0.4033, 0.4678, -0.2850, 0.1718, -0.1996], [0.3741, 0.1622, -0.3684, 0.3451, 0.4449, 0.4039, 0.0697, -0.3545], [-0.3075, 0.4279, 0.0523, -0.3194, 0.3841, 0.1416, 0.0697, -0.1237], [-0.0890, -0.2605, -0.4619, 0.3762, -0.0323, 0.0476, -0.1778, 0.2513], [-0.4748, -0.1278, -0.4696, -0.3771, 0.4671, 0.1578, -0.0718, 0.0237], [0.3728, -0.1558, 0.0903, 0.1837, -0.1446, 0.0191, 0.2652, 0.4092], [-0.3489, 0.4334, -0.4948, 0.2530, 0.3105, -0.3632, -0.0811, 0.3153], [-0.4857, 0.1285, 0.2930, 0.0130, 0.2258, -0.2736, -0.3015, -0.1369]]> : tensor<8x8xf32>
  %bk = gopt.constant dense<[0.0623, 0.0316, 0.0222, -0.0617, 0.0149, -0.0921, 0.0603, 0.0920]> : tensor<8xf32>
  %wv = gopt.constant dense<[[-0.3206, -0.1539, 0.4481, 0.0733, -0.1599, -0.2285, 0.4520, -0.0555], [0.4804, 0.0155, 0.0212, 0.3965, 0.2428, 0.0807, -0.0734, 0.3782], [-0.0884, 0.4228, -0.4313, -0.0700, 0.0195, 0.4509, -0.2490, 0.3060], [0.1765, 0.2171, 0.1296, 0.4716, -0.1673, -0.1017, -0.2971, -0.4493], [-0.2871, 0.4155, 0.3402, -0.3876, 0.1038, -0.0208, 0.0947, 0.1593], [-0.1933, 0.4614, -0.0342, 0.1281, 0.1352, -0.3161, -0.4381, -0.0885], [0.2640, 0.3152, 0.2300, -0.3868, 0.4134, 0.3020, 0.3777, 0.0233], [0.4156, -0.4533, -0.4697, -0.4798, -0.2472, -0.2514, -0.3125, 0.0671]]> : tensor<8x8xf32>
  %bv = gopt.constant dense<[0.0708, -0.0899, -0.0323, -0.0364, -0.0775, 0.0253, 0.0595, -0.0373]> : tensor<8xf32>
  %scale = gopt.constant dense<0.5> : tensor<1xf32>
  %q = gopt.linear %x, %wq, %bq : tensor<1x6x8xf32>, tensor<8x8xf32>, tensor<8xf32> -> tensor<1x6x8xf32>
  %k = gopt.linear %x, %wk, %bk : tensor<1x6x8xf32>, tensor<8x8xf32>, tensor<8xf32> -> tensor<1x6x8xf32>
  %v = gopt.linear %x, %wv, %bv : tensor<1x6x8xf32>, tensor<8x8xf32>, tensor<8xf32> -> tensor<1x6x8xf32>
  %q4 = gopt.reshape %q : tensor<1x6x8xf32> -> tensor<1x6x2x4xf32>
  %k4 = gopt.reshape %k : tensor<1x6x8xf32> -> tensor<1x6x2x4xf32>
  %v4 = gopt.reshape %v : tensor<1x6x8xf32> -> tensor<1x6x2x4xf32>
  %qh = gopt.transpose %q4 perm = [0, 2, 1, 3] : tensor<1x6x2x4xf32> -> tensor<1x2x6x4xf32>
  %kt = gopt.transpose %k4 perm = [0, 2, 3, 1] : tensor<1x6x2x4xf32> -> tensor<1x2x4x6xf32>
  %vh = gopt.transpose %v4 perm = [0, 2, 1, 3] : tensor<1x6x2x4xf32> -> tensor<1x2x6x4xf32>
  %s = gopt.matmul %qh, %kt : tensor<1x2x6x4xf32>, tensor<1x2x4x6xf32> -> tensor<1x2x6x6xf32>
  %ss = gopt.mul %s, %scale : tensor<1x2x6x6xf32>, tensor<1xf32> -> tensor<1x2x6x6xf32>
  %p = gopt.softmax %ss axis = 3 : tensor<1x2x6x6xf32>
  %o = gopt.matmul %p, %vh : tensor<1x2x6x6xf32>, tensor<1x2x6x4xf32> -> tensor<1x2x6x4xf32>
  %ot = gopt.transpose %o perm = [0, 2, 1, 3] : tensor<1x2x6x4xf32> -> tensor<1x6x2x4xf32>
  %y = gopt.reshape %ot : tensor<1x6x2x4xf32> -> tensor<1x6x8xf32>
  %present = gopt.transpose %k4 perm = [0, 2, 1, 3] : tensor<1x6x2x4xf32> -> tensor<1x2x6x4xf32>
  return %y, %present : tensor<1x6x8xf32>, tensor<1x2x6x4xf32>
}
