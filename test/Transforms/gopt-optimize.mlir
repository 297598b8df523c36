// RUN: gopt-opt %s -split-input-file --gopt-optimize | FileCheck %s
// RUN: gopt-opt %s -split-input-file -verify-each --pass-pipeline='builtin.module(gopt-optimize)' | FileCheck %s
// The pipeline is op-agnostic: nested on functions it does the same.
// RUN: gopt-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(gopt-optimize))' | FileCheck %s
// RUN: gopt-opt %s -split-input-file --pass-pipeline='builtin.module(gopt-optimize{fold=false})' | FileCheck %s --check-prefix=NOFOLD
// RUN: gopt-opt %s -split-input-file --pass-pipeline='builtin.module(gopt-optimize{dce=false})' | FileCheck %s --check-prefix=NODCE
// RUN: gopt-opt %s -split-input-file --pass-pipeline='builtin.module(gopt-optimize{cse=false})' | FileCheck %s --check-prefix=NOCSE
// RUN: gopt-opt %s -split-input-file --pass-pipeline='builtin.module(gopt-optimize{fuse=false})' | FileCheck %s --check-prefix=NOFUSE
// RUN: gopt-opt %s -split-input-file --gopt-optimize="fuse=false" | FileCheck %s --check-prefix=NOFUSE
// RUN: gopt-opt %s -split-input-file --pass-pipeline='builtin.module(gopt-optimize{max-group-size=2})' | FileCheck %s --check-prefix=SIZE2
// RUN: gopt-opt %s -split-input-file --pass-pipeline='builtin.module(gopt-optimize{max-folded-elements=2})' | FileCheck %s --check-prefix=MAX2
// RUN: gopt-opt %s -split-input-file --pass-pipeline='builtin.module(gopt-optimize{attention=false})' | FileCheck %s --check-prefix=NOATT
// Upstream and gopt passes mix in one pipeline.
// RUN: gopt-opt %s -split-input-file -verify-each --pass-pipeline='builtin.module(gopt-fold,canonicalize,gopt-fuse)' | FileCheck %s --check-prefix=MIXED
// The options reach the passes: their own checks fire.
// RUN: not gopt-opt %s --pass-pipeline='builtin.module(gopt-optimize{max-group-size=1})' 2>&1 | FileCheck %s --check-prefix=ERR-SIZE
// RUN: not gopt-opt %s --pass-pipeline='builtin.module(gopt-optimize{max-folded-elements=-1})' 2>&1 | FileCheck %s --check-prefix=ERR-FOLD

// ERR-SIZE: gopt-fuse: max-group-size must be at least 2, got 1
// ERR-FOLD: gopt-fold: max-folded-elements must be non-negative, got -1

