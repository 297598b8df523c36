// RUN: gopt-opt %s -split-input-file -verify-each --gopt-lower-to-llvm | FileCheck %s
// RUN: gopt-opt %s -split-input-file -verify-each --gopt-optimize --gopt-lower-to-llvm=kernel-timers=true | FileCheck %s --check-prefix=TIMERS
// RUN: gopt-opt %s -split-input-file -verify-each --gopt-lower-to-llvm="use-generic-alloc-functions=false vectorize=false" | FileCheck %s --check-prefix=MALLOC

// Unfused, six kernels. Only LLVM-dialect ops remain. The public function gets a C interface
// (`_mlir_ciface_mlp(result, x)`, memrefs as descriptor pointers), kernels
// stay private functions carrying their id and write into buffers the
// entry function passes them, and buffers come from the runtime's
// allocation hooks: one arena for the five intermediates (8x32 and 8x10
// floats, at most two 8x32 alive at once: 2048 bytes for 3712), then the
// result, which outlives the call.
// CHECK-NOT: gopt.
// CHECK-NOT: func.func
// CHECK-NOT: linalg.
// CHECK-NOT: memref.
// CHECK-DAG: llvm.func @_mlir_memref_to_llvm_aligned_alloc(i64, i64) -> !llvm.ptr
// CHECK-DAG: llvm.func @_mlir_memref_to_llvm_free(!llvm.ptr)
// CHECK-LABEL: llvm.func @mlp(
// CHECK-SAME: attributes {gopt.arena_bytes = 2048 : i64, gopt.most_live_bytes = 2048 : i64, gopt.planned_buffers = 5 : i64, gopt.planned_bytes = 3712 : i64, llvm.emit_c_interface}
// CHECK: %[[ARENA:.*]] = llvm.call @_mlir_memref_to_llvm_aligned_alloc
// CHECK-NOT: llvm.call @_mlir_memref_to_llvm_aligned_alloc
// CHECK: llvm.call @mlp_k0_linear(
// CHECK-NOT: llvm.call @_mlir_memref_to_llvm_aligned_alloc
// CHECK: llvm.call @mlp_k1_add(
// CHECK: llvm.call @mlp_k2_relu(
// CHECK: llvm.call @mlp_k3_linear(
// CHECK: llvm.call @mlp_k4_add(
// CHECK: llvm.call @_mlir_memref_to_llvm_aligned_alloc
// CHECK: llvm.call @mlp_k5_softmax(
// CHECK-NEXT: llvm.call @_mlir_memref_to_llvm_free(%[[ARENA]])
// CHECK-NOT: llvm.call @_mlir_memref_to_llvm_free
// CHECK-LABEL: llvm.func @_mlir_ciface_mlp(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
// CHECK-LABEL: llvm.func @mlp_k0_linear(
// CHECK-SAME: gopt.kernel = 0 : i64, no_inline, sym_visibility = "private"
// CHECK-NOT: llvm.call @_mlir_memref_to_llvm_aligned_alloc
// CHECK-LABEL: llvm.func @mlp_k5_softmax(
// CHECK-SAME: gopt.kernel = 5 : i64

// Fused (three kernels) with timers: each kernel call is bracketed by the
// runtime's hooks with the kernel's id (the last one's bracket holds the
// allocation of the result it writes, as it did when the kernel allocated
// it itself).
// TIMERS-LABEL: llvm.func @mlp(
// TIMERS-DAG: %[[ID0:.*]] = llvm.mlir.constant(0 : i64) : i64
// TIMERS-DAG: %[[ID1:.*]] = llvm.mlir.constant(1 : i64) : i64
// TIMERS-DAG: %[[ID2:.*]] = llvm.mlir.constant(2 : i64) : i64
// TIMERS: llvm.call @gopt_kernel_begin(%[[ID0]]) : (i64) -> ()
// TIMERS-NEXT: llvm.call @mlp_k0_linear_add_relu
// TIMERS-NOT: llvm.call
// TIMERS: llvm.call @gopt_kernel_end(%[[ID0]]) : (i64) -> ()
// TIMERS: llvm.call @gopt_kernel_begin(%[[ID1]]) : (i64) -> ()
// TIMERS-NOT: llvm.call
// TIMERS: llvm.call @mlp_k1_linear_add
// TIMERS-NOT: llvm.call
// TIMERS: llvm.call @gopt_kernel_end(%[[ID1]]) : (i64) -> ()
// TIMERS: llvm.call @gopt_kernel_begin(%[[ID2]]) : (i64) -> ()
// TIMERS-NOT: llvm.call @mlp_
// TIMERS: llvm.call @mlp_k2_softmax
// TIMERS-NOT: llvm.call
// TIMERS: llvm.call @gopt_kernel_end(%[[ID2]]) : (i64) -> ()
// TIMERS-NOT: llvm.call @mlp_k3
// TIMERS: llvm.func @gopt_kernel_begin(i64)
// TIMERS: llvm.func @gopt_kernel_end(i64)

// Without the hooks, the C library's aligned_alloc and free.
// MALLOC-NOT: _mlir_memref_to_llvm
// MALLOC: llvm.call @aligned_alloc
func.func @mlp(%x: tensor<8x16xf32>) -> tensor<8x10xf32> {
  %w1 = gopt.constant dense<0.05> : tensor<16x32xf32>
  %b1 = gopt.constant dense<0.01> : tensor<32xf32>
  %w2 = gopt.constant dense<-0.03> : tensor<32x10xf32>
  %b2 = gopt.constant dense<[0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]> : tensor<10xf32>
  %h = gopt.linear %x, %w1 : tensor<8x16xf32>, tensor<16x32xf32> -> tensor<8x32xf32>
  %hb = gopt.add %h, %b1 : tensor<8x32xf32>, tensor<32xf32> -> tensor<8x32xf32>
  %a = gopt.relu %hb : tensor<8x32xf32>
  %o = gopt.linear %a, %w2 : tensor<8x32xf32>, tensor<32x10xf32> -> tensor<8x10xf32>
  %ob = gopt.add %o, %b2 : tensor<8x10xf32>, tensor<10xf32> -> tensor<8x10xf32>
  %p = gopt.softmax %ob axis = 1 : tensor<8x10xf32>
  return %p : tensor<8x10xf32>
}

// -----

// dense_resource weights stay resources: a global initialized from the blob.
// CHECK: llvm.mlir.global private constant @{{.*}}(dense_resource<w> : tensor<2x2xf32>)
// CHECK-LABEL: llvm.func @resource(
// CHECK: llvm.mlir.addressof
func.func @resource(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %w = gopt.constant dense_resource<w> : tensor<2x2xf32>
  %0 = gopt.matmul %x, %w : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      w: "0x040000000000803F000000400000404000008040"
    }
  }
#-}
