// RUN: gopt-opt %s -split-input-file -verify-each -verify-diagnostics --gopt-lower-library-contractions | FileCheck %s

#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>

// A zero fill of the result just before the contraction becomes beta = 0;
// A (4x16) and B (16x32) are row-major: row strides 16 and 32, column
// strides 1; one product (batch 1, batch strides 0).
// CHECK: func.func private @gopt_sgemm(i64, i64, i64, i64, f32, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, f32, !llvm.ptr, i64, i64, i64)
// CHECK-LABEL: func.func @zero_init
// CHECK-SAME: (%[[A:.*]]: memref<4x16xf32>, %[[B:.*]]: memref<16x32xf32>, %[[C:.*]]: memref<4x32xf32>)
// CHECK-NOT: linalg.fill
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1.0{{.*}} : f32
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.0{{.*}} : f32
// CHECK-DAG: %[[I0:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[I1:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[I4:.*]] = arith.constant 4 : i64
// CHECK-DAG: %[[I16:.*]] = arith.constant 16 : i64
// CHECK-DAG: %[[I32:.*]] = arith.constant 32 : i64
// CHECK-DAG: %[[PA:.*]] = memref.extract_aligned_pointer_as_index %[[A]]
// CHECK-DAG: %[[PB:.*]] = memref.extract_aligned_pointer_as_index %[[B]]
// CHECK-DAG: %[[PC:.*]] = memref.extract_aligned_pointer_as_index %[[C]]
// CHECK: %[[PTRA:.*]] = llvm.inttoptr
// CHECK: %[[PTRB:.*]] = llvm.inttoptr
// CHECK: %[[PTRC:.*]] = llvm.inttoptr
// CHECK: call @gopt_sgemm(%[[I1]], %[[I4]], %[[I32]], %[[I16]], %[[ONE]], %[[PTRA]], %[[I0]], %[[I16]], %[[I1]], %[[PTRB]], %[[I0]], %[[I32]], %[[I1]], %[[ZERO]], %[[PTRC]], %[[I0]], %[[I32]], %[[I1]])
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @zero_init(%a: memref<4x16xf32>, %b: memref<16x32xf32>, %c: memref<4x32xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<4x32xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], library_call = "gopt_sgemm"}
      ins(%a, %b : memref<4x16xf32>, memref<16x32xf32>) outs(%c : memref<4x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#a = affine_map<(m, n, k) -> (m, k)>
#bt = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>

// Any other initial value (a broadcast bias, a fill of 1) is accumulated
// into: beta = 1, and the fill stays. A transposed B (32x16, read as
// (n, k)) has row stride 1 and column stride 16.
// CHECK-LABEL: func.func @accumulate
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1.0{{.*}} : f32
// CHECK-DAG: %[[I1:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[I16:.*]] = arith.constant 16 : i64
// CHECK: linalg.fill ins(%[[ONE]]
// CHECK: call @gopt_sgemm({{.*}}, %{{[^,]*}}, %{{[^,]*}}, %[[I1]], %[[I16]], %[[ONE]], %{{.*}})
func.func @accumulate(%a: memref<4x16xf32>, %b: memref<32x16xf32>, %c: memref<4x32xf32>) {
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%c : memref<4x32xf32>)
  linalg.generic {indexing_maps = [#a, #bt, #c], iterator_types = ["parallel", "parallel", "reduction"], library_call = "gopt_sgemm"}
      ins(%a, %b : memref<4x16xf32>, memref<32x16xf32>) outs(%c : memref<4x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#a = affine_map<(b0, b1, m, n, k) -> (b0, b1, m, k)>
#b = affine_map<(b0, b1, m, n, k) -> (b1, k, n)>
#c = affine_map<(b0, b1, m, n, k) -> (b0, b1, m, n)>

// Two batch dims: a loop over the outer one, the inner one is the call's
// batch; B, broadcast along the outer dim, does not move in the loop.
// CHECK-LABEL: func.func @batched
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[I3:.*]] = arith.constant 3 : i64
// CHECK-DAG: %[[I32:.*]] = arith.constant 32 : i64
// CHECK-DAG: %[[I40:.*]] = arith.constant 40 : i64
// CHECK-DAG: %[[I20:.*]] = arith.constant 20 : i64
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[C2]]
// CHECK: call @gopt_sgemm(%[[I3]], {{[^,]*}}, {{[^,]*}}, {{[^,]*}}, {{[^,]*}}, %{{[^,]*}}, %[[I32]], {{[^,]*}}, {{[^,]*}}, %{{[^,]*}}, %[[I40]], {{[^,]*}}, {{[^,]*}}, {{[^,]*}}, %{{[^,]*}}, %[[I20]],
// CHECK-NOT: linalg.generic
func.func @batched(%a: memref<2x3x4x8xf32>, %b: memref<3x8x5xf32>, %c: memref<2x3x4x5xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"], library_call = "gopt_sgemm"}
      ins(%a, %b : memref<2x3x4x8xf32>, memref<3x8x5xf32>) outs(%c : memref<2x3x4x5xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>

// Unmarked contractions stay for the codegen path.
// CHECK-LABEL: func.func @unmarked
// CHECK-NOT: call @gopt_sgemm
// CHECK: linalg.generic
func.func @unmarked(%a: memref<4x16xf32>, %b: memref<16x32xf32>, %c: memref<4x32xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<4x16xf32>, memref<16x32xf32>) outs(%c : memref<4x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>

// A marked contraction still on tensors is an error: bufferize first.
func.func @on_tensors(%a: tensor<4x16xf32>, %b: tensor<16x32xf32>, %c: tensor<4x32xf32>) -> tensor<4x32xf32> {
  // expected-error @+1 {{gopt-lower-library-contractions: a contraction marked for a GEMM call is left; it must be on memrefs (bufferize first)}}
  %r = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], library_call = "gopt_sgemm"}
      ins(%a, %b : tensor<4x16xf32>, tensor<16x32xf32>) outs(%c : tensor<4x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x32xf32>
  return %r : tensor<4x32xf32>
}

// -----

#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>

// The zero fill of a fresh buffer (here through a reshape) is found past
// ops that write other buffers (im2col's gather, for a convolution), but not
// past one that writes a view of the result.
// CHECK-LABEL: func.func @fill_distance
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1.0{{.*}} : f32
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.0{{.*}} : f32
// CHECK: %[[C1:.*]] = memref.alloc() {{.*}} : memref<2x2x32xf32>
// CHECK-NOT: linalg.fill ins(%[[ZERO]] : f32) outs(%[[C1]]
// CHECK: linalg.fill ins(%[[ONE]] : f32) outs(%{{.*}} : memref<4x16xf32>)
// CHECK: call @gopt_sgemm({{.*}}, %[[ZERO]], %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}})
// CHECK: %[[C2:.*]] = memref.alloc() {{.*}} : memref<4x32xf32>
// CHECK: linalg.fill ins(%[[ZERO]] : f32) outs(%[[C2]]
// CHECK: memref.store
// CHECK: call @gopt_sgemm({{.*}}, %[[ONE]], %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}})
func.func @fill_distance(%b: memref<16x32xf32>) -> (memref<2x2x32xf32>, memref<4x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %i = arith.constant 1 : index
  %c1 = memref.alloc() {alignment = 64 : i64} : memref<2x2x32xf32>
  linalg.fill ins(%zero : f32) outs(%c1 : memref<2x2x32xf32>)
  %a = memref.alloc() {alignment = 64 : i64} : memref<4x16xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<4x16xf32>)
  %v = memref.collapse_shape %c1 [[0, 1], [2]] : memref<2x2x32xf32> into memref<4x32xf32>
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], library_call = "gopt_sgemm"}
      ins(%a, %b : memref<4x16xf32>, memref<16x32xf32>) outs(%v : memref<4x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  %c2 = memref.alloc() {alignment = 64 : i64} : memref<4x32xf32>
  linalg.fill ins(%zero : f32) outs(%c2 : memref<4x32xf32>)
  %row = memref.subview %c2[1, 0] [1, 32] [1, 1] : memref<4x32xf32> to memref<32xf32, strided<[1], offset: 32>>
  memref.store %one, %row[%i] : memref<32xf32, strided<[1], offset: 32>>
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], library_call = "gopt_sgemm"}
      ins(%a, %b : memref<4x16xf32>, memref<16x32xf32>) outs(%c2 : memref<4x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return %c1, %c2 : memref<2x2x32xf32>, memref<4x32xf32>
}

// -----

// A marked convolution on contiguous buffers becomes one gopt_conv2d call:
// input sizes (padded), filters and window, output size, strides,
// dilations, groups, then the input and weight addresses, whether the
// weight is a constant (an argument marked gopt.weight: 1), beta (a zero
// fill before it: 0) and the output address.
// CHECK: func.func private @gopt_conv2d(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, !llvm.ptr, !llvm.ptr, i64, f32, !llvm.ptr)
// CHECK-LABEL: func.func @conv_weight
// CHECK-NOT: linalg.fill
// CHECK-DAG: %[[I1:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[I2:.*]] = arith.constant 2 : i64
// CHECK-DAG: %[[I3:.*]] = arith.constant 3 : i64
// CHECK-DAG: %[[I4:.*]] = arith.constant 4 : i64
// CHECK-DAG: %[[I8:.*]] = arith.constant 8 : i64
// CHECK-DAG: %[[I10:.*]] = arith.constant 10 : i64
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.0{{.*}} : f32
// CHECK: call @gopt_conv2d(%[[I1]], %[[I4]], %[[I10]], %[[I10]], %[[I8]], %[[I3]], %[[I3]], %[[I4]], %[[I4]], %[[I2]], %[[I2]], %[[I1]], %[[I1]], %[[I1]], %{{.*}}, %{{.*}}, %[[I1]], %[[ZERO]], %{{.*}})
// CHECK-NOT: linalg.conv_2d
func.func @conv_weight(%x: memref<1x4x10x10xf32>, %w: memref<8x4x3x3xf32> {gopt.weight}, %y: memref<1x8x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<1x8x4x4xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>, gopt.library_call = "gopt_conv2d"}
      ins(%x, %w : memref<1x4x10x10xf32>, memref<8x4x3x3xf32>) outs(%y : memref<1x8x4x4xf32>)
  return
}

