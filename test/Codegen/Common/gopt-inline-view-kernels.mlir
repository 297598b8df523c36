// RUN: gopt-opt %s --gopt-inline-view-kernels | FileCheck %s

// A reshape kernel's call becomes its view in the caller; the kernel stays,
// uncalled. Kernels that compute, functions that are not kernels, and
// kernels with effects are called as before.

func.func private @k0_reshape(%a: memref<8xf32>) -> memref<2x4xf32> attributes {gopt.kernel = 0 : i64} {
  %r = memref.expand_shape %a [[0, 1]] output_shape [2, 4] : memref<8xf32> into memref<2x4xf32>
  return %r : memref<2x4xf32>
}

func.func private @k1_exp(%a: memref<2x4xf32>, %out: memref<2x4xf32>) attributes {gopt.kernel = 1 : i64} {
  linalg.exp ins(%a : memref<2x4xf32>) outs(%out : memref<2x4xf32>)
  return
}

// Allocates and copies: not a view.
func.func private @k2_copy(%a: memref<8xf32>) -> memref<8xf32> attributes {gopt.kernel = 2 : i64} {
  %m = memref.alloc() : memref<8xf32>
  memref.copy %a, %m : memref<8xf32> to memref<8xf32>
  return %m : memref<8xf32>
}

// A view, but not a kernel.
func.func private @helper(%a: memref<8xf32>) -> memref<2x4xf32> {
  %r = memref.expand_shape %a [[0, 1]] output_shape [2, 4] : memref<8xf32> into memref<2x4xf32>
  return %r : memref<2x4xf32>
}

// CHECK-LABEL: func.func private @k0_reshape(
// CHECK-NEXT: memref.expand_shape
// CHECK-LABEL: func.func @main(
// CHECK-SAME: %[[X:.*]]: memref<8xf32>
// CHECK-NEXT: %[[BUF:.*]] = memref.alloc()
// CHECK-NEXT: %[[VIEW:.*]] = memref.expand_shape %[[X]] {{\[\[}}0, 1]] output_shape [2, 4]
// CHECK-NEXT: call @k1_exp(%[[VIEW]], %[[BUF]])
// CHECK-NEXT: call @k2_copy(%[[X]])
// CHECK-NEXT: call @helper(%[[X]])
// CHECK-NOT: call @k0_reshape
func.func @main(%x: memref<8xf32>) -> (memref<2x4xf32>, memref<8xf32>, memref<2x4xf32>) {
  %buf = memref.alloc() : memref<2x4xf32>
  %v = call @k0_reshape(%x) : (memref<8xf32>) -> memref<2x4xf32>
  call @k1_exp(%v, %buf) : (memref<2x4xf32>, memref<2x4xf32>) -> ()
  %c = call @k2_copy(%x) : (memref<8xf32>) -> memref<8xf32>
  %h = call @helper(%x) : (memref<8xf32>) -> memref<2x4xf32>
  return %buf, %c, %h : memref<2x4xf32>, memref<8xf32>, memref<2x4xf32>
}
