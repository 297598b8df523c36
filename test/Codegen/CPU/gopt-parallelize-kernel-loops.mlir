// RUN: gopt-opt %s -verify-each --gopt-parallelize-kernel-loops | FileCheck %s
// RUN: gopt-opt %s --gopt-parallelize-kernel-loops=min-work=1000000000 | FileCheck %s --check-prefix=NONE
// The outlined bodies lower to LLVM with the rest (the unrealized casts
// between memrefs and their descriptors fold away).
// RUN: gopt-opt %s --gopt-parallelize-kernel-loops --convert-scf-to-cf \
// RUN:   --expand-strided-metadata --lower-affine --finalize-memref-to-llvm \
// RUN:   --convert-arith-to-llvm --convert-cf-to-llvm --convert-func-to-llvm \
// RUN:   --reconcile-unrealized-casts | FileCheck %s --check-prefix=LLVM

// NONE-NOT: gopt_parallel_for
// LLVM-NOT: unrealized_conversion_cast
// LLVM: llvm.func @gopt_parallel_for(!llvm.ptr, !llvm.ptr, i64)
// LLVM-LABEL: llvm.func @scale_k0(
// LLVM: %[[BODY:.*]] = llvm.mlir.addressof @scale_k0_parallel0 : !llvm.ptr
// LLVM: llvm.call @gopt_parallel_for(%[[BODY]], %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, i64) -> ()
// LLVM: llvm.func @scale_k0_parallel0(%{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64)

// A 2-D parallel loop (256 x 16 iterations): its rows are split between
// threads (one call of the runtime with 256 iterations), its columns stay
// a loop inside the body. The body gets the input and the result through
// the context struct (descriptors), clones the constant, and recovers the
// row index from the linear one.
// CHECK: func.func private @gopt_parallel_for((!llvm.ptr, index, index) -> (), !llvm.ptr, index)
// CHECK-LABEL: func.func private @scale_k0(
// CHECK-SAME: %[[IN:.*]]: memref<256x512xf32>)
// CHECK: %[[CONTEXT:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>)>
// CHECK: %[[OUT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<256x512xf32>
// CHECK-NOT: scf.parallel
// CHECK: %[[D0:.*]] = builtin.unrealized_conversion_cast %[[IN]] : memref<256x512xf32> to !llvm.struct
// CHECK: %[[F0:.*]] = llvm.getelementptr %[[CONTEXT]][0, 0]
// CHECK: llvm.store %[[D0]], %[[F0]]
// CHECK: %[[D1:.*]] = builtin.unrealized_conversion_cast %[[OUT]] : memref<256x512xf32> to !llvm.struct
// CHECK: %[[F1:.*]] = llvm.getelementptr %[[CONTEXT]][0, 1]
// CHECK: llvm.store %[[D1]], %[[F1]]
// CHECK: %[[FN:.*]] = constant @scale_k0_parallel0 : (!llvm.ptr, index, index) -> ()
// CHECK: %[[N:.*]] = arith.constant 256 : index
// CHECK: call @gopt_parallel_for(%[[FN]], %[[CONTEXT]], %[[N]])
// CHECK: return %[[OUT]]
// CHECK-LABEL: func.func private @scale_k0_parallel0(
// CHECK-SAME: %[[CTX:.*]]: !llvm.ptr, %[[BEGIN:.*]]: index, %[[END:.*]]: index)
// CHECK: %[[P0:.*]] = llvm.getelementptr %[[CTX]][0, 0]
// CHECK: %[[L0:.*]] = llvm.load %[[P0]]
// CHECK: %[[A:.*]] = builtin.unrealized_conversion_cast %[[L0]] {{.*}} to memref<256x512xf32>
// CHECK: arith.constant dense<2.000000e+00> : vector<32xf32>
// CHECK: %[[P1:.*]] = llvm.getelementptr %[[CTX]][0, 1]
// CHECK: %[[L1:.*]] = llvm.load %[[P1]]
// CHECK: %[[B:.*]] = builtin.unrealized_conversion_cast %[[L1]] {{.*}} to memref<256x512xf32>
// CHECK: scf.for %[[I:.*]] = %[[BEGIN]] to %[[END]] step
// CHECK: %[[ROW:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK: scf.parallel (%[[COL:.*]]) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
// CHECK: vector.load %[[A]][%[[ROW]], %[[COL]]]
// CHECK: vector.store %{{.*}}, %[[B]][%[[ROW]], %[[COL]]]
func.func private @scale_k0(%in: memref<256x512xf32>) -> memref<256x512xf32>
    attributes {gopt.kernel = 0 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c256 = arith.constant 256 : index
  %c512 = arith.constant 512 : index
  %two = arith.constant dense<2.0> : vector<32xf32>
  %out = memref.alloc() {alignment = 64 : i64} : memref<256x512xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c256, %c512) step (%c1, %c32) {
    %v = vector.load %in[%i, %j] : memref<256x512xf32>, vector<32xf32>
    %w = arith.mulf %v, %two : vector<32xf32>
    vector.store %w, %out[%i, %j] : memref<256x512xf32>, vector<32xf32>
    scf.reduce
  }
  return %out : memref<256x512xf32>
}