// -----

#in = affine_map<(n, f, oh, ow, c, kh, kw) -> (n, f + c, oh + kh, ow + kw)>
#w = affine_map<(n, f, oh, ow, c, kh, kw) -> (f, c, kh, kw)>
#out = affine_map<(n, f, oh, ow, c, kh, kw) -> (n, f, oh, ow)>

// A grouped (depthwise) convolution takes its groups, strides and dilations
// from gopt.grouped_conv2d; an output already holding a bias is accumulated
// into (beta = 1); an unmarked weight is not constant (0).
// CHECK-LABEL: func.func @depthwise
// CHECK-DAG: %[[I0:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[I1:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[I3:.*]] = arith.constant 3 : i64
// CHECK-DAG: %[[I4:.*]] = arith.constant 4 : i64
// CHECK-DAG: %[[I6:.*]] = arith.constant 6 : i64
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1.0{{.*}} : f32
// CHECK: call @gopt_conv2d(%[[I1]], %[[I4]], %[[I6]], %[[I6]], %[[I4]], %[[I3]], %[[I3]], %[[I4]], %[[I4]], %[[I1]], %[[I1]], %[[I1]], %[[I1]], %[[I4]], %{{.*}}, %{{.*}}, %[[I0]], %[[ONE]], %{{.*}})
// CHECK-NOT: linalg.generic
func.func @depthwise(%x: memref<1x4x6x6xf32>, %w: memref<4x1x3x3xf32>, %y: memref<1x4x4x4xf32>) {
  linalg.generic {indexing_maps = [#in, #w, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : memref<1x4x6x6xf32>, memref<4x1x3x3xf32>) outs(%y : memref<1x4x4x4xf32>)
      attrs = {gopt.grouped_conv2d = {groups = 4 : i64, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>}, gopt.library_call = "gopt_conv2d"} {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Channels last: the named NHWC/FHWC convolution calls gopt_conv2d_nhwc with
// the sizes in gopt_conv2d's order (n, c, h, w, f, kh, kw, oh, ow), then
// the input's padding: here none (the input is an argument), and after
// the output an empty epilogue (0 steps, null arrays); an NHWC max pooling
// calls gopt_pool2d_nhwc likewise.
// CHECK: func.func private @gopt_conv2d_nhwc(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, !llvm.ptr, !llvm.ptr, i64, f32, !llvm.ptr, i64, !llvm.ptr, !llvm.ptr, !llvm.ptr)
// CHECK: func.func private @gopt_pool2d_nhwc(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, !llvm.ptr, !llvm.ptr)
// CHECK-LABEL: func.func @channels_last
// CHECK-DAG: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-DAG: %[[I0:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[I1:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[I2:.*]] = arith.constant 2 : i64
// CHECK-DAG: %[[I3:.*]] = arith.constant 3 : i64
// CHECK-DAG: %[[I4:.*]] = arith.constant 4 : i64
// CHECK-DAG: %[[I8:.*]] = arith.constant 8 : i64
// CHECK-DAG: %[[I10:.*]] = arith.constant 10 : i64
// CHECK: call @gopt_conv2d_nhwc(%[[I1]], %[[I4]], %[[I10]], %[[I10]], %[[I8]], %[[I3]], %[[I3]], %[[I4]], %[[I4]], %[[I2]], %[[I2]], %[[I1]], %[[I1]], %[[I1]], %[[I0]], %[[I0]], %[[I0]], %[[I0]], %{{[^,]*}}, %{{[^,]*}}, %[[I1]], %{{[^,]*}}, %{{[^,]*}}, %[[I0]], %[[NULL]], %[[NULL]], %[[NULL]])
// CHECK: call @gopt_pool2d_nhwc(%[[I0]], %[[I1]], %[[I8]], %[[I4]], %[[I4]], %[[I2]], %[[I2]], %[[I2]], %[[I2]], %[[I2]], %[[I2]], %[[I1]], %[[I1]], %[[I0]], %[[I0]], %[[I0]], %[[I0]], %{{.*}}, %{{.*}})
func.func @channels_last(%x: memref<1x10x10x4xf32>, %w: memref<8x3x3x4xf32> {gopt.weight}, %y: memref<1x4x4x8xf32>, %p: memref<1x2x2x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<1x4x4x8xf32>)
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>, gopt.library_call = "gopt_conv2d"}
      ins(%x, %w : memref<1x10x10x4xf32>, memref<8x3x3x4xf32>) outs(%y : memref<1x4x4x8xf32>)
  %win = memref.alloc() : memref<2x2xf32>
  linalg.fill ins(%ninf : f32) outs(%p : memref<1x2x2x8xf32>)
  linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>, gopt.library_call = "gopt_pool2d"}
      ins(%y, %win : memref<1x4x4x8xf32>, memref<2x2xf32>) outs(%p : memref<1x2x2x8xf32>)
  return
}

// -----

// The zero padding bufferized in front of a channels-last convolution (a
// fresh buffer set to zero, the input copied into its interior) is left to
// the runtime: the call reads the unpadded input with padding (1, 2, 0, 1),
// and the buffer, its fill, the copy and the deallocation go.
// CHECK-LABEL: func.func @channels_last_padding
// CHECK-SAME: (%[[X:.*]]: memref<1x7x7x4xf32>,
// CHECK-NOT: memref.alloc
// CHECK-NOT: linalg.map
// CHECK-NOT: memref.copy
// CHECK-DAG: %[[I0:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[I1:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[I2:.*]] = arith.constant 2 : i64
// CHECK-DAG: %[[I7:.*]] = arith.constant 7 : i64
// CHECK: %[[PX:.*]] = memref.extract_aligned_pointer_as_index %[[X]]
// CHECK: call @gopt_conv2d_nhwc(%[[I1]], %{{.*}}, %[[I7]], %[[I7]], {{.*}}, %[[I1]], %[[I2]], %[[I0]], %[[I1]], %{{.*}}, %{{.*}}, %[[I0]], %{{.*}}, %{{.*}})
// CHECK-NOT: memref.dealloc
// CHECK: return
func.func @channels_last_padding(%x: memref<1x7x7x4xf32>, %w: memref<8x3x3x4xf32>, %y: memref<1x6x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %padded = memref.alloc() {alignment = 64 : i64} : memref<1x8x10x4xf32>
  linalg.map outs(%padded : memref<1x8x10x4xf32>)
    (%init: f32) {
      linalg.yield %zero : f32
    }
  %interior = memref.subview %padded[0, 1, 2, 0] [1, 7, 7, 4] [1, 1, 1, 1] : memref<1x8x10x4xf32> to memref<1x7x7x4xf32, strided<[320, 40, 4, 1], offset: 48>>
  memref.copy %x, %interior : memref<1x7x7x4xf32> to memref<1x7x7x4xf32, strided<[320, 40, 4, 1], offset: 48>>
  linalg.fill ins(%zero : f32) outs(%y : memref<1x6x8x8xf32>)
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, gopt.library_call = "gopt_conv2d"}
      ins(%padded, %w : memref<1x8x10x4xf32>, memref<8x3x3x4xf32>) outs(%y : memref<1x6x8x8xf32>)
  memref.dealloc %padded : memref<1x8x10x4xf32>
  return
}

