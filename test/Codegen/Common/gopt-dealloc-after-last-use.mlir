// RUN: gopt-opt %s --pass-pipeline='builtin.module(gopt-dealloc-after-last-use)' | FileCheck %s

// Each buffer leaves the end-of-block dealloc for one of its own right after
// the last use of anything that may alias it: %0's after the call that reads
// its view %1 (@view returns its argument); %2's after its last reader. The
// two results of @twice are one allocation, so they stay in the block-end
// dealloc, which frees an allocation once; the returned %3 is not freed.

func.func private @fresh(%a: memref<4xf32>) -> (memref<4xf32>, i1) {
  %true = arith.constant true
  %m = memref.alloc() : memref<4xf32>
  memref.copy %a, %m : memref<4xf32> to memref<4xf32>
  return %m, %true : memref<4xf32>, i1
}
func.func private @view(%a: memref<4xf32>) -> (memref<4xf32>, i1) {
  %false = arith.constant false
  return %a, %false : memref<4xf32>, i1
}
func.func private @twice() -> (memref<4xf32>, memref<4xf32>, i1, i1) {
  %true = arith.constant true
  %false = arith.constant false
  %m = memref.alloc() : memref<4xf32>
  return %m, %m, %true, %false : memref<4xf32>, memref<4xf32>, i1, i1
}

// CHECK-LABEL: func.func @main
// CHECK: %[[R0:.*]]:2 = call @fresh(%arg0)
// CHECK-NEXT: %[[R1:.*]]:2 = call @view(%[[R0]]#0)
// CHECK-NEXT: %[[R2:.*]]:2 = call @fresh(%[[R1]]#0)
// CHECK-NEXT: %[[B0:.*]], %{{.*}}, %{{.*}}, %{{.*}} = memref.extract_strided_metadata %[[R0]]#0
// CHECK-NEXT: bufferization.dealloc (%[[B0]] : memref<f32>) if (%[[R0]]#1)
// CHECK-NEXT: %[[R3:.*]]:2 = call @fresh(%[[R2]]#0)
// CHECK-NEXT: %[[B2:.*]], %{{.*}}, %{{.*}}, %{{.*}} = memref.extract_strided_metadata %[[R2]]#0
// CHECK-NEXT: bufferization.dealloc (%[[B2]] : memref<f32>) if (%[[R2]]#1)
// CHECK-NEXT: %[[R4:.*]]:4 = call @twice()
// CHECK: bufferization.dealloc (%{{.*}}, %{{.*}} : memref<f32>, memref<f32>) if (%[[R4]]#2, %[[R4]]#3) retain (%[[R3]]#0 : memref<4xf32>)
// CHECK-NEXT: return %[[R3]]#0
func.func @main(%x: memref<4xf32>) -> memref<4xf32> {
  %c0 = arith.constant 0 : index
  %0:2 = call @fresh(%x) : (memref<4xf32>) -> (memref<4xf32>, i1)
  %1:2 = call @view(%0#0) : (memref<4xf32>) -> (memref<4xf32>, i1)
  %2:2 = call @fresh(%1#0) : (memref<4xf32>) -> (memref<4xf32>, i1)
  %3:2 = call @fresh(%2#0) : (memref<4xf32>) -> (memref<4xf32>, i1)
  %4:4 = call @twice() : () -> (memref<4xf32>, memref<4xf32>, i1, i1)
  %v = memref.load %4#1[%c0] : memref<4xf32>
  memref.store %v, %3#0[%c0] : memref<4xf32>
  %b0, %o0, %s0, %t0 = memref.extract_strided_metadata %0#0 : memref<4xf32> -> memref<f32>, index, index, index
  %b2, %o2, %s2, %t2 = memref.extract_strided_metadata %2#0 : memref<4xf32> -> memref<f32>, index, index, index
  %b4, %o4, %s4, %t4 = memref.extract_strided_metadata %4#0 : memref<4xf32> -> memref<f32>, index, index, index
  %b5, %o5, %s5, %t5 = memref.extract_strided_metadata %4#1 : memref<4xf32> -> memref<f32>, index, index, index
  %r = bufferization.dealloc (%b0, %b2, %b4, %b5 : memref<f32>, memref<f32>, memref<f32>, memref<f32>) if (%0#1, %2#1, %4#2, %4#3) retain (%3#0 : memref<4xf32>)
  return %3#0 : memref<4xf32>
}
