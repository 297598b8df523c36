// RUN: gopt-opt %examples/attention_redundant.mlir -verify-each | FileCheck %s --check-prefix=INPUT
// RUN: gopt-opt %examples/attention_redundant.mlir -verify-each --gopt-optimize | FileCheck %s
// RUN: gopt-opt %examples/attention_redundant.mlir --gopt-optimize | gopt-opt -verify-each > /dev/null
// The default pipeline shrinks the graph: gopt ops at function level
// (constants included, a fusion counted once) go from 16 to 6.
// RUN: gopt-opt %examples/attention_redundant.mlir | grep -cE "^    (%[^ ]+ = )?gopt\." | FileCheck %s --check-prefix=BEFORE
// RUN: gopt-opt %examples/attention_redundant.mlir --gopt-optimize | grep -cE "^    (%[^ ]+ = )?gopt\." | FileCheck %s --check-prefix=AFTER
// RUN: gopt-opt %examples/attention_redundant.mlir --gopt-optimize | grep -c "gopt.fusion" | FileCheck %s --check-prefix=KERNELS
// RUN: gopt-opt %examples/attention_redundant.mlir --gopt-optimize | FileCheck %s --check-prefix=GONE
// Without fusion: 7 ops, the cleaned-up graph.
// RUN: gopt-opt %examples/attention_redundant.mlir --pass-pipeline='builtin.module(gopt-optimize{fuse=false})' | FileCheck %s --check-prefix=NOFUSE
// RUN: gopt-opt %examples/attention_redundant.mlir --pass-pipeline='builtin.module(gopt-optimize{fuse=false})' | grep -cE "^    (%[^ ]+ = )?gopt\." | FileCheck %s --check-prefix=OPS-NOFUSE

// INPUT-LABEL: func.func @main
// INPUT: gopt.sqrt
// INPUT: gopt.reciprocal
// INPUT-COUNT-2: gopt.mul %{{.*}}, %{{.*}} : tensor<2x8x8xf32>, tensor<1xf32>

// BEFORE: {{^}}16{{$}}
// AFTER: {{^}}5{{$}}
// KERNELS: {{^}}1{{$}}
// OPS-NOFUSE: {{^}}7{{$}}

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[Q:[a-z0-9]+]]: tensor<2x8x16xf32>, %[[K:[a-z0-9]+]]: tensor<2x8x16xf32>, %[[V:[a-z0-9]+]]: tensor<2x8x16xf32>, %{{.*}}: tensor<8x8xf32>)
// The scale is folded to the constant 1/sqrt(16).
// CHECK-NEXT: %[[SCALE:.*]] = gopt.constant dense<2.500000e-01> : tensor<1xf32>
// One scaled product (cse merged the duplicate), fused into the matmul,
// which reads the transpose of K in place (its kernel folds it into the
// GEMM's strides).
// CHECK-NEXT: %[[S:.*]] = gopt.fusion(%[[K]], %[[Q]], %[[SCALE]] : tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<1xf32>) -> tensor<2x8x8xf32> {
// CHECK-NEXT: ^bb0
// CHECK-NEXT: %[[KT:.*]] = gopt.transpose %{{.*}} perm = [0, 2, 1]
// CHECK-NEXT: %[[MM:.*]] = gopt.matmul %{{.*}}, %[[KT]]
// CHECK-NEXT: %[[SC:.*]] = gopt.mul %[[MM]],
// CHECK-NEXT: gopt.yield %[[SC]] : tensor<2x8x8xf32>
// CHECK-NEXT: }
// The identities are gone: the softmax feeds the second matmul directly.
// CHECK-NEXT: %[[P:.*]] = gopt.softmax %[[S]] axis = 2
// CHECK-NEXT: %[[O:.*]] = gopt.matmul %[[P]], %[[V]]
// CHECK-NEXT: %[[RM:.*]] = gopt.reduce max %[[S]] axes = [2] keepdims
// CHECK-NEXT: return %[[O]], %[[RM]]

// The constant subgraph, the dead add and relu, the identities and the
// duplicate are all gone.
// GONE-LABEL: func.func @main
// GONE-NOT: gopt.sqrt
// GONE-NOT: gopt.reciprocal
// GONE-NOT: gopt.relu
// GONE-NOT: gopt.add
// GONE-COUNT-1: gopt.mul
// GONE-NOT: gopt.mul
// GONE: return

// NOFUSE-LABEL: func.func @main
// NOFUSE-NOT: gopt.sqrt
// NOFUSE-NOT: gopt.relu
// NOFUSE-NOT: gopt.add
// NOFUSE-COUNT-1: gopt.mul
// NOFUSE-NOT: gopt.mul
// NOFUSE: return
