// RUN: gopt-opt %s --gopt-gpu-stage-constants | FileCheck %s

// Each global a host function reads is copied once, at the top of the
// function, into a fresh buffer that replaces every read of it; reads inside
// a loop (a kernel tile) use the copy too.
// CHECK-LABEL: func.func @reads_twice(
// CHECK-NEXT: %[[W:.*]] = memref.get_global @w : memref<4xf32>
// CHECK-NEXT: %[[DW:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT: memref.copy %[[W]], %[[DW]] {gopt.host_to_device}
// CHECK-NEXT: %[[B:.*]] = memref.get_global @b : memref<2xf32>
// CHECK-NEXT: %[[DB:.*]] = memref.alloc() : memref<2xf32>
// CHECK-NEXT: memref.copy %[[B]], %[[DB]] {gopt.host_to_device}
// CHECK-NOT: memref.get_global
// CHECK: call @use(%[[DW]], %[[DW]], %[[DB]])
// CHECK: scf.parallel
// CHECK: memref.load %[[DB]]
memref.global "private" constant @w : memref<4xf32> = dense<1.0>
memref.global "private" constant @b : memref<2xf32> = dense<[1.0, 2.0]>
func.func private @use(memref<4xf32>, memref<4xf32>, memref<2xf32>)
func.func @reads_twice(%o: memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %w1 = memref.get_global @w : memref<4xf32>
  %w2 = memref.get_global @w : memref<4xf32>
  %b1 = memref.get_global @b : memref<2xf32>
  call @use(%w1, %w2, %b1) : (memref<4xf32>, memref<4xf32>, memref<2xf32>) -> ()
  scf.parallel (%i) = (%c0) to (%c2) step (%c1) {
    %b2 = memref.get_global @b : memref<2xf32>
    %x = memref.load %b2[%i] : memref<2xf32>
    memref.store %x, %o[%i] : memref<2xf32>
    scf.reduce
  }
  return
}