// Scaled matmul with a residual add and a softmax, plus work to remove: the
// scale 1/sqrt(4) computed from a constant, the scaled product computed
// twice (operands swapped), a dead exp -> relu chain and an x + (-0.0).
//
// Default: fold makes the scale a constant and drops the identity, dce the
// dead chain, cse the duplicate; fuse builds one kernel {matmul, mul, add}
// that also exposes the scaled product for the softmax.
// CHECK-LABEL: func.func @pipeline
// CHECK-SAME: (%[[A:[a-z0-9]+]]: tensor<4x8xf32>, %[[B:[a-z0-9]+]]: tensor<8x8xf32>, %[[R:[a-z0-9]+]]: tensor<4x8xf32>)
// CHECK-NEXT: %[[S:.*]] = gopt.constant dense<5.000000e-01> : tensor<1xf32>
// CHECK-NEXT: %[[F:.*]]:2 = gopt.fusion(%[[A]], %[[B]], %[[S]], %[[R]] : tensor<4x8xf32>, tensor<8x8xf32>, tensor<1xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>, tensor<4x8xf32> {
// CHECK-NEXT: ^bb0(%[[BA:.*]]: tensor<4x8xf32>, %[[BB:.*]]: tensor<8x8xf32>, %[[BS:.*]]: tensor<1xf32>, %[[BR:.*]]: tensor<4x8xf32>):
// CHECK-NEXT: %[[M:.*]] = gopt.matmul %[[BA]], %[[BB]]
// CHECK-NEXT: %[[MS:.*]] = gopt.mul %[[M]], %[[BS]]
// CHECK-NEXT: %[[RES:.*]] = gopt.add %[[BR]], %[[MS]]
// CHECK-NEXT: gopt.yield %[[MS]], %[[RES]] : tensor<4x8xf32>, tensor<4x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[P:.*]] = gopt.softmax %[[F]]#0 axis = 1
// CHECK-NEXT: return %[[F]]#1, %[[P]]
//
// fold=false: the constant subgraph and the identity add stay, and fuse
// makes kernels of them; it first moves the constants to the top, so the
// add of the -0 constant (defined after the matmul) joins the matmul's
// kernel.
// NOFOLD-LABEL: func.func @pipeline
// NOFOLD: %[[C:.*]] = gopt.constant dense<4.000000e+00> : tensor<1xf32>
// NOFOLD-NEXT: %[[NZ:.*]] = gopt.constant dense<-0.000000e+00> : tensor<1xf32>
// NOFOLD-NEXT: %[[S:.*]] = gopt.fusion(%[[C]] : tensor<1xf32>) -> tensor<1xf32> {
// NOFOLD-NEXT: ^bb0
// NOFOLD-NEXT: gopt.sqrt
// NOFOLD-NEXT: gopt.reciprocal
// NOFOLD-NEXT: gopt.yield
// NOFOLD-NEXT: }
// NOFOLD-NEXT: %[[F:.*]]:2 = gopt.fusion(%{{.*}}, %{{.*}}, %[[S]], %[[NZ]], %{{.*}} :
// NOFOLD-NEXT: ^bb0
// NOFOLD-NEXT: gopt.matmul
// NOFOLD-NEXT: gopt.mul
// NOFOLD-NEXT: gopt.add
// NOFOLD-NEXT: gopt.add
// NOFOLD-NEXT: gopt.yield
// NOFOLD-NEXT: }
// NOFOLD-NEXT: %[[P:.*]] = gopt.softmax %[[F]]#0 axis = 1
// NOFOLD-NEXT: return %[[F]]#1, %[[P]]
//
// dce=false: cse still erases the relu (unused when it gets there), but not
// the exp it read; fuse never puts a dead op into a kernel, so the exp stays
// outside, dead, for gopt-dce.
// NODCE-LABEL: func.func @pipeline
// NODCE-NEXT: gopt.constant dense<5.000000e-01>
// NODCE-NEXT: %[[F:.*]]:2 = gopt.fusion
// NODCE-NEXT: ^bb0
// NODCE-NEXT: gopt.matmul
// NODCE-NEXT: gopt.mul
// NODCE-NEXT: gopt.add
// NODCE-NEXT: gopt.yield
// NODCE-NEXT: }
// NODCE-NEXT: gopt.exp %[[F]]#0
// NODCE-NOT: gopt.relu
// NODCE: return
//
// cse=false: both products are computed, in the same kernel.
// NOCSE-LABEL: func.func @pipeline
// NOCSE: %[[F:.*]]:2 = gopt.fusion
// NOCSE-NEXT: ^bb0
// NOCSE-NEXT: %[[M:.*]] = gopt.matmul
// NOCSE-NEXT: %[[S1:.*]] = gopt.mul %[[M]],
// NOCSE-NEXT: %[[S2:.*]] = gopt.mul %[[M]],
// NOCSE-NEXT: %[[RES:.*]] = gopt.add %{{.*}}, %[[S1]]
// NOCSE-NEXT: gopt.yield %[[S2]], %[[RES]]
// NOCSE-NEXT: }
// NOCSE-NEXT: gopt.softmax %[[F]]#0
//
// fuse=false: the cleaned-up graph, op by op.
// NOFUSE-LABEL: func.func @pipeline
// NOFUSE-SAME: (%[[A:[a-z0-9]+]]: tensor<4x8xf32>, %[[B:[a-z0-9]+]]: tensor<8x8xf32>, %[[R:[a-z0-9]+]]: tensor<4x8xf32>)
// NOFUSE-NOT: gopt.fusion
// NOFUSE-NEXT: %[[S:.*]] = gopt.constant dense<5.000000e-01> : tensor<1xf32>
// NOFUSE-NEXT: %[[M:.*]] = gopt.matmul %[[A]], %[[B]]
// NOFUSE-NEXT: %[[MS:.*]] = gopt.mul %[[M]], %[[S]]
// NOFUSE-NEXT: %[[RES:.*]] = gopt.add %[[R]], %[[MS]]
// NOFUSE-NEXT: %[[P:.*]] = gopt.softmax %[[MS]] axis = 1
// NOFUSE-NEXT: return %[[RES]], %[[P]]
//
// max-group-size=2 reaches gopt-fuse: the residual add is left out.
// SIZE2-LABEL: func.func @pipeline
// SIZE2: %[[F:.*]] = gopt.fusion
// SIZE2-NEXT: ^bb0
// SIZE2-NEXT: gopt.matmul
// SIZE2-NEXT: gopt.mul
// SIZE2-NEXT: gopt.yield
// SIZE2-NEXT: }
// SIZE2-NEXT: %[[RES:.*]] = gopt.add %{{.*}}, %[[F]]
// SIZE2-NEXT: %[[P:.*]] = gopt.softmax %[[F]]
// SIZE2-NEXT: return %[[RES]], %[[P]]
//
// gopt-fold, canonicalize, gopt-fuse: canonicalize erases the dead ops, but
// without cse the duplicate product stays.
// MIXED-LABEL: func.func @pipeline
// MIXED-NEXT: gopt.constant dense<5.000000e-01>
// MIXED-NEXT: %[[F:.*]]:2 = gopt.fusion
// MIXED-NEXT: ^bb0
// MIXED-NEXT: gopt.matmul
// MIXED-NEXT: gopt.mul
// MIXED-NEXT: gopt.mul
// MIXED-NEXT: gopt.add
// MIXED-NEXT: gopt.yield
// MIXED-NEXT: }
// MIXED-NOT: gopt.exp
// MIXED-NOT: gopt.relu
// MIXED: return
func.func @pipeline(%a: tensor<4x8xf32>, %b: tensor<8x8xf32>, %r: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %c4 = gopt.constant dense<4.0> : tensor<1xf32>
  %sq = gopt.sqrt %c4 : tensor<1xf32>
  %scale = gopt.reciprocal %sq : tensor<1xf32>
  %m = gopt.matmul %a, %b : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
  %s1 = gopt.mul %m, %scale : tensor<4x8xf32>, tensor<1xf32> -> tensor<4x8xf32>
  %s2 = gopt.mul %scale, %m : tensor<1xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %dead1 = gopt.exp %s1 : tensor<4x8xf32>
  %dead2 = gopt.relu %dead1 : tensor<4x8xf32>
  %nz = gopt.constant dense<-0.0> : tensor<1xf32>
  %id = gopt.add %s1, %nz : tensor<4x8xf32>, tensor<1xf32> -> tensor<4x8xf32>
  %res = gopt.add %id, %r : tensor<4x8xf32>
  %p = gopt.softmax %s2 axis = 1 : tensor<4x8xf32>
  return %res, %p : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// max-folded-elements reaches gopt-fold: with 2, the 4-element constant
// expression is left to run time (and fused); by default it folds.
// CHECK-LABEL: func.func @dense_constant_expression
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<4xf32>)
// CHECK-NEXT: %[[C:.*]] = gopt.constant dense<[-2.000000e+00, -3.000000e+00, -4.000000e+00, -5.000000e+00]> : tensor<4xf32>
// CHECK-NEXT: %[[M:.*]] = gopt.mul %[[X]], %[[C]]
// CHECK-NEXT: return %[[M]]
// MAX2-LABEL: func.func @dense_constant_expression
// MAX2-SAME: (%[[X:[a-z0-9]+]]: tensor<4xf32>)
// MAX2-NEXT: %[[C:.*]] = gopt.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
// MAX2-NEXT: %[[ONE:.*]] = gopt.constant dense<1.000000e+00> : tensor<4xf32>
// MAX2-NEXT: %[[F:.*]] = gopt.fusion(%[[C]], %[[ONE]], %[[X]] :
// MAX2-NEXT: ^bb0
// MAX2-NEXT: gopt.add
// MAX2-NEXT: gopt.neg
// MAX2-NEXT: gopt.mul
// MAX2-NEXT: gopt.yield
// MAX2-NEXT: }
// MAX2-NEXT: return %[[F]]
func.func @dense_constant_expression(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = gopt.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %one = gopt.constant dense<1.0> : tensor<4xf32>
  %a = gopt.add %c, %one : tensor<4xf32>
  %n = gopt.neg %a : tensor<4xf32>
  %m = gopt.mul %n, %x : tensor<4xf32>
  return %m : tensor<4xf32>
}

