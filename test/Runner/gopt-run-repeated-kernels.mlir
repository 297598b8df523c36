// Three layers of the same shapes, their weights arguments: one kernel
// each, the same function (gopt-deduplicate-kernels), compiled once. The report keeps one row per kernel, each timed at its
// own call, and says how many functions were compiled for them.

// RUN: gopt-run %s --pipeline=gopt-optimize --reps=2 | FileCheck %s --check-prefix=TABLE
// TABLE: kernels 3 (library calls in 0, generated loops only in 3), 1 function compiled for them
// TABLE-NEXT: id ms/run share kernel
// TABLE-NEXT: 0 {{.*}}% main_k0_linear_tanh
// TABLE-NEXT: 1 {{.*}}% main_k1_linear_tanh
// TABLE-NEXT: 2 {{.*}}% main_k2_linear_tanh

// RUN: gopt-run %s --pipeline=gopt-optimize --reps=1 --format=json | FileCheck %s --check-prefix=JSON
// JSON: "kernel_functions": 1,
// JSON: "kernels": 3,

// Compiled kernel by kernel (dedup-kernels=false): three functions, the
// report says nothing more, and the results are the same.
// RUN: rm -rf %t && gopt-run %s --pipeline=gopt-optimize --reps=0 --lowering-options=dedup-kernels=false --output-dir=%t/apart
// RUN: gopt-run %s --pipeline=gopt-optimize --reps=1 --lowering-options=dedup-kernels=false | FileCheck %s --check-prefix=APART
// APART: kernels 3 (library calls in 0, generated loops only in 3){{$}}
// RUN: gopt-run %s --pipeline=gopt-optimize --reps=0 --expect=%t/apart/result0.npy 2>&1 | FileCheck %s --check-prefix=SAME
// SAME: result #0 vs {{.*}}result0.npy: match (0 of 256 elements outside rtol=0.0001 atol=1e-05, max abs error 0)

// The emulated GPU pipeline shares them too and computes the same.
// RUN: gopt-run %s --target=cuda-emulated --pipeline=gopt-optimize --expect=%t/apart/result0.npy 2>&1 | FileCheck %s --check-prefix=EMULATED
// EMULATED: result #0 vs {{.*}}result0.npy: match (0 of 256 elements outside

func.func @main(%x: tensor<16x16xf32>, %w0: tensor<16x16xf32>, %b0: tensor<16xf32>, %w1: tensor<16x16xf32>, %b1: tensor<16xf32>, %w2: tensor<16x16xf32>, %b2: tensor<16xf32>) -> tensor<16x16xf32> {
  %l0 = gopt.linear %x, %w0, %b0 : tensor<16x16xf32>, tensor<16x16xf32>, tensor<16xf32> -> tensor<16x16xf32>
  %t0 = gopt.tanh %l0 : tensor<16x16xf32>
  %l1 = gopt.linear %t0, %w1, %b1 : tensor<16x16xf32>, tensor<16x16xf32>, tensor<16xf32> -> tensor<16x16xf32>
  %t1 = gopt.tanh %l1 : tensor<16x16xf32>
  %l2 = gopt.linear %t1, %w2, %b2 : tensor<16x16xf32>, tensor<16x16xf32>, tensor<16xf32> -> tensor<16x16xf32>
  %t2 = gopt.tanh %l2 : tensor<16x16xf32>
  return %t2 : tensor<16x16xf32>
}
