// RUN: gopt-opt %examples/attention_block.mlir -verify-each | FileCheck %s --check-prefix=INPUT
// RUN: gopt-opt %examples/attention_block.mlir -verify-each --gopt-optimize | FileCheck %s
// RUN: gopt-opt %examples/attention_block.mlir --gopt-optimize | gopt-opt -verify-each > /dev/null
// gopt-explore's embedded default: what each pass removes. gopt ops at
// function level (constants included, a fusion counted once): 54 before,
// 23 after gopt-optimize, two of them fusions: the attention chain with
// the head transposes its matmuls read through strides, and the output
// projection with its residual add.
// RUN: gopt-opt %examples/attention_block.mlir | grep -cE "^    (%[^ ]+ = )?gopt\." | FileCheck %s --check-prefix=BEFORE
// RUN: gopt-opt %examples/attention_block.mlir --gopt-optimize | grep -cE "^    (%[^ ]+ = )?gopt\." | FileCheck %s --check-prefix=AFTER
// RUN: gopt-opt %examples/attention_block.mlir --gopt-optimize | grep -c "gopt.fusion(" | FileCheck %s --check-prefix=KERNELS
// Each pass alone: fold leaves no weight cast, transpose of a weight, sqrt
// or mask arithmetic; cse leaves one layer norm and five projections (the
// KV-cache output's K weight is transformed in another order, so its
// projection is not yet the same); dce removes the head-averaged attention
// weights. Fold, then cse: the two K weights are one constant and the
// KV-cache's projection is merged (four); cse, then fold: not (five).
// RUN: gopt-opt %examples/attention_block.mlir --gopt-fold | FileCheck %s --check-prefix=FOLD
// RUN: gopt-opt %examples/attention_block.mlir --cse | FileCheck %s --check-prefix=CSE
// RUN: gopt-opt %examples/attention_block.mlir --gopt-dce | FileCheck %s --check-prefix=DCE
// RUN: gopt-opt %examples/attention_block.mlir --gopt-fold --cse | FileCheck %s --check-prefix=FOLDCSE
// RUN: gopt-opt %examples/attention_block.mlir --cse --gopt-fold | FileCheck %s --check-prefix=CSEFOLD

// BEFORE: {{^}}54{{$}}
// AFTER: {{^}}23{{$}}
// KERNELS: {{^}}2{{$}}

// INPUT-LABEL: func.func @main
// INPUT-COUNT-4: gopt.cast
// INPUT-COUNT-3: gopt.layer_norm
// INPUT: gopt.reduce mean
// INPUT: gopt.layer_norm
// INPUT: gopt.transpose {{.*}} : tensor<512x512xf16> -> tensor<512x512xf16>
// INPUT: gopt.cast

// FOLD-NOT: gopt.cast
// FOLD-NOT: gopt.sqrt
// FOLD-NOT: gopt.sub
// FOLD-NOT: perm = [1, 0]
// FOLD: gopt.constant dense<1.250000e-01> : tensor<1xf32>
// The additive mask is -0 everywhere, and adding -0 is the identity: the
// logits are the scaled scores (the constants left unused are gopt-dce's).
// FOLD-NOT: tensor<1x8x256x256xf32>, tensor<1x1x1x256xf32>
// FOLD: return

// CSE-COUNT-1: gopt.layer_norm
// CSE-NOT: gopt.layer_norm
// CSE-COUNT-5: gopt.linear
// CSE-NOT: gopt.linear
// CSE: return

// FOLDCSE-COUNT-4: gopt.linear
// FOLDCSE-NOT: gopt.linear
// FOLDCSE: return
// CSEFOLD-COUNT-5: gopt.linear
// CSEFOLD-NOT: gopt.linear
// CSEFOLD: return

// DCE-NOT: gopt.reduce
// DCE: return

// After gopt-optimize: the weights are constants in [in, out] layout, one
// layer norm feeds the three projections, the attention (scaled scores,
// softmax, P·V) is one fusion, the output projection with its residual add
// another, and the KV-cache output is the K projection's heads.
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<1x256x512xf32>)
// CHECK-NOT: gopt.cast
// CHECK: %[[SCALE:.*]] = gopt.constant dense<1.250000e-01> : tensor<1xf32>
// CHECK: %[[LN:.*]] = gopt.layer_norm %[[X]]
// CHECK-NEXT: %[[Q:.*]] = gopt.linear %[[LN]]
// CHECK-NEXT: %[[K:.*]] = gopt.linear %[[LN]]
// CHECK-NEXT: %[[V:.*]] = gopt.linear %[[LN]]
// CHECK-NOT: gopt.layer_norm
// CHECK: %[[K4:.*]] = gopt.reshape %[[K]]
// CHECK: gopt.fusion({{.*}}%[[SCALE]]{{.*}}) -> tensor<1x8x256x64xf32> {
// CHECK: gopt.matmul
// CHECK-NEXT: gopt.mul
// CHECK-NEXT: gopt.softmax
// CHECK: gopt.matmul
// CHECK-NEXT: gopt.yield
// CHECK-NOT: gopt.reduce
// CHECK: gopt.fusion({{.*}}%[[X]] : {{.*}}) -> tensor<1x256x512xf32> {
// CHECK-NEXT: ^bb0
// CHECK-NEXT: gopt.linear
// CHECK-NEXT: gopt.add
// CHECK: %[[PRESENT:.*]] = gopt.transpose %[[K4]] perm = [0, 2, 1, 3]
// CHECK: return %{{.*}}, %[[PRESENT]]
