// Transposes that move the innermost dim are tiled in square tiles
// (test/Codegen/Common/gopt-fuse-kernel-loops.mlir, @transpose), including
// sizes 8 does not divide (30: tiles of 6; 7: of 7), blocks 64 does not
// divide (136 x 200: blocks of 34 x 50, vector tiles of 2 x 5) and a
// transpose of a strided view. The results against the same graph compiled with
// one-element tiles and no vectors.

// RUN: rm -rf %t && mkdir -p %t
// RUN: gopt-run %s --reps=0 --lowering-options="vectorize=false tile-sizes=1" --output-dir=%t/ref
// RUN: gopt-run %s --reps=0 --inputs=%t/ref/input0.npy,%t/ref/input1.npy,%t/ref/input2.npy --expect=%t/ref/result0.npy,%t/ref/result1.npy,%t/ref/result2.npy,%t/ref/result3.npy 2>&1 | FileCheck %s
// CHECK: result #0 vs {{.*}}result0.npy: match (0 of
// CHECK: result #1 vs {{.*}}result1.npy: match (0 of
// CHECK: result #2 vs {{.*}}result2.npy: match (0 of
// CHECK: result #3 vs {{.*}}result3.npy: match (0 of

func.func @main(%x: tensor<30x4x7xf32>, %y: tensor<7x30xf32>, %z: tensor<136x200xf32>) -> (tensor<4x7x30xf32>, tensor<7x4x30xf32>, tensor<7x30xf32>, tensor<200x136xf32>) {
  %a = gopt.transpose %x perm = [1, 2, 0] : tensor<30x4x7xf32> -> tensor<4x7x30xf32>
  %b = gopt.transpose %x perm = [2, 1, 0] : tensor<30x4x7xf32> -> tensor<7x4x30xf32>
  %s = gopt.slice %x starts = [0, 0, 0] ends = [30, 1, 7] steps = [1, 1, 1] : tensor<30x4x7xf32> -> tensor<30x1x7xf32>
  %r = gopt.reshape %s : tensor<30x1x7xf32> -> tensor<30x7xf32>
  %t = gopt.transpose %r perm = [1, 0] : tensor<30x7xf32> -> tensor<7x30xf32>
  %c = gopt.add %t, %y : tensor<7x30xf32>
  %zt = gopt.transpose %z perm = [1, 0] : tensor<136x200xf32> -> tensor<200x136xf32>
  return %a, %b, %c, %zt : tensor<4x7x30xf32>, tensor<7x4x30xf32>, tensor<7x30xf32>, tensor<200x136xf32>
}
