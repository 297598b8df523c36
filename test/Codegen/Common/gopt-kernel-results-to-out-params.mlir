// RUN: gopt-opt %s --gopt-kernel-results-to-out-params | FileCheck %s

// Kernel results that are the kernel's own static allocations become
// trailing out-parameters, allocated (64-byte aligned) at the call site.
func.func private @k0_exp(%a: memref<4xf32>) -> memref<4xf32> attributes {gopt.kernel = 0 : i64} {
  %m = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
  linalg.exp ins(%a : memref<4xf32>) outs(%m : memref<4xf32>)
  return %m : memref<4xf32>
}

// A kernel returning a view of its argument keeps returning it.
func.func private @k1_reshape(%a: memref<4xf32>) -> memref<2x2xf32> attributes {gopt.kernel = 1 : i64} {
  %r = memref.expand_shape %a [[0, 1]] output_shape [2, 2] : memref<4xf32> into memref<2x2xf32>
  return %r : memref<2x2xf32>
}

// Not a kernel: left alone.
func.func private @helper() -> memref<4xf32> {
  %m = memref.alloc() : memref<4xf32>
  return %m : memref<4xf32>
}

// Dynamic shape: the caller could not allocate it without the size.
func.func private @k2_dynamic(%a: memref<?xf32>) -> memref<?xf32> attributes {gopt.kernel = 2 : i64} {
  %c0 = arith.constant 0 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  %m = memref.alloc(%n) : memref<?xf32>
  return %m : memref<?xf32>
}

// One result its own allocation, the other its argument: the caller could
// not pass a buffer for the second, so neither moves.
func.func private @k3_mixed(%a: memref<4xf32>) -> (memref<4xf32>, memref<4xf32>) attributes {gopt.kernel = 3 : i64} {
  %m = memref.alloc() : memref<4xf32>
  return %m, %a : memref<4xf32>, memref<4xf32>
}

func.func @main(%x: memref<4xf32>, %y: memref<?xf32>) -> (memref<2x2xf32>, memref<4xf32>, memref<?xf32>, memref<4xf32>) {
  %e = call @k0_exp(%x) : (memref<4xf32>) -> memref<4xf32>
  %r = call @k1_reshape(%e) : (memref<4xf32>) -> memref<2x2xf32>
  %h = call @helper() : () -> memref<4xf32>
  %d = call @k2_dynamic(%y) : (memref<?xf32>) -> memref<?xf32>
  %m:2 = call @k3_mixed(%x) : (memref<4xf32>) -> (memref<4xf32>, memref<4xf32>)
  return %r, %h, %d, %m#0 : memref<2x2xf32>, memref<4xf32>, memref<?xf32>, memref<4xf32>
}


// CHECK-LABEL: func.func private @k0_exp(
// CHECK-SAME: %[[IN:.*]]: memref<4xf32>, %[[OUT:.*]]: memref<4xf32>)
// CHECK-SAME: attributes {gopt.kernel = 0 : i64}
// CHECK-NOT: memref.alloc
// CHECK: linalg.exp ins(%[[IN]] : memref<4xf32>) outs(%[[OUT]] : memref<4xf32>)
// CHECK-NEXT: return{{$}}
// CHECK-LABEL: func.func private @k1_reshape(%{{.*}}: memref<4xf32>) -> memref<2x2xf32>
// CHECK-LABEL: func.func private @helper() -> memref<4xf32>
// CHECK-NEXT: memref.alloc()
// CHECK-LABEL: func.func private @k2_dynamic(%{{.*}}: memref<?xf32>) -> memref<?xf32>
// CHECK: memref.alloc(%
// CHECK-LABEL: func.func private @k3_mixed(%{{.*}}: memref<4xf32>) -> (memref<4xf32>, memref<4xf32>)
// CHECK-NEXT: memref.alloc()
// CHECK-LABEL: func.func @main(
// CHECK-NEXT: %[[BUF:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT: call @k0_exp(%arg0, %[[BUF]]) : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK-NEXT: call @k1_reshape(%[[BUF]])
// CHECK-NEXT: call @helper()
// CHECK-NEXT: call @k2_dynamic(%arg1)
// CHECK-NEXT: call @k3_mixed(%arg0)