// -----

// Max pooling on the -inf padding bufferized in front of it: the runtime
// skips the window positions outside the unpadded input, so the buffer, its
// fill, the copy and the deallocation go (padding 1, 1, 1, 1).
// CHECK-LABEL: func.func @channels_last_pool_padding
// CHECK-SAME: (%[[X:.*]]: memref<1x8x8x4xf32>,
// CHECK-NOT: memref.alloc() {alignment = 64 : i64} : memref<1x10x10x4xf32>
// CHECK-NOT: memref.copy
// CHECK-DAG: %[[I0:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[I1:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[I8:.*]] = arith.constant 8 : i64
// CHECK: %[[PX:.*]] = memref.extract_aligned_pointer_as_index %[[X]]
// CHECK: call @gopt_pool2d_nhwc(%[[I0]], %[[I1]], %{{.*}}, %[[I8]], %[[I8]], {{.*}}, %[[I1]], %[[I1]], %[[I1]], %[[I1]], %{{.*}}, %{{.*}})
// CHECK-NOT: memref.dealloc
// CHECK: return
func.func @channels_last_pool_padding(%x: memref<1x8x8x4xf32>, %p: memref<1x4x4x4xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %padded = memref.alloc() {alignment = 64 : i64} : memref<1x10x10x4xf32>
  linalg.fill ins(%ninf : f32) outs(%padded : memref<1x10x10x4xf32>)
  %interior = memref.subview %padded[0, 1, 1, 0] [1, 8, 8, 4] [1, 1, 1, 1] : memref<1x10x10x4xf32> to memref<1x8x8x4xf32, strided<[400, 40, 4, 1], offset: 44>>
  memref.copy %x, %interior : memref<1x8x8x4xf32> to memref<1x8x8x4xf32, strided<[400, 40, 4, 1], offset: 44>>
  %win = memref.alloc() : memref<3x3xf32>
  linalg.fill ins(%ninf : f32) outs(%p : memref<1x4x4x4xf32>)
  linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>, gopt.library_call = "gopt_pool2d"}
      ins(%padded, %win : memref<1x10x10x4xf32>, memref<3x3xf32>) outs(%p : memref<1x4x4x4xf32>)
  memref.dealloc %padded : memref<1x10x10x4xf32>
  return
}

