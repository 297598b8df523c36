// RUN: gopt-opt %s -split-input-file -verify-each --gopt-outline-kernels --convert-gopt-to-linalg --gopt-fuse-kernel-loops | FileCheck %s
// RUN: gopt-opt %s -split-input-file -verify-each --gopt-outline-kernels --convert-gopt-to-linalg --gopt-fuse-kernel-loops=tile-sizes=2,8 | FileCheck %s --check-prefix=SIZES
// RUN: gopt-opt %s -split-input-file -verify-each --gopt-outline-kernels --convert-gopt-to-linalg --gopt-select-library-contractions --gopt-fuse-kernel-loops | FileCheck %s --check-prefix=LIB
// RUN: gopt-opt %s -split-input-file -verify-each --gopt-outline-kernels --convert-gopt-to-linalg --gopt-fuse-kernel-loops="tile-sizes=1 parallel-tile-loops" | FileCheck %s --check-prefix=FORALL

// A contraction with its epilogue (bias, relu): one loop over rows; the
// zero fill, the matmul tile and the fused epilogue are all inside it.
// CHECK-LABEL: func.func private @linear_k0_linear_add_relu
// CHECK-NOT: linalg.
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK: linalg.fill
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: arith.mulf
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
// CHECK: arith.addf
// CHECK: arith.cmpf ugt
// CHECK: tensor.insert_slice
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: return

// Explicit tile sizes tile rows by 2 and columns by 8.
// SIZES-LABEL: func.func private @linear_k0_linear_add_relu
// SIZES: scf.for
// SIZES: scf.for
// SIZES: linalg.generic {{.*}} outs(%{{.*}} : tensor<2x8xf32>)

// A contraction marked for the library stays whole before the loop (its
// fill too); the epilogue, one generic, is the loop nest and writes in place
// into the contraction's result (the loop's init), reading it as its output.
// LIB-LABEL: func.func private @linear_k0_linear_add_relu
// LIB: %[[FILL:.*]] = linalg.fill
// LIB: %[[MM:.*]] = linalg.generic {{.*}}library_call = "gopt_sgemm"{{.*}} outs(%[[FILL]] :
// LIB: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[MM]])
// LIB: %[[TILE:.*]] = tensor.extract_slice %[[ACC]]
// LIB-NOT: library_call
// LIB: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]} ins(%{{.*}} : tensor<32xf32>) outs(%[[TILE]] : tensor<1x32xf32>)
// LIB: ^bb0(%[[BIAS:.*]]: f32, %[[C:.*]]: f32):
// LIB: arith.addf %[[C]], %[[BIAS]]
// LIB: arith.cmpf ugt
// LIB: scf.yield
// LIB-NEXT: }
// LIB-NEXT: return
// parallel-tile-loops (the GPU pipeline's form): one scf.forall over every
// output element, the dot product and the epilogue inside; no scf.for.
// FORALL-LABEL: func.func private @linear_k0_linear_add_relu
// FORALL-NOT: scf.for
// FORALL: scf.forall (%{{.*}}, %{{.*}}) in (4, 32) shared_outs(
// FORALL: linalg.fill {{.*}} -> tensor<1x1xf32>
// FORALL: linalg.generic {{.*}} ins(%{{.*}} : tensor<1x16xf32>{{.*}}) outs(%{{.*}} : tensor<1x1xf32>)
// FORALL: scf.forall.in_parallel
// FORALL-NEXT: tensor.parallel_insert_slice %{{.*}} into %{{.*}}[%{{.*}}, %{{.*}}] [1, 1] [1, 1]
// FORALL-LABEL: func.func private @softmax_k0_softmax
// FORALL: scf.forall (%{{.*}}) in (4) shared_outs(
func.func @linear(%x: tensor<4x16xf32>, %w: tensor<16x32xf32>, %b: tensor<32xf32>) -> tensor<4x32xf32> {
  %r = gopt.fusion(%x, %w, %b : tensor<4x16xf32>, tensor<16x32xf32>, tensor<32xf32>) -> tensor<4x32xf32> {
  ^bb0(%a: tensor<4x16xf32>, %c: tensor<16x32xf32>, %d: tensor<32xf32>):
    %l = gopt.linear %a, %c : tensor<4x16xf32>, tensor<16x32xf32> -> tensor<4x32xf32>
    %s = gopt.add %l, %d : tensor<4x32xf32>, tensor<32xf32> -> tensor<4x32xf32>
    %t = gopt.relu %s : tensor<4x32xf32>
    gopt.yield %t : tensor<4x32xf32>
  }
  return %r : tensor<4x32xf32>
}

// -----

