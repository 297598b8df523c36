// RUN: gopt-opt %s -split-input-file --gopt-fuse | FileCheck %s
// Fusing again changes nothing: fusion ops are kernels already.
// RUN: gopt-opt %s -split-input-file --gopt-fuse --gopt-fuse | FileCheck %s
// RUN: gopt-opt %s -split-input-file --gopt-fuse | gopt-opt -split-input-file --gopt-fuse | FileCheck %s
// RUN: gopt-opt %s -split-input-file --gopt-fuse=max-group-size=2 | FileCheck %s --check-prefix=SIZE2
// RUN: gopt-opt %s -split-input-file --gopt-fuse=fuse-reductions=false | FileCheck %s --check-prefix=NORED
// RUN: gopt-opt %s -split-input-file --gopt-fuse=fuse-contraction-epilogues=false | FileCheck %s --check-prefix=NOEPI
// RUN: not gopt-opt %s --gopt-fuse=max-group-size=1 2>&1 | FileCheck %s --check-prefix=ERR

// ERR: gopt-fuse: max-group-size must be at least 2, got 1

// A chain of elementwise ops is one kernel; its outside inputs become the
// fusion's operands and block arguments.
// CHECK-LABEL: func.func @elementwise_chain
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<4x8xf32>, %[[B:[a-z0-9]+]]: tensor<8xf32>)
// CHECK: %[[F:.*]] = gopt.fusion(%[[X]], %[[B]] : tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32> {
// CHECK-NEXT: ^bb0(%[[BX:.*]]: tensor<4x8xf32>, %[[BB:.*]]: tensor<8xf32>):
// CHECK-NEXT: %[[S:.*]] = gopt.add %[[BX]], %[[BB]] : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
// CHECK-NEXT: %[[T:.*]] = gopt.relu %[[S]] : tensor<4x8xf32>
// CHECK-NEXT: %[[E:.*]] = gopt.exp %[[T]] : tensor<4x8xf32>
// CHECK-NEXT: gopt.yield %[[E]] : tensor<4x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]] : tensor<4x8xf32>
// With at most two ops per group the chain is cut after two.
// SIZE2-LABEL: func.func @elementwise_chain
// SIZE2: %[[F:.*]] = gopt.fusion
// SIZE2: gopt.add
// SIZE2-NEXT: gopt.relu
// SIZE2-NEXT: gopt.yield
// SIZE2: %[[E:.*]] = gopt.exp %[[F]]
// SIZE2-NEXT: return %[[E]]
func.func @elementwise_chain(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %s = gopt.add %x, %b : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  %t = gopt.relu %s : tensor<4x8xf32>
  %e = gopt.exp %t : tensor<4x8xf32>
  return %e : tensor<4x8xf32>
}

// -----

// A constant defined after the contraction (where gopt-fold leaves the
// scalars of a hardswish) is moved to the top first, so the contraction's
// whole epilogue, which reads it and the contraction's result twice, joins
// its kernel.
// CHECK-LABEL: func.func @constant_after_anchor
// CHECK-NEXT: %[[K:.*]] = gopt.constant dense<0.166666672> : tensor<f32>
// CHECK-NEXT: %[[H:.*]] = gopt.constant dense<5.000000e-01> : tensor<f32>
// CHECK-NEXT: %[[F:.*]] = gopt.fusion(%{{.*}}, %{{.*}}, %[[K]], %[[H]] :
// CHECK-NEXT: ^bb0
// CHECK-NEXT: gopt.matmul
// CHECK-NEXT: gopt.mul
// CHECK-NEXT: gopt.add
// CHECK-NEXT: gopt.clip
// CHECK-NEXT: gopt.mul
// CHECK-NEXT: gopt.yield
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
func.func @constant_after_anchor(%a: tensor<4x8xf32>, %b: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %m = gopt.matmul %a, %b : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
  %k = gopt.constant dense<0.166666672> : tensor<f32>
  %s = gopt.mul %m, %k : tensor<4x8xf32>, tensor<f32> -> tensor<4x8xf32>
  %h = gopt.constant dense<5.000000e-01> : tensor<f32>
  %t = gopt.add %s, %h : tensor<4x8xf32>, tensor<f32> -> tensor<4x8xf32>
  %c = gopt.clip %t min = 0.000000e+00 max = 1.000000e+00 : tensor<4x8xf32>
  %r = gopt.mul %c, %m : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// broadcast_to fuses like an elementwise op.
// CHECK-LABEL: func.func @broadcast_chain
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<4x8xf32>, %[[B:[a-z0-9]+]]: tensor<8xf32>)
// CHECK: %[[F:.*]] = gopt.fusion(%[[B]], %[[X]] : tensor<8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> {
// CHECK-NEXT: ^bb0(%[[BB:.*]]: tensor<8xf32>, %[[BX:.*]]: tensor<4x8xf32>):
// CHECK-NEXT: %[[BC:.*]] = gopt.broadcast_to %[[BB]] : tensor<8xf32> -> tensor<4x8xf32>
// CHECK-NEXT: %[[M:.*]] = gopt.mul %[[BX]], %[[BC]] : tensor<4x8xf32>
// CHECK-NEXT: %[[T:.*]] = gopt.tanh %[[M]] : tensor<4x8xf32>
// CHECK-NEXT: gopt.yield %[[T]] : tensor<4x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
func.func @broadcast_chain(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %bb = gopt.broadcast_to %b : tensor<8xf32> -> tensor<4x8xf32>
  %s = gopt.mul %x, %bb : tensor<4x8xf32>
  %t = gopt.tanh %s : tensor<4x8xf32>
  return %t : tensor<4x8xf32>
}

