// RUN: gopt-opt %s -split-input-file --gopt-channels-last | FileCheck %s

// Two convolutions in a row with an activation between: one transpose in,
// one out; the weights are permuted to FHWC at compile time (new
// constants, no transpose of them left; the old ones are gone), the bias
// stays.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x8x8xf32>)
// CHECK-DAG: %[[B:.*]] = gopt.constant dense<1.000000e-01> : tensor<4xf32>
// CHECK-DAG: %[[IN:.*]] = gopt.transpose %[[X]] perm = [0, 2, 3, 1] : tensor<1x3x8x8xf32> -> tensor<1x8x8x3xf32>
// CHECK-DAG: %[[W1:.*]] = gopt.constant dense_resource<folded> : tensor<4x3x3x3xf32>
// CHECK: %[[C1:.*]] = gopt.conv2d %[[IN]], %[[W1]], %[[B]] {{.*}} groups = 1 channels_last : tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32> -> tensor<1x8x8x4xf32>
// CHECK: %[[R:.*]] = gopt.relu %[[C1]] : tensor<1x8x8x4xf32>
// CHECK: %[[W2:.*]] = gopt.constant dense<{{.*}}> : tensor<4x1x1x4xf32>
// CHECK: %[[C2:.*]] = gopt.conv2d %[[R]], %[[W2]] {{.*}} channels_last : tensor<1x8x8x4xf32>, tensor<4x1x1x4xf32> -> tensor<1x8x8x4xf32>
// CHECK: %[[OUT:.*]] = gopt.transpose %[[C2]] perm = [0, 3, 1, 2] : tensor<1x8x8x4xf32> -> tensor<1x4x8x8xf32>
// CHECK-NEXT: return %[[OUT]]
func.func @chain(%x: tensor<1x3x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %w1 = gopt.constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]], [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]], [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]], [[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]], [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]], [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]], [[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]], [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]], [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]], [[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]], [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]], [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]]]> : tensor<4x3x3x3xf32>
  %b = gopt.constant dense<0.1> : tensor<4xf32>
  %c1 = gopt.conv2d %x, %w1, %b strides = [1, 1] padding = [1, 1, 1, 1] dilations = [1, 1] groups = 1 : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32> -> tensor<1x4x8x8xf32>
  %r = gopt.relu %c1 : tensor<1x4x8x8xf32>
  %w2 = gopt.constant dense<[[[[1.0]], [[2.0]], [[3.0]], [[4.0]]], [[[1.0]], [[2.0]], [[3.0]], [[4.0]]], [[[1.0]], [[2.0]], [[3.0]], [[4.0]]], [[[1.0]], [[2.0]], [[3.0]], [[4.0]]]]> : tensor<4x4x1x1xf32>
  %c2 = gopt.conv2d %r, %w2 strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x4x8x8xf32>, tensor<4x4x1x1xf32> -> tensor<1x4x8x8xf32>
  return %c2 : tensor<1x4x8x8xf32>
}

// -----

