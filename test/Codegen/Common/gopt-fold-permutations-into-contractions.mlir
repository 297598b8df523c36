// RUN: gopt-opt %s -split-input-file --gopt-fold-permutations-into-contractions | FileCheck %s

// The permuting copies below are what convert-gopt-to-linalg makes of
// gopt.transpose; the contractions what it makes of gopt.matmul.

#perm = affine_map<(d0, d1, d2) -> (d2, d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#lhs = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#rhs = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
#out = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>

// Q·Kᵀ with K [seq, batch, dim] transposed to [batch, dim, seq]: the
// contraction reads K itself, B[b, k, n] = K[n, b, k], and the copy goes.
// CHECK-DAG: #[[KMAP:.*]] = affine_map<(d0, d1, d2, d3) -> (d2, d0, d3)>
// CHECK-LABEL: func.func @scores
// CHECK-SAME: (%[[Q:.*]]: tensor<4x16x8xf32>, %[[K:.*]]: tensor<16x4x8xf32>)
// CHECK-NOT: linalg.yield %in
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[KMAP]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[Q]], %[[K]] : tensor<4x16x8xf32>, tensor<16x4x8xf32>)
func.func @scores(%q: tensor<4x16x8xf32>, %k: tensor<16x4x8xf32>) -> tensor<4x16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8x16xf32>
  %kt = linalg.generic {indexing_maps = [#perm, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%k : tensor<16x4x8xf32>) outs(%e : tensor<4x8x16xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<4x8x16xf32>
  %e2 = tensor.empty() : tensor<4x16x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %s = linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %kt : tensor<4x16x8xf32>, tensor<4x8x16xf32>) outs(%init : tensor<4x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x16x16xf32>
  return %s : tensor<4x16x16xf32>
}

// -----

#perm = affine_map<(d0, d1, d2) -> (d1, d2, d0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#lhs = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#rhs = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
#out = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>

// Kept: read through the copy's input, B's innermost dim would be the
// batch dim, which no GEMM takes; the contraction stays on the library
// path with the copy.
// CHECK-LABEL: func.func @batch_innermost
// CHECK: %[[COPY:.*]] = linalg.generic
// CHECK-NEXT: ^bb0
// CHECK-NEXT: linalg.yield %in
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %[[COPY]] :
func.func @batch_innermost(%q: tensor<4x16x8xf32>, %k: tensor<8x16x4xf32>) -> tensor<4x16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8x16xf32>
  %kt = linalg.generic {indexing_maps = [#perm, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%k : tensor<8x16x4xf32>) outs(%e : tensor<4x8x16xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<4x8x16xf32>
  %e2 = tensor.empty() : tensor<4x16x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %s = linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %kt : tensor<4x16x8xf32>, tensor<4x8x16xf32>) outs(%init : tensor<4x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x16x16xf32>
  return %s : tensor<4x16x16xf32>
}

// -----

#perm = affine_map<(d0, d1) -> (d1, d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#lhs = affine_map<(d0, d1, d2) -> (d0, d2)>
#rhs = affine_map<(d0, d1, d2) -> (d2, d1)>
#out = affine_map<(d0, d1, d2) -> (d0, d1)>

// Kept: a copy also returned, and a copy read by an elementwise op.
// CHECK-LABEL: func.func @other_readers
// CHECK-COUNT-2: linalg.yield %in
func.func @other_readers(%a: tensor<8x16xf32>, %w: tensor<8x32xf32>, %x: tensor<4x4xf32>) -> (tensor<16x32xf32>, tensor<16x8xf32>, tensor<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %at = linalg.generic {indexing_maps = [#perm, #id2], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<8x16xf32>) outs(%e : tensor<16x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<16x8xf32>
  %e2 = tensor.empty() : tensor<16x32xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e2 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %y = linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "reduction"]} ins(%at, %w : tensor<16x8xf32>, tensor<8x32xf32>) outs(%init : tensor<16x32xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<16x32xf32>
  %e3 = tensor.empty() : tensor<4x4xf32>
  %xt = linalg.generic {indexing_maps = [#perm, #id2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x4xf32>) outs(%e3 : tensor<4x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<4x4xf32>
  %n = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%xt : tensor<4x4xf32>) outs(%e3 : tensor<4x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %neg = arith.negf %in : f32
    linalg.yield %neg : f32
  } -> tensor<4x4xf32>
  return %y, %at, %n : tensor<16x32xf32>, tensor<16x8xf32>, tensor<4x4xf32>
}

// -----

#perm = affine_map<(d0, d1, d2) -> (d1, d0, d2)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#lhs = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#rhs = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
#out = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>

// P·V [heads, seq, dim] with the heads merged back to [seq, heads, dim]:
// the contraction writes the merged tensor (a zero fill of its shape)
// through C[m, b, n], and the copy goes.
// CHECK-DAG: #[[MERGED:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, d0, d2)>
// CHECK-LABEL: func.func @heads_merged
// CHECK: %[[ZERO:.*]] = arith.constant 0.0
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<16x4x8xf32>
// CHECK: %[[FILL:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[EMPTY]] : tensor<16x4x8xf32>)
// CHECK: %[[O:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #[[MERGED]]], {{.*}} outs(%[[FILL]] : tensor<16x4x8xf32>)
// CHECK-NOT: linalg.yield %in
// CHECK: return %[[O]] : tensor<16x4x8xf32>
func.func @heads_merged(%p: tensor<4x16x16xf32>, %v: tensor<4x16x8xf32>) -> tensor<16x4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %o = linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<4x16x16xf32>, tensor<4x16x8xf32>) outs(%init : tensor<4x16x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x16x8xf32>
  %e2 = tensor.empty() : tensor<16x4x8xf32>
  %t = linalg.generic {indexing_maps = [#perm, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%o : tensor<4x16x8xf32>) outs(%e2 : tensor<16x4x8xf32>) {
  ^bb0(%in: f32, %x: f32):
    linalg.yield %in : f32
  } -> tensor<16x4x8xf32>
  return %t : tensor<16x4x8xf32>
}

// -----

#perm = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#lhs = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#rhs = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
#out = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>

// Kept: written through the copy, the result's innermost dim would be m,
// which gopt_sgemm does not write (its C has n innermost); the copy stays.
// Also kept: a result read by anything besides the copy.
// CHECK-LABEL: func.func @result_transposed
// CHECK: %[[O:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK: linalg.generic {{.*}} ins(%[[O]] :
// CHECK-NEXT: ^bb0
// CHECK-NEXT: linalg.yield %in
func.func @result_transposed(%p: tensor<4x16x16xf32>, %v: tensor<4x16x8xf32>) -> tensor<4x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %o = linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<4x16x16xf32>, tensor<4x16x8xf32>) outs(%init : tensor<4x16x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x16x8xf32>
  %e2 = tensor.empty() : tensor<4x8x16xf32>
  %t = linalg.generic {indexing_maps = [#perm, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%o : tensor<4x16x8xf32>) outs(%e2 : tensor<4x8x16xf32>) {
  ^bb0(%in: f32, %x: f32):
    linalg.yield %in : f32
  } -> tensor<4x8x16xf32>
  return %t : tensor<4x8x16xf32>
}

// CHECK-LABEL: func.func @result_read_twice
// CHECK: %[[O:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK: linalg.generic {{.*}} ins(%[[O]] :
// CHECK-NEXT: ^bb0
// CHECK-NEXT: linalg.yield %in
func.func @result_read_twice(%p: tensor<4x16x16xf32>, %v: tensor<4x16x8xf32>) -> (tensor<4x8x16xf32>, tensor<4x16x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %o = linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<4x16x16xf32>, tensor<4x16x8xf32>) outs(%init : tensor<4x16x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x16x8xf32>
  %e2 = tensor.empty() : tensor<4x8x16xf32>
  %t = linalg.generic {indexing_maps = [#perm, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%o : tensor<4x16x8xf32>) outs(%e2 : tensor<4x8x16xf32>) {
  ^bb0(%in: f32, %x: f32):
    linalg.yield %in : f32
  } -> tensor<4x8x16xf32>
  return %t, %o : tensor<4x8x16xf32>, tensor<4x16x8xf32>
}
