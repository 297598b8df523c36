// RUN: gopt-opt %s -split-input-file -verify-each --convert-gopt-to-linalg | FileCheck %s
// RUN: gopt-opt %s -split-input-file --convert-gopt-to-linalg | FileCheck %s --check-prefix=NOGOPT

// No gopt op survives the conversion (the grouped convolution's
// gopt.grouped_conv2d attribute describes a linalg op).
// NOGOPT-NOT: {{= gopt\.|^ *gopt\.}}

// CHECK-LABEL: func.func @constants
// CHECK-DAG: arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-DAG: arith.constant dense_resource<blob> : tensor<2x2xf32>
// CHECK: blob: "0x04
func.func @constants() -> (tensor<2xf32>, tensor<2x2xf32>) {
  %0 = gopt.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %1 = gopt.constant dense_resource<blob> : tensor<2x2xf32>
  return %0, %1 : tensor<2xf32>, tensor<2x2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      blob: "0x040000000000803F000000400000404000008040"
    }
  }
#-}

// -----

// Numpy broadcasting: a row reads (d1); a size-1 column is collapsed away and
// reads (d0). max is NaN-propagating (maximumf).
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[COL:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @binary_broadcast
// CHECK-SAME: (%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8xf32>, %[[C:.*]]: tensor<4x1xf32>)
// CHECK: %[[ADD:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[A]], %[[B]] : tensor<4x8xf32>, tensor<8xf32>)
// CHECK: arith.addf
// CHECK: %[[COLV:.*]] = tensor.collapse_shape %[[C]] {{\[\[}}0, 1]] : tensor<4x1xf32> into tensor<4xf32>
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[COL]], #[[ID]]], {{.*}}} ins(%[[ADD]], %[[COLV]] :
// CHECK: arith.maximumf
func.func @binary_broadcast(%a: tensor<4x8xf32>, %b: tensor<8xf32>, %c: tensor<4x1xf32>) -> tensor<4x8xf32> {
  %0 = gopt.add %a, %b : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  %1 = gopt.max %0, %c : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @binary_float
// CHECK: arith.subf
// CHECK: arith.mulf
// CHECK: arith.divf
// CHECK: math.powf
// CHECK: arith.minimumf
func.func @binary_float(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = gopt.sub %a, %b : tensor<4xf32>
  %1 = gopt.mul %0, %b : tensor<4xf32>
  %2 = gopt.div %1, %b : tensor<4xf32>
  %3 = gopt.pow %2, %b : tensor<4xf32>
  %4 = gopt.min %3, %a : tensor<4xf32>
  return %4 : tensor<4xf32>
}

// -----

// Integer division truncates (divsi), integer pow is math.ipowi, max/min are
// signed.
// CHECK-LABEL: func.func @binary_integer
// CHECK: arith.addi
// CHECK: arith.subi
// CHECK: arith.muli
// CHECK: arith.divsi
// CHECK: math.ipowi
// CHECK: arith.maxsi
// CHECK: arith.minsi
func.func @binary_integer(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = gopt.add %a, %b : tensor<4xi32>
  %1 = gopt.sub %0, %b : tensor<4xi32>
  %2 = gopt.mul %1, %b : tensor<4xi32>
  %3 = gopt.div %2, %b : tensor<4xi32>
  %4 = gopt.pow %3, %b : tensor<4xi32>
  %5 = gopt.max %4, %a : tensor<4xi32>
  %6 = gopt.min %5, %a : tensor<4xi32>
  return %6 : tensor<4xi32>
}

// -----

// CHECK-LABEL: func.func @unary_float
// CHECK: arith.negf
// CHECK: math.absf
// CHECK: arith.cmpf ugt
// CHECK-NEXT: arith.select
// CHECK: math.exp
// CHECK: math.log
// CHECK: math.sqrt
// CHECK: math.rsqrt
// CHECK: arith.divf
// CHECK: math.tanh
// CHECK: math.erf
// sigmoid = 1 / (1 + exp(-x))
// CHECK: ^bb0(%[[S:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[SN:.*]] = arith.negf %[[S]]
// CHECK: %[[SE:.*]] = math.exp %[[SN]]
// CHECK: %[[SONE:.*]] = arith.constant 1.0
// CHECK: %[[SD:.*]] = arith.addf %[[SONE]], %[[SE]]
// CHECK: arith.divf %{{.*}}, %[[SD]]
// silu = x / (1 + exp(-x))
// CHECK: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[XN:.*]] = arith.negf %[[X]]
// CHECK: %[[XE:.*]] = math.exp %[[XN]]
// CHECK: %[[XD:.*]] = arith.addf %{{.*}}, %[[XE]]
// CHECK: arith.divf %[[X]], %[[XD]]
func.func @unary_float(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = gopt.neg %x : tensor<4xf32>
  %1 = gopt.abs %0 : tensor<4xf32>
  %2 = gopt.relu %1 : tensor<4xf32>
  %3 = gopt.exp %2 : tensor<4xf32>
  %4 = gopt.log %3 : tensor<4xf32>
  %5 = gopt.sqrt %4 : tensor<4xf32>
  %6 = gopt.rsqrt %5 : tensor<4xf32>
  %7 = gopt.reciprocal %6 : tensor<4xf32>
  %8 = gopt.tanh %7 : tensor<4xf32>
  %9 = gopt.erf %8 : tensor<4xf32>
  %10 = gopt.sigmoid %9 : tensor<4xf32>
  %11 = gopt.silu %10 : tensor<4xf32>
  return %11 : tensor<4xf32>
}

// -----

// ONNX's Round takes halves to even: math.roundeven.
// CHECK-LABEL: func.func @trig_and_rounding
// CHECK: math.sin
// CHECK: math.cos
// CHECK: math.floor
// CHECK: math.ceil
// CHECK: math.roundeven
func.func @trig_and_rounding(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = gopt.sin %x : tensor<4xf32>
  %1 = gopt.cos %0 : tensor<4xf32>
  %2 = gopt.floor %1 : tensor<4xf32>
  %3 = gopt.ceil %2 : tensor<4xf32>
  %4 = gopt.round %3 : tensor<4xf32>
  return %4 : tensor<4xf32>
}

// -----

// Exact GELU uses erf(x·√½); the tanh form √(2/π)·(x + 0.044715·x³).
// CHECK-LABEL: func.func @gelu
// CHECK: arith.constant 0.707106769 : f32
// CHECK: math.erf
// CHECK: arith.constant 4.471500e-02
// CHECK: arith.constant 0.797884583
// CHECK: math.tanh
func.func @gelu(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = gopt.gelu %x : tensor<4xf32>
  %1 = gopt.gelu %0 tanh : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// Half-precision math runs in f32 and rounds once.
// CHECK-LABEL: func.func @unary_f16
// CHECK: ^bb0(%[[IN:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT: %[[W:.*]] = arith.extf %[[IN]] : f16 to f32
// CHECK-NEXT: %[[E:.*]] = math.exp %[[W]] : f32
// CHECK-NEXT: %[[T:.*]] = arith.truncf %[[E]] : f32 to f16
// CHECK-NEXT: linalg.yield %[[T]] : f16
func.func @unary_f16(%x: tensor<4xf16>) -> tensor<4xf16> {
  %0 = gopt.exp %x : tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// Integer unary ops: 0 - x, absi, max(x, 0), clip bounds rounded inward.
// CHECK-LABEL: func.func @unary_integer
// CHECK: arith.subi
// CHECK: math.absi
// CHECK: arith.maxsi
// CHECK: %[[LO:.*]] = arith.constant -2 : i8
// CHECK: %[[HI:.*]] = arith.constant 3 : i8
// CHECK: %[[M:.*]] = arith.maxsi %{{.*}}, %[[LO]] : i8
// CHECK: arith.minsi %[[M]], %[[HI]] : i8
func.func @unary_integer(%x: tensor<4xi8>) -> tensor<4xi8> {
  %0 = gopt.neg %x : tensor<4xi8>
  %1 = gopt.abs %0 : tensor<4xi8>
  %2 = gopt.relu %1 : tensor<4xi8>
  %3 = gopt.clip %2 min = -2.5 max = 3.5 : tensor<4xi8>
  return %3 : tensor<4xi8>
}

// -----

// An i64 clip with no upper bound (ONNX's Clip with only a min): the max is
// INT64_MAX, which no double holds; it must not wrap to INT64_MIN.
// CHECK-LABEL: func.func @clip_i64_unbounded
// CHECK: arith.constant 0 : i64
// CHECK: arith.constant 9223372036854775807 : i64
func.func @clip_i64_unbounded(%x: tensor<4xi64>) -> tensor<4xi64> {
  %0 = gopt.clip %x min = 0.0 max = 9.2233720368547758E+18 : tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

// CHECK-LABEL: func.func @clip_float
// CHECK: %[[LO:.*]] = arith.constant -1.000000e+00 : f32
// CHECK: %[[HI:.*]] = arith.constant 2.000000e+00 : f32
// CHECK: %[[M:.*]] = arith.maximumf %{{.*}}, %[[LO]] : f32
// CHECK: arith.minimumf %[[M]], %[[HI]] : f32
func.func @clip_float(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = gopt.clip %x min = -1.0 max = 2.0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Float compares are ordered except ne; integer compares are signed.
// CHECK-LABEL: func.func @compare_select
// CHECK: arith.cmpf olt
// CHECK: arith.cmpf une
// CHECK: arith.cmpi sge
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<4xi1>, tensor<4xf32>, tensor<f32>)
// CHECK: arith.select
func.func @compare_select(%a: tensor<4xf32>, %b: tensor<4xf32>, %i: tensor<4xi32>, %s: tensor<f32>) -> (tensor<4xf32>, tensor<4xi1>, tensor<4xi1>) {
  %lt = gopt.compare lt, %a, %b : tensor<4xf32>, tensor<4xf32>
  %ne = gopt.compare ne, %a, %b : tensor<4xf32>, tensor<4xf32>
  %ge = gopt.compare ge, %i, %i : tensor<4xi32>, tensor<4xi32>
  %r = gopt.select %lt, %a, %s : tensor<4xi1>, tensor<4xf32>, tensor<f32>
  return %r, %ne, %ge : tensor<4xf32>, tensor<4xi1>, tensor<4xi1>
}

// -----

// CHECK-LABEL: func.func @casts
// CHECK: arith.truncf {{.*}} : f32 to f16
// CHECK: arith.fptosi {{.*}} : f32 to i32
// CHECK: arith.sitofp {{.*}} : i32 to f64
// CHECK: arith.uitofp {{.*}} : i1 to f32
// CHECK: arith.extui {{.*}} : i1 to i32
// CHECK: arith.trunci {{.*}} : i32 to i8
// CHECK: arith.cmpf une
// CHECK: arith.cmpi ne
func.func @casts(%f: tensor<4xf32>, %i: tensor<4xi32>, %b: tensor<4xi1>) -> (tensor<4xf16>, tensor<4xi32>, tensor<4xf64>, tensor<4xf32>, tensor<4xi32>, tensor<4xi8>, tensor<4xi1>, tensor<4xi1>) {
  %0 = gopt.cast %f : tensor<4xf32> to tensor<4xf16>
  %1 = gopt.cast %f : tensor<4xf32> to tensor<4xi32>
  %2 = gopt.cast %i : tensor<4xi32> to tensor<4xf64>
  %3 = gopt.cast %b : tensor<4xi1> to tensor<4xf32>
  %4 = gopt.cast %b : tensor<4xi1> to tensor<4xi32>
  %5 = gopt.cast %i : tensor<4xi32> to tensor<4xi8>
  %6 = gopt.cast %f : tensor<4xf32> to tensor<4xi1>
  %7 = gopt.cast %i : tensor<4xi32> to tensor<4xi1>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<4xf16>, tensor<4xi32>, tensor<4xf64>, tensor<4xf32>, tensor<4xi32>, tensor<4xi8>, tensor<4xi1>, tensor<4xi1>
}

// -----

// Sums start from −0 (IEEE's additive identity); mean divides by the count;
// keepdims expands the kept shape.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @reduce_mean_keepdims
// CHECK: %[[Z:.*]] = arith.constant -0.000000e+00 : f32
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%{{.*}} : tensor<4xf32>)
// CHECK: %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["parallel", "reduction"]} {{.*}} outs(%[[INIT]] : tensor<4xf32>)
// CHECK: arith.addf
// CHECK: %[[MEAN:.*]] = linalg.generic {{.*}} ins(%[[SUM]] : tensor<4xf32>)
// CHECK: arith.constant 8.000000e+00 : f32
// CHECK: arith.divf
// CHECK: tensor.expand_shape %[[MEAN]] {{\[\[}}0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
func.func @reduce_mean_keepdims(%a: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %0 = gopt.reduce mean %a axes = [1] keepdims : tensor<4x8xf32> -> tensor<4x1xf32>
  return %0 : tensor<4x1xf32>
}

// -----

// max starts from −∞ (integers: the smallest value), min from +∞.
// CHECK-LABEL: func.func @reduce_max_min
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: arith.maximumf
// CHECK: arith.constant 0x7F800000 : f32
// CHECK: arith.minimumf
// CHECK: arith.constant -2147483648 : i32
// CHECK: arith.maxsi
// CHECK: arith.constant 0 : i32
// CHECK: arith.addi
// CHECK: arith.divsi
func.func @reduce_max_min(%a: tensor<2x3x4xf32>, %i: tensor<2x3xi32>) -> (tensor<3xf32>, tensor<2xf32>, tensor<3xi32>, tensor<2xi32>) {
  %0 = gopt.reduce max %a axes = [0, 2] : tensor<2x3x4xf32> -> tensor<3xf32>
  %1 = gopt.reduce min %a axes = [-1, 1] : tensor<2x3x4xf32> -> tensor<2xf32>
  %2 = gopt.reduce max %i axes = [0] : tensor<2x3xi32> -> tensor<3xi32>
  %3 = gopt.reduce mean %i axes = [1] : tensor<2x3xi32> -> tensor<2xi32>
  return %0, %1, %2, %3 : tensor<3xf32>, tensor<2xf32>, tensor<3xi32>, tensor<2xi32>
}

// -----

// Numerically stable softmax: max, exp(x − max), sum, divide.
// CHECK-LABEL: func.func @softmax
// CHECK: %[[MAX:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK: arith.maximumf
// CHECK: %[[EXP:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]{{.*}} ins(%{{.*}}, %[[MAX]] :
// CHECK: arith.subf
// CHECK-NEXT: math.exp
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%[[EXP]] :
// CHECK: arith.addf
// CHECK: linalg.generic {{.*}} ins(%[[EXP]], %[[SUM]] :
// CHECK: arith.divf
func.func @softmax(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = gopt.softmax %a axis = -1 : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// layer_norm: Σx, Σ(x − mean)², then (x − mean)·rsqrt(var + eps)·scale + bias
// with scale and bias read along the normalized (trailing) dims.
// CHECK-DAG: #[[PARAM:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL: func.func @layer_norm
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "reduction"]
// CHECK: %[[SQ:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "reduction"]{{.*}} ins(%{{.*}}, %[[SUM]] :
// CHECK: linalg.generic {indexing_maps = [{{.*}}, #[[PARAM]], #[[PARAM]], {{.*}}]{{.*}} ins(%{{.*}}, %[[SUM]], %[[SQ]], %{{.*}}, %{{.*}} :
// CHECK: arith.constant 9.99999974E-6 : f32
// CHECK: math.rsqrt
func.func @layer_norm(%x: tensor<2x4x8xf32>, %g: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<2x4x8xf32> {
  %0 = gopt.layer_norm %x, %g, %b axes = [1, 2] eps = 1.0e-05 : tensor<2x4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
  return %0 : tensor<2x4x8xf32>
}

// -----

// Batched matmul with a broadcast rhs: loops (b, m, n, k).
// CHECK-DAG: #[[L:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[R:.*]] = affine_map<(d0, d1, d2, d3) -> (d3, d2)>
// CHECK-DAG: #[[O:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @matmul
// CHECK: %[[ZERO:.*]] = linalg.fill
// CHECK: linalg.generic {indexing_maps = [#[[L]], #[[R]], #[[O]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} {{.*}} outs(%[[ZERO]] :
// CHECK: arith.mulf
// CHECK-NEXT: arith.addf
func.func @matmul(%a: tensor<2x4x8xf32>, %b: tensor<8x16xf32>) -> tensor<2x4x16xf32> {
  %0 = gopt.matmul %a, %b : tensor<2x4x8xf32>, tensor<8x16xf32> -> tensor<2x4x16xf32>
  return %0 : tensor<2x4x16xf32>
}

// -----

// A size-1 batch dim of the lhs broadcasts: it is collapsed away.
// CHECK-DAG: #[[L:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
// CHECK-LABEL: func.func @matmul_broadcast_batch
// CHECK: %[[L2:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2]] : tensor<1x4x8xi32> into tensor<4x8xi32>
// CHECK: linalg.generic {indexing_maps = [#[[L]], {{.*}}]{{.*}} ins(%[[L2]], %{{.*}} :
// CHECK: arith.muli
// CHECK-NEXT: arith.addi
func.func @matmul_broadcast_batch(%a: tensor<1x4x8xi32>, %b: tensor<3x8x2xi32>) -> tensor<3x4x2xi32> {
  %0 = gopt.matmul %a, %b : tensor<1x4x8xi32>, tensor<3x8x2xi32> -> tensor<3x4x2xi32>
  return %0 : tensor<3x4x2xi32>
}

// -----

// linear: transposes are indexing maps; the bias, broadcast, is the
// accumulator's initial value.
// CHECK-DAG: #[[X:.*]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-DAG: #[[W:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL: func.func @linear
// CHECK-SAME: (%[[X0:.*]]: tensor<16x8xf32>, %[[W0:.*]]: tensor<32x16xf32>, %[[B0:.*]]: tensor<32xf32>)
// CHECK: %[[INIT:.*]] = linalg.generic {{.*}} ins(%[[B0]] : tensor<32xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[X]], #[[W]], {{.*}}], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[X0]], %[[W0]] : {{.*}}) outs(%[[INIT]] :
func.func @linear(%x: tensor<16x8xf32>, %w: tensor<32x16xf32>, %b: tensor<32xf32>) -> tensor<8x32xf32> {
  %0 = gopt.linear %x, %w, %b transpose_input transpose_weight : tensor<16x8xf32>, tensor<32x16xf32>, tensor<32xf32> -> tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// -----

// conv2d: zero padding, the named NCHW/FCHW op with strides and dilations
// into zeros, then the bias broadcast along the channels and added.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[CH:.*]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func.func @conv2d
// CHECK: %[[PAD:.*]] = tensor.pad %{{.*}} low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: %[[INIT:.*]] = linalg.fill
// CHECK: %[[CONV:.*]] = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[PAD]], %{{.*}} : tensor<1x4x10x10xf32>, tensor<8x4x3x3xf32>) outs(%[[INIT]] :
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[CH]], #[[ID]]]{{.*}} ins(%[[CONV]], %{{.*}} : tensor<1x8x4x3xf32>, tensor<8xf32>)
// CHECK: arith.addf
func.func @conv2d(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x3x3xf32>, %b: tensor<8xf32>) -> tensor<1x8x4x3xf32> {
  %0 = gopt.conv2d %x, %w, %b strides = [2, 2] padding = [1, 1, 1, 1] dilations = [1, 2] groups = 1 : tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>, tensor<8xf32> -> tensor<1x8x4x3xf32>
  return %0 : tensor<1x8x4x3xf32>
}

// -----

// Grouped conv2d: a generic whose input channel is (f floordiv F/g)·C/g + c.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, (d1 floordiv 4) * 2 + d4, d2 + d5, d3 + d6)>
// CHECK-LABEL: func.func @conv2d_grouped
// CHECK: linalg.generic {indexing_maps = [#[[IN]], {{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK-SAME: attrs = {gopt.grouped_conv2d = {dilations = array<i64: 1, 1>, groups = 2 : i64, strides = array<i64: 1, 1>}}
func.func @conv2d_grouped(%x: tensor<1x4x6x6xf32>, %w: tensor<8x2x3x3xf32>) -> tensor<1x8x4x4xf32> {
  %0 = gopt.conv2d %x, %w strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 2 : tensor<1x4x6x6xf32>, tensor<8x2x3x3xf32> -> tensor<1x8x4x4xf32>
  return %0 : tensor<1x8x4x4xf32>
}

// -----

// Channels last: padding of H and W (dims 1, 2), the named NHWC/FHWC op,
// the bias added along the last dim; grouped: a generic over
// (n, oh, ow, f, c, kh, kw) reading the FHWC weight, marked channels_last.
// CHECK-DAG: #[[CL:.*]] = affine_map<(d0, d1, d2, d3) -> (d3)>
// CHECK-DAG: #[[GIN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 * 2 + d5, d2 * 2 + d6, d3 + d4)>
// CHECK-DAG: #[[GW:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d3, d5, d6, d4)>
// CHECK-LABEL: func.func @conv2d_channels_last
// CHECK: %[[PAD:.*]] = tensor.pad %{{.*}} low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK: %[[INIT:.*]] = linalg.fill
// CHECK: %[[CONV:.*]] = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%[[PAD]], %{{.*}} : tensor<1x10x10x4xf32>, tensor<8x3x3x4xf32>) outs(%[[INIT]] :
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[CL]], #{{.*}}]{{.*}} ins(%[[CONV]], %{{.*}} : tensor<1x8x8x8xf32>, tensor<8xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[GIN]], #[[GW]], {{.*}}]
// CHECK-SAME: attrs = {gopt.grouped_conv2d = {channels_last, dilations = array<i64: 1, 1>, groups = 4 : i64, strides = array<i64: 2, 2>}}
func.func @conv2d_channels_last(%x: tensor<1x8x8x4xf32>, %w: tensor<8x3x3x4xf32>, %b: tensor<8xf32>, %dw: tensor<4x3x3x1xf32>) -> (tensor<1x8x8x8xf32>, tensor<1x3x3x4xf32>) {
  %0 = gopt.conv2d %x, %w, %b strides = [1, 1] padding = [1, 1, 1, 1] dilations = [1, 1] groups = 1 channels_last : tensor<1x8x8x4xf32>, tensor<8x3x3x4xf32>, tensor<8xf32> -> tensor<1x8x8x8xf32>
  %1 = gopt.conv2d %x, %dw strides = [2, 2] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 4 channels_last : tensor<1x8x8x4xf32>, tensor<4x3x3x1xf32> -> tensor<1x3x3x4xf32>
  return %0, %1 : tensor<1x8x8x8xf32>, tensor<1x3x3x4xf32>
}

// -----

// Channels-last pooling: the NHWC named ops; average pooling's divisor is
// [OH, OW, 1] (broadcast over the channels); global average pooling is one
// sum pooling over the whole image.
// CHECK-LABEL: func.func @pool2d_channels_last
// CHECK: tensor.pad {{.*}} low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK: linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
// CHECK: linalg.pooling_nhwc_sum
// CHECK: arith.constant dense<{{\[\[\[}}1.000000e+00], [2.000000e+00]], {{\[\[}}2.000000e+00], [4.000000e+00]]]> : tensor<2x2x1xf32>
// CHECK: arith.divf
// CHECK: %[[WIN:.*]] = tensor.empty() : tensor<3x3xf32>
// CHECK: linalg.pooling_nhwc_sum {{.*}} ins(%{{.*}}, %[[WIN]] : tensor<1x3x3x2xf32>, tensor<3x3xf32>) outs(%{{.*}} : tensor<1x1x1x2xf32>)
// CHECK: arith.constant 9.000000e+00 : f32
func.func @pool2d_channels_last(%x: tensor<1x3x3x2xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>, tensor<1x1x1x2xf32>) {
  %0 = gopt.pool2d max %x kernel = [2, 2] strides = [2, 2] padding = [1, 1, 1, 1] channels_last : tensor<1x3x3x2xf32> -> tensor<1x2x2x2xf32>
  %1 = gopt.pool2d avg %x kernel = [2, 2] strides = [2, 2] padding = [1, 1, 1, 1] channels_last : tensor<1x3x3x2xf32> -> tensor<1x2x2x2xf32>
  %2 = gopt.global_avg_pool %x channels_last : tensor<1x3x3x2xf32> -> tensor<1x1x1x2xf32>
  return %0, %1, %2 : tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>, tensor<1x1x1x2xf32>
}

// -----

// Max pooling pads with −∞; average pooling divides by the non-padding count
// of each window (a constant).
// CHECK-LABEL: func.func @pool2d
// CHECK: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: tensor.pad {{.*}} low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tensor.yield %[[NINF]]
// CHECK: linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
// CHECK: linalg.pooling_nchw_sum
// CHECK: arith.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00], [2.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
// CHECK: arith.divf
func.func @pool2d(%x: tensor<1x2x3x3xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) {
  %0 = gopt.pool2d max %x kernel = [2, 2] strides = [2, 2] padding = [1, 1, 1, 1] : tensor<1x2x3x3xf32> -> tensor<1x2x2x2xf32>
  %1 = gopt.pool2d avg %x kernel = [2, 2] strides = [2, 2] padding = [1, 1, 1, 1] : tensor<1x2x3x3xf32> -> tensor<1x2x2x2xf32>
  return %0, %1 : tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>
}

// -----

// CHECK-LABEL: func.func @global_avg_pool
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction", "reduction"]
// CHECK: arith.constant 3.000000e+01 : f32
// CHECK: arith.divf
// CHECK: tensor.expand_shape {{.*}} {{\[\[}}0], [1, 2, 3]] output_shape [1, 3, 1, 1]
func.func @global_avg_pool(%x: tensor<1x3x5x6xf32>) -> tensor<1x3x1x1xf32> {
  %0 = gopt.global_avg_pool %x : tensor<1x3x5x6xf32> -> tensor<1x3x1x1xf32>
  return %0 : tensor<1x3x1x1xf32>
}

// -----

// Result dim i reads input dim perm[i].
// CHECK-DAG: #[[T:.*]] = affine_map<(d0, d1, d2) -> (d1, d2, d0)>
// CHECK-LABEL: func.func @transpose
// CHECK: linalg.generic {indexing_maps = [#[[T]], {{.*}}]
// CHECK-SAME: ins(%{{.*}} : tensor<2x3x4xi1>) outs(%{{.*}} : tensor<4x2x3xi1>)
func.func @transpose(%x: tensor<2x3x4xi1>) -> tensor<4x2x3xi1> {
  %0 = gopt.transpose %x perm = [2, 0, 1] : tensor<2x3x4xi1> -> tensor<4x2x3xi1>
  return %0 : tensor<4x2x3xi1>
}

// -----

// One collapse or expand where a reassociation exists; else through the
// coarsest shape both refine (runs of dims with equal products: [16, 1, 64]
// → [16, 64] → [16, 4, 16], which keeps a strided view of a slice a view),
// and through 1-D when that is the only one.
// CHECK-LABEL: func.func @reshape
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2]] output_shape [2, 3, 2] : tensor<2x6xf32> into tensor<2x3x2xf32>
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<2x3xf32> into tensor<6xf32>
// CHECK: tensor.expand_shape %[[FLAT]] {{\[\[}}0, 1]] output_shape [3, 2] : tensor<6xf32> into tensor<3x2xf32>
// CHECK: tensor.collapse_shape %{{.*}} [] : tensor<1x1xf32> into tensor<f32>
// CHECK: %[[COARSE:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2]] : tensor<16x1x64xf32> into tensor<16x64xf32>
// CHECK: tensor.expand_shape %[[COARSE]] {{\[\[}}0], [1, 2]] output_shape [16, 4, 16] : tensor<16x64xf32> into tensor<16x4x16xf32>
// CHECK: %[[C2:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2], [3]] : tensor<2x3x4x5xf32> into tensor<6x4x5xf32>
// CHECK: tensor.expand_shape %[[C2]] {{\[\[}}0, 1], [2, 3], [4]] output_shape [3, 2, 2, 2, 5] : tensor<6x4x5xf32> into tensor<3x2x2x2x5xf32>
func.func @reshape(%a: tensor<2x3x4xf32>, %b: tensor<2x6xf32>, %c: tensor<2x3xf32>, %d: tensor<1x1xf32>, %e: tensor<16x1x64xf32>, %f: tensor<2x3x4x5xf32>) -> (tensor<6x4xf32>, tensor<2x3x2xf32>, tensor<3x2xf32>, tensor<f32>, tensor<16x4x16xf32>, tensor<3x2x2x2x5xf32>) {
  %0 = gopt.reshape %a : tensor<2x3x4xf32> -> tensor<6x4xf32>
  %1 = gopt.reshape %b : tensor<2x6xf32> -> tensor<2x3x2xf32>
  %2 = gopt.reshape %c : tensor<2x3xf32> -> tensor<3x2xf32>
  %3 = gopt.reshape %d : tensor<1x1xf32> -> tensor<f32>
  %4 = gopt.reshape %e : tensor<16x1x64xf32> -> tensor<16x4x16xf32>
  %5 = gopt.reshape %f : tensor<2x3x4x5xf32> -> tensor<3x2x2x2x5xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<6x4xf32>, tensor<2x3x2xf32>, tensor<3x2xf32>, tensor<f32>, tensor<16x4x16xf32>, tensor<3x2x2x2x5xf32>
}

// -----

// CHECK-DAG: #[[B:.*]] = affine_map<(d0, d1, d2) -> (d2)>
// CHECK-LABEL: func.func @broadcast_to
// CHECK: %[[C:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<1x4xf32> into tensor<4xf32>
// CHECK: linalg.generic {indexing_maps = [#[[B]], {{.*}}]{{.*}} ins(%[[C]] : tensor<4xf32>) outs(%{{.*}} : tensor<2x3x4xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: linalg.yield %[[IN]]
func.func @broadcast_to(%x: tensor<1x4xf32>) -> tensor<2x3x4xf32> {
  %0 = gopt.broadcast_to %x : tensor<1x4xf32> -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

// CHECK-LABEL: func.func @concat
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<2x5xf32>)
// CHECK: tensor.concat dim(1) %[[A]], %[[B]] : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
func.func @concat(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>) -> tensor<2x8xf32> {
  %0 = gopt.concat %a, %b axis = -1 : tensor<2x3xf32>, tensor<2x5xf32> -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// Empty inputs add nothing: one input left is copied into a tensor of the
// kernel's own (a kernel returns a buffer of its own), none leaves the
// empty tensor.
// CHECK-LABEL: func.func @concat_empty_inputs
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>, %[[Z:.*]]: tensor<2x0xf32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK: %[[I:.*]] = tensor.insert_slice %[[A]] into %[[E]][0, 0] [2, 3] [1, 1]
// CHECK: %[[E2:.*]] = tensor.empty() : tensor<2x0xf32>
// CHECK-NOT: tensor.concat
// CHECK: return %[[I]], %[[E2]]
func.func @concat_empty_inputs(%a: tensor<2x3xf32>, %z: tensor<2x0xf32>) -> (tensor<2x3xf32>, tensor<2x0xf32>) {
  %0 = gopt.concat %z, %a axis = 1 : tensor<2x0xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  %1 = gopt.concat %z, %z axis = 1 : tensor<2x0xf32>, tensor<2x0xf32> -> tensor<2x0xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x0xf32>
}

// -----

// Python clamping of starts (−1 → 9), steps as strides; split pieces.
// CHECK-LABEL: func.func @slice_split
// CHECK: tensor.extract_slice %{{.*}}[9, 0] [1, 2] [1, 2] : tensor<10x4xf32> to tensor<1x2xf32>
// CHECK: tensor.extract_slice %{{.*}}[0, 0] [10, 1] [1, 1] : tensor<10x4xf32> to tensor<10x1xf32>
// CHECK: tensor.extract_slice %{{.*}}[0, 1] [10, 3] [1, 1] : tensor<10x4xf32> to tensor<10x3xf32>
func.func @slice_split(%x: tensor<10x4xf32>) -> (tensor<1x2xf32>, tensor<10x1xf32>, tensor<10x3xf32>) {
  %0 = gopt.slice %x starts = [-1, 0] ends = [100, 4] steps = [1, 2] : tensor<10x4xf32> -> tensor<1x2xf32>
  %1:2 = gopt.split %x axis = 1 sizes = [1, 3] : tensor<10x4xf32> -> tensor<10x1xf32>, tensor<10x3xf32>
  return %0, %1#0, %1#1 : tensor<1x2xf32>, tensor<10x1xf32>, tensor<10x3xf32>
}

// -----

// Negative indices count from the back, and are clamped into range.
// CHECK-DAG: #[[IDX:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, d2)>
// CHECK-LABEL: func.func @gather
// CHECK-SAME: (%[[X:.*]]: tensor<3x5x2xf32>, %[[I:.*]]: tensor<2x4xi32>)
// CHECK: linalg.generic {indexing_maps = [#[[IDX]], {{.*}}]{{.*}} ins(%[[I]] : tensor<2x4xi32>) outs(%{{.*}} : tensor<3x2x4x2xf32>)
// CHECK: %[[IX:.*]] = arith.index_cast
// CHECK: arith.cmpi slt, %[[IX]]
// CHECK: arith.maxsi
// CHECK: arith.minsi
// CHECK: %[[D0:.*]] = linalg.index 0 : index
// CHECK: %[[D3:.*]] = linalg.index 3 : index
// CHECK: tensor.extract %[[X]][%[[D0]], %{{.*}}, %[[D3]]] : tensor<3x5x2xf32>
func.func @gather(%x: tensor<3x5x2xf32>, %i: tensor<2x4xi32>) -> tensor<3x2x4x2xf32> {
  %0 = gopt.gather %x[%i] axis = 1 : tensor<3x5x2xf32>, tensor<2x4xi32> -> tensor<3x2x4x2xf32>
  return %0 : tensor<3x2x4x2xf32>
}

// -----

// gather_elements reads its index at the result's own position and the
// input there, the axis' coordinate replaced by the index.
// CHECK-LABEL: func.func @gather_elements
// CHECK-SAME: (%[[X:.*]]: tensor<3x5x2xf32>, %[[I:.*]]: tensor<3x4x2xi64>)
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[I]] : tensor<3x4x2xi64>)
// CHECK: %[[IX:.*]] = arith.index_cast
// CHECK: arith.cmpi slt, %[[IX]]
// CHECK: %[[CLAMPED:.*]] = arith.minsi
// CHECK: %[[D0:.*]] = linalg.index 0 : index
// CHECK: %[[D2:.*]] = linalg.index 2 : index
// CHECK: tensor.extract %[[X]][%[[D0]], %[[CLAMPED]], %[[D2]]] : tensor<3x5x2xf32>
func.func @gather_elements(%x: tensor<3x5x2xf32>, %i: tensor<3x4x2xi64>) -> tensor<3x4x2xf32> {
  %0 = gopt.gather_elements %x[%i] axis = 1 : tensor<3x5x2xf32>, tensor<3x4x2xi64> -> tensor<3x4x2xf32>
  return %0 : tensor<3x4x2xf32>
}

