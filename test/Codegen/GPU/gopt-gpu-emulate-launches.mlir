// RUN: gopt-opt %s -split-input-file --gopt-gpu-emulate-launches | FileCheck %s
// RUN: gopt-opt %s -split-input-file --gopt-gpu-emulate-launches=reverse-threads | FileCheck %s --check-prefix=REV

// One thread per element (gopt-gpu-map-kernels' first mapping): a loop
// over the 5 blocks, and in each a loop over the 256 threads that runs the
// whole body, guard included; the block's part of the index is computed
// once per block.
// CHECK-LABEL: func.func @elements(
// CHECK-SAME: attributes {gopt.emulated_launches = ["5 blocks of 256 threads"]}
// CHECK-NOT: gpu.launch
// CHECK: scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT: %[[BASE:.*]] = arith.muli %[[B]], %{{.*}} : index
// CHECK-NEXT: scf.for %[[T:.*]] = %[[C0:.*]] to %[[C256:.*]] step
// CHECK-NEXT: %[[I:.*]] = arith.addi %[[BASE]], %[[T]] : index
// CHECK-NEXT: %[[IN:.*]] = arith.cmpi ult, %[[I]], %{{.*}} : index
// CHECK-NEXT: scf.if %[[IN]] {
// CHECK: math.exp
// CHECK: memref.store
// REV-LABEL: func.func @elements(
// REV: %[[LAST:.*]] = arith.constant 255 : index
// REV: arith.muli
// REV-NEXT: scf.for %[[T:.*]] =
// REV-NEXT: %[[REVT:.*]] = arith.subi %[[LAST]], %[[T]] : index
// REV-NEXT: arith.addi %{{.*}}, %[[REVT]] : index
func.func @elements(%in: memref<1200xf32>, %out: memref<1200xf32>) {
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c256 = arith.constant 256 : index
  %c1200 = arith.constant 1200 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c5, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %c256 : index
    %i = arith.addi %base, %tx : index
    %inside = arith.cmpi ult, %i, %c1200 : index
    scf.if %inside {
      %x = memref.load %in[%i] : memref<1200xf32>
      %e = math.exp %x : f32
      memref.store %e, %out[%i] : memref<1200xf32>
    }
    gpu.terminator
  }
  return
}

// -----

// One block per row (a row sum, then each element divided by it): shared
// memory is a buffer the blocks reuse, allocated before their loop and
// freed after it, as is the buffer of the partial sums; the stretches
// between barriers are
// one loop over the threads each; the partial sums each thread leaves
// before the block reduction are kept per thread and added in thread
// order; the sum is the same for every thread of the block.
// CHECK-LABEL: func.func @row_tiles(
// CHECK-SAME: gopt.emulated_launches = ["4 blocks of 64 threads (4 B shared, 2 barriers, 1 block reduction)"]
// CHECK-NOT: gpu.
// CHECK-DAG: %[[PARTIALS:.*]] = memref.alloc() : memref<64xf32>
// CHECK-DAG: %[[SUM:.*]] = memref.alloc() : memref<1xf32>
// CHECK: scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT: scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[PART:.*]] = scf.for %{{.*}} = %[[T]] to %{{.*}} step %{{.*}} iter_args
// CHECK: memref.store %[[PART]], %[[PARTIALS]][%[[T]]] : memref<64xf32>
// CHECK: %[[FIRST:.*]] = memref.load %[[PARTIALS]][%{{.*}}] : memref<64xf32>
// CHECK: %[[TOTAL:.*]] = scf.for %[[U:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[FIRST]]) -> (f32) {
// CHECK-NEXT: %[[NEXT:.*]] = memref.load %[[PARTIALS]][%[[U]]] : memref<64xf32>
// CHECK-NEXT: %[[ADD:.*]] = arith.addf %[[ACC]], %[[NEXT]] : f32
// CHECK-NEXT: scf.yield %[[ADD]] : f32
// CHECK: scf.for %[[T2:.*]] = %{{.*}} to %{{.*}} step
// CHECK: arith.cmpi eq, %[[T2]]
// CHECK: memref.store %[[TOTAL]], %[[SUM]][
// CHECK: scf.for %[[T3:.*]] = %{{.*}} to %{{.*}} step
// CHECK: memref.load %[[SUM]]
// CHECK: arith.divf
// CHECK-DAG: memref.dealloc %[[PARTIALS]]
// CHECK-DAG: memref.dealloc %[[SUM]]
func.func @row_tiles(%in: memref<4x300xf32>, %out: memref<4x300xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c300 = arith.constant 300 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1)
             workgroup(%sum : memref<1xf32, #gpu.address_space<workgroup>>) {
    %part = scf.for %i = %tx to %c300 step %c64 iter_args(%acc = %zero) -> (f32) {
      %x = memref.load %in[%bx, %i] : memref<4x300xf32>
      %a = arith.addf %acc, %x : f32
      scf.yield %a : f32
    }
    %total = gpu.all_reduce add %part uniform {} : (f32) -> f32
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      memref.store %total, %sum[%c0] : memref<1xf32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    scf.for %i = %tx to %c300 step %c64 {
      %x = memref.load %in[%bx, %i] : memref<4x300xf32>
      %s = memref.load %sum[%c0] : memref<1xf32, #gpu.address_space<workgroup>>
      %d = arith.divf %x, %s : f32
      memref.store %d, %out[%bx, %i] : memref<4x300xf32>
    }
    gpu.barrier
    gpu.terminator
  }
  return
}

