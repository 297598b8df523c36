// The generated code's parallel loops (gopt-parallelize-kernel-loops) on two
// threads compute what the same code computes without them on one: layer
// norm, softmax, transposes, gelu, a column reduction, a gather, and a
// channels-last convolution block's epilogues and pooling (seeded random
// inputs). Chunks are split by the runtime, so a wrong index recovery or a
// shared temporary would show here.

// RUN: rm -rf %t && mkdir -p %t
// RUN: gopt-run %s --pipeline=gopt-optimize --threads=1 --reps=0 \
// RUN:   --lowering-options=parallel-loops=false --output-dir=%t/serial
// RUN: gopt-run %s --pipeline=gopt-optimize --threads=2 --reps=1 --warmup=0 \
// RUN:   --expect=%t/serial/result0.npy,%t/serial/result1.npy,%t/serial/result2.npy,%t/serial/result3.npy,%t/serial/result4.npy \
// RUN:   --rtol=1e-6 --atol=1e-6 2>&1 | FileCheck %s
// CHECK-COUNT-5: match (0 of
// CHECK: threads {{[12]}} in the {{onednn|openblas|loops}} GEMM and convolutions and in {{[1-9][0-9]*}} parallel loops of the generated code

// Without the option, nothing runs through gopt_parallel_for.
// RUN: gopt-opt %s --gopt-optimize --gopt-lower-to-llvm=parallel-loops=false | FileCheck %s --check-prefix=OFF
// OFF-NOT: gopt_parallel_for
// RUN: gopt-opt %s --gopt-optimize --gopt-lower-to-llvm | FileCheck %s --check-prefix=ON
// ON: llvm.call @gopt_parallel_for

func.func @main(%x: tensor<2x128x256xf32>, %img: tensor<1x16x32x32xf32>)
    -> (tensor<2x128x256xf32>, tensor<2x256x128xf32>, tensor<2x256xf32>,
        tensor<8x256xf32>, tensor<1x16x16x16xf32>) {
  %g = gopt.constant dense<1.5> : tensor<256xf32>
  %b = gopt.constant dense<0.25> : tensor<256xf32>
  %ln = gopt.layer_norm %x, %g, %b axes = [2] eps = 1.0e-05 : tensor<2x128x256xf32>, tensor<256xf32>, tensor<256xf32>
  %act = gopt.gelu %ln : tensor<2x128x256xf32>
  %sm = gopt.softmax %act axis = 2 : tensor<2x128x256xf32>
  %t = gopt.transpose %x perm = [0, 2, 1] : tensor<2x128x256xf32> -> tensor<2x256x128xf32>
  %e = gopt.exp %t : tensor<2x256x128xf32>
  %col = gopt.reduce sum %x axes = [1] : tensor<2x128x256xf32> -> tensor<2x256xf32>
  %table = gopt.reshape %x : tensor<2x128x256xf32> -> tensor<256x256xf32>
  %ids = gopt.constant dense<[255, 0, 17, 128, 3, 200, 64, 31]> : tensor<8xi32>
  %gathered = gopt.gather %table[%ids] axis = 0 : tensor<256x256xf32>, tensor<8xi32> -> tensor<8x256xf32>
  %w = gopt.constant dense<0.125> : tensor<16x16x3x3xf32>
  %bias = gopt.constant dense<0.5> : tensor<16xf32>
  %c = gopt.conv2d %img, %w, %bias strides = [1, 1] padding = [1, 1, 1, 1] dilations = [1, 1] groups = 1 : tensor<1x16x32x32xf32>, tensor<16x16x3x3xf32>, tensor<16xf32> -> tensor<1x16x32x32xf32>
  %r = gopt.relu %c : tensor<1x16x32x32xf32>
  %s = gopt.sigmoid %r : tensor<1x16x32x32xf32>
  %m = gopt.mul %r, %s : tensor<1x16x32x32xf32>
  %p = gopt.pool2d max %m kernel = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] : tensor<1x16x32x32xf32> -> tensor<1x16x16x16xf32>
  return %sm, %e, %col, %gathered, %p
      : tensor<2x128x256xf32>, tensor<2x256x128xf32>, tensor<2x256xf32>,
        tensor<8x256xf32>, tensor<1x16x16x16xf32>
}