// -----

// Where each result index reads is computed at compile time into tables
// read through a map of their dim alone: lower and upper index and weight
// per resized dim. Dims 0 and 1 are read as is; H (half_pixel 3 → 6,
// coordinates -0.25 .. 2.25) is interpolated from whole rows of 4 x W.
// CHECK-DAG: #[[H:.*]] = affine_map<(d0, d1, d2, d3) -> (d2)>
// CHECK-LABEL: func.func @resize_linear
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x3x4xf32>)
// CHECK-DAG: %[[HL:.*]] = arith.constant dense<[0, 0, 0, 1, 1, 2]> : tensor<6xi32>
// CHECK-DAG: %[[HU:.*]] = arith.constant dense<[0, 1, 1, 2, 2, 2]> : tensor<6xi32>
// CHECK-DAG: %[[HW:.*]] = arith.constant dense<[0.000000e+00, 2.500000e-01, 7.500000e-01, 2.500000e-01, 7.500000e-01, 0.000000e+00]> : tensor<6xf32>
// CHECK: linalg.generic {indexing_maps = [#[[H]], #[[H]], #[[H]], {{.*}}]{{.*}} ins(%[[HL]], %[[HU]], %[[HW]] : {{.*}}) outs(%{{.*}} : tensor<1x2x6x4xf32>)
// CHECK: %[[D3:.*]] = linalg.index 3 : index
// CHECK: tensor.extract %[[X]][%{{.*}}, %{{.*}}, %{{.*}}, %[[D3]]]
// CHECK: tensor.extract %[[X]][%{{.*}}, %{{.*}}, %{{.*}}, %[[D3]]]
// CHECK-NOT: tensor.extract
// CHECK: linalg.yield
func.func @resize_linear(%x: tensor<1x2x3x4xf32>) -> tensor<1x2x6x4xf32> {
  %0 = gopt.resize linear %x scale = [1.0, 1.0, 0.5, 1.0] offset = [0.0, 0.0, -0.25, 0.0] : tensor<1x2x3x4xf32> -> tensor<1x2x6x4xf32>
  return %0 : tensor<1x2x6x4xf32>
}