// -----

// (What each launch ran is recorded on its function, for gopt-run to print.)
// A loop over a tile's points whose body holds a block reduction has the
// same bounds on every thread: it runs once per block, its body in
// stretches (one max per point, thread 0 storing it).
// CHECK-LABEL: func.func @reduction_points(
// CHECK-SAME: gopt.emulated_launches = ["2 blocks of 32 threads (1 barrier, 1 block reduction)"]
// CHECK: scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step
// CHECK: scf.for %[[P:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT: scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step
// CHECK: memref.load %{{.*}}[%[[B]], %[[P]], %{{.*}}] : memref<2x3x40xf32>
// CHECK: arith.maximumf
// CHECK: scf.for {{.*}} iter_args
// CHECK: arith.maximumf
// CHECK: scf.for %[[T2:.*]] = %{{.*}} to %{{.*}} step
// CHECK: arith.cmpi eq, %[[T2]]
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[B]], %[[P]]] : memref<2x3xf32>
func.func @reduction_points(%in: memref<2x3x40xf32>, %out: memref<2x3xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c32 = arith.constant 32 : index
  %c40 = arith.constant 40 : index
  %ninf = arith.constant 0xFF800000 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    scf.for %p = %c0 to %c3 step %c1 {
      %part = scf.for %i = %tx to %c40 step %c32 iter_args(%acc = %ninf) -> (f32) {
        %x = memref.load %in[%bx, %p, %i] : memref<2x3x40xf32>
        %m = arith.maximumf %acc, %x : f32
        scf.yield %m : f32
      }
      %total = gpu.all_reduce maximumf %part uniform {} : (f32) -> f32
      %first = arith.cmpi eq, %tx, %c0 : index
      scf.if %first {
        memref.store %total, %out[%bx, %p] : memref<2x3xf32>
      }
    }
    gpu.barrier
    gpu.terminator
  }
  return
}

// -----

// A thread's private temporary (a tile's buffer, which gopt-gpu-map-kernels
// puts on the thread's stack) is one buffer for the launch, which each
// thread uses in turn: no stack allocation per block or thread.
// CHECK-LABEL: func.func @private_buffer(
// CHECK: %[[TMP:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT: scf.for
// CHECK-NOT: memref.alloca
// CHECK: memref.store %{{.*}}, %[[TMP]]
// CHECK: memref.load %[[TMP]]
// CHECK: memref.dealloc %[[TMP]]
func.func @private_buffer(%in: memref<64x4xf32>, %out: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %c32 : index
    %row = arith.addi %base, %tx : index
    %tmp = memref.alloca() : memref<4xf32>
    scf.for %j = %c0 to %c4 step %c1 {
      %x = memref.load %in[%row, %j] : memref<64x4xf32>
      %e = math.exp %x : f32
      memref.store %e, %tmp[%j] : memref<4xf32>
    }
    %sum = scf.for %j = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (f32) {
      %e = memref.load %tmp[%j] : memref<4xf32>
      %a = arith.addf %acc, %e : f32
      scf.yield %a : f32
    }
    memref.store %sum, %out[%row] : memref<64xf32>
    gpu.terminator
  }
  return
}