// -----

// Padding with another value than the reduction's identity (zeros in front
// of a max pooling) stays: the call reads the padded buffer.
// CHECK-LABEL: func.func @channels_last_pool_zero_padding
// CHECK: linalg.fill
// CHECK: memref.copy
// CHECK: call @gopt_pool2d_nhwc
func.func @channels_last_pool_zero_padding(%x: memref<1x8x8x4xf32>, %p: memref<1x4x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %padded = memref.alloc() {alignment = 64 : i64} : memref<1x10x10x4xf32>
  linalg.fill ins(%zero : f32) outs(%padded : memref<1x10x10x4xf32>)
  %interior = memref.subview %padded[0, 1, 1, 0] [1, 8, 8, 4] [1, 1, 1, 1] : memref<1x10x10x4xf32> to memref<1x8x8x4xf32, strided<[400, 40, 4, 1], offset: 44>>
  memref.copy %x, %interior : memref<1x8x8x4xf32> to memref<1x8x8x4xf32, strided<[400, 40, 4, 1], offset: 44>>
  %win = memref.alloc() : memref<3x3xf32>
  linalg.fill ins(%ninf : f32) outs(%p : memref<1x4x4x4xf32>)
  linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>, gopt.library_call = "gopt_pool2d"}
      ins(%padded, %win : memref<1x10x10x4xf32>, memref<3x3xf32>) outs(%p : memref<1x4x4x4xf32>)
  memref.dealloc %padded : memref<1x10x10x4xf32>
  return
}