// -----

// Two independent chains meet in one op: all three groups become one.
// CHECK-LABEL: func.func @join_two_chains
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<4xf32>, %[[Y:[a-z0-9]+]]: tensor<4xf32>)
// CHECK: %[[F:.*]] = gopt.fusion(%[[X]], %[[Y]] : tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT: ^bb0(%[[BX:.*]]: tensor<4xf32>, %[[BY:.*]]: tensor<4xf32>):
// CHECK-NEXT: %[[A:.*]] = gopt.exp %[[BX]]
// CHECK-NEXT: %[[B:.*]] = gopt.neg %[[BY]]
// CHECK-NEXT: %[[S:.*]] = gopt.sub %[[A]], %[[B]]
// CHECK-NEXT: gopt.yield %[[S]] : tensor<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
func.func @join_two_chains(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %a = gopt.exp %x : tensor<4xf32>
  %b = gopt.neg %y : tensor<4xf32>
  %s = gopt.sub %a, %b : tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

// A lone op is not a group: no gopt.fusion of one op.
// CHECK-LABEL: func.func @single_op
// CHECK-NOT: gopt.fusion
// CHECK: %[[R:.*]] = gopt.relu
// CHECK-NEXT: return %[[R]]
func.func @single_op(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = gopt.relu %x : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// matmul + bias + activation + residual add: one kernel, the contraction
// anchoring its elementwise epilogue.
// CHECK-LABEL: func.func @matmul_epilogue
// CHECK-SAME: (%[[A:[a-z0-9]+]]: tensor<4x16xf32>, %[[W:[a-z0-9]+]]: tensor<16x8xf32>, %[[B:[a-z0-9]+]]: tensor<8xf32>, %[[R:[a-z0-9]+]]: tensor<4x8xf32>)
// CHECK: %[[F:.*]] = gopt.fusion(%[[A]], %[[W]], %[[B]], %[[R]] : tensor<4x16xf32>, tensor<16x8xf32>, tensor<8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> {
// CHECK-NEXT: ^bb0(%[[BA:.*]]: tensor<4x16xf32>, %[[BW:.*]]: tensor<16x8xf32>, %[[BB:.*]]: tensor<8xf32>, %[[BR:.*]]: tensor<4x8xf32>):
// CHECK-NEXT: %[[M:.*]] = gopt.matmul %[[BA]], %[[BW]]
// CHECK-NEXT: %[[MB:.*]] = gopt.add %[[M]], %[[BB]]
// CHECK-NEXT: %[[ACT:.*]] = gopt.relu %[[MB]]
// CHECK-NEXT: %[[RES:.*]] = gopt.add %[[ACT]], %[[BR]]
// CHECK-NEXT: gopt.yield %[[RES]] : tensor<4x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
// Without contraction epilogues the matmul stays alone, the epilogue is an
// elementwise kernel of its own.
// NOEPI-LABEL: func.func @matmul_epilogue
// NOEPI: %[[M:.*]] = gopt.matmul
// NOEPI-NEXT: %[[F:.*]] = gopt.fusion(%[[M]],
// NOEPI-NEXT: ^bb0
// NOEPI-NEXT: gopt.add
// NOEPI-NEXT: gopt.relu
// NOEPI-NEXT: gopt.add
// NOEPI-NEXT: gopt.yield
// NOEPI-NEXT: }
// NOEPI-NEXT: return %[[F]]
// SIZE2-LABEL: func.func @matmul_epilogue
// SIZE2: %[[F1:.*]] = gopt.fusion
// SIZE2: gopt.matmul
// SIZE2-NEXT: gopt.add
// SIZE2-NEXT: gopt.yield
// SIZE2: %[[F2:.*]] = gopt.fusion(%[[F1]],
// SIZE2: gopt.relu
// SIZE2-NEXT: gopt.add
// SIZE2-NEXT: gopt.yield
// SIZE2: return %[[F2]]
func.func @matmul_epilogue(%a: tensor<4x16xf32>, %w: tensor<16x8xf32>, %b: tensor<8xf32>, %r: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %m = gopt.matmul %a, %w : tensor<4x16xf32>, tensor<16x8xf32> -> tensor<4x8xf32>
  %mb = gopt.add %m, %b : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  %act = gopt.relu %mb : tensor<4x8xf32>
  %res = gopt.add %act, %r : tensor<4x8xf32>
  return %res : tensor<4x8xf32>
}

// -----

// linear (with its own bias operand) + gelu.
// CHECK-LABEL: func.func @linear_epilogue
// CHECK: %[[F:.*]] = gopt.fusion
// CHECK-NEXT: ^bb0
// CHECK-NEXT: %[[L:.*]] = gopt.linear
// CHECK-NEXT: %[[G:.*]] = gopt.gelu %[[L]]
// CHECK-NEXT: gopt.yield %[[G]]
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
// NOEPI-LABEL: func.func @linear_epilogue
// NOEPI-NOT: gopt.fusion
// NOEPI: return
func.func @linear_epilogue(%x: tensor<2x8xf32>, %w: tensor<16x8xf32>, %b: tensor<16xf32>) -> tensor<2x16xf32> {
  %l = gopt.linear %x, %w, %b transpose_weight : tensor<2x8xf32>, tensor<16x8xf32>, tensor<16xf32> -> tensor<2x16xf32>
  %g = gopt.gelu %l : tensor<2x16xf32>
  return %g : tensor<2x16xf32>
}

// -----

// conv2d + per-channel bias + relu + residual add.
// CHECK-LABEL: func.func @conv2d_epilogue
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<1x4x8x8xf32>, %[[W:[a-z0-9]+]]: tensor<4x4x3x3xf32>, %[[B:[a-z0-9]+]]: tensor<4x1x1xf32>)
// CHECK: %[[F:.*]] = gopt.fusion(%[[X]], %[[W]], %[[B]] :
// CHECK-NEXT: ^bb0(%[[BX:.*]]: tensor<1x4x8x8xf32>, %[[BW:.*]]: tensor<4x4x3x3xf32>, %[[BB:.*]]: tensor<4x1x1xf32>):
// CHECK-NEXT: %[[C:.*]] = gopt.conv2d %[[BX]], %[[BW]]
// CHECK-NEXT: %[[CB:.*]] = gopt.add %[[C]], %[[BB]]
// CHECK-NEXT: %[[A:.*]] = gopt.relu %[[CB]]
// CHECK-NEXT: %[[R:.*]] = gopt.add %[[A]], %[[BX]]
// CHECK-NEXT: gopt.yield %[[R]]
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
func.func @conv2d_epilogue(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>, %b: tensor<4x1x1xf32>) -> tensor<1x4x8x8xf32> {
  %c = gopt.conv2d %x, %w strides = [1, 1] padding = [1, 1, 1, 1] dilations = [1, 1] groups = 1 : tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32> -> tensor<1x4x8x8xf32>
  %cb = gopt.add %c, %b : tensor<1x4x8x8xf32>, tensor<4x1x1xf32> -> tensor<1x4x8x8xf32>
  %a = gopt.relu %cb : tensor<1x4x8x8xf32>
  %r = gopt.add %a, %x : tensor<1x4x8x8xf32>
  return %r : tensor<1x4x8x8xf32>
}

// -----

// A contraction takes no prologue: it would recompute the producer for
// every use of an operand element. The epilogue still joins.
// CHECK-LABEL: func.func @matmul_no_prologue
// CHECK-SAME: (%[[A:[a-z0-9]+]]: tensor<4x4xf32>, %[[B:[a-z0-9]+]]: tensor<4x4xf32>)
// CHECK: %[[R:.*]] = gopt.relu %[[A]] : tensor<4x4xf32>
// CHECK-NEXT: %[[F:.*]] = gopt.fusion(%[[R]], %[[B]] :
// CHECK-NEXT: ^bb0
// CHECK-NEXT: gopt.matmul
// CHECK-NEXT: gopt.neg
// CHECK-NEXT: gopt.yield
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
func.func @matmul_no_prologue(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = gopt.relu %a : tensor<4x4xf32>
  %m = gopt.matmul %r, %b : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
  %n = gopt.neg %m : tensor<4x4xf32>
  return %n : tensor<4x4xf32>
}

// -----

// softmax with an elementwise prologue (the scale) and epilogue (log).
// CHECK-LABEL: func.func @softmax_prologue_epilogue
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<4x8xf32>, %[[S:[a-z0-9]+]]: tensor<1xf32>)
// CHECK: %[[F:.*]] = gopt.fusion(%[[X]], %[[S]] : tensor<4x8xf32>, tensor<1xf32>) -> tensor<4x8xf32> {
// CHECK-NEXT: ^bb0(%[[BX:.*]]: tensor<4x8xf32>, %[[BS:.*]]: tensor<1xf32>):
// CHECK-NEXT: %[[M:.*]] = gopt.mul %[[BX]], %[[BS]]
// CHECK-NEXT: %[[P:.*]] = gopt.softmax %[[M]] axis = 1
// CHECK-NEXT: %[[L:.*]] = gopt.log %[[P]]
// CHECK-NEXT: gopt.yield %[[L]]
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
// Without reduction fusion the softmax is alone; nothing else to fuse.
// NORED-LABEL: func.func @softmax_prologue_epilogue
// NORED-NOT: gopt.fusion
// NORED: %[[M:.*]] = gopt.mul
// NORED-NEXT: %[[P:.*]] = gopt.softmax %[[M]]
// NORED-NEXT: %[[L:.*]] = gopt.log %[[P]]
// NORED-NEXT: return %[[L]]
// Contraction epilogues off does not affect reductions.
// NOEPI-LABEL: func.func @softmax_prologue_epilogue
// NOEPI: gopt.fusion
// NOEPI-NEXT: ^bb0
// NOEPI-NEXT: gopt.mul
// NOEPI-NEXT: gopt.softmax
// NOEPI-NEXT: gopt.log
func.func @softmax_prologue_epilogue(%x: tensor<4x8xf32>, %s: tensor<1xf32>) -> tensor<4x8xf32> {
  %m = gopt.mul %x, %s : tensor<4x8xf32>, tensor<1xf32> -> tensor<4x8xf32>
  %p = gopt.softmax %m axis = 1 : tensor<4x8xf32>
  %l = gopt.log %p : tensor<4x8xf32>
  return %l : tensor<4x8xf32>
}