// -----

// Linear along the innermost dim and another: two passes, so that only
// the innermost one reads at computed columns (a gather) and the other
// reads whole rows. H grows (3 → 6), so W (4 → 2, coordinates 0.5 and
// 2.5) goes first, into an f32 intermediate; f16 is rounded once, at the
// end.
// CHECK-DAG: #[[H:.*]] = affine_map<(d0, d1, d2, d3) -> (d2)>
// CHECK-DAG: #[[W:.*]] = affine_map<(d0, d1, d2, d3) -> (d3)>
// CHECK-LABEL: func.func @resize_linear_innermost
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x3x4xf16>)
// CHECK-DAG: %[[WL:.*]] = arith.constant dense<[0, 2]> : tensor<2xi32>
// CHECK-DAG: %[[WU:.*]] = arith.constant dense<[1, 3]> : tensor<2xi32>
// CHECK-DAG: %[[WW:.*]] = arith.constant dense<5.000000e-01> : tensor<2xf32>
// CHECK: %[[ROWS:.*]] = linalg.generic {indexing_maps = [#[[W]], #[[W]], #[[W]], {{.*}}]{{.*}} ins(%[[WL]], %[[WU]], %[[WW]] : {{.*}}) outs(%{{.*}} : tensor<1x2x3x2xf32>)
// CHECK-COUNT-2: tensor.extract %[[X]]
// CHECK-NOT: arith.truncf
// CHECK: linalg.generic {indexing_maps = [#[[H]], #[[H]], #[[H]], {{.*}}]{{.*}} outs(%{{.*}} : tensor<1x2x6x2xf16>)
// CHECK-COUNT-2: tensor.extract %[[ROWS]]
// CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @resize_linear_innermost(%x: tensor<1x2x3x4xf16>) -> tensor<1x2x6x2xf16> {
  %0 = gopt.resize linear %x scale = [1.0, 1.0, 0.5, 2.0] offset = [0.0, 0.0, -0.25, 0.5] : tensor<1x2x3x4xf16> -> tensor<1x2x6x2xf16>
  return %0 : tensor<1x2x6x2xf16>
}