// -----

// A convolution whose output is the buffer its padded input was copied
// from (bufferization reuses it, dead after the copy) keeps its padding:
// read unpadded, the input would be overwritten while it is read.
// CHECK-LABEL: func.func @channels_last_padding_output_is_source
// CHECK: linalg.map
// CHECK: memref.copy
// CHECK: call @gopt_conv2d_nhwc
func.func @channels_last_padding_output_is_source(%w: memref<4x3x3x4xf32>) -> memref<1x7x7x4xf32> {
  %zero = arith.constant 0.0 : f32
  %x = memref.alloc() {alignment = 64 : i64} : memref<1x7x7x4xf32>
  linalg.fill ins(%zero : f32) outs(%x : memref<1x7x7x4xf32>)
  %padded = memref.alloc() {alignment = 64 : i64} : memref<1x9x9x4xf32>
  linalg.map outs(%padded : memref<1x9x9x4xf32>)
    (%init: f32) {
      linalg.yield %zero : f32
    }
  %interior = memref.subview %padded[0, 1, 1, 0] [1, 7, 7, 4] [1, 1, 1, 1] : memref<1x9x9x4xf32> to memref<1x7x7x4xf32, strided<[324, 36, 4, 1], offset: 40>>
  memref.copy %x, %interior : memref<1x7x7x4xf32> to memref<1x7x7x4xf32, strided<[324, 36, 4, 1], offset: 40>>
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, gopt.library_call = "gopt_conv2d"}
      ins(%padded, %w : memref<1x9x9x4xf32>, memref<4x3x3x4xf32>) outs(%x : memref<1x7x7x4xf32>)
  memref.dealloc %padded : memref<1x9x9x4xf32>
  return %x : memref<1x7x7x4xf32>
}

