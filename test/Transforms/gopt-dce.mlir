// RUN: gopt-opt %s -split-input-file --gopt-dce | FileCheck %s
// RUN: gopt-opt %s -split-input-file --gopt-dce=keep-ops=gopt.exp | FileCheck %s --check-prefix=KEEP

// A single dead op goes; live ops stay.
// CHECK-LABEL: func.func @dead_op
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<4xf32>)
// CHECK-NEXT: %[[N:.*]] = gopt.neg %[[X]]
// CHECK-NEXT: return %[[N]]
func.func @dead_op(%x: tensor<4xf32>) -> tensor<4xf32> {
  %d = gopt.relu %x : tensor<4xf32>
  %n = gopt.neg %x : tensor<4xf32>
  return %n : tensor<4xf32>
}

// -----

// A whole dead subgraph (constant, chain, diamond) goes in one run.
// CHECK-LABEL: func.func @dead_subgraph
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<4xf32>)
// CHECK-NEXT: return %[[X]]
// With keep-ops=gopt.exp the exp stays, with what it uses; its dead users
// still go.
// KEEP-LABEL: func.func @dead_subgraph
// KEEP-SAME: (%[[X:[a-z0-9]+]]: tensor<4xf32>)
// KEEP-NEXT: %[[C:.*]] = gopt.constant
// KEEP-NEXT: %[[A:.*]] = gopt.add %[[X]], %[[C]]
// KEEP-NEXT: gopt.exp %[[A]]
// KEEP-NEXT: return %[[X]]
func.func @dead_subgraph(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = gopt.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %a = gopt.add %x, %c : tensor<4xf32>
  %e = gopt.exp %a : tensor<4xf32>
  %l = gopt.log %e : tensor<4xf32>
  %r = gopt.relu %e : tensor<4xf32>
  %s = gopt.sub %l, %r : tensor<4xf32>
  %t = gopt.transpose %s perm = [0] : tensor<4xf32> -> tensor<4xf32>
  return %x : tensor<4xf32>
}

// -----

// Only the dead branch of a partly live graph goes.
// CHECK-LABEL: func.func @dead_branch
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<4xf32>)
// CHECK-NEXT: %[[E:.*]] = gopt.exp %[[X]]
// CHECK-NEXT: %[[N:.*]] = gopt.neg %[[E]]
// CHECK-NEXT: return %[[N]]
func.func @dead_branch(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = gopt.exp %x : tensor<4xf32>
  %r = gopt.relu %e : tensor<4xf32>
  %t = gopt.tanh %r : tensor<4xf32>
  %n = gopt.neg %e : tensor<4xf32>
  return %n : tensor<4xf32>
}

// -----

// A dead op whose user is dead too, across a multi-result op.
// CHECK-LABEL: func.func @dead_multi_result
// CHECK-NOT: gopt.split
// CHECK: return
func.func @dead_multi_result(%x: tensor<4xf32>) -> tensor<4xf32> {
  %s:2 = gopt.split %x axis = 0 sizes = [2, 2] : tensor<4xf32> -> tensor<2xf32>, tensor<2xf32>
  %a = gopt.add %s#0, %s#1 : tensor<2xf32>
  return %x : tensor<4xf32>
}

// -----

// A gopt.fusion result nobody uses is dropped, with the body ops that only
// fed it and the input only they read. Body ops that also feed a live
// result stay.
// CHECK-LABEL: func.func @fusion_dead_result
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<4xf32>, %[[Y:[a-z0-9]+]]: tensor<4xf32>)
// CHECK-NEXT: %[[F:.*]]:2 = gopt.fusion(%[[X]] : tensor<4xf32>) -> tensor<4xf32>, tensor<4xf32> {
// CHECK-NEXT: ^bb0(%[[BX:.*]]: tensor<4xf32>):
// CHECK-NEXT: %[[E:.*]] = gopt.exp %[[BX]]
// CHECK-NEXT: %[[N:.*]] = gopt.neg %[[E]]
// CHECK-NEXT: gopt.yield %[[E]], %[[N]] : tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]#1, %[[F]]#0
func.func @fusion_dead_result(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %f:4 = gopt.fusion(%x, %y : tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    %e = gopt.exp %a : tensor<4xf32>
    %m = gopt.mul %b, %b : tensor<4xf32>
    %r = gopt.relu %m : tensor<4xf32>
    %n = gopt.neg %e : tensor<4xf32>
    gopt.yield %e, %r, %n, %m : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  }
  return %f#2, %f#0 : tensor<4xf32>, tensor<4xf32>
}

// -----