// The FHWC weight holds the FCHW one's elements moved: [f][c][h][w] goes to
// [f][h][w][c].
// CHECK-LABEL: func.func @weight_permuted
// CHECK: gopt.constant dense<{{\[\[\[\[}}1.000000e+00, 5.000000e+00], [2.000000e+00, 6.000000e+00]], {{\[\[}}3.000000e+00, 7.000000e+00], [4.000000e+00, 8.000000e+00]]]]> : tensor<1x2x2x2xf32>
func.func @weight_permuted(%x: tensor<1x2x4x4xf32>) -> tensor<1x1x3x3xf32> {
  %w = gopt.constant dense<[[[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]]> : tensor<1x2x2x2xf32>
  %c = gopt.conv2d %x, %w strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x2x4x4xf32>, tensor<1x2x2x2xf32> -> tensor<1x1x3x3xf32>
  return %c : tensor<1x1x3x3xf32>
}

// -----

// A weight computed at run time is transposed at run time.
// CHECK-LABEL: func.func @runtime_weight
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x4x4xf32>, %[[W:.*]]: tensor<3x2x3x3xf32>)
// CHECK: %[[WT:.*]] = gopt.transpose %[[W]] perm = [0, 2, 3, 1] : tensor<3x2x3x3xf32> -> tensor<3x3x3x2xf32>
// CHECK: gopt.conv2d %{{.*}}, %[[WT]] {{.*}} channels_last
func.func @runtime_weight(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x3x2x2xf32> {
  %c = gopt.conv2d %x, %w strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x2x4x4xf32>, tensor<3x2x3x3xf32> -> tensor<1x3x2x2xf32>
  return %c : tensor<1x3x2x2xf32>
}

// -----

// A squeeze-excite block and a residual add: the pooled scale, its 1x1
// convolutions, the broadcast multiply, the per-channel constant of lower
// rank (permuted at compile time) and the residual add (the input's second
// transpose is cse's to merge) all run on NHWC; pooling and
// global average pooling on such data turn channels last; the pooled
// [1, 1, 1, C] seen as [1, C] is a reshape, not a transpose.
// CHECK-LABEL: func.func @squeeze_excite
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x8x8xf32>)
// CHECK: %[[IN:.*]] = gopt.transpose %[[X]] perm = [0, 2, 3, 1]
// CHECK: %[[C:.*]] = gopt.conv2d %[[IN]], {{.*}} groups = 4 channels_last : {{.*}} -> tensor<1x8x8x4xf32>
// CHECK: %[[G:.*]] = gopt.global_avg_pool %[[C]] channels_last : tensor<1x8x8x4xf32> -> tensor<1x1x1x4xf32>
// CHECK: %[[E:.*]] = gopt.conv2d %[[G]], {{.*}} channels_last : {{.*}} -> tensor<1x1x1x4xf32>
// CHECK: %[[S:.*]] = gopt.sigmoid %[[E]] : tensor<1x1x1x4xf32>
// CHECK: %[[M:.*]] = gopt.mul %[[C]], %[[S]] : tensor<1x8x8x4xf32>, tensor<1x1x1x4xf32> -> tensor<1x8x8x4xf32>
// CHECK: %[[K:.*]] = gopt.mul %[[M]], %{{.*}} : tensor<1x8x8x4xf32>, tensor<1x1x1x4xf32> -> tensor<1x8x8x4xf32>
// CHECK: %[[IN2:.*]] = gopt.transpose %[[X]] perm = [0, 2, 3, 1]
// CHECK: %[[A:.*]] = gopt.add %[[K]], %[[IN2]] : tensor<1x8x8x4xf32>
// CHECK: %[[P:.*]] = gopt.pool2d max %[[A]] {{.*}} channels_last : tensor<1x8x8x4xf32> -> tensor<1x4x4x4xf32>
// CHECK: %[[GP:.*]] = gopt.global_avg_pool %[[P]] channels_last : tensor<1x4x4x4xf32> -> tensor<1x1x1x4xf32>
// CHECK-NOT: gopt.transpose
// CHECK: %[[F:.*]] = gopt.reshape %[[GP]] : tensor<1x1x1x4xf32> -> tensor<1x4xf32>
// CHECK: return %[[F]]
func.func @squeeze_excite(%x: tensor<1x4x8x8xf32>) -> tensor<1x4xf32> {
  %dw = gopt.constant dense<0.5> : tensor<4x1x3x3xf32>
  %c = gopt.conv2d %x, %dw strides = [1, 1] padding = [1, 1, 1, 1] dilations = [1, 1] groups = 4 : tensor<1x4x8x8xf32>, tensor<4x1x3x3xf32> -> tensor<1x4x8x8xf32>
  %g = gopt.global_avg_pool %c : tensor<1x4x8x8xf32> -> tensor<1x4x1x1xf32>
  %ew = gopt.constant dense<0.25> : tensor<4x4x1x1xf32>
  %e = gopt.conv2d %g, %ew strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x4x1x1xf32>, tensor<4x4x1x1xf32> -> tensor<1x4x1x1xf32>
  %s = gopt.sigmoid %e : tensor<1x4x1x1xf32>
  %m = gopt.mul %c, %s : tensor<1x4x8x8xf32>, tensor<1x4x1x1xf32> -> tensor<1x4x8x8xf32>
  %k = gopt.constant dense<[[[1.0]], [[2.0]], [[3.0]], [[4.0]]]> : tensor<4x1x1xf32>
  %mk = gopt.mul %m, %k : tensor<1x4x8x8xf32>, tensor<4x1x1xf32> -> tensor<1x4x8x8xf32>
  %a = gopt.add %mk, %x : tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32> -> tensor<1x4x8x8xf32>
  %p = gopt.pool2d max %a kernel = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] : tensor<1x4x8x8xf32> -> tensor<1x4x4x4xf32>
  %gp = gopt.global_avg_pool %p : tensor<1x4x4x4xf32> -> tensor<1x4x1x1xf32>
  %f = gopt.reshape %gp : tensor<1x4x1x1xf32> -> tensor<1x4xf32>
  return %f : tensor<1x4xf32>
}

// -----

// Scalars and all-unit operands broadcast the same in either layout: they
// stay as they are.
// CHECK-LABEL: func.func @unit_operands
// CHECK: %[[C:.*]] = gopt.conv2d {{.*}} channels_last
// CHECK: %[[A:.*]] = gopt.add %[[C]], %{{.*}} : tensor<1x4x4x2xf32>, tensor<f32> -> tensor<1x4x4x2xf32>
// CHECK: %[[M:.*]] = gopt.mul %[[A]], %{{.*}} : tensor<1x4x4x2xf32>, tensor<1x1xf32> -> tensor<1x4x4x2xf32>
// CHECK: gopt.transpose %[[M]] perm = [0, 3, 1, 2]
func.func @unit_operands(%x: tensor<1x2x4x4xf32>, %s: tensor<f32>, %t: tensor<1x1xf32>) -> tensor<1x2x4x4xf32> {
  %w = gopt.constant dense<1.0> : tensor<2x2x1x1xf32>
  %c = gopt.conv2d %x, %w strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32> -> tensor<1x2x4x4xf32>
  %a = gopt.add %c, %s : tensor<1x2x4x4xf32>, tensor<f32> -> tensor<1x2x4x4xf32>
  %m = gopt.mul %a, %t : tensor<1x2x4x4xf32>, tensor<1x1xf32> -> tensor<1x2x4x4xf32>
  return %m : tensor<1x2x4x4xf32>
}

// -----

