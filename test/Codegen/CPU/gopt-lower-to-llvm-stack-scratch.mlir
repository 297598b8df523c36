// The CPU pipeline puts a layer norm's per-row accumulators on the stack of
// its parallel body (gopt-stack-scratch-buffers): no allocation in the
// row loop; with stack-scratch=false each row allocates and frees them.
// RUN: gopt-opt %s --gopt-lower-to-llvm | FileCheck %s
// RUN: gopt-opt %s --pass-pipeline='builtin.module(gopt-lower-to-llvm{stack-scratch=false})' | FileCheck %s --check-prefix=HEAP

// CHECK-LABEL: llvm.func @main_k0_layer_norm_parallel0(
// CHECK: llvm.alloca
// CHECK-NOT: llvm.call @_mlir_memref_to_llvm_aligned_alloc
// CHECK-NOT: llvm.call @_mlir_memref_to_llvm_free
// CHECK: llvm.return

// HEAP-LABEL: llvm.func @main_k0_layer_norm_parallel0(
// HEAP: llvm.call @_mlir_memref_to_llvm_aligned_alloc
// HEAP: llvm.call @_mlir_memref_to_llvm_free

func.func @main(%x: tensor<1x256x512xf32>, %g: tensor<512xf32>, %b: tensor<512xf32>) -> tensor<1x256x512xf32> {
  %y = gopt.layer_norm %x, %g, %b axes = [2] eps = 1.0e-05 : tensor<1x256x512xf32>, tensor<512xf32>, tensor<512xf32>
  return %y : tensor<1x256x512xf32>
}
