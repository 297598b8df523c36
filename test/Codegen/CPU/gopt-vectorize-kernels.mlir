// RUN: gopt-opt %s -split-input-file -verify-each --gopt-vectorize-kernels | FileCheck %s

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// Trailing unit dims are dropped before vectorizing: one vector<64xf32>
// row, not 64 one-element vectors of a vector<1x64x1x1xf32>.
// CHECK-LABEL: func.func @trailing_unit_dims
// CHECK: vector.transfer_read {{.*}} vector<64xf32>
// CHECK: arith.mulf {{.*}} : vector<64xf32>
// CHECK-NOT: vector<1x64x1x1xf32>
func.func @trailing_unit_dims(%x: tensor<1x64x1x1xf32>) -> tensor<1x64x1x1xf32> {
  %e = tensor.empty() : tensor<1x64x1x1xf32>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x64x1x1xf32>) outs(%e : tensor<1x64x1x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    linalg.yield %m : f32
  } -> tensor<1x64x1x1xf32>
  return %r : tensor<1x64x1x1xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// A generic whose innermost loop is wider than one keeps its shape.
// CHECK-LABEL: func.func @rows
// CHECK: arith.mulf {{.*}} : vector<1x4x8xf32>
func.func @rows(%x: tensor<1x4x8xf32>) -> tensor<1x4x8xf32> {
  %e = tensor.empty() : tensor<1x4x8xf32>
  %r = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x4x8xf32>) outs(%e : tensor<1x4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    linalg.yield %m : f32
  } -> tensor<1x4x8xf32>
  return %r : tensor<1x4x8xf32>
}

// -----

// A convolution marked for the library stays whole, even with a size-one
// window that the decomposition patterns would turn into a 1-D op; an
// unmarked one is decomposed for the vectorizer.
// CHECK-LABEL: func.func @convolutions
// CHECK: linalg.conv_2d_nchw_fchw {{.*}}gopt.library_call = "gopt_conv2d"{{.*}} -> tensor<1x32x1x1xf32>
// CHECK-NOT: linalg.conv_2d_nchw_fchw
// CHECK: return
func.func @convolutions(%x: tensor<1x16x1x1xf32>, %w: tensor<32x16x1x1xf32>, %init: tensor<1x32x1x1xf32>) -> (tensor<1x32x1x1xf32>, tensor<1x32x1x1xf32>) {
  %lib = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, gopt.library_call = "gopt_conv2d"}
      ins(%x, %w : tensor<1x16x1x1xf32>, tensor<32x16x1x1xf32>) outs(%init : tensor<1x32x1x1xf32>) -> tensor<1x32x1x1xf32>
  %gen = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x16x1x1xf32>, tensor<32x16x1x1xf32>) outs(%init : tensor<1x32x1x1xf32>) -> tensor<1x32x1x1xf32>
  return %lib, %gen : tensor<1x32x1x1xf32>, tensor<1x32x1x1xf32>
}

// -----

#perm = affine_map<(d0, d1) -> (d1, d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

// A block of a transpose (what gopt-fuse-kernel-loops leaves, up to 64 x
// 64) is cut into 8 x 8 vector tiles: 8 input rows of 8 floats in, 8
// result rows out, not one result row of 32 read down an input column.
// CHECK-LABEL: func.func @transpose_block
// CHECK: scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (64, 64) step (8, 8)
// CHECK: vector.transfer_read {{.*}} : tensor<8x8xf32>, vector<8x8xf32>
// CHECK: vector.transpose {{.*}} [1, 0] : vector<8x8xf32> to vector<8x8xf32>
// CHECK: vector.transfer_write {{.*}} : vector<8x8xf32>, tensor<8x8xf32>
func.func @transpose_block(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %t = linalg.generic {indexing_maps = [#perm, #id2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<64x64xf32>
  return %t : tensor<64x64xf32>
}
