// RUN: gopt-opt %examples/mlp.mlir -verify-each | FileCheck %s --check-prefix=INPUT
// RUN: gopt-opt %examples/mlp.mlir -verify-each --gopt-optimize | FileCheck %s
// RUN: gopt-opt %examples/mlp.mlir --gopt-optimize | grep -c "gopt.fusion" | FileCheck %s --check-prefix=KERNELS
// RUN: gopt-opt %examples/mlp.mlir --gopt-optimize | gopt-opt -verify-each > /dev/null

// The example parses and verifies as written.
// INPUT-LABEL: func.func @main
// INPUT-COUNT-2: gopt.linear
// INPUT: gopt.softmax

// Nothing to remove (weights are used, nothing is constant-only): two
// kernels, each a linear with its bias add (and the first with its relu);
// the softmax is a reduction anchor of its own.
// KERNELS: {{^}}2{{$}}

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<8x16xf32>) -> tensor<8x10xf32>
// CHECK-DAG: %[[W1:.*]] = gopt.constant dense<5.000000e-02> : tensor<16x32xf32>
// CHECK-DAG: %[[B1:.*]] = gopt.constant dense<0.00999999977> : tensor<32xf32>
// CHECK-DAG: %[[W2:.*]] = gopt.constant dense<-3.000000e-02> : tensor<32x10xf32>
// CHECK-DAG: %[[B2:.*]] = gopt.constant dense<[0.000000e+00, {{.*}}]> : tensor<10xf32>
// CHECK: %[[H:.*]] = gopt.fusion(%[[X]], %[[W1]], %[[B1]] : tensor<8x16xf32>, tensor<16x32xf32>, tensor<32xf32>) -> tensor<8x32xf32> {
// CHECK-NEXT: ^bb0
// CHECK-NEXT: %[[L1:.*]] = gopt.linear
// CHECK-NEXT: %[[A1:.*]] = gopt.add %[[L1]],
// CHECK-NEXT: %[[R1:.*]] = gopt.relu %[[A1]]
// CHECK-NEXT: gopt.yield %[[R1]] : tensor<8x32xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[O:.*]] = gopt.fusion(%[[H]], %[[W2]], %[[B2]] : tensor<8x32xf32>, tensor<32x10xf32>, tensor<10xf32>) -> tensor<8x10xf32> {
// CHECK-NEXT: ^bb0
// CHECK-NEXT: %[[L2:.*]] = gopt.linear
// CHECK-NEXT: %[[A2:.*]] = gopt.add %[[L2]],
// CHECK-NEXT: gopt.yield %[[A2]] : tensor<8x10xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[P:.*]] = gopt.softmax %[[O]] axis = 1 : tensor<8x10xf32>
// CHECK-NEXT: return %[[P]] : tensor<8x10xf32>