// -----

// Nearest (floor, asymmetric 4 → 8): one index table, one extract.
// CHECK-LABEL: func.func @resize_nearest
// CHECK-SAME: (%[[X:.*]]: tensor<3x4xi32>)
// CHECK: %[[I:.*]] = arith.constant dense<[0, 0, 1, 1, 2, 2, 3, 3]> : tensor<8xi32>
// CHECK: linalg.generic {{.*}} ins(%[[I]] : tensor<8xi32>) outs(%{{.*}} : tensor<3x8xi32>)
// CHECK: %[[D0:.*]] = linalg.index 0 : index
// CHECK: %[[IX:.*]] = arith.index_cast
// CHECK: tensor.extract %[[X]][%[[D0]], %[[IX]]] : tensor<3x4xi32>
// CHECK-NOT: tensor.extract
func.func @resize_nearest(%x: tensor<3x4xi32>) -> tensor<3x8xi32> {
  %0 = gopt.resize nearest_floor %x scale = [1.0, 0.5] offset = [0.0, 0.0] : tensor<3x4xi32> -> tensor<3x8xi32>
  return %0 : tensor<3x8xi32>
}

// -----

// CHECK-LABEL: func.func @pad
// CHECK: %[[V:.*]] = arith.constant -7 : i16
// CHECK: tensor.pad %{{.*}} low[1, 0] high[2, 3]
// CHECK: tensor.yield %[[V]] : i16
// CHECK: } : tensor<2x2xi16> to tensor<5x5xi16>
func.func @pad(%x: tensor<2x2xi16>) -> tensor<5x5xi16> {
  %0 = gopt.pad %x low = [1, 0] high = [2, 3] value = -7.0 : tensor<2x2xi16> -> tensor<5x5xi16>
  return %0 : tensor<5x5xi16>
}