// -----

// Ops of other dialects pass through the whole pipeline untouched.
// CHECK-LABEL: func.func @foreign_ops
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<4xf32>)
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<2.000000e+00> : tensor<4xf32>
// CHECK-NEXT: %[[A:.*]] = arith.mulf %[[X]], %[[C]] : tensor<4xf32>
// CHECK-NEXT: %[[F:.*]] = gopt.fusion(%[[A]] : tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT: ^bb0
// CHECK-NEXT: gopt.exp
// CHECK-NEXT: gopt.relu
// CHECK-NEXT: gopt.yield
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
func.func @foreign_ops(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<2.0> : tensor<4xf32>
  %a = arith.mulf %x, %c : tensor<4xf32>
  %e = gopt.exp %a : tensor<4xf32>
  %r = gopt.relu %e : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// The attention chain is one kernel by default (gopt-fuse's `attention`),
// three with attention=false.

// CHECK-LABEL: func.func @attention
// CHECK: gopt.fusion
// CHECK: gopt.softmax
// CHECK: gopt.matmul
// CHECK-NEXT: gopt.yield
// CHECK-NOT: gopt.fusion
// NOATT-LABEL: func.func @attention
// NOATT: gopt.fusion
// NOATT: {{^    }}%{{.*}} = gopt.softmax
// NOATT: {{^    }}%{{.*}} = gopt.matmul
func.func @attention(%q: tensor<8x64x16xf32>, %kt: tensor<8x16x64xf32>, %v: tensor<8x64x16xf32>) -> tensor<8x64x16xf32> {
  %c = gopt.constant dense<0.25> : tensor<1xf32>
  %s = gopt.matmul %q, %kt : tensor<8x64x16xf32>, tensor<8x16x64xf32> -> tensor<8x64x64xf32>
  %t = gopt.mul %s, %c : tensor<8x64x64xf32>, tensor<1xf32> -> tensor<8x64x64xf32>
  %p = gopt.softmax %t axis = 2 : tensor<8x64x64xf32>
  %o = gopt.matmul %p, %v : tensor<8x64x64xf32>, tensor<8x64x16xf32> -> tensor<8x64x16xf32>
  return %o : tensor<8x64x16xf32>
}
