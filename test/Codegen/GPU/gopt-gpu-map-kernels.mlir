// RUN: gopt-opt %s -split-input-file -verify-diagnostics --gopt-gpu-map-kernels --canonicalize | FileCheck %s
// RUN: gopt-opt %s -split-input-file -verify-diagnostics --gopt-gpu-map-kernels=block-size=64 --canonicalize | FileCheck %s --check-prefix=B64
// RUN: gopt-opt %s -split-input-file -verify-diagnostics --gopt-gpu-map-kernels=elements-per-thread=4 --canonicalize | FileCheck %s --check-prefix=FOUR

// A kernel's tile loop (4x300 tiles) becomes one launch of ceil(1200/256) = 5
// blocks of 256 threads; each thread takes tile b*256+t when it is below
// 1200, the innermost dimension fastest (t -> column), and its temporary
// becomes thread-private.
// CHECK-LABEL: func.func @tiles(
// CHECK-DAG: %[[C5:.*]] = arith.constant 5 : index
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK-DAG: %[[C300:.*]] = arith.constant 300 : index
// CHECK-DAG: %[[C1200:.*]] = arith.constant 1200 : index
// CHECK-NOT: scf.parallel
// CHECK: gpu.launch blocks(%[[B:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C5]], {{.*}} threads(%[[T:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C256]],
// CHECK-NEXT: %[[PRIV:.*]] = memref.alloca() : memref<1xf32>
// CHECK-NEXT: %[[BASE:.*]] = arith.muli %[[B]], %[[C256]] : index
// CHECK-NEXT: %[[LIN:.*]] = arith.addi %[[BASE]], %[[T]] : index
// CHECK-NEXT: %[[IN:.*]] = arith.cmpi ult, %[[LIN]], %[[C1200]] : index
// CHECK-NEXT: scf.if %[[IN]] {
// CHECK-NEXT: %[[J:.*]] = arith.remui %[[LIN]], %[[C300]] : index
// CHECK-NEXT: %[[I:.*]] = arith.divui %[[LIN]], %[[C300]] : index
// CHECK-NEXT: memref.load %{{.*}}[%[[I]], %[[J]]]
// CHECK: memref.store %{{.*}}, %[[PRIV]]
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[I]], %[[J]]]
// CHECK-NOT: memref.alloc()
// CHECK-NOT: memref.dealloc
// CHECK: gpu.terminator
// B64-LABEL: func.func @tiles(
// B64-DAG: %[[C19:.*]] = arith.constant 19 : index
// B64-DAG: %[[C64:.*]] = arith.constant 64 : index
// B64: gpu.launch {{.*}} in (%{{.*}} = %[[C19]], {{.*}} threads({{.*}}) in (%{{.*}} = %[[C64]],
func.func @tiles(%in: memref<4x300xf32>, %out: memref<4x300xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c300 = arith.constant 300 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c300) step (%c1, %c1) {
    %t = memref.alloc() : memref<1xf32>
    %x = memref.load %in[%i, %j] : memref<4x300xf32>
    memref.store %x, %t[%c0] : memref<1xf32>
    %y = memref.load %t[%c0] : memref<1xf32>
    memref.store %y, %out[%i, %j] : memref<4x300xf32>
    memref.dealloc %t : memref<1xf32>
    scf.reduce
  }
  return
}

// -----