// -----

// layer_norm with a residual-add prologue and a relu epilogue.
// CHECK-LABEL: func.func @layer_norm_prologue_epilogue
// CHECK: %[[F:.*]] = gopt.fusion
// CHECK-NEXT: ^bb0
// CHECK-NEXT: %[[A:.*]] = gopt.add
// CHECK-NEXT: %[[N:.*]] = gopt.layer_norm %[[A]],
// CHECK-NEXT: %[[R:.*]] = gopt.relu %[[N]]
// CHECK-NEXT: gopt.yield %[[R]]
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
// NORED-LABEL: func.func @layer_norm_prologue_epilogue
// NORED-NOT: gopt.fusion
// NORED: return
func.func @layer_norm_prologue_epilogue(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %a = gopt.add %x, %y : tensor<4x8xf32>
  %n = gopt.layer_norm %a, %g, %b axes = [1] eps = 1.0e-05 : tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>
  %r = gopt.relu %n : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// reduce with a prologue made of two chains joined by an add (all taken at
// once) and an epilogue.
// CHECK-LABEL: func.func @reduce_prologue_epilogue
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<4x8xf32>, %[[Y:[a-z0-9]+]]: tensor<4x8xf32>)
// CHECK: %[[F:.*]] = gopt.fusion(%[[X]], %[[Y]] : tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x1xf32> {
// CHECK-NEXT: ^bb0
// CHECK-NEXT: %[[A:.*]] = gopt.exp
// CHECK-NEXT: %[[B:.*]] = gopt.exp
// CHECK-NEXT: %[[C:.*]] = gopt.add %[[A]], %[[B]]
// CHECK-NEXT: %[[R:.*]] = gopt.reduce sum %[[C]] axes = [1] keepdims
// CHECK-NEXT: %[[L:.*]] = gopt.log %[[R]]
// CHECK-NEXT: gopt.yield %[[L]] : tensor<4x1xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
// Without reduction fusion the prologue is a plain elementwise kernel and the
// reduce and log stay single ops.
// NORED-LABEL: func.func @reduce_prologue_epilogue
// NORED: %[[F:.*]] = gopt.fusion
// NORED-NEXT: ^bb0
// NORED-NEXT: gopt.exp
// NORED-NEXT: gopt.exp
// NORED-NEXT: gopt.add
// NORED-NEXT: gopt.yield
// NORED-NEXT: }
// NORED-NEXT: %[[R:.*]] = gopt.reduce sum %[[F]]
// NORED-NEXT: %[[L:.*]] = gopt.log %[[R]]
// NORED-NEXT: return %[[L]]
func.func @reduce_prologue_epilogue(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %a = gopt.exp %x : tensor<4x8xf32>
  %b = gopt.exp %y : tensor<4x8xf32>
  %c = gopt.add %a, %b : tensor<4x8xf32>
  %r = gopt.reduce sum %c axes = [1] keepdims : tensor<4x8xf32> -> tensor<4x1xf32>
  %l = gopt.log %r : tensor<4x1xf32>
  return %l : tensor<4x1xf32>
}

