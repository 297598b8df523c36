// An unrolled recurrence (an LSTM-like cell over four steps): the input
// projection is computed once for every step, each step adds its slice of
// it to the hidden state's GEMM and computes its gates from four slices of
// the sum. gopt-fuse puts each slice into the kernel that reads it (views,
// not copy kernels: two kernels a step), and gopt-parametrize-slice-offsets
// gives the steps' GEMM kernels, which differ only in the step they slice,
// the step as an argument: every step is one function. The results are
// those of the graph run without graph passes and of every kernel compiled
// apart, on both contraction paths and on the emulated GPU pipeline (which
// slices the same way and compiles each step's kernel apart).

// RUN: rm -rf %t && mkdir -p %t
// RUN: gopt-run %s --reps=0 --output-dir=%t/plain
// RUN: gopt-run %s --pipeline=gopt-optimize --reps=1 --inputs=%t/plain/input0.npy,%t/plain/input1.npy,%t/plain/input2.npy,%t/plain/input3.npy --expect=%t/plain/result0.npy,%t/plain/result1.npy 2>&1 | FileCheck %s
// RUN: gopt-run %s --pipeline=gopt-optimize --reps=1 --lowering-options=library-min-flops=0 --inputs=%t/plain/input0.npy,%t/plain/input1.npy,%t/plain/input2.npy,%t/plain/input3.npy --expect=%t/plain/result0.npy,%t/plain/result1.npy 2>&1 | FileCheck %s --check-prefix=LIB
// RUN: gopt-run %s --pipeline=gopt-optimize --reps=1 --lowering-options=dedup-kernels=false --inputs=%t/plain/input0.npy,%t/plain/input1.npy,%t/plain/input2.npy,%t/plain/input3.npy --expect=%t/plain/result0.npy,%t/plain/result1.npy 2>&1 | FileCheck %s --check-prefix=APART
// RUN: gopt-run %s --target=cuda-emulated --pipeline=gopt-optimize --inputs=%t/plain/input0.npy,%t/plain/input1.npy,%t/plain/input2.npy,%t/plain/input3.npy --expect=%t/plain/result0.npy,%t/plain/result1.npy 2>&1 | FileCheck %s --check-prefix=EMU

// CHECK: result #0 vs {{.*}}result0.npy: match (0 of
// CHECK: result #1 vs {{.*}}result1.npy: match (0 of
// CHECK: kernels 14 (library calls in 0, generated loops only in 14), 5 functions compiled for them
// CHECK-NEXT: id ms/run share kernel
// CHECK-NEXT: 0 {{.*}}% main_k0_linear
// CHECK-NEXT: 1 {{.*}}% main_k1_slice_reshape_linear_add
// CHECK-NEXT: 2 {{.*}}% main_k2_slice_sigmoid_slice_tanh_etc
// CHECK-NEXT: 3 {{.*}}% main_k3_reshape
// CHECK-NEXT: 4 {{.*}}% main_k4_slice_reshape_linear_add

// LIB: result #0 vs {{.*}}result0.npy: match (0 of
// LIB: result #1 vs {{.*}}result1.npy: match (0 of
// LIB: kernels 14 (library calls in 5, generated loops only in 9), 5 functions compiled for them
// LIB: main_k1_slice_reshape_linear_add  [gopt_sgemm]

// APART: result #0 vs {{.*}}result0.npy: match (0 of
// APART: result #1 vs {{.*}}result1.npy: match (0 of
// APART: kernels 14 (library calls in 0, generated loops only in 14){{$}}

// EMU: result #0 vs {{.*}}result0.npy: match (0 of
// EMU: result #1 vs {{.*}}result1.npy: match (0 of