// A small operand computed at run time (here an argument) is transposed to
// follow the sunk transpose (a [1, C, 1, 1] by a reshape: only unit dims
// move); a large one (8192 elements) stops it: the transpose stays before
// the op, which keeps NCHW.
// CHECK-LABEL: func.func @run_time_operands
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x64x64xf32>, %[[SMALL:.*]]: tensor<1x2x1x1xf32>, %[[BIG:.*]]: tensor<1x2x64x64xf32>)
// CHECK: %[[C:.*]] = gopt.conv2d {{.*}} channels_last : {{.*}} -> tensor<1x64x64x2xf32>
// CHECK: %[[ST:.*]] = gopt.reshape %[[SMALL]] : tensor<1x2x1x1xf32> -> tensor<1x1x1x2xf32>
// CHECK: %[[M:.*]] = gopt.mul %[[C]], %[[ST]] : tensor<1x64x64x2xf32>, tensor<1x1x1x2xf32>
// CHECK: %[[BACK:.*]] = gopt.transpose %[[M]] perm = [0, 3, 1, 2]
// CHECK: gopt.add %[[BACK]], %[[BIG]] : tensor<1x2x64x64xf32>
func.func @run_time_operands(%x: tensor<1x2x64x64xf32>, %small: tensor<1x2x1x1xf32>, %big: tensor<1x2x64x64xf32>) -> tensor<1x2x64x64xf32> {
  %w = gopt.constant dense<1.0> : tensor<2x2x1x1xf32>
  %c = gopt.conv2d %x, %w strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x2x64x64xf32>, tensor<2x2x1x1xf32> -> tensor<1x2x64x64xf32>
  %m = gopt.mul %c, %small : tensor<1x2x64x64xf32>, tensor<1x2x1x1xf32> -> tensor<1x2x64x64xf32>
  %a = gopt.add %m, %big : tensor<1x2x64x64xf32>, tensor<1x2x64x64xf32> -> tensor<1x2x64x64xf32>
  return %a : tensor<1x2x64x64xf32>
}

// -----

// Ops without convolutions are left alone, transposes of other
// permutations and poolings of NCHW data included.
// CHECK-LABEL: func.func @no_convolution
// CHECK-NEXT: gopt.transpose %{{.*}} perm = [0, 1, 3, 2]
// CHECK-NEXT: gopt.relu
// CHECK-NEXT: gopt.pool2d max %{{.*}} kernel = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] : tensor<1x2x4x4xf32>
// CHECK-NEXT: return
func.func @no_convolution(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32> {
  %t = gopt.transpose %x perm = [0, 1, 3, 2] : tensor<1x2x4x4xf32> -> tensor<1x2x4x4xf32>
  %r = gopt.relu %t : tensor<1x2x4x4xf32>
  %p = gopt.pool2d max %r kernel = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] : tensor<1x2x4x4xf32> -> tensor<1x2x2x2xf32>
  return %p : tensor<1x2x2x2xf32>
}

// -----

// The pass folds nothing and removes only what it replaced: a dead op and a
// constant subgraph stay for gopt-dce and gopt-fold (so its measured effect
// is the layout's alone).
// CHECK-LABEL: func.func @no_fold_no_dce
// CHECK: gopt.sqrt
// CHECK: gopt.neg
// CHECK: gopt.conv2d {{.*}} channels_last
func.func @no_fold_no_dce(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %c = gopt.constant dense<4.0> : tensor<1xf32>
  %s = gopt.sqrt %c : tensor<1xf32>
  %d = gopt.neg %x : tensor<1x2x4x4xf32>
  %w = gopt.constant dense<1.0> : tensor<2x2x1x1xf32>
  %conv = gopt.conv2d %x, %w strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32> -> tensor<1x2x4x4xf32>
  %m = gopt.mul %conv, %s : tensor<1x2x4x4xf32>, tensor<1xf32> -> tensor<1x2x4x4xf32>
  return %m : tensor<1x2x4x4xf32>
}

// -----

