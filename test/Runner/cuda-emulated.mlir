// gopt-run --target=cuda-emulated (docs/GPU.md, "Checking without a GPU"):
// the kernels as gopt-lower-to-nvvm maps them for the GPU, run on the CPU
// thread by thread, against the CPU without graph passes (the default
// reference) or --expect files. Here: an elementwise chain (one element per
// thread, and 4 per thread with their loads hoisted), a softmax and a
// column reduction (one block per tile: shared memory, barriers, block
// reductions), a concatenation and a pad (a launch per part), in both
// thread orders and at two block sizes.

// RUN: gopt-run %s --target=cuda-emulated 2>&1 | FileCheck %s --check-prefixes=CHECK,UNFUSED
// RUN: gopt-run %s --target=cuda-emulated --pipeline=gopt-optimize 2>&1 | FileCheck %s --check-prefixes=CHECK,FUSED,LAUNCH
// RUN: gopt-run %s --target=cuda-emulated --pipeline=gopt-optimize --nvvm-options='elements-per-thread=4 emulate-reverse-threads' 2>&1 | FileCheck %s --check-prefixes=CHECK,FUSED
// RUN: gopt-run %s --target=cuda-emulated --pipeline=gopt-optimize --nvvm-options='block-size=32 emulate-reverse-threads' 2>&1 | FileCheck %s --check-prefixes=CHECK,FUSED

// UNFUSED: gopt-run: @main emulated on this CPU as gopt-lower-to-nvvm maps it: 9 kernels
// FUSED: gopt-run: @main emulated on this CPU as gopt-lower-to-nvvm maps it: 6 kernels
// FUSED-NEXT: main_k0_mul_add_tanh_exp

// Each kernel's launches as the GPU would run them: one thread per element,
// or one block per softmax row with shared memory, barriers and block
// reductions; a launch per part of the concatenation.
// LAUNCH-NEXT: launch: 4 blocks of 256 threads
// LAUNCH-NEXT: main_k1_softmax
// LAUNCH-NEXT: launch: 4 blocks of 256 threads (2408 B shared, 7 barriers, 2 block reductions)
// LAUNCH: main_k4_concat
// LAUNCH-NEXT: launch: 1 block of 256 threads
// LAUNCH-NEXT: launch: 1 block of 256 threads
// CHECK: result #0 vs the CPU without graph passes: match (0 of 1024 elements
// CHECK: result #1 vs the CPU without graph passes: match (0 of 1200 elements
// CHECK: result #2 vs the CPU without graph passes: match (0 of 300 elements
// CHECK: result #3 vs the CPU without graph passes: match (0 of 216 elements

// The files a CPU run wrote are a reference too.
// RUN: rm -rf %t && mkdir -p %t
// RUN: gopt-run %s --reps=0 --output-dir=%t/plain
// RUN: gopt-run %s --target=cuda-emulated --pipeline=gopt-optimize --inputs=%t/plain/input0.npy,%t/plain/input1.npy,%t/plain/input2.npy --expect=%t/plain/result0.npy,%t/plain/result1.npy,%t/plain/result2.npy,%t/plain/result3.npy --outputs=%t/e0.npy,%t/e1.npy,%t/e2.npy,%t/e3.npy --output-dir=%t/emu 2>&1 | FileCheck %s --check-prefix=FILES
// RUN: ls %t/e3.npy %t/emu/result3.npy %t/emu/input2.npy
// FILES: result #0 vs {{.*}}result0.npy: match (0 of 1024 elements
// FILES: result #3 vs {{.*}}result3.npy: match (0 of 216 elements

// Emulated code is checked, not timed; the CPU's lowering options are not
// the GPU pipeline's.
// RUN: not gopt-run %s --target=cuda-emulated --reps=5 2>&1 | FileCheck %s --check-prefix=TIMED
// RUN: not gopt-run %s --target=cuda-emulated --kernel-timers 2>&1 | FileCheck %s --check-prefix=TIMED
// RUN: not gopt-run %s --target=cuda-emulated --lowering-options=vectorize=false 2>&1 | FileCheck %s --check-prefix=LOWERING
// RUN: not gopt-run %s --target=cuda-emulated --nvvm-options=block-size=zero 2>&1 | FileCheck %s --check-prefix=BADOPT
// RUN: not gopt-run %s --target=cuda-emulated --export-bundle=%t/b 2>&1 | FileCheck %s --check-prefix=BUNDLE
// Without a GPU, --target=cuda says where to turn.
// RUN: env GOPT_LIBCUDA=/nonexistent/libcuda.so.1 not gopt-run %s --target=cuda 2>&1 | FileCheck %s --check-prefix=NODEVICE
// NODEVICE: no CUDA driver: cannot open /nonexistent/libcuda.so.1
// NODEVICE: gopt-run: note: without a GPU, --target=cuda-emulated runs the same kernels on this CPU, thread by thread, against the CPU's results; --export-bundle writes them for a GPU machine

// TIMED: gopt-run: error: --target=cuda-emulated checks what the GPU code computes; it does not time it
// LOWERING: gopt-run: error: --lowering-options are gopt-lower-to-llvm's (the CPU); --target=cuda-emulated takes --nvvm-options
// BADOPT: gopt-run: error: bad gopt-lower-to-nvvm options 'block-size=zero'
// BUNDLE: gopt-run: error: --export-bundle, --cuda-graph and --generated-inputs are for --target=cuda

func.func @main(%x: tensor<4x256xf32>, %y: tensor<4x300xf32>, %z: tensor<8x12xf32>)
    -> (tensor<4x256xf32>, tensor<4x300xf32>, tensor<300xf32>, tensor<12x18xf32>) {
  %c = gopt.constant dense<0.5> : tensor<4x256xf32>
  %m = gopt.mul %x, %c : tensor<4x256xf32>
  %a = gopt.add %m, %x : tensor<4x256xf32>
  %t = gopt.tanh %a : tensor<4x256xf32>
  %e = gopt.exp %t : tensor<4x256xf32>
  %s = gopt.softmax %y axis = 1 : tensor<4x300xf32>
  %r = gopt.reduce sum %y axes = [0] : tensor<4x300xf32> -> tensor<300xf32>
  %n = gopt.neg %z : tensor<8x12xf32>
  %k = gopt.concat %z, %n axis = 0 : tensor<8x12xf32>, tensor<8x12xf32> -> tensor<16x12xf32>
  %ks = gopt.slice %k starts = [2, 0] ends = [12, 12] steps = [1, 1] : tensor<16x12xf32> -> tensor<10x12xf32>
  %p = gopt.pad %ks low = [1, 3] high = [1, 3] value = 0.0 : tensor<10x12xf32> -> tensor<12x18xf32>
  return %e, %s, %r, %p : tensor<4x256xf32>, tensor<4x300xf32>, tensor<300xf32>, tensor<12x18xf32>
}