func.func @main(%x: tensor<4x1x8xf32>, %wx: tensor<8x32xf32>, %wh: tensor<8x32xf32>, %h0: tensor<1x8xf32>) -> (tensor<1x8xf32>, tensor<4x1x8xf32>) {
  %p = gopt.linear %x, %wx : tensor<4x1x8xf32>, tensor<8x32xf32> -> tensor<4x1x32xf32>
  %s0 = gopt.slice %p starts = [0, 0, 0] ends = [1, 1, 32] steps = [1, 1, 1] : tensor<4x1x32xf32> -> tensor<1x1x32xf32>
  %x0 = gopt.reshape %s0 : tensor<1x1x32xf32> -> tensor<1x32xf32>
  %r0 = gopt.linear %h0, %wh : tensor<1x8xf32>, tensor<8x32xf32> -> tensor<1x32xf32>
  %g0 = gopt.add %r0, %x0 : tensor<1x32xf32>
  %q0_0 = gopt.slice %g0 starts = [0, 0] ends = [1, 8] steps = [1, 1] : tensor<1x32xf32> -> tensor<1x8xf32>
  %a0_0 = gopt.sigmoid %q0_0 : tensor<1x8xf32>
  %q0_1 = gopt.slice %g0 starts = [0, 8] ends = [1, 16] steps = [1, 1] : tensor<1x32xf32> -> tensor<1x8xf32>
  %a0_1 = gopt.tanh %q0_1 : tensor<1x8xf32>
  %q0_2 = gopt.slice %g0 starts = [0, 16] ends = [1, 24] steps = [1, 1] : tensor<1x32xf32> -> tensor<1x8xf32>
  %a0_2 = gopt.sigmoid %q0_2 : tensor<1x8xf32>
  %q0_3 = gopt.slice %g0 starts = [0, 24] ends = [1, 32] steps = [1, 1] : tensor<1x32xf32> -> tensor<1x8xf32>
  %a0_3 = gopt.tanh %q0_3 : tensor<1x8xf32>
  %m0_0 = gopt.mul %a0_0, %a0_1 : tensor<1x8xf32>
  %m0_1 = gopt.mul %a0_2, %a0_3 : tensor<1x8xf32>
  %h1 = gopt.add %m0_0, %m0_1 : tensor<1x8xf32>
  %o0 = gopt.reshape %h1 : tensor<1x8xf32> -> tensor<1x1x8xf32>
  %s1 = gopt.slice %p starts = [1, 0, 0] ends = [2, 1, 32] steps = [1, 1, 1] : tensor<4x1x32xf32> -> tensor<1x1x32xf32>
  %x1 = gopt.reshape %s1 : tensor<1x1x32xf32> -> tensor<1x32xf32>
  %r1 = gopt.linear %h1, %wh : tensor<1x8xf32>, tensor<8x32xf32> -> tensor<1x32xf32>
  %g1 = gopt.add %r1, %x1 : tensor<1x32xf32>
  %q1_0 = gopt.slice %g1 starts = [0, 0] ends = [1, 8] steps = [1, 1] : tensor<1x32xf32> -> tensor<1x8xf32>
  %a1_0 = gopt.sigmoid %q1_0 : tensor<1x8xf32>
  %q1_1 = gopt.slice %g1 starts = [0, 8] ends = [1, 16] steps = [1, 1] : tensor<1x32xf32> -> tensor<1x8xf32>
  %a1_1 = gopt.tanh %q1_1 : tensor<1x8xf32>
  %q1_2 = gopt.slice %g1 starts = [0, 16] ends = [1, 24] steps = [1, 1] : tensor<1x32xf32> -> tensor<1x8xf32>
  %a1_2 = gopt.sigmoid %q1_2 : tensor<1x8xf32>
  %q1_3 = gopt.slice %g1 starts = [0, 24] ends = [1, 32] steps = [1, 1] : tensor<1x32xf32> -> tensor<1x8xf32>
  %a1_3 = gopt.tanh %q1_3 : tensor<1x8xf32>
  %m1_0 = gopt.mul %a1_0, %a1_1 : tensor<1x8xf32>
  %m1_1 = gopt.mul %a1_2, %a1_3 : tensor<1x8xf32>
  %h2 = gopt.add %m1_0, %m1_1 : tensor<1x8xf32>
  %o1 = gopt.reshape %h2 : tensor<1x8xf32> -> tensor<1x1x8xf32>
  %s2 = gopt.slice %p starts = [2, 0, 0] ends = [3, 1, 32] steps = [1, 1, 1] : tensor<4x1x32xf32> -> tensor<1x1x32xf32>
  %x2 = gopt.reshape %s2 : tensor<1x1x32xf32> -> tensor<1x32xf32>
  %r2 = gopt.linear %h2, %wh : tensor<1x8xf32>, tensor<8x32xf32> -> tensor<1x32xf32>
  %g2 = gopt.add %r2, %x2 : tensor<1x32xf32>
  %q2_0 = gopt.slice %g2 starts = [0, 0] ends = [1, 8] steps = [1, 1] : tensor<1x32xf32> -> tensor<1x8xf32>
  %a2_0 = gopt.sigmoid %q2_0 : tensor<1x8xf32>
  %q2_1 = gopt.slice %g2 starts = [0, 8] ends = [1, 16] steps = [1, 1] : tensor<1x32xf32> -> tensor<1x8xf32>
  %a2_1 = gopt.tanh %q2_1 : tensor<1x8xf32>
  %q2_2 = gopt.slice %g2 starts = [0, 16] ends = [1, 24] steps = [1, 1] : tensor<1x32xf32> -> tensor<1x8xf32>
  %a2_2 = gopt.sigmoid %q2_2 : tensor<1x8xf32>
  %q2_3 = gopt.slice %g2 starts = [0, 24] ends = [1, 32] steps = [1, 1] : tensor<1x32xf32> -> tensor<1x8xf32>
  %a2_3 = gopt.tanh %q2_3 : tensor<1x8xf32>
  %m2_0 = gopt.mul %a2_0, %a2_1 : tensor<1x8xf32>
  %m2_1 = gopt.mul %a2_2, %a2_3 : tensor<1x8xf32>
  %h3 = gopt.add %m2_0, %m2_1 : tensor<1x8xf32>
  %o2 = gopt.reshape %h3 : tensor<1x8xf32> -> tensor<1x1x8xf32>
  %s3 = gopt.slice %p starts = [3, 0, 0] ends = [4, 1, 32] steps = [1, 1, 1] : tensor<4x1x32xf32> -> tensor<1x1x32xf32>
  %x3 = gopt.reshape %s3 : tensor<1x1x32xf32> -> tensor<1x32xf32>
  %r3 = gopt.linear %h3, %wh : tensor<1x8xf32>, tensor<8x32xf32> -> tensor<1x32xf32>
  %g3 = gopt.add %r3, %x3 : tensor<1x32xf32>
  %q3_0 = gopt.slice %g3 starts = [0, 0] ends = [1, 8] steps = [1, 1] : tensor<1x32xf32> -> tensor<1x8xf32>
  %a3_0 = gopt.sigmoid %q3_0 : tensor<1x8xf32>
  %q3_1 = gopt.slice %g3 starts = [0, 8] ends = [1, 16] steps = [1, 1] : tensor<1x32xf32> -> tensor<1x8xf32>
  %a3_1 = gopt.tanh %q3_1 : tensor<1x8xf32>
  %q3_2 = gopt.slice %g3 starts = [0, 16] ends = [1, 24] steps = [1, 1] : tensor<1x32xf32> -> tensor<1x8xf32>
  %a3_2 = gopt.sigmoid %q3_2 : tensor<1x8xf32>
  %q3_3 = gopt.slice %g3 starts = [0, 24] ends = [1, 32] steps = [1, 1] : tensor<1x32xf32> -> tensor<1x8xf32>
  %a3_3 = gopt.tanh %q3_3 : tensor<1x8xf32>
  %m3_0 = gopt.mul %a3_0, %a3_1 : tensor<1x8xf32>
  %m3_1 = gopt.mul %a3_2, %a3_3 : tensor<1x8xf32>
  %h4 = gopt.add %m3_0, %m3_1 : tensor<1x8xf32>
  %o3 = gopt.reshape %h4 : tensor<1x8xf32> -> tensor<1x1x8xf32>
  %seq = gopt.concat %o0, %o1, %o2, %o3 axis = 0 : tensor<1x1x8xf32>, tensor<1x1x8xf32>, tensor<1x1x8xf32>, tensor<1x1x8xf32> -> tensor<4x1x8xf32>
  return %h4, %seq : tensor<1x8xf32>, tensor<4x1x8xf32>
}