// Already fused (the pass after gopt-fuse): the convolution and pooling
// inside the kernel keep their layout; run time transposes inside it would
// be paid on every call.
// CHECK-LABEL: func.func @inside_fusion
// CHECK-NOT: gopt.transpose
// CHECK: gopt.conv2d
// CHECK-NOT: channels_last
// CHECK: return
func.func @inside_fusion(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32> {
  %w = gopt.constant dense<[[[[1.0]], [[2.0]]], [[[3.0]], [[4.0]]]]> : tensor<2x2x1x1xf32>
  %0 = gopt.fusion(%x, %w : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x2x2xf32> {
  ^bb0(%a: tensor<1x2x4x4xf32>, %b: tensor<2x2x1x1xf32>):
    %c = gopt.conv2d %a, %b strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32> -> tensor<1x2x4x4xf32>
    %r = gopt.relu %c : tensor<1x2x4x4xf32>
    %p = gopt.pool2d max %r kernel = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] : tensor<1x2x4x4xf32> -> tensor<1x2x2x2xf32>
    gopt.yield %p : tensor<1x2x2x2xf32>
  }
  return %0 : tensor<1x2x2x2xf32>
}


// -----

// DenseNet: every layer's features concatenated along the channels. The
// concat of NCHW views is a concat along NHWC's last axis, and the
// convolution after it reads it with no transpose between.
// CHECK-LABEL: func.func @concat_of_views
// CHECK: %[[A:.*]] = gopt.conv2d {{.*}} channels_last {{.*}} -> tensor<1x4x4x2xf32>
// CHECK: %[[B:.*]] = gopt.conv2d %[[A]], {{.*}} channels_last {{.*}} -> tensor<1x4x4x3xf32>
// CHECK: %[[C:.*]] = gopt.concat %[[A]], %[[B]] axis = 3 : tensor<1x4x4x2xf32>, tensor<1x4x4x3xf32> -> tensor<1x4x4x5xf32>
// CHECK: %[[D:.*]] = gopt.conv2d %[[C]], {{.*}} channels_last
// CHECK-NEXT: %[[OUT:.*]] = gopt.transpose %[[D]] perm = [0, 3, 1, 2]
// CHECK-NEXT: return %[[OUT]]
func.func @concat_of_views(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w1 = gopt.constant dense<1.0> : tensor<2x1x1x1xf32>
  %w2 = gopt.constant dense<0.5> : tensor<3x2x3x3xf32>
  %w3 = gopt.constant dense<0.25> : tensor<2x5x1x1xf32>
  %a = gopt.conv2d %x, %w1 strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32> -> tensor<1x2x4x4xf32>
  %b = gopt.conv2d %a, %w2 strides = [1, 1] padding = [1, 1, 1, 1] dilations = [1, 1] groups = 1 : tensor<1x2x4x4xf32>, tensor<3x2x3x3xf32> -> tensor<1x3x4x4xf32>
  %c = gopt.concat %a, %b axis = 1 : tensor<1x2x4x4xf32>, tensor<1x3x4x4xf32> -> tensor<1x5x4x4xf32>
  %d = gopt.conv2d %c, %w3 strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x5x4x4xf32>, tensor<2x5x1x1xf32> -> tensor<1x2x4x4xf32>
  return %d : tensor<1x2x4x4xf32>
}

// -----

// A constant concatenated with a view is permuted at compile time; an
// operand in NCHW (an argument) keeps the concat in NCHW.
// CHECK-LABEL: func.func @concat_operands
// CHECK: %[[K:.*]] = gopt.constant dense<2.000000e+00> : tensor<1x4x4x1xf32>
// CHECK: %[[A:.*]] = gopt.conv2d {{.*}} channels_last
// CHECK: %[[V:.*]] = gopt.transpose %[[A]] perm = [0, 3, 1, 2]
// CHECK: %[[C:.*]] = gopt.concat %[[A]], %[[K]] axis = 3 : tensor<1x4x4x2xf32>, tensor<1x4x4x1xf32> -> tensor<1x4x4x3xf32>
// CHECK: gopt.concat %[[V]], %{{.*}} axis = 1 : tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32> -> tensor<1x3x4x4xf32>
func.func @concat_operands(%x: tensor<1x1x4x4xf32>, %y: tensor<1x1x4x4xf32>) -> (tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>) {
  %w = gopt.constant dense<1.0> : tensor<2x1x1x1xf32>
  %k = gopt.constant dense<2.0> : tensor<1x1x4x4xf32>
  %a = gopt.conv2d %x, %w strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32> -> tensor<1x2x4x4xf32>
  %c = gopt.concat %a, %k axis = 1 : tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32> -> tensor<1x3x4x4xf32>
  %e = gopt.concat %a, %y axis = 1 : tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32> -> tensor<1x3x4x4xf32>
  return %c, %e : tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>
}

// -----

// A resize of a view (an FPN's upsampling between convolutions) runs on
// the NHWC data, its scale and offset permuted.
// CHECK-LABEL: func.func @resize_between_convolutions
// CHECK: %[[A:.*]] = gopt.conv2d {{.*}} channels_last {{.*}} -> tensor<1x4x6x2xf32>
// CHECK: %[[R:.*]] = gopt.resize linear %[[A]] scale = [1.000000e+00, 5.000000e-01, 0.33333333333333331, 1.000000e+00] offset = [0.000000e+00, -2.500000e-01, -0.33333333333333331, 0.000000e+00] : tensor<1x4x6x2xf32> -> tensor<1x8x18x2xf32>
// CHECK: gopt.conv2d %[[R]], {{.*}} channels_last
// CHECK-NOT: gopt.transpose
func.func @resize_between_convolutions(%x: tensor<1x3x4x6xf32>) -> tensor<1x1x8x18xf32> {
  %w1 = gopt.constant dense<1.0> : tensor<2x3x1x1xf32>
  %w2 = gopt.constant dense<0.5> : tensor<1x2x1x1xf32>
  %a = gopt.conv2d %x, %w1 strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x3x4x6xf32>, tensor<2x3x1x1xf32> -> tensor<1x2x4x6xf32>
  %r = gopt.resize linear %a scale = [1.0, 1.0, 0.5, 0.3333333333333333] offset = [0.0, 0.0, -0.25, -0.33333333333333331] : tensor<1x2x4x6xf32> -> tensor<1x2x8x18xf32>
  %c = gopt.conv2d %r, %w2 strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x2x8x18xf32>, tensor<1x2x1x1xf32> -> tensor<1x1x8x18xf32>
  return %c : tensor<1x1x8x18xf32>
}

// -----

// An upsampling whose result leaves the convolutional part (a segmentation
// head's last resize, returned) stays NCHW: the transpose goes before it,
// on the small input, not after it on the large result. A downsampling
// moves whatever reads it.
// CHECK-LABEL: func.func @upsampled_result_stays_nchw
// CHECK: %[[A:.*]] = gopt.conv2d {{.*}} channels_last {{.*}} -> tensor<1x4x6x2xf32>
// CHECK: %[[T:.*]] = gopt.transpose %[[A]] perm = [0, 3, 1, 2] : tensor<1x4x6x2xf32> -> tensor<1x2x4x6xf32>
// CHECK: %[[UP:.*]] = gopt.resize linear %[[T]] scale = [1.000000e+00, 1.000000e+00, 2.500000e-01, 2.500000e-01] {{.*}} : tensor<1x2x4x6xf32> -> tensor<1x2x16x24xf32>
// CHECK: %[[DOWN:.*]] = gopt.resize nearest_floor %[[A]] scale = [1.000000e+00, 2.000000e+00, 2.000000e+00, 1.000000e+00] {{.*}} : tensor<1x4x6x2xf32> -> tensor<1x2x3x2xf32>
// CHECK: %[[DT:.*]] = gopt.transpose %[[DOWN]] perm = [0, 3, 1, 2]
// CHECK: return %[[UP]], %[[DT]]
func.func @upsampled_result_stays_nchw(%x: tensor<1x3x4x6xf32>) -> (tensor<1x2x16x24xf32>, tensor<1x2x2x3xf32>) {
  %w1 = gopt.constant dense<1.0> : tensor<2x3x1x1xf32>
  %a = gopt.conv2d %x, %w1 strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x3x4x6xf32>, tensor<2x3x1x1xf32> -> tensor<1x2x4x6xf32>
  %up = gopt.resize linear %a scale = [1.0, 1.0, 0.25, 0.25] offset = [0.0, 0.0, -0.375, -0.375] : tensor<1x2x4x6xf32> -> tensor<1x2x16x24xf32>
  %down = gopt.resize nearest_floor %a scale = [1.0, 1.0, 2.0, 2.0] offset = [0.0, 0.0, 0.0, 0.0] : tensor<1x2x4x6xf32> -> tensor<1x2x2x3xf32>
  return %up, %down : tensor<1x2x16x24xf32>, tensor<1x2x2x3xf32>
}

// -----

// Slices, splits and pads of a view run on the NHWC data with their
// per-dim attributes permuted; the convolution after them reads NHWC.
// CHECK-LABEL: func.func @slice_split_pad
// CHECK: %[[A:.*]] = gopt.conv2d {{.*}} channels_last {{.*}} -> tensor<1x6x6x4xf32>
// CHECK: %[[S:.*]] = gopt.slice %[[A]] starts = [0, 1, 0, 1] ends = [1, 6, 6, 4] steps = [1, 1, 2, 1] : tensor<1x6x6x4xf32> -> tensor<1x5x3x3xf32>
// CHECK: %[[P:.*]]:2 = gopt.split %[[S]] axis = 3 sizes = [1, 2] : tensor<1x5x3x3xf32> -> tensor<1x5x3x1xf32>, tensor<1x5x3x2xf32>
// CHECK: %[[P0:.*]] = gopt.reshape %[[P]]#0 : tensor<1x5x3x1xf32> -> tensor<1x1x5x3xf32>
// CHECK: %[[D:.*]] = gopt.pad %[[P]]#1 low = [0, 0, 1, 0] high = [0, 1, 0, 0] value = 0.000000e+00 : tensor<1x5x3x2xf32> -> tensor<1x6x4x2xf32>
// CHECK: %[[C:.*]] = gopt.conv2d %[[D]], {{.*}} channels_last {{.*}} -> tensor<1x6x4x1xf32>
// CHECK: %[[OUT:.*]] = gopt.reshape %[[C]]
// CHECK-NOT: gopt.transpose
// CHECK: return %[[P0]], %[[OUT]]
func.func @slice_split_pad(%x: tensor<1x1x6x6xf32>) -> (tensor<1x1x5x3xf32>, tensor<1x1x6x4xf32>) {
  %w1 = gopt.constant dense<1.0> : tensor<4x1x1x1xf32>
  %w2 = gopt.constant dense<0.5> : tensor<1x2x1x1xf32>
  %a = gopt.conv2d %x, %w1 strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x1x6x6xf32>, tensor<4x1x1x1xf32> -> tensor<1x4x6x6xf32>
  %s = gopt.slice %a starts = [0, 1, 1, 0] ends = [1, 4, 6, 6] steps = [1, 1, 1, 2] : tensor<1x4x6x6xf32> -> tensor<1x3x5x3xf32>
  %p:2 = gopt.split %s axis = 1 sizes = [1, 2] : tensor<1x3x5x3xf32> -> tensor<1x1x5x3xf32>, tensor<1x2x5x3xf32>
  %d = gopt.pad %p#1 low = [0, 0, 0, 1] high = [0, 0, 1, 0] value = 0.0 : tensor<1x2x5x3xf32> -> tensor<1x2x6x4xf32>
  %c = gopt.conv2d %d, %w2 strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x2x6x4xf32>, tensor<1x2x1x1xf32> -> tensor<1x1x6x4xf32>
  return %p#0, %c : tensor<1x1x5x3xf32>, tensor<1x1x6x4xf32>
}

// -----

// A reduce of a view: over H and W without keepdims ([N, C] either way)
// and with keepdims it runs on the NHWC data; over H alone without
// keepdims the dims it keeps would change order, so it stays in NCHW.
// CHECK-LABEL: func.func @reduce_of_view
// CHECK: %[[A:.*]] = gopt.conv2d {{.*}} channels_last {{.*}} -> tensor<1x4x4x2xf32>
// CHECK: %[[V:.*]] = gopt.transpose %[[A]] perm = [0, 3, 1, 2]
// CHECK: %[[M:.*]] = gopt.reduce mean %[[A]] axes = [1, 2] : tensor<1x4x4x2xf32> -> tensor<1x2xf32>
// CHECK: %[[K:.*]] = gopt.reduce max %[[A]] axes = [3] keepdims : tensor<1x4x4x2xf32> -> tensor<1x4x4x1xf32>
// CHECK: %[[KV:.*]] = gopt.reshape %[[K]] : tensor<1x4x4x1xf32> -> tensor<1x1x4x4xf32>
// CHECK: %[[H:.*]] = gopt.reduce sum %[[V]] axes = [2] : tensor<1x2x4x4xf32> -> tensor<1x2x4xf32>
// CHECK: return %[[M]], %[[KV]], %[[H]]
func.func @reduce_of_view(%x: tensor<1x1x4x4xf32>) -> (tensor<1x2xf32>, tensor<1x1x4x4xf32>, tensor<1x2x4xf32>) {
  %w = gopt.constant dense<1.0> : tensor<2x1x1x1xf32>
  %a = gopt.conv2d %x, %w strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32> -> tensor<1x2x4x4xf32>
  %m = gopt.reduce mean %a axes = [2, 3] : tensor<1x2x4x4xf32> -> tensor<1x2xf32>
  %k = gopt.reduce max %a axes = [1] keepdims : tensor<1x2x4x4xf32> -> tensor<1x1x4x4xf32>
  %h = gopt.reduce sum %a axes = [2] : tensor<1x2x4x4xf32> -> tensor<1x2x4xf32>
  return %m, %k, %h : tensor<1x2xf32>, tensor<1x1x4x4xf32>, tensor<1x2x4xf32>
}

// -----

// ConvNeXt: a depthwise convolution, a permute to channels last for the
// layer norm over channels, and one back. The permutes cancel against the
// convolutions' transposes: the layer norm reads the convolution's NHWC
// result and the next convolution the layer norm's.
// CHECK-LABEL: func.func @transpose_of_view
// CHECK: %[[A:.*]] = gopt.conv2d {{.*}} channels_last {{.*}} -> tensor<1x4x4x2xf32>
// CHECK-NEXT: %[[N:.*]] = gopt.layer_norm %[[A]], {{.*}} axes = [3]
// CHECK-NEXT: %[[B:.*]] = gopt.conv2d %[[N]], {{.*}} channels_last
// CHECK-NEXT: %[[OUT:.*]] = gopt.transpose %[[B]] perm = [0, 3, 1, 2]
// CHECK-NEXT: %[[T:.*]] = gopt.transpose %[[A]] perm = [0, 2, 1, 3] : tensor<1x4x4x2xf32> -> tensor<1x4x4x2xf32>
// CHECK-NEXT: return %[[OUT]], %[[T]]
func.func @transpose_of_view(%x: tensor<1x2x4x4xf32>, %g: tensor<2xf32>, %b: tensor<2xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x4x4x2xf32>) {
  %w1 = gopt.constant dense<1.0> : tensor<2x1x3x3xf32>
  %w2 = gopt.constant dense<0.5> : tensor<2x2x1x1xf32>
  %a = gopt.conv2d %x, %w1 strides = [1, 1] padding = [1, 1, 1, 1] dilations = [1, 1] groups = 2 : tensor<1x2x4x4xf32>, tensor<2x1x3x3xf32> -> tensor<1x2x4x4xf32>
  %p = gopt.transpose %a perm = [0, 2, 3, 1] : tensor<1x2x4x4xf32> -> tensor<1x4x4x2xf32>
  %n = gopt.layer_norm %p, %g, %b axes = [3] eps = 1.0e-6 : tensor<1x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>
  %q = gopt.transpose %n perm = [0, 3, 1, 2] : tensor<1x4x4x2xf32> -> tensor<1x2x4x4xf32>
  %c = gopt.conv2d %q, %w2 strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32> -> tensor<1x2x4x4xf32>
  %t = gopt.transpose %a perm = [0, 3, 2, 1] : tensor<1x2x4x4xf32> -> tensor<1x4x4x2xf32>
  return %c, %t : tensor<1x2x4x4xf32>, tensor<1x4x4x2xf32>
}

// -----

// Axes counted from the back (found by gopt-difftest): the concat's -3 is
// NCHW's channel axis, 3 in NHWC; the reduce's [-2, -1] are H and W.
// CHECK-LABEL: func.func @negative_axes
// CHECK: %[[A:.*]] = gopt.conv2d {{.*}} channels_last {{.*}} -> tensor<1x4x4x2xf32>
// CHECK: gopt.concat %[[A]], %[[A]] axis = 3 : tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32> -> tensor<1x4x4x4xf32>
// CHECK: gopt.reduce max %[[A]] axes = [1, 2] : tensor<1x4x4x2xf32> -> tensor<1x2xf32>
func.func @negative_axes(%x: tensor<1x1x4x4xf32>) -> (tensor<1x4x4x4xf32>, tensor<1x2xf32>) {
  %w = gopt.constant dense<1.0> : tensor<2x1x1x1xf32>
  %a = gopt.conv2d %x, %w strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32> -> tensor<1x2x4x4xf32>
  %c = gopt.concat %a, %a axis = -3 : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32> -> tensor<1x4x4x4xf32>
  %m = gopt.reduce max %a axes = [-2, -1] : tensor<1x2x4x4xf32> -> tensor<1x2xf32>
  return %c, %m : tensor<1x4x4x4xf32>, tensor<1x2xf32>
}

// -----

// Rank 5: the NDHWC → NCDHW transposes the importer puts after a 3-D
// convolution (a 2-D one over the frames) sink the same way. The
// per-channel constant [C, 1, 1, 1] is permuted at compile time, the
// residual add takes both NDHWC values, the next convolution's transpose
// to NDHWC cancels, a slice of the frames runs on NDHWC, and the mean
// over D, H and W keeps only the flatten's reshape.
// CHECK-LABEL: func.func @frames
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x3x4x4xf32>)
// CHECK: %[[XT:.*]] = gopt.transpose %[[X]] perm = [0, 2, 3, 4, 1]
// CHECK: %[[XF:.*]] = gopt.reshape %[[XT]] : tensor<1x3x4x4x4xf32> -> tensor<3x4x4x4xf32>
// CHECK: %[[C:.*]] = gopt.conv2d %[[XF]]
// CHECK: %[[CF:.*]] = gopt.reshape %[[C]] : tensor<3x4x4x2xf32> -> tensor<1x3x4x4x2xf32>
// CHECK: %[[S:.*]] = gopt.constant dense<2.000000e+00> : tensor<1x1x1x1x2xf32>
// CHECK: %[[M:.*]] = gopt.mul %[[CF]], %[[S]] : tensor<1x3x4x4x2xf32>, tensor<1x1x1x1x2xf32> -> tensor<1x3x4x4x2xf32>
// CHECK: %[[A:.*]] = gopt.add %[[M]], %[[CF]] : tensor<1x3x4x4x2xf32>
// CHECK: %[[SL:.*]] = gopt.slice %[[A]] starts = [0, 1, 0, 0, 0] ends = [1, 3, 4, 4, 2] steps = [1, 1, 1, 1, 1] : tensor<1x3x4x4x2xf32> -> tensor<1x2x4x4x2xf32>
// CHECK: %[[MEAN:.*]] = gopt.reduce mean %[[SL]] axes = [1, 2, 3] keepdims : tensor<1x2x4x4x2xf32> -> tensor<1x1x1x1x2xf32>
// CHECK: %[[FLAT:.*]] = gopt.reshape %[[MEAN]] : tensor<1x1x1x1x2xf32> -> tensor<1x2xf32>
// CHECK-NOT: gopt.transpose
// CHECK: return %[[FLAT]]
func.func @frames(%x: tensor<1x4x3x4x4xf32>) -> tensor<1x2xf32> {
  %w = gopt.constant dense<1.0> : tensor<2x1x1x4xf32>
  %xt = gopt.transpose %x perm = [0, 2, 3, 4, 1] : tensor<1x4x3x4x4xf32> -> tensor<1x3x4x4x4xf32>
  %xf = gopt.reshape %xt : tensor<1x3x4x4x4xf32> -> tensor<3x4x4x4xf32>
  %c = gopt.conv2d %xf, %w strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 channels_last : tensor<3x4x4x4xf32>, tensor<2x1x1x4xf32> -> tensor<3x4x4x2xf32>
  %cf = gopt.reshape %c : tensor<3x4x4x2xf32> -> tensor<1x3x4x4x2xf32>
  %y = gopt.transpose %cf perm = [0, 4, 1, 2, 3] : tensor<1x3x4x4x2xf32> -> tensor<1x2x3x4x4xf32>
  %s = gopt.constant dense<2.0> : tensor<2x1x1x1xf32>
  %m = gopt.mul %y, %s : tensor<1x2x3x4x4xf32>, tensor<2x1x1x1xf32> -> tensor<1x2x3x4x4xf32>
  %a = gopt.add %m, %y : tensor<1x2x3x4x4xf32>
  %sl = gopt.slice %a starts = [0, 0, 1, 0, 0] ends = [1, 2, 3, 4, 4] steps = [1, 1, 1, 1, 1] : tensor<1x2x3x4x4xf32> -> tensor<1x2x2x4x4xf32>
  %mean = gopt.reduce mean %sl axes = [2, 3, 4] keepdims : tensor<1x2x2x4x4xf32> -> tensor<1x2x1x1x1xf32>
  %flat = gopt.reshape %mean : tensor<1x2x1x1x1xf32> -> tensor<1x2xf32>
  return %flat : tensor<1x2xf32>
}