// -----

// An epilogue may not read the reduction's prologue (that would need the
// pre-reduction values again): the add stays out, and the prologue value it
// reads becomes an extra result.
// CHECK-LABEL: func.func @epilogue_reads_prologue
// CHECK: %[[F:.*]]:2 = gopt.fusion
// CHECK-NEXT: ^bb0
// CHECK-NEXT: %[[M:.*]] = gopt.mul
// CHECK-NEXT: %[[P:.*]] = gopt.softmax %[[M]]
// CHECK-NEXT: gopt.yield %[[M]], %[[P]] : tensor<4x8xf32>, tensor<4x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[A:.*]] = gopt.add %[[F]]#1, %[[F]]#0 : tensor<4x8xf32>
// CHECK-NEXT: return %[[A]]
func.func @epilogue_reads_prologue(%x: tensor<4x8xf32>, %s: tensor<1xf32>) -> tensor<4x8xf32> {
  %m = gopt.mul %x, %s : tensor<4x8xf32>, tensor<1xf32> -> tensor<4x8xf32>
  %p = gopt.softmax %m axis = 1 : tensor<4x8xf32>
  %l = gopt.add %p, %m : tensor<4x8xf32>
  return %l : tensor<4x8xf32>
}

// -----

// pool2d takes no prologue (windows overlap) but does take an epilogue.
// CHECK-LABEL: func.func @pool2d_no_prologue
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<1x2x4x4xf32>)
// CHECK: %[[R:.*]] = gopt.relu %[[X]] : tensor<1x2x4x4xf32>
// CHECK-NEXT: %[[F:.*]] = gopt.fusion(%[[R]] : tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32> {
// CHECK-NEXT: ^bb0(%[[BR:.*]]: tensor<1x2x4x4xf32>):
// CHECK-NEXT: %[[P:.*]] = gopt.pool2d max %[[BR]]
// CHECK-NEXT: %[[N:.*]] = gopt.neg %[[P]]
// CHECK-NEXT: gopt.yield %[[N]]
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
func.func @pool2d_no_prologue(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32> {
  %a = gopt.relu %x : tensor<1x2x4x4xf32>
  %p = gopt.pool2d max %a kernel = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] : tensor<1x2x4x4xf32> -> tensor<1x2x2x2xf32>
  %e = gopt.neg %p : tensor<1x2x2x2xf32>
  return %e : tensor<1x2x2x2xf32>
}