// A fusion result used only by dead ops is dead too (users go first).
// CHECK-LABEL: func.func @fusion_result_used_by_dead_op
// CHECK-NEXT: %[[F:.*]] = gopt.fusion(%{{.*}} : tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT: ^bb0
// CHECK-NEXT: %[[E:.*]] = gopt.exp
// CHECK-NEXT: gopt.yield %[[E]] : tensor<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
func.func @fusion_result_used_by_dead_op(%x: tensor<4xf32>) -> tensor<4xf32> {
  %f:2 = gopt.fusion(%x : tensor<4xf32>) -> tensor<4xf32>, tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    %e = gopt.exp %a : tensor<4xf32>
    %r = gopt.relu %a : tensor<4xf32>
    gopt.yield %e, %r : tensor<4xf32>, tensor<4xf32>
  }
  %dead = gopt.neg %f#1 : tensor<4xf32>
  return %f#0 : tensor<4xf32>
}

// -----

// Dead body ops and unread inputs go even when every result is live.
// CHECK-LABEL: func.func @fusion_unused_input
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<4xf32>, %[[Y:[a-z0-9]+]]: tensor<4xf32>)
// CHECK-NEXT: %[[F:.*]] = gopt.fusion(%[[Y]] : tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT: ^bb0(%[[BY:.*]]: tensor<4xf32>):
// CHECK-NEXT: %[[N:.*]] = gopt.neg %[[BY]]
// CHECK-NEXT: gopt.yield %[[N]] : tensor<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
func.func @fusion_unused_input(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %f = gopt.fusion(%x, %y : tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    %e = gopt.exp %b : tensor<4xf32>
    %n = gopt.neg %b : tensor<4xf32>
    gopt.yield %n : tensor<4xf32>
  }
  return %f : tensor<4xf32>
}

// -----

// A fusion with no live result is erased whole, and so is what only it read.
// CHECK-LABEL: func.func @fusion_all_dead
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<4xf32>)
// CHECK-NEXT: return %[[X]]
func.func @fusion_all_dead(%x: tensor<4xf32>) -> tensor<4xf32> {
  %t = gopt.transpose %x perm = [0] : tensor<4xf32> -> tensor<4xf32>
  %f:2 = gopt.fusion(%t : tensor<4xf32>) -> tensor<4xf32>, tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    %r = gopt.relu %a : tensor<4xf32>
    %n = gopt.neg %r : tensor<4xf32>
    gopt.yield %r, %n : tensor<4xf32>, tensor<4xf32>
  }
  return %x : tensor<4xf32>
}

// -----

// A fusion with nothing dead is left as it is.
// CHECK-LABEL: func.func @fusion_all_live
// CHECK-NEXT: %[[F:.*]]:2 = gopt.fusion(%{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>, tensor<4xf32> {
// CHECK-NEXT: ^bb0
// CHECK-NEXT: gopt.add
// CHECK-NEXT: gopt.exp
// CHECK-NEXT: gopt.yield
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]#0, %[[F]]#1
func.func @fusion_all_live(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %f:2 = gopt.fusion(%x, %y : tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>, tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    %s = gopt.add %a, %b : tensor<4xf32>
    %e = gopt.exp %s : tensor<4xf32>
    gopt.yield %s, %e : tensor<4xf32>, tensor<4xf32>
  }
  return %f#0, %f#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// keep-ops: a kept op in a fusion body stays even when the result it fed is
// dropped.
// CHECK-LABEL: func.func @keep_in_fusion
// CHECK-NEXT: %[[F:.*]] = gopt.fusion(%{{.*}} : tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<4xf32>):
// CHECK-NEXT: %[[N:.*]] = gopt.neg %[[A]]
// CHECK-NEXT: gopt.yield %[[N]]
// KEEP-LABEL: func.func @keep_in_fusion
// KEEP-NEXT: %[[F:.*]] = gopt.fusion(%{{.*}} : tensor<4xf32>) -> tensor<4xf32> {
// KEEP-NEXT: ^bb0(%[[A:.*]]: tensor<4xf32>):
// KEEP-NEXT: gopt.exp %[[A]]
// KEEP-NEXT: %[[N:.*]] = gopt.neg %[[A]]
// KEEP-NEXT: gopt.yield %[[N]] : tensor<4xf32>
// KEEP-NEXT: }
// KEEP-NEXT: return %[[F]]
func.func @keep_in_fusion(%x: tensor<4xf32>) -> tensor<4xf32> {
  %f:2 = gopt.fusion(%x : tensor<4xf32>) -> tensor<4xf32>, tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    %e = gopt.exp %a : tensor<4xf32>
    %n = gopt.neg %a : tensor<4xf32>
    gopt.yield %e, %n : tensor<4xf32>, tensor<4xf32>
  }
  return %f#1 : tensor<4xf32>
}

