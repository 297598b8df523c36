// RUN: gopt-opt %s -split-input-file --gopt-gpu-hoist-loads | FileCheck %s

// Loads of a buffer the launch only reads move above the stores of the
// earlier copies (with the index arithmetic they need); the load of the
// buffer it writes, and the stores, stay in order.
// CHECK-LABEL: func.func @two_copies(
// CHECK: %[[OUT:.*]] = memref.alloc
// CHECK: gpu.launch
// CHECK: %[[A:.*]] = memref.load %arg0[%{{.*}}] : memref<1024xf32>
// CHECK: %[[B:.*]] = memref.load %arg0[%{{.*}}] : memref<1024xf32>
// CHECK: memref.store {{.*}}, %[[OUT]][
// CHECK: memref.load %[[OUT]][
// CHECK: memref.store {{.*}}, %[[OUT]][
func.func @two_copies(%in: memref<1024xf32>) -> memref<1024xf32> {
  %out = memref.alloc() : memref<1024xf32>
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c256 = arith.constant 256 : index
  %c512 = arith.constant 512 : index
  gpu.launch blocks(%b, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1) threads(%t, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %i0 = arith.addi %b, %t : index
    %x0 = memref.load %in[%i0] : memref<1024xf32>
    memref.store %x0, %out[%i0] : memref<1024xf32>
    %i1 = arith.addi %i0, %c512 : index
    %x1 = memref.load %in[%i1] : memref<1024xf32>
    %o1 = memref.load %out[%i0] : memref<1024xf32>
    %s1 = arith.addf %x1, %o1 : f32
    memref.store %s1, %out[%i1] : memref<1024xf32>
    gpu.terminator
  }
  return %out : memref<1024xf32>
}

// -----

// A launch that writes a function argument is left alone: another argument
// could be the same buffer.
// CHECK-LABEL: func.func @writes_argument(
// CHECK: memref.store %{{.*}}, %arg1[
// CHECK-NEXT: arith.constant
// CHECK-NEXT: memref.load %arg0[
func.func @writes_argument(%in: memref<1024xf32>, %out: memref<1024xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%b, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%t, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %x0 = memref.load %in[%t] : memref<1024xf32>
    memref.store %x0, %out[%t] : memref<1024xf32>
    %c7 = arith.constant 7 : index
    %x1 = memref.load %in[%c7] : memref<1024xf32>
    memref.store %x1, %out[%c7] : memref<1024xf32>
    gpu.terminator
  }
  return
}