// -----

// global_avg_pool reads each element once, so it does take a prologue.
// CHECK-LABEL: func.func @global_avg_pool_prologue
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<1x2x4x4xf32>)
// CHECK: %[[F:.*]] = gopt.fusion(%[[X]] : tensor<1x2x4x4xf32>) -> tensor<1x2x1x1xf32> {
// CHECK-NEXT: ^bb0
// CHECK-NEXT: %[[R:.*]] = gopt.relu
// CHECK-NEXT: %[[P:.*]] = gopt.global_avg_pool %[[R]]
// CHECK-NEXT: %[[S:.*]] = gopt.sigmoid %[[P]]
// CHECK-NEXT: gopt.yield %[[S]]
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
func.func @global_avg_pool_prologue(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x1x1xf32> {
  %a = gopt.relu %x : tensor<1x2x4x4xf32>
  %p = gopt.global_avg_pool %a : tensor<1x2x4x4xf32> -> tensor<1x2x1x1xf32>
  %e = gopt.sigmoid %p : tensor<1x2x1x1xf32>
  return %e : tensor<1x2x1x1xf32>
}

// -----

// One anchor per group: a softmax of a matmul's result is a second kernel,
// even though it would accept an elementwise prologue.
// CHECK-LABEL: func.func @one_anchor_per_group
// CHECK: %[[F:.*]] = gopt.fusion
// CHECK-NEXT: ^bb0
// CHECK-NEXT: gopt.matmul
// CHECK-NEXT: gopt.mul
// CHECK-NEXT: gopt.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[P:.*]] = gopt.softmax %[[F]] axis = 1
// CHECK-NEXT: return %[[P]]
func.func @one_anchor_per_group(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>, %s: tensor<1xf32>) -> tensor<4x4xf32> {
  %m = gopt.matmul %a, %b : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
  %ms = gopt.mul %m, %s : tensor<4x4xf32>, tensor<1xf32> -> tensor<4x4xf32>
  %p = gopt.softmax %ms axis = 1 : tensor<4x4xf32>
  return %p : tensor<4x4xf32>
}

// -----

// Values used outside the group become extra results; every op is still
// computed once (no copy left outside the fusion).
// CHECK-LABEL: func.func @multi_use
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<4xf32>)
// CHECK-NOT: gopt.exp
// CHECK: %[[F:.*]]:3 = gopt.fusion(%[[X]] : tensor<4xf32>) -> tensor<4xf32>, tensor<4xf32>, tensor<4xf32> {
// CHECK-NEXT: ^bb0(%[[BX:.*]]: tensor<4xf32>):
// CHECK-NEXT: %[[A:.*]] = gopt.exp %[[BX]]
// CHECK-NEXT: %[[B:.*]] = gopt.relu %[[A]]
// CHECK-NEXT: %[[C:.*]] = gopt.neg %[[B]]
// CHECK-NEXT: gopt.yield %[[A]], %[[B]], %[[C]] : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT: }
// CHECK-NOT: gopt.exp
// CHECK-NOT: gopt.relu
// CHECK-NOT: gopt.neg
// CHECK: %[[R:.*]] = gopt.reshape %[[F]]#1 : tensor<4xf32> -> tensor<2x2xf32>
// CHECK-NEXT: return %[[F]]#0, %[[F]]#2, %[[R]]
func.func @multi_use(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<2x2xf32>) {
  %a = gopt.exp %x : tensor<4xf32>
  %b = gopt.relu %a : tensor<4xf32>
  %c = gopt.neg %b : tensor<4xf32>
  %r = gopt.reshape %b : tensor<4xf32> -> tensor<2x2xf32>
  return %a, %c, %r : tensor<4xf32>, tensor<4xf32>, tensor<2x2xf32>
}