// -----

// Ops with side effects stay, and so does everything they use, gopt ops and
// other dialects' ops alike; dead gopt ops around them still go.
// CHECK-LABEL: func.func @side_effects_kept
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<4xf32>, %[[M:[a-z0-9]+]]: memref<4xf32>)
// CHECK-NEXT: %[[E:.*]] = gopt.exp %[[X]]
// CHECK-NEXT: %[[C:.*]] = call @ext(%[[E]])
// CHECK-NEXT: %[[R:.*]] = gopt.relu %[[X]]
// CHECK-NEXT: %[[B:.*]] = bufferization.to_buffer %[[R]]
// CHECK-NEXT: memref.copy %[[B]], %[[M]]
// CHECK-NEXT: return %[[X]]
func.func private @ext(tensor<4xf32>) -> tensor<4xf32>
func.func @side_effects_kept(%x: tensor<4xf32>, %m: memref<4xf32>) -> tensor<4xf32> {
  %e = gopt.exp %x : tensor<4xf32>
  %c = func.call @ext(%e) : (tensor<4xf32>) -> tensor<4xf32>
  %r = gopt.relu %x : tensor<4xf32>
  %t = bufferization.to_buffer %r : tensor<4xf32> to memref<4xf32>
  memref.copy %t, %m : memref<4xf32> to memref<4xf32>
  %d = gopt.neg %x : tensor<4xf32>
  return %x : tensor<4xf32>
}

// -----

// Live ops of other dialects stay, with the gopt ops they read.
// CHECK-LABEL: func.func @foreign_ops_live
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<4xf32>)
// CHECK-NEXT: %[[E:.*]] = gopt.exp %[[X]]
// CHECK-NEXT: %[[A:.*]] = arith.addf %[[E]], %[[X]]
// CHECK-NEXT: return %[[A]]
func.func @foreign_ops_live(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = gopt.exp %x : tensor<4xf32>
  %a = arith.addf %e, %x : tensor<4xf32>
  %n = gopt.neg %a : tensor<4xf32>
  return %a : tensor<4xf32>
}

// -----

// Functions in nested modules and ops in nested regions are swept too.
// CHECK-LABEL: module @inner
// CHECK-LABEL: func.func @nested
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<4xf32>)
// CHECK-NEXT: %[[R:.*]] = scf.execute_region -> tensor<4xf32> {
// CHECK-NEXT: scf.yield %[[X]]
// CHECK-NEXT: }
// CHECK-NEXT: return %[[R]]
module @inner {
  func.func @nested(%x: tensor<4xf32>) -> tensor<4xf32> {
    %e = gopt.exp %x : tensor<4xf32>
    %r = scf.execute_region -> tensor<4xf32> {
      %d = gopt.neg %e : tensor<4xf32>
      scf.yield %x : tensor<4xf32>
    }
    return %r : tensor<4xf32>
  }
}

// -----

// A fusion result that only forwards an input is replaced by that input; a
// fusion left with nothing live is erased.
// CHECK-LABEL: func.func @forwarding_fusion
// CHECK-NOT: gopt.fusion
// CHECK: return %arg0
func.func @forwarding_fusion(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = gopt.fusion(%x : tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    gopt.yield %a : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// Users in a later block go first, so a dead producer in an earlier block is
// removed in the same run.
// CHECK-LABEL: func.func @dead_across_blocks
// CHECK-NOT: gopt.exp
// CHECK-NOT: gopt.neg
// CHECK: return %arg0
func.func @dead_across_blocks(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = gopt.exp %x : tensor<4xf32>
  cf.br ^bb1
^bb1:
  %n = gopt.neg %e : tensor<4xf32>
  return %x : tensor<4xf32>
}

// -----

// A fusion kept for a kept op inside keeps its results (a fusion must expose
// a value), while its other dead body ops still go.
// CHECK-LABEL: func.func @kept_fusion_with_dead_results
// CHECK-NOT: gopt.fusion
// KEEP-LABEL: func.func @kept_fusion_with_dead_results
// KEEP: gopt.fusion(%arg0 : tensor<4xf32>) -> tensor<4xf32>
// KEEP-NEXT: ^bb0
// KEEP-NEXT: %[[E:.*]] = gopt.exp
// KEEP-NEXT: gopt.yield %[[E]]
// KEEP-NOT: gopt.neg
func.func @kept_fusion_with_dead_results(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = gopt.fusion(%x : tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    %e = gopt.exp %a : tensor<4xf32>
    %n = gopt.neg %a : tensor<4xf32>
    gopt.yield %e : tensor<4xf32>
  }
  return %x : tensor<4xf32>
}
