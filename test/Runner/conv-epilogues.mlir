// Convolutions whose kernel goes on with a bias and an activation (the
// epilogues of conv nets): with gopt-optimize, each convolution and its
// epilogue are one kernel, and on the library path the runtime's
// channels-last convolution applies the cheap epilogues as it writes its
// output (oneDNN's post-ops: gopt-lower-to-llvm{conv-epilogues}): a bias
// (oneDNN's bias argument), hardswish as ONNX writes it
// (x · clip(x/6 + 1/2, 0, 1)), ReLU6, ReLU, a per-channel scale and shift (a
// batch norm gopt-fold cannot fold into weights that are an argument). The
// epilogues with a SiLU or a sigmoid stay in generated loops. The
// results match the graph run without graph passes (plain convolutions,
// NCHW, each activation its own loop), and with conv-epilogues=false.
// Weights and biases are arguments: seeded random values.
//
// The call with the epilogue's steps is checked in
// test/Codegen/CPU/gopt-lower-library-contractions.mlir; the runtime's
// steps, the transcendental ones included, in the GoogleTest
// Conv2D.ChannelsLastEpilogueAppliesEachStepInOrder.

// RUN: rm -rf %t && mkdir -p %t
// RUN: gopt-run %s --reps=0 --output-dir=%t/plain
// RUN: gopt-run %s --reps=1 --pipeline=gopt-optimize --kernel-timers --inputs=%t/plain/input0.npy,%t/plain/input1.npy,%t/plain/input2.npy,%t/plain/input3.npy,%t/plain/input4.npy,%t/plain/input5.npy,%t/plain/input6.npy --expect=%t/plain/result0.npy 2>&1 | FileCheck %s
// RUN: gopt-run %s --reps=0 --pipeline=gopt-optimize --lowering-options=conv-epilogues=false --inputs=%t/plain/input0.npy,%t/plain/input1.npy,%t/plain/input2.npy,%t/plain/input3.npy,%t/plain/input4.npy,%t/plain/input5.npy,%t/plain/input6.npy --expect=%t/plain/result0.npy 2>&1 | FileCheck %s --check-prefix=LOOPS
// CHECK: result #0 vs {{.*}}result0.npy: match (0 of
// Six convolutions and their epilogues: six kernels, each one library call
// (four with their epilogues in it: not the SiLU and the sigmoid).
// CHECK: kernels {{[0-9]+}} (library calls in 6,
// CHECK-COUNT-6: conv2d{{.*}}[gopt_conv2d_nhwc]
// LOOPS: result #0 vs {{.*}}result0.npy: match (0 of

func.func @main(%x: tensor<1x8x12x12xf32>, %w0: tensor<16x8x3x3xf32>, %b0: tensor<16xf32>, %w1: tensor<16x1x3x3xf32>, %w2: tensor<24x16x1x1xf32>, %w3: tensor<24x1x5x5xf32>, %w4: tensor<16x24x1x1xf32>) -> tensor<1x16x6x6xf32> {
  %k6 = gopt.constant dense<0.166666672> : tensor<f32>
  %half = gopt.constant dense<5.000000e-01> : tensor<f32>
  %s2 = gopt.constant dense<[0.500, 0.550, 0.600, 0.650, 0.700, 0.750, 0.800, 0.850, 0.900, 0.950, 1.000, 1.050, 1.100, 1.150, 1.200, 1.250, 1.300, 1.350, 1.400, 1.450, 1.500, 1.550, 1.600, 1.650]> : tensor<24xf32>
  %t2 = gopt.constant dense<[-0.600, -0.550, -0.500, -0.450, -0.400, -0.350, -0.300, -0.250, -0.200, -0.150, -0.100, -0.050, 0.000, 0.050, 0.100, 0.150, 0.200, 0.250, 0.300, 0.350, 0.400, 0.450, 0.500, 0.550]> : tensor<24xf32>
  // 3x3 + bias + hardswish
  %c0 = gopt.conv2d %x, %w0, %b0 strides = [1, 1] padding = [1, 1, 1, 1] dilations = [1, 1] groups = 1 : tensor<1x8x12x12xf32>, tensor<16x8x3x3xf32>, tensor<16xf32> -> tensor<1x16x12x12xf32>
  %h0 = gopt.mul %c0, %k6 : tensor<1x16x12x12xf32>, tensor<f32> -> tensor<1x16x12x12xf32>
  %h1 = gopt.add %h0, %half : tensor<1x16x12x12xf32>, tensor<f32> -> tensor<1x16x12x12xf32>
  %h2 = gopt.clip %h1 min = 0.000000e+00 max = 1.000000e+00 : tensor<1x16x12x12xf32>
  %a0 = gopt.mul %h2, %c0 : tensor<1x16x12x12xf32>
  // depthwise 3x3, stride 2 + ReLU6
  %c1 = gopt.conv2d %a0, %w1 strides = [2, 2] padding = [1, 1, 1, 1] dilations = [1, 1] groups = 16 : tensor<1x16x12x12xf32>, tensor<16x1x3x3xf32> -> tensor<1x16x6x6xf32>
  %a1 = gopt.clip %c1 min = 0.000000e+00 max = 6.000000e+00 : tensor<1x16x6x6xf32>
  // 1x1 + per-channel scale and shift + ReLU
  %c2 = gopt.conv2d %a1, %w2 strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x16x6x6xf32>, tensor<24x16x1x1xf32> -> tensor<1x24x6x6xf32>
  %s2r = gopt.reshape %s2 : tensor<24xf32> -> tensor<24x1x1xf32>
  %n0 = gopt.mul %c2, %s2r : tensor<1x24x6x6xf32>, tensor<24x1x1xf32> -> tensor<1x24x6x6xf32>
  %t2r = gopt.reshape %t2 : tensor<24xf32> -> tensor<24x1x1xf32>
  %n1 = gopt.add %n0, %t2r : tensor<1x24x6x6xf32>, tensor<24x1x1xf32> -> tensor<1x24x6x6xf32>
  %a2 = gopt.relu %n1 : tensor<1x24x6x6xf32>
  // depthwise 5x5 + SiLU
  %c3 = gopt.conv2d %a2, %w3 strides = [1, 1] padding = [2, 2, 2, 2] dilations = [1, 1] groups = 24 : tensor<1x24x6x6xf32>, tensor<24x1x5x5xf32> -> tensor<1x24x6x6xf32>
  %a3 = gopt.silu %c3 : tensor<1x24x6x6xf32>
  // 1x1 + ReLU, then depthwise 3x3 + sigmoid
  %c4 = gopt.conv2d %a3, %w4 strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x24x6x6xf32>, tensor<16x24x1x1xf32> -> tensor<1x16x6x6xf32>
  %a4 = gopt.relu %c4 : tensor<1x16x6x6xf32>
  %c5 = gopt.conv2d %a4, %w1 strides = [1, 1] padding = [1, 1, 1, 1] dilations = [1, 1] groups = 16 : tensor<1x16x6x6xf32>, tensor<16x1x3x3xf32> -> tensor<1x16x6x6xf32>
  %a5 = gopt.sigmoid %c5 : tensor<1x16x6x6xf32>
  return %a5 : tensor<1x16x6x6xf32>
}
