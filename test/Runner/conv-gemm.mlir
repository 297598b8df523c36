// Convolutions as an im2col copy and a GEMM (gopt-lower-to-llvm{conv-gemm},
// the CPU's way to run what the GPU pipeline's conv-gemm does, so its
// numerics are checked on every machine): a strided, asymmetrically padded
// 3x3 convolution with a bias and a ReLU, then a 1x1 one, in NCHW (no graph
// pass) and NHWC (gopt-optimize's channels-last) against the default
// lowering (the runtime's gopt_conv2d). The dilated and the depthwise
// convolution stay gopt_conv2d calls. library-min-flops=0: these small
// GEMMs take the library path too. Weights are arguments: seeded random
// values.

// RUN: rm -rf %t && mkdir -p %t
// RUN: gopt-run %s --reps=0 --output-dir=%t/plain
// RUN: gopt-run %s --reps=1 --kernel-timers --lowering-options='conv-gemm=true library-min-flops=0' --inputs=%t/plain/input0.npy,%t/plain/input1.npy,%t/plain/input2.npy,%t/plain/input3.npy,%t/plain/input4.npy,%t/plain/input5.npy --expect=%t/plain/result0.npy,%t/plain/result1.npy 2>&1 | FileCheck %s --check-prefix=NCHW
// RUN: gopt-run %s --reps=1 --kernel-timers --pipeline=gopt-optimize --lowering-options='conv-gemm=true library-min-flops=0' --inputs=%t/plain/input0.npy,%t/plain/input1.npy,%t/plain/input2.npy,%t/plain/input3.npy,%t/plain/input4.npy,%t/plain/input5.npy --expect=%t/plain/result0.npy,%t/plain/result1.npy 2>&1 | FileCheck %s --check-prefix=NHWC

// The GPU pipeline's own conv-gemm (an im2col launch, then the GEMM; the
// bias and ReLU as cuBLASLt's epilogue), emulated on the CPU thread by
// thread (--target=cuda-emulated; docs/GPU.md), channels last, with the
// direct loops for the dilated and the depthwise convolution:
// RUN: gopt-run %s --target=cuda-emulated --pipeline=gopt-optimize --nvvm-options='conv-gemm cublaslt-epilogues emulate-reverse-threads' --inputs=%t/plain/input0.npy,%t/plain/input1.npy,%t/plain/input2.npy,%t/plain/input3.npy,%t/plain/input4.npy,%t/plain/input5.npy --expect=%t/plain/result0.npy,%t/plain/result1.npy 2>&1 | FileCheck %s --check-prefix=EMU
// EMU: conv2d_relu  [gopt_sgemm_epilogue]
// EMU: conv2d  [gopt_sgemm]
// EMU: result #0 vs {{.*}}result0.npy: match (0 of
// EMU: result #1 vs {{.*}}result1.npy: match (0 of

// NCHW: result #0 vs {{.*}}result0.npy: match (0 of
// NCHW: result #1 vs {{.*}}result1.npy: match (0 of
// NCHW: main_k0_conv2d  [gopt_sgemm]
// NCHW: main_k2_conv2d  [gopt_sgemm]
// NCHW: main_k3_conv2d  [gopt_conv2d]
// NCHW: main_k4_conv2d  [gopt_conv2d]

// NHWC: result #0 vs {{.*}}result0.npy: match (0 of
// NHWC: result #1 vs {{.*}}result1.npy: match (0 of
// NHWC: conv2d_relu  [gopt_sgemm]
// NHWC: conv2d  [gopt_sgemm]
// NHWC: conv2d  [gopt_conv2d_nhwc]
// NHWC: conv2d  [gopt_conv2d_nhwc]

func.func @main(%x: tensor<2x5x11x9xf32>, %w: tensor<7x5x3x2xf32>, %b: tensor<7xf32>, %w1: tensor<4x7x1x1xf32>, %wd: tensor<4x4x3x3xf32>, %wg: tensor<4x1x3x3xf32>) -> (tensor<2x7x5x10xf32>, tensor<2x4x1x6xf32>) {
  %c = gopt.conv2d %x, %w, %b strides = [2, 1] padding = [1, 0, 0, 2] dilations = [1, 1] groups = 1 : tensor<2x5x11x9xf32>, tensor<7x5x3x2xf32>, tensor<7xf32> -> tensor<2x7x5x10xf32>
  %r = gopt.relu %c : tensor<2x7x5x10xf32>
  %c1 = gopt.conv2d %r, %w1 strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<2x7x5x10xf32>, tensor<4x7x1x1xf32> -> tensor<2x4x5x10xf32>
  %cd = gopt.conv2d %c1, %wd strides = [1, 1] padding = [0, 0, 0, 0] dilations = [2, 2] groups = 1 : tensor<2x4x5x10xf32>, tensor<4x4x3x3xf32> -> tensor<2x4x1x6xf32>
  %cg = gopt.conv2d %cd, %wg strides = [1, 1] padding = [1, 1, 1, 1] dilations = [1, 1] groups = 4 : tensor<2x4x1x6xf32>, tensor<4x1x3x3xf32> -> tensor<2x4x1x6xf32>
  return %r, %cg : tensor<2x7x5x10xf32>, tensor<2x4x1x6xf32>
}