// -----

// The reshape that folds a 3-D convolution's frames back out of the batch
// sinks below the activation, the per-channel scale and the residual add,
// so that they can be the convolution's epilogue: the scale's leading unit
// dims go (rank 5 against the rank-4 result), the add reads both
// convolutions' results. One reshape is left, after the add.
// CHECK-LABEL: func.func @reshape_below_activation
// CHECK: %[[C:.*]] = gopt.conv2d {{.*}} -> tensor<4x3x3x2xf32>
// CHECK: %[[R:.*]] = gopt.relu %[[C]] : tensor<4x3x3x2xf32>
// CHECK: %[[S:.*]] = gopt.constant dense<2.000000e+00> : tensor<1x1x1x2xf32>
// CHECK: %[[M:.*]] = gopt.mul %[[R]], %[[S]] : tensor<4x3x3x2xf32>, tensor<1x1x1x2xf32> -> tensor<4x3x3x2xf32>
// CHECK: %[[D:.*]] = gopt.conv2d {{.*}} -> tensor<4x3x3x2xf32>
// CHECK: %[[A:.*]] = gopt.add %[[M]], %[[D]] : tensor<4x3x3x2xf32>
// CHECK: %[[OUT:.*]] = gopt.reshape %[[A]] : tensor<4x3x3x2xf32> -> tensor<1x4x3x3x2xf32>
// CHECK: return %[[OUT]]
func.func @reshape_below_activation(%x: tensor<4x3x3x2xf32>) -> tensor<1x4x3x3x2xf32> {
  %w = gopt.constant dense<1.0> : tensor<2x1x1x2xf32>
  %c = gopt.conv2d %x, %w strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 channels_last : tensor<4x3x3x2xf32>, tensor<2x1x1x2xf32> -> tensor<4x3x3x2xf32>
  %cr = gopt.reshape %c : tensor<4x3x3x2xf32> -> tensor<1x4x3x3x2xf32>
  %r = gopt.relu %cr : tensor<1x4x3x3x2xf32>
  %s = gopt.constant dense<2.0> : tensor<1x1x1x1x2xf32>
  %m = gopt.mul %r, %s : tensor<1x4x3x3x2xf32>, tensor<1x1x1x1x2xf32> -> tensor<1x4x3x3x2xf32>
  %d = gopt.conv2d %x, %w strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 channels_last : tensor<4x3x3x2xf32>, tensor<2x1x1x2xf32> -> tensor<4x3x3x2xf32>
  %dr = gopt.reshape %d : tensor<4x3x3x2xf32> -> tensor<1x4x3x3x2xf32>
  %a = gopt.add %m, %dr : tensor<1x4x3x3x2xf32>
  return %a : tensor<1x4x3x3x2xf32>
}

