// RUN: gopt-opt %s --gopt-lower-library-contractions -split-input-file -verify-diagnostics | FileCheck %s

// A gopt.attention_kernel on buffers becomes one gopt_attention call: the
// sizes (b0, b1, Sq, Sk, D, Dv), the scale, then each operand's first
// element and its element strides along b0, b1, rows and columns of the
// view the kernel reads (static strides fold to constants), 0 along a dim
// of size 1 or absent.

// CHECK-LABEL: func.func @heads
// CHECK-SAME: (%[[Q:[a-z0-9]+]]: memref<1x128x4x32xf32>, %[[K:[a-z0-9]+]]: memref<1x128x4x32xf32>, %[[V:[a-z0-9]+]]: memref<1x128x4x32xf32>, %[[M:[a-z0-9]+]]: memref<1x1x1x128xf32>, %[[O:[a-z0-9]+]]: memref<1x4x128x32xf32>)
// CHECK: %[[QA:.*]] = memref.extract_aligned_pointer_as_index %[[Q]]
// CHECK: %[[QP:.*]] = llvm.inttoptr
// CHECK: %[[KP:.*]] = llvm.inttoptr
// CHECK: %[[VP:.*]] = llvm.inttoptr
// CHECK: %[[MP:.*]] = llvm.inttoptr
// CHECK: %[[OP:.*]] = llvm.inttoptr
// Sizes b0 = 1, b1 = 4 heads, Sq = Sk = 128, D = Dv = 32; Q and V read as
// [head stride 32, row stride 128, column stride 1] of [1, 128, 4, 32], Kᵀ
// with rows and columns exchanged, the mask along its columns only, the
// output contiguous.
// CHECK: call @gopt_attention(%c1_i64, %c4_i64, %c128_i64, %c128_i64, %c32_i64, %c32_i64, %cst, %[[QP]], %c0_i64, %c32_i64, %c128_i64, %c1_i64, %[[KP]], %c0_i64, %c32_i64, %c1_i64, %c128_i64, %[[VP]], %c0_i64, %c32_i64, %c128_i64, %c1_i64, %[[MP]], %c0_i64, %c0_i64, %c0_i64, %c1_i64, %[[OP]], %c0_i64, %c4096_i64, %c32_i64, %c1_i64)
// CHECK-NOT: gopt.attention_kernel
func.func @heads(%q: memref<1x128x4x32xf32>, %k: memref<1x128x4x32xf32>, %v: memref<1x128x4x32xf32>,
                 %m: memref<1x1x1x128xf32>, %o: memref<1x4x128x32xf32>) {
  gopt.attention_kernel ins(%q, %k, %v mask %m : memref<1x128x4x32xf32>, memref<1x128x4x32xf32>, memref<1x128x4x32xf32>, memref<1x1x1x128xf32>) outs(%o : memref<1x4x128x32xf32>) {query_perm = array<i64: 0, 2, 1, 3>, key_perm = array<i64: 0, 2, 3, 1>, value_perm = array<i64: 0, 2, 1, 3>, scale = 0.125 : f32}
  return
}

// -----

// Rank 3, no mask: b0 is 1 with stride 0, the mask a null pointer.

// CHECK-LABEL: func.func @plain
// CHECK: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK: call @gopt_attention(%c1_i64, %c8_i64, %c16_i64, %c16_i64, %c8_i64, %c4_i64, %cst, %{{.*}}, %c0_i64, %c128_i64, %c8_i64, %c1_i64, %{{.*}}, %c0_i64, %c128_i64, %c16_i64, %c1_i64, %{{.*}}, %c0_i64, %c64_i64, %c4_i64, %c1_i64, %[[NULL]], %c0_i64, %c0_i64, %c0_i64, %c0_i64, %{{.*}}, %c0_i64, %c64_i64, %c4_i64, %c1_i64)
func.func @plain(%q: memref<8x16x8xf32>, %kt: memref<8x8x16xf32>, %v: memref<8x16x4xf32>, %o: memref<8x16x4xf32>) {
  gopt.attention_kernel ins(%q, %kt, %v : memref<8x16x8xf32>, memref<8x8x16xf32>, memref<8x16x4xf32>) outs(%o : memref<8x16x4xf32>) {query_perm = array<i64: 0, 1, 2>, key_perm = array<i64: 0, 1, 2>, value_perm = array<i64: 0, 1, 2>, scale = 1.0 : f32}
  return
}

// -----

// Left on tensors (not bufferized): an error.

func.func @tensors(%q: tensor<8x16x8xf32>, %kt: tensor<8x8x16xf32>, %v: tensor<8x16x4xf32>, %o: tensor<8x16x4xf32>) -> tensor<8x16x4xf32> {
  // expected-error @+1 {{gopt-lower-library-contractions: an attention kernel is left; it must be on memrefs (bufferize first)}}
  %r = gopt.attention_kernel ins(%q, %kt, %v : tensor<8x16x8xf32>, tensor<8x8x16xf32>, tensor<8x16x4xf32>) outs(%o : tensor<8x16x4xf32>) {query_perm = array<i64: 0, 1, 2>, key_perm = array<i64: 0, 1, 2>, value_perm = array<i64: 0, 1, 2>, scale = 1.0 : f32} -> tensor<8x16x4xf32>
  return %r : tensor<8x16x4xf32>
}
