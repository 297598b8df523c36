// RUN: gopt-opt %examples/transformer_block.mlir -verify-each | FileCheck %s --check-prefix=INPUT
// RUN: gopt-opt %examples/transformer_block.mlir -verify-each --gopt-optimize | FileCheck %s
// RUN: gopt-opt %examples/transformer_block.mlir --gopt-optimize | grep -c "gopt.fusion" | FileCheck %s --check-prefix=KERNELS
// RUN: gopt-opt %examples/transformer_block.mlir --gopt-optimize | gopt-opt -verify-each > /dev/null

// INPUT-LABEL: func.func @main
// INPUT: gopt.layer_norm
// INPUT-COUNT-3: gopt.linear
// INPUT: gopt.softmax
// INPUT: gopt.layer_norm
// INPUT: gopt.gelu

// Four kernels: the attention chain {Q and K^T transposes, QK^T, scale,
// softmax, V transpose, P·V} (gopt-fuse's `attention`), {out-projection,
// residual add}, {MLP up-projection, gelu}, {MLP down-projection, residual
// add}. The head transposes are read through strides.
// KERNELS: {{^}}4{{$}}

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<1x16x32xf32>) -> tensor<1x16x32xf32>
// The first layer norm and the Q/K/V projections stay single ops: each
// projection is an anchor whose producer (the layer norm) is an anchor too,
// and the head reshapes are data movement.
// CHECK-NOT: gopt.fusion
// CHECK: %[[LN1:.*]] = gopt.layer_norm %[[X]],
// CHECK-NEXT: %[[Q:.*]] = gopt.linear %[[LN1]],
// CHECK-NEXT: %[[K:.*]] = gopt.linear %[[LN1]],
// CHECK-NEXT: %[[V:.*]] = gopt.linear %[[LN1]],
// CHECK-NEXT: %[[Q4:.*]] = gopt.reshape %[[Q]]
// CHECK-NEXT: %[[K4:.*]] = gopt.reshape %[[K]]
// CHECK-NEXT: %[[V4:.*]] = gopt.reshape %[[V]]
// Attention, one kernel: the head transposes are the matmuls' operands.
// CHECK-NEXT: %[[OH:.*]] = gopt.fusion(%[[Q4]], %[[K4]], %{{.*}}, %[[V4]] :
// CHECK-NEXT: ^bb0
// CHECK-NEXT: %[[QH:.*]] = gopt.transpose %{{.*}} perm = [0, 2, 1, 3]
// CHECK-NEXT: %[[KT:.*]] = gopt.transpose %{{.*}} perm = [0, 2, 3, 1]
// CHECK-NEXT: %[[MM:.*]] = gopt.matmul %[[QH]], %[[KT]]
// CHECK-NEXT: %[[SC:.*]] = gopt.mul %[[MM]],
// CHECK-NEXT: %[[P:.*]] = gopt.softmax %[[SC]] axis = 3
// CHECK-NEXT: %[[VH:.*]] = gopt.transpose %{{.*}} perm = [0, 2, 1, 3]
// CHECK-NEXT: %[[PV:.*]] = gopt.matmul %[[P]], %[[VH]]
// CHECK-NEXT: gopt.yield %[[PV]] : tensor<1x2x16x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[OT:.*]] = gopt.transpose %[[OH]] perm = [0, 2, 1, 3]
// CHECK-NEXT: %[[O:.*]] = gopt.reshape %[[OT]] : tensor<1x16x2x16xf32> -> tensor<1x16x32xf32>
// Output projection + residual add.
// CHECK-NEXT: %[[H:.*]] = gopt.fusion(%[[O]], %{{.*}}, %{{.*}}, %[[X]] :
// CHECK-NEXT: ^bb0
// CHECK-NEXT: %[[PR:.*]] = gopt.linear
// CHECK-NEXT: %[[RES1:.*]] = gopt.add %{{.*}}, %[[PR]]
// CHECK-NEXT: gopt.yield %[[RES1]] : tensor<1x16x32xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[LN2:.*]] = gopt.layer_norm %[[H]],
// MLP.
// CHECK-NEXT: %[[G:.*]] = gopt.fusion(%[[LN2]],
// CHECK-NEXT: ^bb0
// gopt-fold stored the [out, in] MLP weights as [in, out] (no
// transpose_weight: the GEMM reads them along the output).
// CHECK-NEXT: %[[M1:.*]] = gopt.linear {{.*}} : tensor<1x16x32xf32>, tensor<32x64xf32>, tensor<64xf32> -> tensor<1x16x64xf32>
// CHECK-NEXT: %[[GE:.*]] = gopt.gelu %[[M1]]
// CHECK-NEXT: gopt.yield %[[GE]] : tensor<1x16x64xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[OUT:.*]] = gopt.fusion(%[[G]], %{{.*}}, %{{.*}}, %[[H]] :
// CHECK-NEXT: ^bb0
// CHECK-NEXT: %[[M2:.*]] = gopt.linear {{.*}} : tensor<1x16x64xf32>, tensor<64x32xf32>, tensor<32xf32> -> tensor<1x16x32xf32>
// CHECK-NEXT: %[[RES2:.*]] = gopt.add %{{.*}}, %[[M2]]
// CHECK-NEXT: gopt.yield %[[RES2]] : tensor<1x16x32xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[OUT]] : tensor<1x16x32xf32>