// -----

// Diamond through a data-movement op: the transpose depends on the first
// group and feeds the add. Putting the add into the first group would make a
// cycle (group -> transpose -> group), so the add starts a second group,
// placed after the transpose.
// CHECK-LABEL: func.func @diamond_no_cycle
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<4x4xf32>)
// CHECK: %[[F1:.*]] = gopt.fusion(%[[X]] : tensor<4x4xf32>) -> tensor<4x4xf32> {
// CHECK-NEXT: ^bb0
// CHECK-NEXT: %[[E:.*]] = gopt.exp
// CHECK-NEXT: %[[R:.*]] = gopt.relu %[[E]]
// CHECK-NEXT: gopt.yield %[[R]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[T:.*]] = gopt.transpose %[[F1]] perm = [1, 0]
// CHECK-NEXT: %[[F2:.*]] = gopt.fusion(%[[F1]], %[[T]] : tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> {
// CHECK-NEXT: ^bb0(%[[BA:.*]]: tensor<4x4xf32>, %[[BT:.*]]: tensor<4x4xf32>):
// CHECK-NEXT: %[[S:.*]] = gopt.add %[[BA]], %[[BT]]
// CHECK-NEXT: %[[N:.*]] = gopt.neg %[[S]]
// CHECK-NEXT: gopt.yield %[[N]]
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F2]]
func.func @diamond_no_cycle(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %a = gopt.exp %x : tensor<4x4xf32>
  %a2 = gopt.relu %a : tensor<4x4xf32>
  %t = gopt.transpose %a2 perm = [1, 0] : tensor<4x4xf32> -> tensor<4x4xf32>
  %b = gopt.add %a2, %t : tensor<4x4xf32>
  %c = gopt.neg %b : tensor<4x4xf32>
  return %c : tensor<4x4xf32>
}