// -----

// A padded buffer that something else also reads keeps its padding: the
// call reads the padded buffer, with no padding of its own.
// CHECK-LABEL: func.func @channels_last_padding_shared
// CHECK: linalg.map
// CHECK: memref.copy
// CHECK: call @gopt_conv2d_nhwc
func.func @channels_last_padding_shared(%x: memref<1x7x7x4xf32>, %w: memref<8x3x3x4xf32>, %y: memref<1x6x8x8xf32>, %z: memref<1x8x10x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %padded = memref.alloc() {alignment = 64 : i64} : memref<1x8x10x4xf32>
  linalg.map outs(%padded : memref<1x8x10x4xf32>)
    (%init: f32) {
      linalg.yield %zero : f32
    }
  %interior = memref.subview %padded[0, 1, 2, 0] [1, 7, 7, 4] [1, 1, 1, 1] : memref<1x8x10x4xf32> to memref<1x7x7x4xf32, strided<[320, 40, 4, 1], offset: 48>>
  memref.copy %x, %interior : memref<1x7x7x4xf32> to memref<1x7x7x4xf32, strided<[320, 40, 4, 1], offset: 48>>
  linalg.fill ins(%zero : f32) outs(%y : memref<1x6x8x8xf32>)
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, gopt.library_call = "gopt_conv2d"}
      ins(%padded, %w : memref<1x8x10x4xf32>, memref<8x3x3x4xf32>) outs(%y : memref<1x6x8x8xf32>)
  memref.copy %padded, %z : memref<1x8x10x4xf32> to memref<1x8x10x4xf32>
  return
}

// -----

// A convolution on a strided view stays a linalg op (computed by loops
// later), without its mark.
// CHECK-LABEL: func.func @strided_view
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK-NOT: gopt.library_call
// CHECK-NOT: call @gopt_conv2d
func.func @strided_view(%x: memref<1x4x10x10xf32>, %w: memref<8x4x3x3xf32>, %big: memref<1x8x8x9xf32>) {
  %y = memref.subview %big[0, 0, 0, 0] [1, 8, 8, 8] [1, 1, 1, 1] : memref<1x8x8x9xf32> to memref<1x8x8x8xf32, strided<[576, 72, 9, 1]>>
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, gopt.library_call = "gopt_conv2d"}
      ins(%x, %w : memref<1x4x10x10xf32>, memref<8x4x3x3xf32>) outs(%y : memref<1x8x8x8xf32, strided<[576, 72, 9, 1]>>)
  return
}

// -----

