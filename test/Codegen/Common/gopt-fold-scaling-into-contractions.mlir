// RUN: gopt-opt %s -split-input-file --gopt-fold-scaling-into-contractions | FileCheck %s

// The scalings below are what convert-gopt-to-linalg makes of gopt.div and
// gopt.mul by a one-element constant; the contractions what it makes of
// gopt.matmul (with a transpose folded into the map, as
// gopt-fold-permutations-into-contractions leaves Q·Kᵀ). A scaling the
// contraction reads becomes a factor of the operand's element; a scaling
// of the contraction's result (from zero) a factor of each term.

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#scalar = affine_map<(d0, d1, d2) -> ()>
#q = affine_map<(d0, d1, d2, d3) -> (d1, d0, d3)>
#kt = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
#out = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>

// Q ÷ 8 (a constant tensor operand), read by Q·Kᵀ: the contraction reads
// Q and multiplies its element by 0.125; the scaling goes.
// CHECK-LABEL: func.func @query_divided
// CHECK-SAME: (%[[Q:.*]]: tensor<16x4x8xf32>, %[[K:.*]]: tensor<4x8x16xf32>)
// CHECK-NOT: arith.divf
// CHECK: %[[F:.*]] = arith.constant 1.250000e-01 : f32
// CHECK-NOT: arith.divf
// CHECK: linalg.generic {{.*}} ins(%[[Q]], %[[K]] : tensor<16x4x8xf32>, tensor<4x8x16xf32>)
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[S:.*]] = arith.mulf %[[A]], %[[F]] : f32
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[S]], %[[B]] : f32
// CHECK-NEXT: arith.addf %[[ACC]], %[[P]] : f32
func.func @query_divided(%q: tensor<16x4x8xf32>, %k: tensor<4x8x16xf32>) -> tensor<4x16x16xf32> {
  %c = arith.constant dense<8.0> : tensor<f32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x4x8xf32>
  %qs = linalg.generic {indexing_maps = [#id3, #scalar, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%q, %c : tensor<16x4x8xf32>, tensor<f32>) outs(%e : tensor<16x4x8xf32>) {
  ^bb0(%in: f32, %in_c: f32, %o: f32):
    %d = arith.divf %in, %in_c : f32
    linalg.yield %d : f32
  } -> tensor<16x4x8xf32>
  %e2 = tensor.empty() : tensor<4x16x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %s = linalg.generic {indexing_maps = [#q, #kt, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%qs, %k : tensor<16x4x8xf32>, tensor<4x8x16xf32>) outs(%init : tensor<4x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x16x16xf32>
  return %s : tensor<4x16x16xf32>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#perm2 = affine_map<(d0, d1) -> (d1, d0)>
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>

// 0.5 · Bᵀ (the constant in the body, the scaled operand read through a
// permutation): the contraction reads B through the composed map.
// CHECK-DAG: #[[BMAP:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL: func.func @weight_scaled
// CHECK-SAME: (%[[X:.*]]: tensor<8x32xf32>, %[[W:.*]]: tensor<16x32xf32>)
// CHECK: %[[F:.*]] = arith.constant 5.000000e-01 : f32
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[BMAP]], #{{.*}}], {{.*}} ins(%[[X]], %[[W]] :
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[S:.*]] = arith.mulf %[[B]], %[[F]] : f32
// CHECK-NEXT: arith.mulf %[[A]], %[[S]] : f32
func.func @weight_scaled(%x: tensor<8x32xf32>, %w: tensor<16x32xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x16xf32>
  %ws = linalg.generic {indexing_maps = [#perm2, #id2], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<16x32xf32>) outs(%e : tensor<32x16xf32>) {
  ^bb0(%in: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %m = arith.mulf %half, %in : f32
    linalg.yield %m : f32
  } -> tensor<32x16xf32>
  %e2 = tensor.empty() : tensor<8x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %ws : tensor<8x32xf32>, tensor<32x16xf32>) outs(%init : tensor<8x16xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>

// Kept: a scaling read twice (it is written anyway), a scaling by a
// tensor that is not a splat constant, and a constant divided by the
// tensor.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-3: arith.divf
// CHECK-NOT: arith.constant 5.000000e-01
func.func @kept(%x: tensor<8x32xf32>, %w: tensor<32x16xf32>, %y: tensor<8x32xf32>) -> (tensor<8x16xf32>, tensor<8x32xf32>, tensor<8x16xf32>, tensor<8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %xs = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<8x32xf32>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%in: f32, %o: f32):
    %d = arith.divf %in, %two : f32
    linalg.yield %d : f32
  } -> tensor<8x32xf32>
  %xy = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<8x32xf32>, tensor<8x32xf32>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%in: f32, %in2: f32, %o: f32):
    %d = arith.divf %in, %in2 : f32
    linalg.yield %d : f32
  } -> tensor<8x32xf32>
  %inv = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<8x32xf32>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%in: f32, %o: f32):
    %d = arith.divf %two, %in : f32
    linalg.yield %d : f32
  } -> tensor<8x32xf32>
  %e2 = tensor.empty() : tensor<8x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%xs, %w : tensor<8x32xf32>, tensor<32x16xf32>) outs(%init : tensor<8x16xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  %r2 = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%xy, %w : tensor<8x32xf32>, tensor<32x16xf32>) outs(%init : tensor<8x16xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  %r3 = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%inv, %w : tensor<8x32xf32>, tensor<32x16xf32>) outs(%init : tensor<8x16xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  return %r, %xs, %r2, %r3 : tensor<8x16xf32>, tensor<8x32xf32>, tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#one = affine_map<(d0, d1, d2, d3) -> (0)>
#q = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
#kt = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>
#out = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>

// The scores × 0.125 (a one-element constant tensor), Q·Kᵀ from zero: each
// term times 0.125, and the scaling goes.
// CHECK-LABEL: func.func @scores_scaled
// CHECK: %[[F:.*]] = arith.constant 1.250000e-01 : f32
// CHECK: %[[S:.*]] = linalg.generic
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[A]], %[[B]] : f32
// CHECK-NEXT: %[[T:.*]] = arith.mulf %[[P]], %[[F]] : f32
// CHECK-NEXT: arith.addf %[[ACC]], %[[T]] : f32
// CHECK-NOT: linalg.generic
// CHECK: return %[[S]]
func.func @scores_scaled(%q: tensor<1x4x16x8xf32>, %k: tensor<1x4x8x16xf32>) -> tensor<1x4x16x16xf32> {
  %c = arith.constant dense<0.125> : tensor<1xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x16x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x16x16xf32>) -> tensor<1x4x16x16xf32>
  %s = linalg.generic {indexing_maps = [#q, #kt, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<1x4x16x8xf32>, tensor<1x4x8x16xf32>) outs(%init : tensor<1x4x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x4x16x16xf32>
  %e2 = tensor.empty() : tensor<1x4x16x16xf32>
  %t = linalg.generic {indexing_maps = [#id4, #one, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %c : tensor<1x4x16x16xf32>, tensor<1xf32>) outs(%e2 : tensor<1x4x16x16xf32>) {
  ^bb0(%in: f32, %in_c: f32, %o: f32):
    %x = arith.mulf %in, %in_c : f32
    linalg.yield %x : f32
  } -> tensor<1x4x16x16xf32>
  return %t : tensor<1x4x16x16xf32>
}

// Kept: a contraction that accumulates into a tensor that is not zero
// (its init would be scaled too).
// CHECK-LABEL: func.func @accumulating
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK: arith.mulf %in, %in_0
func.func @accumulating(%q: tensor<1x4x16x8xf32>, %k: tensor<1x4x8x16xf32>, %init: tensor<1x4x16x16xf32>) -> tensor<1x4x16x16xf32> {
  %c = arith.constant dense<0.125> : tensor<1xf32>
  %s = linalg.generic {indexing_maps = [#q, #kt, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<1x4x16x8xf32>, tensor<1x4x8x16xf32>) outs(%init : tensor<1x4x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x4x16x16xf32>
  %e2 = tensor.empty() : tensor<1x4x16x16xf32>
  %t = linalg.generic {indexing_maps = [#id4, #one, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %c : tensor<1x4x16x16xf32>, tensor<1xf32>) outs(%e2 : tensor<1x4x16x16xf32>) {
  ^bb0(%in: f32, %in_c: f32, %o: f32):
    %x = arith.mulf %in, %in_c : f32
    linalg.yield %x : f32
  } -> tensor<1x4x16x16xf32>
  return %t : tensor<1x4x16x16xf32>
}
