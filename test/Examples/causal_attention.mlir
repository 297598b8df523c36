// The causal attention example: gopt-optimize makes the chain one fusion,
// the -inf fill an additive mask (a 256 x 256 constant gopt-fold made of the
// condition), and the optimized program computes what the graph as written
// does (the attention kernel skips the keys the mask hides).
// RUN: gopt-opt %examples/causal_attention.mlir -verify-each --gopt-optimize | FileCheck %s
// CHECK:      %[[MASK:.*]] = gopt.constant dense_resource<{{.*}}> : tensor<256x256xf32>
// CHECK:      gopt.fusion({{.*}}%[[MASK]]
// CHECK:      gopt.matmul
// CHECK-NEXT: gopt.div
// CHECK-NEXT: gopt.add %{{.*}}, %{{.*}} : tensor<1x4x256x256xf32>, tensor<256x256xf32>
// CHECK-NEXT: gopt.softmax
// CHECK-NEXT: gopt.transpose
// CHECK-NEXT: gopt.matmul
// CHECK-NOT:  gopt.select

// RUN: rm -rf %t && mkdir -p %t
// RUN: gopt-run %examples/causal_attention.mlir --reps=0 --output-dir=%t/ref
// RUN: gopt-run %examples/causal_attention.mlir --reps=1 --pipeline=gopt-optimize --inputs=%t/ref/input0.npy,%t/ref/input1.npy,%t/ref/input2.npy --expect=%t/ref/result0.npy 2>&1 | FileCheck %s --check-prefix=RESULT
// RESULT: match (0 of
// RESULT: kernels 6 (library calls in 1,
// RESULT: [gopt_attention]