// Untiled linalg ops: a column sum (reduction over the outer dimension)
// gets its parallel dimension outermost, one thread per column looping over
// the rows; a whole reduction runs in one thread.
// CHECK-LABEL: func.func @untiled(
// CHECK: gpu.launch
// CHECK: arith.cmpi ult, %{{.*}}, %c16 : index
// CHECK: scf.for %{{.*}} = %c0 to %c8 step %c1 {
// CHECK: gpu.terminator
// CHECK: gpu.launch
// CHECK: arith.cmpi ult, %{{.*}}, %c1 : index
// CHECK: linalg.reduce
// CHECK: gpu.terminator
// CHECK-NOT: linalg.
// CHECK: return
func.func @untiled(%a: memref<8x16xf32>, %b: memref<16xf32>, %s: memref<f32>) {
  linalg.reduce ins(%a : memref<8x16xf32>) outs(%b : memref<16xf32>) dimensions = [0]
    (%x: f32, %acc: f32) {
      %r = arith.addf %x, %acc : f32
      linalg.yield %r : f32
    }
  linalg.reduce ins(%b : memref<16xf32>) outs(%s : memref<f32>) dimensions = [0]
    (%x: f32, %acc: f32) {
      %r = arith.addf %x, %acc : f32
      linalg.yield %r : f32
    }
  return
}

// -----

// A copy host code would make (a returned clone) is a kernel too; a staged
// constant's copy is left to gopt-gpu-device-buffers.
// CHECK-LABEL: func.func @copies(
// CHECK: memref.copy %{{.*}}, %{{.*}} {gopt.host_to_device}
// CHECK: gpu.launch
// CHECK: memref.load %arg0
// CHECK: memref.store
// CHECK: gpu.terminator
// CHECK-NOT: memref.copy
// CHECK: return
memref.global "private" constant @c : memref<2xf32> = dense<[1.0, 2.0]>
func.func @copies(%a: memref<8x16xf32>) -> (memref<8x16xf32>, memref<2xf32>) {
  %g = memref.get_global @c : memref<2xf32>
  %d = memref.alloc() : memref<2xf32>
  memref.copy %g, %d {gopt.host_to_device} : memref<2xf32> to memref<2xf32>
  %o = memref.alloc() : memref<8x16xf32>
  memref.copy %a, %o : memref<8x16xf32> to memref<8x16xf32>
  return %o, %d : memref<8x16xf32>, memref<2xf32>
}

// -----

func.func @dynamic_tile(%n: index, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    // expected-error @+1 {{gopt-gpu-map-kernels: a kernel tile allocates a buffer of dynamic shape; GPU kernels need static shapes}}
    %t = memref.alloc(%n) : memref<?xf32>
    memref.dealloc %t : memref<?xf32>
    scf.reduce
  }
  return
}

// -----

