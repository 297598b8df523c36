// RUN: gopt-opt %s --pass-pipeline='builtin.module(gopt-fold)' | FileCheck %s
// RUN: gopt-difftest %s | FileCheck %s --check-prefix=DIFF

// A folded result over 64 elements whose values all come out equal is a
// splat constant, not a resource blob: the blob was made from the splat's
// one-element raw data and the lowering rejected it ("raw data size does not
// match element type size"). Found by the 10,000-graph difftest run (seed
// 9960, 74 ops: a min that clamps a constant to one value).

// CHECK-LABEL: func.func @main
// CHECK: %[[C:.*]] = gopt.constant dense<-9.375000e-01> : tensor<80xf32>
// CHECK: gopt.add %arg0, %[[C]]
// CHECK-NOT: dense_resource
// DIFF: gopt-fold-uniform-result.mlir: ok

func.func @main(%x: tensor<80xf32>) -> tensor<80xf32> {
  %c = gopt.constant dense<[-0.5000, -0.3750, -0.2500, -0.1250, 0.0000, 0.1250, 0.2500, -0.5000, -0.3750, -0.2500, -0.1250, 0.0000, 0.1250, 0.2500, -0.5000, -0.3750, -0.2500, -0.1250, 0.0000, 0.1250, 0.2500, -0.5000, -0.3750, -0.2500, -0.1250, 0.0000, 0.1250, 0.2500, -0.5000, -0.3750, -0.2500, -0.1250, 0.0000, 0.1250, 0.2500, -0.5000, -0.3750, -0.2500, -0.1250, 0.0000, 0.1250, 0.2500, -0.5000, -0.3750, -0.2500, -0.1250, 0.0000, 0.1250, 0.2500, -0.5000, -0.3750, -0.2500, -0.1250, 0.0000, 0.1250, 0.2500, -0.5000, -0.3750, -0.2500, -0.1250, 0.0000, 0.1250, 0.2500, -0.5000, -0.3750, -0.2500, -0.1250, 0.0000, 0.1250, 0.2500, -0.5000, -0.3750, -0.2500, -0.1250, 0.0000, 0.1250, 0.2500, -0.5000, -0.3750, -0.2500]> : tensor<80xf32>
  %low = gopt.constant dense<-9.375000e-01> : tensor<1xf32>
  %m = gopt.min %c, %low : tensor<80xf32>, tensor<1xf32> -> tensor<80xf32>
  %r = gopt.add %x, %m : tensor<80xf32>, tensor<80xf32> -> tensor<80xf32>
  return %r : tensor<80xf32>
}