// Softmax: the reduced axis (1) is never tiled (each tile would recompute
// the row's max and sum); rows are, and every stage runs inside that loop.
// CHECK-LABEL: func.func private @softmax_k0_softmax
// CHECK: scf.for
// CHECK-NOT: scf.for
// CHECK: arith.maximumf
// CHECK: math.exp
// CHECK: arith.addf
// CHECK: arith.divf
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: return
// SIZES-LABEL: func.func private @softmax_k0_softmax
// SIZES: scf.for
// SIZES-NOT: scf.for
// SIZES: linalg.generic {{.*}} outs(%{{.*}} : tensor<2x16xf32>)
func.func @softmax(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = gopt.softmax %x axis = 1 : tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

// An elementwise chain fuses into one generic; with one tileable dim of
// size 4 there is nothing to tile, and the one generic is the loop nest.
// CHECK-LABEL: func.func private @chain_k0_add_exp_neg
// CHECK-NOT: scf.for
// CHECK: linalg.generic
// CHECK: arith.addf
// CHECK: math.exp
// CHECK: arith.negf
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @chain(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %r = gopt.fusion(%x, %y : tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    %s = gopt.add %a, %b : tensor<4xf32>
    %e = gopt.exp %s : tensor<4xf32>
    %n = gopt.neg %e : tensor<4xf32>
    gopt.yield %n : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// Functions that are not kernels are left alone.
// CHECK-LABEL: func.func @not_a_kernel
// CHECK-NOT: scf.for
// CHECK: linalg.generic
func.func @not_a_kernel(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %e = tensor.empty() : tensor<8x8xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// A kernel with two results: the loop nest computes the producer once per
// tile and yields it along with the result.
// CHECK-LABEL: func.func private @two_results_k0_neg_exp
// CHECK: %[[L:.*]]:2 = scf.for
// CHECK: %[[N:.*]] = linalg.generic
// CHECK: arith.negf
// CHECK: %[[E:.*]] = linalg.generic {{.*}} ins(%[[N]] :
// CHECK: math.exp
// CHECK: %[[I0:.*]] = tensor.insert_slice %[[E]]
// CHECK: %[[I1:.*]] = tensor.insert_slice %[[N]]
// CHECK: scf.yield %[[I0]], %[[I1]]
// CHECK-NOT: linalg.generic
// CHECK: return %[[L]]#1, %[[L]]#0
func.func @two_results(%x: tensor<4x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %r:2 = gopt.fusion(%x : tensor<4x16xf32>) -> tensor<4x16xf32>, tensor<4x16xf32> {
  ^bb0(%a: tensor<4x16xf32>):
    %n = gopt.neg %a : tensor<4x16xf32>
    %e = gopt.exp %n : tensor<4x16xf32>
    gopt.yield %n, %e : tensor<4x16xf32>, tensor<4x16xf32>
  }
  return %r#0, %r#1 : tensor<4x16xf32>, tensor<4x16xf32>
}

// -----

// Two independent results: no single loop nest computes both, so the kernel
// keeps its two generics.
// CHECK-LABEL: func.func private @independent_k0_neg_exp
// CHECK-NOT: scf.for
// CHECK: arith.negf
// CHECK: math.exp
// CHECK: return
func.func @independent(%x: tensor<4x16xf32>, %y: tensor<4x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %r:2 = gopt.fusion(%x, %y : tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>, tensor<4x16xf32> {
  ^bb0(%a: tensor<4x16xf32>, %b: tensor<4x16xf32>):
    %n = gopt.neg %a : tensor<4x16xf32>
    %e = gopt.exp %b : tensor<4x16xf32>
    gopt.yield %n, %e : tensor<4x16xf32>, tensor<4x16xf32>
  }
  return %r#0, %r#1 : tensor<4x16xf32>, tensor<4x16xf32>
}

// -----

// Library path: an elementwise prologue is not fused into the contraction
// (sgemm reads its operands from memory); it stays a whole-tensor generic in
// the same kernel, and the epilogue is the loop nest.
// LIB-LABEL: func.func private @prologue_k0_relu_linear_tanh
// LIB: %[[RELU:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]}
// LIB: arith.cmpf ugt
// LIB: %[[MM:.*]] = linalg.generic {{.*}}library_call = "gopt_sgemm"} ins(%[[RELU]], %{{.*}} :
// LIB-NOT: arith.cmpf
// LIB: scf.for {{.*}} iter_args(%{{.*}} = %[[MM]])
// LIB: math.tanh
func.func @prologue(%x: tensor<4x16xf32>, %w: tensor<16x32xf32>) -> tensor<4x32xf32> {
  %r = gopt.fusion(%x, %w : tensor<4x16xf32>, tensor<16x32xf32>) -> tensor<4x32xf32> {
  ^bb0(%a: tensor<4x16xf32>, %c: tensor<16x32xf32>):
    %e = gopt.relu %a : tensor<4x16xf32>
    %l = gopt.linear %e, %c : tensor<4x16xf32>, tensor<16x32xf32> -> tensor<4x32xf32>
    %t = gopt.tanh %l : tensor<4x32xf32>
    gopt.yield %t : tensor<4x32xf32>
  }
  return %r : tensor<4x32xf32>
}

// -----

// Library path, the contraction's result returned too: the epilogue cannot
// overwrite it, so it reads it tile by tile into a buffer of its own; the
// kernel returns the contraction's result as it is.
// LIB-LABEL: func.func private @exposed_k0_linear_tanh
// LIB: %[[MM:.*]] = linalg.generic {{.*}}library_call = "gopt_sgemm"
// LIB: %[[EMPTY:.*]] = tensor.empty
// LIB: %[[LOOP:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[EMPTY]])
// LIB: tensor.extract_slice %[[MM]]
// LIB: math.tanh
// LIB: return %[[MM]], %[[LOOP]]
func.func @exposed(%x: tensor<4x16xf32>, %w: tensor<16x32xf32>) -> (tensor<4x32xf32>, tensor<4x32xf32>) {
  %r:2 = gopt.fusion(%x, %w : tensor<4x16xf32>, tensor<16x32xf32>) -> tensor<4x32xf32>, tensor<4x32xf32> {
  ^bb0(%a: tensor<4x16xf32>, %c: tensor<16x32xf32>):
    %l = gopt.linear %a, %c : tensor<4x16xf32>, tensor<16x32xf32> -> tensor<4x32xf32>
    %t = gopt.tanh %l : tensor<4x32xf32>
    gopt.yield %l, %t : tensor<4x32xf32>, tensor<4x32xf32>
  }
  return %r#0, %r#1 : tensor<4x32xf32>, tensor<4x32xf32>
}

// -----

// Library path, a uniform (splat) constant weight: the contraction keeps
// its library call and reads the weight from memory. Upstream's
// splat-constant folding would inline the weight into the body and drop the
// call, leaving generated loops several times slower than sgemm.
// LIB-LABEL: func.func private @splat_weight_k0_linear_relu
// LIB: %[[W:.*]] = arith.constant dense<5.000000e-01> : tensor<16x32xf32>
// LIB: %[[MM:.*]] = linalg.generic {{.*}}library_call = "gopt_sgemm"} ins(%{{.*}}, %[[W]] :
// LIB: scf.for {{.*}} iter_args(%{{.*}} = %[[MM]])
// LIB: arith.cmpf ugt
func.func @splat_weight(%x: tensor<4x16xf32>) -> tensor<4x32xf32> {
  %w = gopt.constant dense<0.5> : tensor<16x32xf32>
  %r = gopt.fusion(%x, %w : tensor<4x16xf32>, tensor<16x32xf32>) -> tensor<4x32xf32> {
  ^bb0(%a: tensor<4x16xf32>, %c: tensor<16x32xf32>):
    %l = gopt.linear %a, %c : tensor<4x16xf32>, tensor<16x32xf32> -> tensor<4x32xf32>
    %t = gopt.relu %l : tensor<4x32xf32>
    gopt.yield %t : tensor<4x32xf32>
  }
  return %r : tensor<4x32xf32>
}

// -----

// A transpose that moves the innermost dim is tiled in blocks of up to
// 64 x 64 over the result's innermost dim and the one that reads the
// input's innermost (gopt-vectorize-kernels cuts each into 8 x 8 vector
// tiles): a block reads 64 input rows and writes 64 result rows, where one
// result row at a time would read an input column, a cache line per
// element. The batch dim is tiled by 1.
// CHECK-LABEL: func.func private @transpose_k0_transpose
// CHECK: scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK: scf.for %{{.*}} = %c0 to %c128 step %c64
// CHECK: scf.for %{{.*}} = %c0 to %c192 step %c64
// CHECK: tensor.extract_slice %{{.*}} [64, 1, 64] [1, 1, 1] : tensor<192x4x128xf32> to tensor<64x1x64xf32>
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x64x64xf32>)
// A per-row value broadcast along the row is no transposed read: the
// softmax above keeps whole rows.
func.func @transpose(%x: tensor<192x4x128xf32>) -> tensor<4x128x192xf32> {
  %0 = gopt.transpose %x perm = [1, 2, 0] : tensor<192x4x128xf32> -> tensor<4x128x192xf32>
  return %0 : tensor<4x128x192xf32>
}

// -----

// An image to channels last: the innermost dim (3 channels) is shorter
// than a vector tile, so the blocks stay one vector tile (8 x 3) rather
// than 56 x 3 blocks cut again by the vectorizer.
// CHECK-LABEL: func.func private @to_channels_last_k0_transpose
// CHECK: tensor.extract_slice %{{.*}} [1, 3, 1, 8] [1, 1, 1, 1] : tensor<1x3x16x224xf32> to tensor<1x3x1x8xf32>
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x1x8x3xf32>)
func.func @to_channels_last(%x: tensor<1x3x16x224xf32>) -> tensor<1x16x224x3xf32> {
  %0 = gopt.transpose %x perm = [0, 2, 3, 1] : tensor<1x3x16x224xf32> -> tensor<1x16x224x3xf32>
  return %0 : tensor<1x16x224x3xf32>
}