// -----

// The same diamond behind a contraction: the residual add reads the
// matmul group through a transpose, so it may not join as an epilogue.
// CHECK-LABEL: func.func @diamond_behind_contraction
// CHECK: %[[F1:.*]] = gopt.fusion
// CHECK-NEXT: ^bb0
// CHECK-NEXT: gopt.matmul
// CHECK-NEXT: gopt.relu
// CHECK-NEXT: gopt.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[T:.*]] = gopt.transpose %[[F1]]
// CHECK-NEXT: %[[A:.*]] = gopt.add %[[F1]], %[[T]]
// CHECK-NEXT: return %[[A]]
func.func @diamond_behind_contraction(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %m = gopt.matmul %a, %b : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
  %r = gopt.relu %m : tensor<4x4xf32>
  %t = gopt.transpose %r perm = [1, 0] : tensor<4x4xf32> -> tensor<4x4xf32>
  %s = gopt.add %r, %t : tensor<4x4xf32>
  return %s : tensor<4x4xf32>
}

// -----

// An outside input defined after the group's first op (here an unrelated
// transpose) keeps the consumer out of that group: the group is placed at
// its first op, where the input does not exist yet. The consumer starts its
// own group instead.
// CHECK-LABEL: func.func @late_external_input
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<4x4xf32>, %[[Z:[a-z0-9]+]]: tensor<4x4xf32>)
// CHECK: %[[E:.*]] = gopt.exp %[[X]]
// CHECK-NEXT: %[[T:.*]] = gopt.transpose %[[Z]]
// CHECK-NEXT: %[[F:.*]] = gopt.fusion(%[[E]], %[[T]] :
// CHECK-NEXT: ^bb0
// CHECK-NEXT: gopt.add
// CHECK-NEXT: gopt.relu
// CHECK-NEXT: gopt.yield
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
func.func @late_external_input(%x: tensor<4x4xf32>, %z: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %a = gopt.exp %x : tensor<4x4xf32>
  %t = gopt.transpose %z perm = [1, 0] : tensor<4x4xf32> -> tensor<4x4xf32>
  %b = gopt.add %a, %t : tensor<4x4xf32>
  %c = gopt.relu %b : tensor<4x4xf32>
  return %c : tensor<4x4xf32>
}

// -----

// The same input defined before the group's first op: everything fuses.
// CHECK-LABEL: func.func @early_external_input
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<4x4xf32>, %[[Z:[a-z0-9]+]]: tensor<4x4xf32>)
// CHECK: %[[T:.*]] = gopt.transpose %[[Z]]
// CHECK-NEXT: %[[F:.*]] = gopt.fusion(%[[X]], %[[T]] :
// CHECK-NEXT: ^bb0
// CHECK-NEXT: gopt.exp
// CHECK-NEXT: gopt.add
// CHECK-NEXT: gopt.relu
// CHECK-NEXT: gopt.yield
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
func.func @early_external_input(%x: tensor<4x4xf32>, %z: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %t = gopt.transpose %z perm = [1, 0] : tensor<4x4xf32> -> tensor<4x4xf32>
  %a = gopt.exp %x : tensor<4x4xf32>
  %b = gopt.add %a, %t : tensor<4x4xf32>
  %c = gopt.relu %b : tensor<4x4xf32>
  return %c : tensor<4x4xf32>
}

// -----