// Leading dimensions are split until they give 128 iterations: of
// 4 x 64 x 8 x 256 the first two (4 alone would be too few), both recovered
// by division; the other two stay a loop nest inside the body.
// CHECK-LABEL: func.func private @copy3d_k5(
// CHECK: arith.constant 256 : index
// CHECK: call @gopt_parallel_for
// CHECK-LABEL: func.func private @copy3d_k5_parallel0(
// CHECK: scf.for %[[I3:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[C64:.*]] = arith.constant 64 : index
// CHECK: arith.remui %[[I3]], %[[C64]]
// CHECK: arith.divui %[[I3]], %[[C64]]
// CHECK: scf.parallel
func.func private @copy3d_k5(%in: memref<4x64x8x256xf32>, %out: memref<4x64x8x256xf32>)
    attributes {gopt.kernel = 5 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  scf.parallel (%i, %j, %k, %l) = (%c0, %c0, %c0, %c0) to (%c4, %c64, %c8, %c256) step (%c1, %c1, %c1, %c1) {
    %x = memref.load %in[%i, %j, %k, %l] : memref<4x64x8x256xf32>
    memref.store %x, %out[%i, %j, %k, %l] : memref<4x64x8x256xf32>
    scf.reduce
  }
  return
}

// A temporary that buffer loop hoisting moved out of the loop (nothing
// outside reads or writes it, only its free is there) is allocated by each
// chunk of the body instead, and freed there: shared, it would be a race.
// CHECK-LABEL: func.func private @row_sum_k1(
// CHECK-NOT: memref.alloc() : memref<256xf32>
// CHECK-NOT: memref.dealloc
// CHECK: call @gopt_parallel_for
// CHECK-LABEL: func.func private @row_sum_k1_parallel0(
// CHECK: %[[TMP:.*]] = memref.alloc() : memref<256xf32>
// CHECK: scf.for
// CHECK: memref.copy %{{.*}}, %[[TMP]]
// CHECK: memref.dealloc %[[TMP]]
// CHECK-NEXT: return
func.func private @row_sum_k1(%in: memref<512x256xf32>) -> memref<512xf32>
    attributes {gopt.kernel = 1 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %c512 = arith.constant 512 : index
  %zero = arith.constant 0.0 : f32
  %out = memref.alloc() : memref<512xf32>
  %tmp = memref.alloc() : memref<256xf32>
  scf.parallel (%i) = (%c0) to (%c512) step (%c1) {
    %row = memref.subview %in[%i, 0] [1, 256] [1, 1] : memref<512x256xf32> to memref<256xf32, strided<[1], offset: ?>>
    memref.copy %row, %tmp : memref<256xf32, strided<[1], offset: ?>> to memref<256xf32>
    %sum = scf.for %k = %c0 to %c256 step %c1 iter_args(%acc = %zero) -> f32 {
      %x = memref.load %tmp[%k] : memref<256xf32>
      %next = arith.addf %acc, %x : f32
      scf.yield %next : f32
    }
    memref.store %sum, %out[%i] : memref<512xf32>
    scf.reduce
  }
  memref.dealloc %tmp : memref<256xf32>
  return %out : memref<512xf32>
}

// Left alone: too little work (8 x 4 elements), a loop with dynamic bounds,
// a temporary reached through a view made outside the loop, and functions
// that are not kernels.
// CHECK-LABEL: func.func private @small_k2(
// CHECK: scf.parallel
// CHECK-NOT: gopt_parallel_for
func.func private @small_k2(%in: memref<8x4xf32>, %out: memref<8x4xf32>)
    attributes {gopt.kernel = 2 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c4) step (%c1, %c1) {
    %x = memref.load %in[%i, %j] : memref<8x4xf32>
    memref.store %x, %out[%i, %j] : memref<8x4xf32>
    scf.reduce
  }
  return
}

// CHECK-LABEL: func.func private @dynamic_k3(
// CHECK: scf.parallel
// CHECK-NOT: gopt_parallel_for
func.func private @dynamic_k3(%in: memref<?xf32>, %out: memref<?xf32>, %n: index)
    attributes {gopt.kernel = 3 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %in[%i] : memref<?xf32>
    memref.store %x, %out[%i] : memref<?xf32>
    scf.reduce
  }
  return
}

// CHECK-LABEL: func.func private @shared_view_k4(
// CHECK: scf.parallel
// CHECK-NOT: gopt_parallel_for
func.func private @shared_view_k4(%in: memref<512x256xf32>, %out: memref<512xf32>)
    attributes {gopt.kernel = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c512 = arith.constant 512 : index
  %tmp = memref.alloc() : memref<1x256xf32>
  %view = memref.collapse_shape %tmp [[0, 1]] : memref<1x256xf32> into memref<256xf32>
  scf.parallel (%i) = (%c0) to (%c512) step (%c1) {
    %row = memref.subview %in[%i, 0] [1, 256] [1, 1] : memref<512x256xf32> to memref<256xf32, strided<[1], offset: ?>>
    memref.copy %row, %view : memref<256xf32, strided<[1], offset: ?>> to memref<256xf32>
    %x = memref.load %view[%c0] : memref<256xf32>
    memref.store %x, %out[%i] : memref<512xf32>
    scf.reduce
  }
  memref.dealloc %tmp : memref<1x256xf32>
  return
}

// CHECK-LABEL: func.func @not_a_kernel(
// CHECK: scf.parallel
// CHECK-NOT: gopt_parallel_for
func.func @not_a_kernel(%in: memref<256x512xf32>, %out: memref<256x512xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %c512 = arith.constant 512 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c256, %c512) step (%c1, %c1) {
    %x = memref.load %in[%i, %j] : memref<256x512xf32>
    memref.store %x, %out[%i, %j] : memref<256x512xf32>
    scf.reduce
  }
  return
}
