// RUN: gopt-opt %s -split-input-file --gopt-convolutions-to-gemm | FileCheck %s

// The convolutions below are what convert-gopt-to-linalg makes of an
// ungrouped gopt.conv2d: NCHW with an FCHW filter, and NHWC with an FHWC
// filter after gopt-channels-last.

// NCHW, stride 2: an im2col copy [N, C·KH·KW, OH·OW] (parallel loops only),
// then a contraction with the filter as a [F, C·KH·KW] matrix (one
// reduction loop), reshaped back to [N, F, OH, OW].
// CHECK-LABEL: func.func @nchw
// CHECK-SAME: (%[[X:.*]]: tensor<2x5x12x11xf32>, %[[W:.*]]: tensor<7x5x3x2xf32>
// CHECK-NOT: linalg.conv_2d
// CHECK: %[[FILTER:.*]] = tensor.collapse_shape %[[W]] {{\[}}[0], [1, 2, 3]] : tensor<7x5x3x2xf32> into tensor<7x30xf32>
// CHECK: %[[COL:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[X]] : tensor<2x5x12x11xf32>) outs(%{{.*}} : tensor<2x30x50xf32>)
// CHECK: %[[GEMM:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[FILTER]], %[[COL]] : tensor<7x30xf32>, tensor<2x30x50xf32>) outs(%{{.*}} : tensor<2x7x50xf32>)
// CHECK: %[[OUT:.*]] = tensor.expand_shape %[[GEMM]] {{.*}} : tensor<2x7x50xf32> into tensor<2x7x5x10xf32>
// CHECK: return %[[OUT]]
func.func @nchw(%x: tensor<2x5x12x11xf32>, %w: tensor<7x5x3x2xf32>, %init: tensor<2x7x5x10xf32>) -> tensor<2x7x5x10xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>} ins(%x, %w : tensor<2x5x12x11xf32>, tensor<7x5x3x2xf32>) outs(%init : tensor<2x7x5x10xf32>) -> tensor<2x7x5x10xf32>
  return %0 : tensor<2x7x5x10xf32>
}

// -----

// NHWC: the im2col rows are the output positions [N, OH·OW, KH·KW·C], and
// the contraction reads the filter [F, KH·KW·C] along its rows.
// CHECK-LABEL: func.func @nhwc
// CHECK-NOT: linalg.conv_2d
// CHECK: tensor.collapse_shape %{{.*}} : tensor<16x3x3x8xf32> into tensor<16x72xf32>
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x64x72xf32>)
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<1x64x72xf32>, tensor<16x72xf32>) outs(%{{.*}} : tensor<1x64x16xf32>)
// CHECK: tensor.expand_shape %{{.*}} : tensor<1x64x16xf32> into tensor<1x8x8x16xf32>
func.func @nhwc(%x: tensor<1x10x10x8xf32>, %w: tensor<16x3x3x8xf32>, %init: tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32> {
  %0 = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x10x10x8xf32>, tensor<16x3x3x8xf32>) outs(%init : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  return %0 : tensor<1x8x8x16xf32>
}

// -----

// Left as they are: a dilated convolution (upstream's im2col takes none),
// and one on f16 (no f32 GEMM computes it).
// CHECK-LABEL: func.func @kept
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<2>
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} -> tensor<1x4x6x6xf16>
func.func @kept(%x: tensor<1x3x10x10xf32>, %w: tensor<4x3x3x3xf32>, %init: tensor<1x4x6x6xf32>, %xh: tensor<1x3x8x8xf16>, %wh: tensor<4x3x3x3xf16>, %inith: tensor<1x4x6x6xf16>) -> (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf16>) {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x3x10x10xf32>, tensor<4x3x3x3xf32>) outs(%init : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%xh, %wh : tensor<1x3x8x8xf16>, tensor<4x3x3x3xf16>) outs(%inith : tensor<1x4x6x6xf16>) -> tensor<1x4x6x6xf16>
  return %0, %1 : tensor<1x4x6x6xf32>, tensor<1x4x6x6xf16>
}

// -----

// A zero-padded input (convert-gopt-to-linalg's tensor.pad): the im2col copy
// reads the unpadded input, its indices shifted by the low padding and
// clamped, and selects zero where they fell in the padding; the padded
// tensor is not built.
// CHECK-LABEL: func.func @padded
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<1x3x8x8xf32>
// CHECK-NOT: tensor.pad
// CHECK: %[[COL:.*]] = linalg.generic {indexing_maps = [#{{.*}}], iterator_types = ["parallel", "parallel", "parallel"]} outs(%{{.*}} : tensor<1x27x64xf32>)
// CHECK-DAG: %[[H:.*]] = arith.minsi
// CHECK-DAG: %[[W:.*]] = arith.minsi
// CHECK: %[[E:.*]] = tensor.extract %[[X]][%{{.*}}, %{{.*}}, %[[H]], %[[W]]] : tensor<1x3x8x8xf32>
// CHECK: %[[V:.*]] = arith.select %{{.*}}, %[[E]], %{{.*}} : f32
// CHECK: linalg.yield %[[V]] : f32
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %[[COL]] : tensor<4x27xf32>, tensor<1x27x64xf32>)
// CHECK-NOT: tensor.pad
func.func @padded(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %init: tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x3x8x8xf32> to tensor<1x3x10x10xf32>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%p, %w : tensor<1x3x10x10xf32>, tensor<4x3x3x3xf32>) outs(%init : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return %0 : tensor<1x4x8x8xf32>
}

// -----

// 1x1, unit strides, no padding: the im2col tensor is the input with its
// spatial dims collapsed, a view; no copy, the GEMM reads the input.
// CHECK-LABEL: func.func @pointwise
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<2x8x6x5xf32>, %{{.*}}, %{{.*}}, %[[XH:[a-z0-9]+]]: tensor<2x6x5x8xf32>
// CHECK-NOT: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK: %[[C:.*]] = tensor.collapse_shape %[[X]] {{\[\[}}0], [1], [2, 3]] : tensor<2x8x6x5xf32> into tensor<2x8x30xf32>
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %[[C]] : tensor<16x8xf32>, tensor<2x8x30xf32>)
// CHECK: %[[CH:.*]] = tensor.collapse_shape %[[XH]] {{\[\[}}0], [1, 2], [3]] : tensor<2x6x5x8xf32> into tensor<2x30x8xf32>
// CHECK: linalg.generic {{.*}} ins(%[[CH]], %{{.*}} : tensor<2x30x8xf32>, tensor<16x8xf32>)
func.func @pointwise(%x: tensor<2x8x6x5xf32>, %w: tensor<16x8x1x1xf32>, %init: tensor<2x16x6x5xf32>, %xh: tensor<2x6x5x8xf32>, %wh: tensor<16x1x1x8xf32>, %inith: tensor<2x6x5x16xf32>) -> (tensor<2x16x6x5xf32>, tensor<2x6x5x16xf32>) {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<2x8x6x5xf32>, tensor<16x8x1x1xf32>) outs(%init : tensor<2x16x6x5xf32>) -> tensor<2x16x6x5xf32>
  %1 = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%xh, %wh : tensor<2x6x5x8xf32>, tensor<16x1x1x8xf32>) outs(%inith : tensor<2x6x5x16xf32>) -> tensor<2x6x5x16xf32>
  return %0, %1 : tensor<2x16x6x5xf32>, tensor<2x6x5x16xf32>
}