// Data movement and constants are never fused; they split chains.
// CHECK-LABEL: func.func @data_movement_splits
// CHECK: %[[C:.*]] = gopt.constant
// CHECK-NEXT: %[[F1:.*]] = gopt.fusion(%{{.*}}, %[[C]] :
// CHECK-NEXT: ^bb0
// CHECK-NEXT: gopt.add
// CHECK-NEXT: gopt.exp
// CHECK-NEXT: gopt.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[R:.*]] = gopt.reshape %[[F1]]
// CHECK-NEXT: %[[F2:.*]] = gopt.fusion(%[[R]] :
// CHECK-NEXT: ^bb0
// CHECK-NEXT: gopt.relu
// CHECK-NEXT: gopt.neg
// CHECK-NEXT: gopt.yield
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F2]]
func.func @data_movement_splits(%x: tensor<4xf32>) -> tensor<2x2xf32> {
  %c = gopt.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %a = gopt.add %x, %c : tensor<4xf32>
  %e = gopt.exp %a : tensor<4xf32>
  %r = gopt.reshape %e : tensor<4xf32> -> tensor<2x2xf32>
  %b = gopt.relu %r : tensor<2x2xf32>
  %n = gopt.neg %b : tensor<2x2xf32>
  return %n : tensor<2x2xf32>
}

// -----

// Ops of other dialects are left alone and split chains like data movement.
// CHECK-LABEL: func.func @foreign_ops
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<4xf32>)
// CHECK: %[[E:.*]] = gopt.exp %[[X]]
// CHECK-NEXT: %[[A:.*]] = arith.addf %[[E]], %[[E]] : tensor<4xf32>
// CHECK-NEXT: %[[F:.*]] = gopt.fusion(%[[A]] : tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT: ^bb0
// CHECK-NEXT: gopt.relu
// CHECK-NEXT: gopt.neg
// CHECK-NEXT: gopt.yield
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
func.func @foreign_ops(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = gopt.exp %x : tensor<4xf32>
  %b = arith.addf %a, %a : tensor<4xf32>
  %c = gopt.relu %b : tensor<4xf32>
  %d = gopt.neg %c : tensor<4xf32>
  return %d : tensor<4xf32>
}

// -----

// An existing gopt.fusion is a kernel already: it is neither re-fused nor
// grown, and its neighbours do not join it.
// CHECK-LABEL: func.func @existing_fusion_untouched
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<4xf32>)
// CHECK: %[[E:.*]] = gopt.exp %[[X]]
// CHECK-NEXT: %[[F:.*]] = gopt.fusion(%[[E]] : tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT: ^bb0
// CHECK-NEXT: gopt.relu
// CHECK-NEXT: gopt.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[N:.*]] = gopt.neg %[[F]]
// CHECK-NEXT: return %[[N]]
func.func @existing_fusion_untouched(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = gopt.exp %x : tensor<4xf32>
  %f = gopt.fusion(%a : tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%arg: tensor<4xf32>):
    %r = gopt.relu %arg : tensor<4xf32>
    gopt.yield %r : tensor<4xf32>
  }
  %n = gopt.neg %f : tensor<4xf32>
  return %n : tensor<4xf32>
}

// -----

// Blocks nested in other ops are fused too; values from the enclosing
// region become fusion inputs (gopt.fusion is isolated from above).
// CHECK-LABEL: func.func @nested_region
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<4xf32>, %{{.*}}: i1)
// CHECK: scf.if
// CHECK-NEXT: %[[F:.*]] = gopt.fusion(%[[X]] : tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT: ^bb0
// CHECK-NEXT: gopt.exp
// CHECK-NEXT: gopt.relu
// CHECK-NEXT: gopt.yield
// CHECK-NEXT: }
// CHECK-NEXT: scf.yield %[[F]]
func.func @nested_region(%x: tensor<4xf32>, %c: i1) -> tensor<4xf32> {
  %r = scf.if %c -> tensor<4xf32> {
    %a = gopt.exp %x : tensor<4xf32>
    %b = gopt.relu %a : tensor<4xf32>
    scf.yield %b : tensor<4xf32>
  } else {
    scf.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// A dead chain is never made into a kernel: the op nobody reads stays out,
// so no fusion without results can arise (gopt-dce removes the chain).
// CHECK-LABEL: func.func @dead_chain_not_fused
// CHECK-NOT: gopt.fusion
// CHECK: gopt.exp
// CHECK-NEXT: gopt.relu
// CHECK-NEXT: return
func.func @dead_chain_not_fused(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = gopt.exp %x : tensor<4xf32>
  %b = gopt.relu %a : tensor<4xf32>
  return %x : tensor<4xf32>
}