// -----

// CHECK-LABEL: func.func @shape
// CHECK: %[[S:.*]] = arith.constant dense<[2, 3, 4]> : tensor<3xi64>
// CHECK: return %[[S]]
func.func @shape(%x: tensor<2x3x4xf32>) -> tensor<3xi64> {
  %0 = gopt.shape %x : tensor<2x3x4xf32> -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

// -----

// A fusion's body is inlined in place (gopt-outline-kernels keeps kernel
// boundaries when they matter).
// CHECK-LABEL: func.func @fusion
// CHECK-NOT: gopt.fusion
// CHECK: arith.addf
// CHECK: arith.cmpf ugt
// CHECK: return
func.func @fusion(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = gopt.fusion(%x, %y : tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    %s = gopt.add %a, %b : tensor<4xf32>
    %r = gopt.relu %s : tensor<4xf32>
    gopt.yield %r : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// Ops of other dialects are left alone.
// CHECK-LABEL: func.func @foreign
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: linalg.generic {{.*}} ins(%[[E]]
// CHECK: math.exp
func.func @foreign() -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %0 = gopt.exp %e : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// An empty integer mean is its (zero) sum: no division by a zero count.
// CHECK-LABEL: func.func @empty_integer_mean
// CHECK: arith.addi
// CHECK-NOT: arith.divsi
// CHECK: return
func.func @empty_integer_mean(%x: tensor<2x0xi32>) -> tensor<2xi32> {
  %0 = gopt.reduce mean %x axes = [1] : tensor<2x0xi32> -> tensor<2xi32>
  return %0 : tensor<2xi32>
}
