// RUN: gopt-opt %examples/conv_block.mlir -verify-each | FileCheck %s --check-prefix=INPUT
// RUN: gopt-opt %examples/conv_block.mlir -verify-each --gopt-optimize | FileCheck %s
// RUN: gopt-opt %examples/conv_block.mlir --gopt-optimize | grep -c "gopt.fusion" | FileCheck %s --check-prefix=KERNELS
// RUN: gopt-opt %examples/conv_block.mlir --gopt-optimize | gopt-opt -verify-each > /dev/null

// INPUT-LABEL: func.func @main
// INPUT-COUNT-2: gopt.conv2d
// INPUT: gopt.pool2d max
// INPUT: gopt.global_avg_pool

// Two kernels: {conv2d, bias add, relu} and {conv2d, bias add, residual
// add, relu}.
// KERNELS: {{^}}2{{$}}

// gopt-channels-last puts the block on NHWC: one transpose of the input,
// the weights permuted at compile time (FHWC), the biases [1, 1, 1, C];
// the pooled [1, 1, 1, C] flattens without a transpose.
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<1x8x8x8xf32>) -> tensor<1x10xf32>
// CHECK: %[[IN:.*]] = gopt.transpose %[[X]] perm = [0, 2, 3, 1]
// CHECK-NEXT: %[[C1:.*]] = gopt.fusion(%[[IN]], %{{.*}}, %{{.*}} : tensor<1x8x8x8xf32>, tensor<8x3x3x8xf32>, tensor<1x1x1x8xf32>) -> tensor<1x8x8x8xf32> {
// CHECK-NEXT: ^bb0
// CHECK-NEXT: %[[CV1:.*]] = gopt.conv2d {{.*}} channels_last
// CHECK-NEXT: %[[CB1:.*]] = gopt.add %[[CV1]],
// CHECK-NEXT: %[[R1:.*]] = gopt.relu %[[CB1]]
// CHECK-NEXT: gopt.yield %[[R1]]
// CHECK-NEXT: }
// The residual add reads the block input (its NHWC transpose): it is
// defined before the group, so it joins.
// CHECK-NEXT: %[[C2:.*]] = gopt.fusion(%[[C1]], %{{.*}}, %{{.*}}, %[[IN]] : tensor<1x8x8x8xf32>, tensor<8x3x3x8xf32>, tensor<1x1x1x8xf32>, tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
// CHECK-NEXT: ^bb0
// CHECK-NEXT: %[[CV2:.*]] = gopt.conv2d {{.*}} channels_last
// CHECK-NEXT: %[[CB2:.*]] = gopt.add %[[CV2]],
// CHECK-NEXT: %[[RES:.*]] = gopt.add %{{.*}}, %[[CB2]]
// CHECK-NEXT: %[[R2:.*]] = gopt.relu %[[RES]]
// CHECK-NEXT: gopt.yield %[[R2]]
// CHECK-NEXT: }
// pool2d takes no prologue, and the pools and the classifier are anchors
// whose producers are anchored already (or a reshape).
// CHECK-NEXT: %[[MP:.*]] = gopt.pool2d max %[[C2]] kernel = [2, 2] strides = [2, 2] {{.*}} channels_last
// CHECK-NEXT: %[[GAP:.*]] = gopt.global_avg_pool %[[MP]] channels_last
// CHECK-NEXT: %[[FLAT:.*]] = gopt.reshape %[[GAP]] : tensor<1x1x1x8xf32> -> tensor<1x8xf32>
// CHECK-NEXT: %[[FC:.*]] = gopt.linear %[[FLAT]],
// CHECK-NEXT: return %[[FC]] : tensor<1x10xf32>
