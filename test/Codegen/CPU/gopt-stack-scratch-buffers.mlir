// RUN: gopt-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(gopt-stack-scratch-buffers))' | FileCheck %s
// RUN: gopt-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(gopt-stack-scratch-buffers{max-bytes=3}))' | FileCheck %s --check-prefix=SMALL
// RUN: gopt-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(gopt-stack-scratch-buffers{max-function-bytes=4}))' | FileCheck %s --check-prefix=BUDGET

// A reduction's accumulator, allocated, read, written and freed per
// iteration: one stack buffer at the start of the kernel, no free.
// CHECK-LABEL: func.func private @accumulator
// CHECK-NEXT: %[[ACC:.*]] = memref.alloca() {alignment = 64 : i64} : memref<1x1xf32>
// CHECK-NOT: memref.alloc()
// CHECK-NOT: memref.dealloc
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %[[ACC]]
// CHECK: memref.load %[[ACC]]
// SMALL-LABEL: func.func private @accumulator
// SMALL: memref.alloc()
// SMALL: memref.dealloc
// BUDGET-LABEL: func.func private @accumulator
// BUDGET: memref.alloca()
func.func private @accumulator(%x: memref<8x4xf32>, %y: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c8 step %c1 {
    %acc = memref.alloc() {alignment = 64 : i64} : memref<1x1xf32>
    memref.store %zero, %acc[%c0, %c0] : memref<1x1xf32>
    scf.for %j = %c0 to %c4 step %c1 {
      %v = memref.load %x[%i, %j] : memref<8x4xf32>
      %a = memref.load %acc[%c0, %c0] : memref<1x1xf32>
      %s = arith.addf %a, %v : f32
      memref.store %s, %acc[%c0, %c0] : memref<1x1xf32>
    }
    %r = memref.load %acc[%c0, %c0] : memref<1x1xf32>
    memref.store %r, %y[%i] : memref<8xf32>
    memref.dealloc %acc : memref<1x1xf32>
  }
  return
}

// -----

// Views, vector accesses and copies keep the buffer in the function.
// CHECK-LABEL: func.func private @views
// CHECK-NEXT: memref.alloca() {alignment = 64 : i64} : memref<4x8xf32>
// CHECK-NOT: memref.dealloc
func.func private @views(%x: memref<4x8xf32>, %v: vector<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %buf = memref.alloc() {alignment = 64 : i64} : memref<4x8xf32>
  %row = memref.subview %buf[1, 0] [1, 8] [1, 1] : memref<4x8xf32> to memref<8xf32, strided<[1], offset: 8>>
  vector.store %v, %row[%c0] : memref<8xf32, strided<[1], offset: 8>>, vector<8xf32>
  %w = vector.load %buf[%c1, %c0] : memref<4x8xf32>, vector<8xf32>
  vector.store %w, %x[%c0, %c0] : memref<4x8xf32>, vector<8xf32>
  memref.copy %buf, %x : memref<4x8xf32> to memref<4x8xf32>
  memref.dealloc %buf : memref<4x8xf32>
  return
}

// -----

// Returned, passed to a call, too large, dynamically sized, or in the
// entry: left as they are.
// CHECK-LABEL: func.func private @escapes
// CHECK-NOT: memref.alloca
// CHECK: memref.alloc() : memref<4xf32>
// CHECK: memref.alloc() : memref<4xf32>
// CHECK: memref.alloc() : memref<8192xf32>
// CHECK: memref.alloc(%{{.*}}) : memref<?xf32>
func.func private @use(memref<4xf32>)
func.func private @escapes(%n: index) -> memref<4xf32> {
  %returned = memref.alloc() : memref<4xf32>
  %called = memref.alloc() : memref<4xf32>
  call @use(%called) : (memref<4xf32>) -> ()
  %large = memref.alloc() : memref<8192xf32>
  memref.dealloc %large : memref<8192xf32>
  %dynamic = memref.alloc(%n) : memref<?xf32>
  memref.dealloc %dynamic : memref<?xf32>
  return %returned : memref<4xf32>
}
// CHECK-LABEL: func.func @entry
// CHECK: memref.alloc() : memref<4xf32>
func.func @entry() {
  %scratch = memref.alloc() : memref<4xf32>
  memref.dealloc %scratch : memref<4xf32>
  return
}

// -----

// Within the function's budget (4 bytes with max-function-bytes=4): the
// first buffer moves, the second stays.
// BUDGET-LABEL: func.func private @two
// BUDGET: memref.alloca() : memref<1xf32>
// BUDGET: memref.alloc() : memref<1xf32>
func.func private @two(%x: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<1xf32>
  %b = memref.alloc() : memref<1xf32>
  %v = memref.load %a[%c0] : memref<1xf32>
  memref.store %v, %b[%c0] : memref<1xf32>
  memref.copy %b, %x : memref<1xf32> to memref<1xf32>
  memref.dealloc %a : memref<1xf32>
  memref.dealloc %b : memref<1xf32>
  return
}
