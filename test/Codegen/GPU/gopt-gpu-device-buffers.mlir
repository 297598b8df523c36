// RUN: gopt-opt %s -split-input-file -verify-diagnostics --gopt-gpu-device-buffers | FileCheck %s

// Buffers a kernel writes, constants are copied into, or the function
// returns are device memory; the deallocation's bookkeeping (only host code
// reads and writes it) stays in host memory.
// CHECK-LABEL: func.func @buffers(
// CHECK: %[[CONST:.*]] = gpu.alloc () : memref<2xf32>
// CHECK: gpu.memcpy %[[CONST]], %{{.*}} : memref<2xf32>, memref<2xf32>
// CHECK: %[[OUT:.*]] = gpu.alloc () : memref<16xf32>
// CHECK: %[[TMP:.*]] = gpu.alloc () : memref<16xf32>
// CHECK: %[[BOOK:.*]] = memref.alloc() : memref<2xindex>
// CHECK: gpu.launch
// CHECK: memref.store %{{.*}}, %[[BOOK]]
// CHECK: gpu.dealloc %[[TMP]] : memref<16xf32>
// CHECK: gpu.dealloc %[[CONST]] : memref<2xf32>
// CHECK: memref.dealloc %[[BOOK]] : memref<2xindex>
// CHECK: return %[[OUT]]
memref.global "private" constant @c : memref<2xf32> = dense<[1.0, 2.0]>
func.func @buffers(%a: memref<16xf32>) -> memref<16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %g = memref.get_global @c : memref<2xf32>
  %d = memref.alloc() : memref<2xf32>
  memref.copy %g, %d {gopt.host_to_device} : memref<2xf32> to memref<2xf32>
  %o = memref.alloc() : memref<16xf32>
  %t = memref.alloc() : memref<16xf32>
  %book = memref.alloc() : memref<2xindex>
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1) {
    %e = memref.load %a[%tx] : memref<16xf32>
    %k = memref.load %d[%tx] : memref<2xf32>
    memref.store %e, %t[%tx] : memref<16xf32>
    gpu.terminator
  }
  memref.store %c0, %book[%c0] : memref<2xindex>
  memref.dealloc %t : memref<16xf32>
  memref.dealloc %d : memref<2xf32>
  memref.dealloc %book : memref<2xindex>
  return %o : memref<16xf32>
}

// -----

func.func @host_reads_device(%a: memref<16xf32>) -> memref<16xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %o = memref.alloc() : memref<16xf32>
  // expected-error @+1 {{gopt-gpu-device-buffers: host code would read or write device memory; only kernels may}}
  memref.store %zero, %o[%c0] : memref<16xf32>
  return %o : memref<16xf32>
}

// -----

func.func @host_copy(%a: memref<16xf32>) -> memref<16xf32> {
  %o = memref.alloc() : memref<16xf32>
  // expected-error @+1 {{gopt-gpu-device-buffers: host code copies device buffers element by element; copies belong in kernels (gopt-gpu-map-kernels)}}
  memref.copy %a, %o : memref<16xf32> to memref<16xf32>
  return %o : memref<16xf32>
}

// -----

func.func @host_loop(%a: memref<16xf32>) {
  %cst = arith.constant 0.0 : f32
  // expected-error @+1 {{gopt-gpu-device-buffers: a computation left outside any kernel launch}}
  linalg.fill ins(%cst : f32) outs(%a : memref<16xf32>)
  return
}