// A tile that reduces a row of 300 (a softmax's max, exp, sum, divide) runs
// one tile per block: 64 blocks of 256 threads (64 at block-size=64), no
// bounds guard. Each op is a loop from the thread's id strided by the
// block; reductions combine per-thread partials (from the neutral element)
// with gpu.all_reduce and thread 0 stores; temporaries are shared memory;
// a barrier follows each op. The input row, which two ops read, is copied
// into shared memory once, before the first of them.
// CHECK-LABEL: func.func @row_tiles(
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK-DAG: %[[C300:.*]] = arith.constant 300 : index
// CHECK-DAG: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: gpu.launch blocks(%[[B:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C64]], {{.*}} threads(%[[T:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C256]], {{.*}} workgroup(%[[MAX:.*]] : memref<1xf32, #gpu.address_space<workgroup>>, %[[ROW:.*]] : memref<1x300xf32, #gpu.address_space<workgroup>>, %[[EXP:.*]] : memref<1x300xf32, #gpu.address_space<workgroup>>, %[[SUM:.*]] : memref<1xf32, #gpu.address_space<workgroup>>)
// CHECK-NOT: scf.if %{{.*}} {
// CHECK: scf.for %{{.*}} = %[[T]] to %{{.*}} step %[[C256]]
// CHECK: memref.store %{{.*}}, %[[MAX]]
// CHECK: gpu.barrier
// CHECK: scf.for %{{.*}} = %[[T]] to %[[C300]] step %[[C256]]
// CHECK: memref.load %{{.*}} : memref<1x300xf32, strided<[300, 1], offset: ?>>
// CHECK-NEXT: memref.store %{{.*}}, %[[ROW]]
// CHECK: gpu.barrier
// CHECK: %[[PART:.*]] = scf.for %[[I:.*]] = %[[T]] to %[[C300]] step %[[C256]] iter_args(%[[ACC:.*]] = %[[NEGINF]]) -> (f32)
// CHECK: memref.load %[[ROW]]
// CHECK: arith.maximumf
// CHECK: %[[TOTAL:.*]] = gpu.all_reduce maximumf %[[PART]] uniform
// CHECK: scf.if
// CHECK: memref.load %[[MAX]]
// CHECK: arith.maximumf
// CHECK: memref.store %{{.*}}, %[[MAX]]
// CHECK: gpu.barrier
// CHECK: memref.load %[[ROW]]
// CHECK: math.exp
// CHECK: memref.store %{{.*}}, %[[EXP]]
// CHECK: gpu.barrier
// CHECK: gpu.all_reduce add
// CHECK: gpu.barrier
// CHECK: arith.divf
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : memref<1x300xf32, strided<[300, 1], offset: ?>>
// CHECK: gpu.barrier
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.dealloc
// CHECK: gpu.terminator
// B64-LABEL: func.func @row_tiles(
// B64: gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c64,
#row = affine_map<(d0, d1) -> (d0, d1)>
#red = affine_map<(d0, d1) -> (d0)>
func.func @row_tiles(%in: memref<64x300xf32>, %out: memref<64x300xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant -0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    %row = memref.subview %in[%i, 0] [1, 300] [1, 1] : memref<64x300xf32> to memref<1x300xf32, strided<[300, 1], offset: ?>>
    %max = memref.alloc() : memref<1xf32>
    linalg.fill ins(%ninf : f32) outs(%max : memref<1xf32>)
    linalg.generic {indexing_maps = [#row, #red], iterator_types = ["parallel", "reduction"]} ins(%row : memref<1x300xf32, strided<[300, 1], offset: ?>>) outs(%max : memref<1xf32>) {
    ^bb0(%x: f32, %m: f32):
      %r = arith.maximumf %x, %m : f32
      linalg.yield %r : f32
    }
    %exp = memref.alloc() : memref<1x300xf32>
    linalg.generic {indexing_maps = [#row, #red, #row], iterator_types = ["parallel", "parallel"]} ins(%row, %max : memref<1x300xf32, strided<[300, 1], offset: ?>>, memref<1xf32>) outs(%exp : memref<1x300xf32>) {
    ^bb0(%x: f32, %m: f32, %o: f32):
      %d = arith.subf %x, %m : f32
      %e = math.exp %d : f32
      linalg.yield %e : f32
    }
    %sum = memref.alloc() : memref<1xf32>
    linalg.fill ins(%zero : f32) outs(%sum : memref<1xf32>)
    linalg.generic {indexing_maps = [#row, #red], iterator_types = ["parallel", "reduction"]} ins(%exp : memref<1x300xf32>) outs(%sum : memref<1xf32>) {
    ^bb0(%x: f32, %s: f32):
      %r = arith.addf %x, %s : f32
      linalg.yield %r : f32
    }
    %dst = memref.subview %out[%i, 0] [1, 300] [1, 1] : memref<64x300xf32> to memref<1x300xf32, strided<[300, 1], offset: ?>>
    linalg.generic {indexing_maps = [#row, #red, #row], iterator_types = ["parallel", "parallel"]} ins(%exp, %sum : memref<1x300xf32>, memref<1xf32>) outs(%dst : memref<1x300xf32, strided<[300, 1], offset: ?>>) {
    ^bb0(%x: f32, %s: f32, %o: f32):
      %r = arith.divf %x, %s : f32
      linalg.yield %r : f32
    }
    memref.dealloc %max : memref<1xf32>
    memref.dealloc %exp : memref<1x300xf32>
    memref.dealloc %sum : memref<1xf32>
    scf.reduce
  }
  return
}

// -----

// 4x512 = 2048 tiles, a multiple of 4 elements per thread times 256
// threads: with elements-per-thread=4, 2 blocks, each thread runs 4
// unguarded copies of the body, at tiles (b*4 + j)*256 + t (coalesced in
// each copy). By default, one guarded copy in 8 blocks.
// CHECK-LABEL: func.func @elements_per_thread(
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %[[C8]],
// CHECK: scf.if
// CHECK-COUNT-1: memref.store
// CHECK-NOT: memref.store
// FOUR-LABEL: func.func @elements_per_thread(
// FOUR-DAG: %[[C2:.*]] = arith.constant 2 : index
// FOUR: gpu.launch blocks(%[[B:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C2]], {{.*}} threads(%[[T:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c256,
// FOUR-NOT: scf.if
// FOUR-COUNT-4: memref.store
// FOUR-NOT: memref.store
// FOUR: gpu.terminator
func.func @elements_per_thread(%in: memref<4x512xf32>, %out: memref<4x512xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c512 = arith.constant 512 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c512) step (%c1, %c1) {
    %x = memref.load %in[%i, %j] : memref<4x512xf32>
    %y = arith.addf %x, %x : f32
    memref.store %y, %out[%i, %j] : memref<4x512xf32>
    scf.reduce
  }
  return
}

// -----

// A row the tile also writes (in place) is not copied into shared memory:
// the copy would go stale. Only the three temporaries are shared.
// CHECK-LABEL: func.func @row_written_in_place(
// CHECK: gpu.launch {{.*}} workgroup(%{{.*}} : memref<1xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<1x300xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<1xf32, #gpu.address_space<workgroup>>) {
#row2 = affine_map<(d0, d1) -> (d0, d1)>
#red2 = affine_map<(d0, d1) -> (d0)>
func.func @row_written_in_place(%buf: memref<64x300xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant -0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    %row = memref.subview %buf[%i, 0] [1, 300] [1, 1] : memref<64x300xf32> to memref<1x300xf32, strided<[300, 1], offset: ?>>
    %max = memref.alloc() : memref<1xf32>
    linalg.fill ins(%ninf : f32) outs(%max : memref<1xf32>)
    linalg.generic {indexing_maps = [#row2, #red2], iterator_types = ["parallel", "reduction"]} ins(%row : memref<1x300xf32, strided<[300, 1], offset: ?>>) outs(%max : memref<1xf32>) {
    ^bb0(%x: f32, %m: f32):
      %r = arith.maximumf %x, %m : f32
      linalg.yield %r : f32
    }
    %exp = memref.alloc() : memref<1x300xf32>
    linalg.generic {indexing_maps = [#row2, #red2, #row2], iterator_types = ["parallel", "parallel"]} ins(%row, %max : memref<1x300xf32, strided<[300, 1], offset: ?>>, memref<1xf32>) outs(%exp : memref<1x300xf32>) {
    ^bb0(%x: f32, %m: f32, %o: f32):
      %d = arith.subf %x, %m : f32
      %e = math.exp %d : f32
      linalg.yield %e : f32
    }
    %sum = memref.alloc() : memref<1xf32>
    linalg.fill ins(%zero : f32) outs(%sum : memref<1xf32>)
    linalg.generic {indexing_maps = [#row2, #red2], iterator_types = ["parallel", "reduction"]} ins(%exp : memref<1x300xf32>) outs(%sum : memref<1xf32>) {
    ^bb0(%x: f32, %s: f32):
      %r = arith.addf %x, %s : f32
      linalg.yield %r : f32
    }
    linalg.generic {indexing_maps = [#row2, #red2, #row2], iterator_types = ["parallel", "parallel"]} ins(%exp, %sum : memref<1x300xf32>, memref<1xf32>) outs(%row : memref<1x300xf32, strided<[300, 1], offset: ?>>) {
    ^bb0(%x: f32, %s: f32, %o: f32):
      %r = arith.divf %x, %s : f32
      linalg.yield %r : f32
    }
    memref.dealloc %max : memref<1xf32>
    memref.dealloc %exp : memref<1x300xf32>
    memref.dealloc %sum : memref<1xf32>
    scf.reduce
  }
  return
}