// A marked max pooling whose output is filled with -inf just before becomes
// one gopt_pool2d call (kind 0), the fill dropped; a sum pooling filled with
// 0, kind 1. Sizes: input (padded), window, output, strides, dilations.
// CHECK: func.func private @gopt_pool2d(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, !llvm.ptr, !llvm.ptr)
// CHECK-LABEL: func.func @pools
// CHECK-NOT: linalg.fill
// CHECK-DAG: %[[I0:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[I1:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[I2:.*]] = arith.constant 2 : i64
// CHECK-DAG: %[[I3:.*]] = arith.constant 3 : i64
// CHECK-DAG: %[[I4:.*]] = arith.constant 4 : i64
// CHECK-DAG: %[[I9:.*]] = arith.constant 9 : i64
// CHECK: call @gopt_pool2d(%[[I0]], %[[I1]], %[[I4]], %[[I9]], %[[I9]], %[[I3]], %[[I3]], %[[I4]], %[[I4]], %[[I2]], %[[I2]], %[[I1]], %[[I1]], %{{.*}}, %{{.*}})
// CHECK: call @gopt_pool2d(%[[I1]], %[[I1]], %[[I4]], %[[I9]], %[[I9]], %[[I3]], %[[I3]], %[[I4]], %[[I4]], %[[I2]], %[[I2]], %[[I1]], %[[I1]], %{{.*}}, %{{.*}})
// CHECK-NOT: linalg.pooling
func.func @pools(%x: memref<1x4x9x9xf32>, %win: memref<3x3xf32>) -> (memref<1x4x4x4xf32>, memref<1x4x4x4xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %m = memref.alloc() : memref<1x4x4x4xf32>
  linalg.fill ins(%ninf : f32) outs(%m : memref<1x4x4x4xf32>)
  linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>, gopt.library_call = "gopt_pool2d"}
      ins(%x, %win : memref<1x4x9x9xf32>, memref<3x3xf32>) outs(%m : memref<1x4x4x4xf32>)
  %s = memref.alloc() : memref<1x4x4x4xf32>
  linalg.fill ins(%zero : f32) outs(%s : memref<1x4x4x4xf32>)
  linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>, gopt.library_call = "gopt_pool2d"}
      ins(%x, %win : memref<1x4x9x9xf32>, memref<3x3xf32>) outs(%s : memref<1x4x4x4xf32>)
  return %m, %s : memref<1x4x4x4xf32>, memref<1x4x4x4xf32>
}

// -----

// Without the identity fill just before (here: an output the caller
// passes, holding values to combine with), a marked pooling stays a linalg
// op, without its mark.
// CHECK-LABEL: func.func @pool_into_values
// CHECK: linalg.pooling_nchw_max
// CHECK-NOT: gopt.library_call
// CHECK-NOT: call @gopt_pool2d
func.func @pool_into_values(%x: memref<1x4x9x9xf32>, %win: memref<3x3xf32>, %out: memref<1x4x4x4xf32>) {
  linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>, gopt.library_call = "gopt_pool2d"}
      ins(%x, %win : memref<1x4x9x9xf32>, memref<3x3xf32>) outs(%out : memref<1x4x4x4xf32>)
  return
}

// -----

// The epilogue marked for a channels-last convolution goes into its call:
// the steps (here a bias read through a reshape defined after the
// convolution, which moves before the call, then ReLU6: clip(0, inf) and
// clip(-inf, 6) merged) in stack arrays of kinds (16: add per channel, 1:
// clip), parameter pairs and operand addresses; the generic is erased.
// CHECK-LABEL: func.func @conv_epilogue
// CHECK-SAME: (%[[X:.*]]: memref<1x6x6x8xf32>, %[[W:.*]]: memref<16x3x3x8xf32>, %[[B:.*]]: memref<1x16xf32>)
// CHECK-DAG: %[[I2:.*]] = arith.constant 2 : i64
// CHECK-DAG: %[[ADD:.*]] = arith.constant 16 : i64
// CHECK-DAG: %[[CLIP:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[SIX:.*]] = arith.constant 6.000000e+00 : f32
// CHECK: %[[BIAS:.*]] = memref.collapse_shape %[[B]]
// CHECK: %[[KINDS:.*]] = memref.alloca() : memref<2xi64>
// CHECK: %[[PARAMS:.*]] = memref.alloca() : memref<4xf32>
// CHECK: %[[OPERANDS:.*]] = memref.alloca() : memref<2xindex>
// CHECK: memref.store %[[ADD]], %[[KINDS]]
// CHECK: memref.extract_aligned_pointer_as_index %[[BIAS]]
// CHECK: memref.store %[[CLIP]], %[[KINDS]]
// CHECK: memref.store %[[SIX]], %[[PARAMS]]
// CHECK: call @gopt_conv2d_nhwc({{.*}}, %[[I2]], %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}})
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @conv_epilogue(%x: memref<1x6x6x8xf32>, %w: memref<16x3x3x8xf32>, %b: memref<1x16xf32>) -> memref<1x4x4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %y = memref.alloc() : memref<1x4x4x16xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<1x4x4x16xf32>)
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, gopt.library_call = "gopt_conv2d"}
      ins(%x, %w : memref<1x6x6x8xf32>, memref<16x3x3x8xf32>) outs(%y : memref<1x4x4x16xf32>)
  %bias = memref.collapse_shape %b [[0, 1]] : memref<1x16xf32> into memref<16xf32>
  linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%bias : memref<16xf32>) outs(%y : memref<1x4x4x16xf32>) attrs = {gopt.library_call = "gopt_conv2d_epilogue"} {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    %lo = arith.maximumf %s, %zero : f32
    %hi = arith.minimumf %lo, %six : f32
    linalg.yield %hi : f32
  }
  return %y : memref<1x4x4x16xf32>
}