// -----

// Left as they are: a reshape something else reads too, a reshape of a
// value no convolution, pooling or elementwise op computed (an argument),
// and an operand that would broadcast differently against the
// convolution's result (its trailing dims are not the result's).
// CHECK-LABEL: func.func @reshape_stays
// CHECK: %[[C:.*]] = gopt.conv2d
// CHECK: %[[CR:.*]] = gopt.reshape %[[C]] : tensor<4x3x3x2xf32> -> tensor<2x2x3x3x2xf32>
// CHECK: gopt.relu %[[CR]] : tensor<2x2x3x3x2xf32>
// CHECK: %[[XR:.*]] = gopt.reshape %arg0
// CHECK: gopt.relu %[[XR]] : tensor<2x2x3x3x2xf32>
// CHECK: %[[D:.*]] = gopt.conv2d
// CHECK: %[[DR:.*]] = gopt.reshape %[[D]]
// CHECK: gopt.mul %[[DR]], %arg1 : tensor<2x2x3x3x2xf32>, tensor<2x1x1x1x1xf32> -> tensor<2x2x3x3x2xf32>
func.func @reshape_stays(%x: tensor<4x3x3x2xf32>, %t: tensor<2x1x1x1x1xf32>) -> (tensor<2x2x3x3x2xf32>, tensor<2x2x3x3x2xf32>, tensor<2x2x3x3x2xf32>, tensor<2x2x3x3x2xf32>) {
  %w = gopt.constant dense<1.0> : tensor<2x1x1x2xf32>
  %c = gopt.conv2d %x, %w strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 channels_last : tensor<4x3x3x2xf32>, tensor<2x1x1x2xf32> -> tensor<4x3x3x2xf32>
  %cr = gopt.reshape %c : tensor<4x3x3x2xf32> -> tensor<2x2x3x3x2xf32>
  %r = gopt.relu %cr : tensor<2x2x3x3x2xf32>
  %xr = gopt.reshape %x : tensor<4x3x3x2xf32> -> tensor<2x2x3x3x2xf32>
  %xa = gopt.relu %xr : tensor<2x2x3x3x2xf32>
  %d = gopt.conv2d %x, %w strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 channels_last : tensor<4x3x3x2xf32>, tensor<2x1x1x2xf32> -> tensor<4x3x3x2xf32>
  %dr = gopt.reshape %d : tensor<4x3x3x2xf32> -> tensor<2x2x3x3x2xf32>
  %m = gopt.mul %dr, %t : tensor<2x2x3x3x2xf32>, tensor<2x1x1x1x1xf32> -> tensor<2x2x3x3x2xf32>
  return %r, %cr, %xa, %m : tensor<2x2x3x3x2xf32>, tensor<2x2x3x3x2xf32>, tensor<2x2x3x3x2xf32>, tensor<2x2x3x3x2xf32>
}