// -----

// A bias the kernel writes between the convolution and its epilogue is not
// ready when the convolution runs: the call takes no epilogue, and the
// generic stays, unmarked, for the loops.
// CHECK-LABEL: func.func @conv_epilogue_operand_written
// CHECK: call @gopt_conv2d_nhwc({{.*}}, %[[I0:c0_i64]], %[[N:.*]], %[[N]], %[[N]])
// CHECK: linalg.fill
// CHECK: linalg.generic
// CHECK-NOT: gopt_conv2d_epilogue
// CHECK: return
func.func @conv_epilogue_operand_written(%x: memref<1x6x6x8xf32>, %w: memref<16x3x3x8xf32>, %b: memref<16xf32>) -> memref<1x4x4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %y = memref.alloc() : memref<1x4x4x16xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<1x4x4x16xf32>)
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, gopt.library_call = "gopt_conv2d"}
      ins(%x, %w : memref<1x6x6x8xf32>, memref<16x3x3x8xf32>) outs(%y : memref<1x4x4x16xf32>)
  linalg.fill ins(%zero : f32) outs(%b : memref<16xf32>)
  linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : memref<16xf32>) outs(%y : memref<1x4x4x16xf32>) attrs = {gopt.library_call = "gopt_conv2d_epilogue"} {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  }
  return %y : memref<1x4x4x16xf32>
}

// -----

// A kernel that writes into its caller's buffer (an argument, after
// gopt-kernel-results-to-out-params): the zero fill and the epilogue are
// still the call's, past the dealloc of the kernel's own scratch buffer
// (a fresh allocation aliases no argument).
// CHECK-LABEL: func.func @conv_epilogue_out_param
// CHECK-NOT: linalg.fill
// CHECK: call @gopt_conv2d_nhwc({{.*}}, %[[I1:c1_i64]], %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}})
// CHECK-NEXT: memref.dealloc
// CHECK-NEXT: return
func.func @conv_epilogue_out_param(%x: memref<1x6x6x8xf32>, %w: memref<16x3x3x8xf32>, %b: memref<16xf32>, %y: memref<1x4x4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %scratch = memref.alloc() : memref<1x6x6x8xf32>
  memref.copy %x, %scratch : memref<1x6x6x8xf32> to memref<1x6x6x8xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<1x4x4x16xf32>)
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, gopt.library_call = "gopt_conv2d"}
      ins(%scratch, %w : memref<1x6x6x8xf32>, memref<16x3x3x8xf32>) outs(%y : memref<1x4x4x16xf32>)
  memref.dealloc %scratch : memref<1x6x6x8xf32>
  linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : memref<16xf32>) outs(%y : memref<1x4x4x16xf32>) attrs = {gopt.library_call = "gopt_conv2d_epilogue"} {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// The same kernel writing another argument between the convolution and its
// epilogue: it may be the output (arguments may alias), so the epilogue
// stays for the loops.
// CHECK-LABEL: func.func @conv_epilogue_out_param_other_write
// CHECK: call @gopt_conv2d_nhwc({{.*}}, %[[I0:c0_i64]], %[[N:.*]], %[[N]], %[[N]])
// CHECK: linalg.fill
// CHECK: linalg.generic
// CHECK-NOT: gopt_conv2d_epilogue
// CHECK: return
func.func @conv_epilogue_out_param_other_write(%x: memref<1x6x6x8xf32>, %w: memref<16x3x3x8xf32>, %b: memref<16xf32>, %y: memref<1x4x4x16xf32>, %z: memref<1x4x4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<1x4x4x16xf32>)
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, gopt.library_call = "gopt_conv2d"}
      ins(%x, %w : memref<1x6x6x8xf32>, memref<16x3x3x8xf32>) outs(%y : memref<1x4x4x16xf32>)
  linalg.fill ins(%zero : f32) outs(%z : memref<1x4x4x16xf32>)
  linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : memref<16xf32>) outs(%y : memref<1x4x4x16xf32>) attrs = {gopt.library_call = "gopt_conv2d_epilogue"} {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  }
  return
}
