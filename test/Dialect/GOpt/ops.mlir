// RUN: gopt-opt %s | gopt-opt | FileCheck %s
// RUN: gopt-opt %s --mlir-print-op-generic | gopt-opt | FileCheck %s

// Round trip of every gopt op, in the custom form and through the generic
// form.

// CHECK-LABEL: func.func @constants
func.func @constants() -> (tensor<4xf32>, tensor<2x2xi32>, tensor<3xi1>, tensor<4xf32>, tensor<2xbf16>) {
  // CHECK: %[[SPLAT:.*]] = gopt.constant dense<1.000000e+00> : tensor<4xf32>
  %0 = gopt.constant dense<1.0> : tensor<4xf32>
  // CHECK: %[[DENSE:.*]] = gopt.constant dense<{{\[}}[1, 2], [3, 4]]> : tensor<2x2xi32>
  %1 = gopt.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  // CHECK: %[[BOOL:.*]] = gopt.constant dense<[true, false, true]> : tensor<3xi1>
  %2 = gopt.constant dense<[true, false, true]> : tensor<3xi1>
  // CHECK: %[[RES:.*]] = gopt.constant dense_resource<w0> : tensor<4xf32>
  %3 = gopt.constant dense_resource<w0> : tensor<4xf32>
  // CHECK: %[[BF:.*]] = gopt.constant dense<[1.000000e+00, -2.500000e+00]> : tensor<2xbf16>
  %4 = gopt.constant dense<[1.0, -2.5]> : tensor<2xbf16>
  // CHECK: return %[[SPLAT]], %[[DENSE]], %[[BOOL]], %[[RES]], %[[BF]]
  return %0, %1, %2, %3, %4 : tensor<4xf32>, tensor<2x2xi32>, tensor<3xi1>, tensor<4xf32>, tensor<2xbf16>
}

// CHECK-LABEL: func.func @unary
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>, %[[I:.*]]: tensor<4xi32>)
func.func @unary(%x: tensor<2x3xf32>, %i: tensor<4xi32>) -> (tensor<2x3xf32>, tensor<4xi32>) {
  // CHECK: %[[NEG:.*]] = gopt.neg %[[X]] : tensor<2x3xf32>
  %0 = gopt.neg %x : tensor<2x3xf32>
  // CHECK: %[[ABS:.*]] = gopt.abs %[[NEG]] : tensor<2x3xf32>
  %1 = gopt.abs %0 : tensor<2x3xf32>
  // CHECK: %[[EXP:.*]] = gopt.exp %[[ABS]] : tensor<2x3xf32>
  %2 = gopt.exp %1 : tensor<2x3xf32>
  // CHECK: %[[LOG:.*]] = gopt.log %[[EXP]] : tensor<2x3xf32>
  %3 = gopt.log %2 : tensor<2x3xf32>
  // CHECK: %[[SQRT:.*]] = gopt.sqrt %[[LOG]] : tensor<2x3xf32>
  %4 = gopt.sqrt %3 : tensor<2x3xf32>
  // CHECK: %[[RSQRT:.*]] = gopt.rsqrt %[[SQRT]] : tensor<2x3xf32>
  %5 = gopt.rsqrt %4 : tensor<2x3xf32>
  // CHECK: %[[RECIP:.*]] = gopt.reciprocal %[[RSQRT]] : tensor<2x3xf32>
  %6 = gopt.reciprocal %5 : tensor<2x3xf32>
  // CHECK: %[[TANH:.*]] = gopt.tanh %[[RECIP]] : tensor<2x3xf32>
  %7 = gopt.tanh %6 : tensor<2x3xf32>
  // CHECK: %[[SIG:.*]] = gopt.sigmoid %[[TANH]] : tensor<2x3xf32>
  %8 = gopt.sigmoid %7 : tensor<2x3xf32>
  // CHECK: %[[RELU:.*]] = gopt.relu %[[SIG]] : tensor<2x3xf32>
  %9 = gopt.relu %8 : tensor<2x3xf32>
  // CHECK: %[[ERF:.*]] = gopt.erf %[[RELU]] : tensor<2x3xf32>
  %10 = gopt.erf %9 : tensor<2x3xf32>
  // CHECK: %[[SILU:.*]] = gopt.silu %[[ERF]] : tensor<2x3xf32>
  %11 = gopt.silu %10 : tensor<2x3xf32>
  // CHECK: %[[INEG:.*]] = gopt.neg %[[I]] : tensor<4xi32>
  %12 = gopt.neg %i : tensor<4xi32>
  // CHECK: %[[IABS:.*]] = gopt.abs %[[INEG]] : tensor<4xi32>
  %13 = gopt.abs %12 : tensor<4xi32>
  // CHECK: %[[IRELU:.*]] = gopt.relu %[[IABS]] : tensor<4xi32>
  %14 = gopt.relu %13 : tensor<4xi32>
  // CHECK: %[[SIN:.*]] = gopt.sin %[[SILU]] : tensor<2x3xf32>
  %15 = gopt.sin %11 : tensor<2x3xf32>
  // CHECK: %[[COS:.*]] = gopt.cos %[[SIN]] : tensor<2x3xf32>
  %16 = gopt.cos %15 : tensor<2x3xf32>
  // CHECK: %[[FLOOR:.*]] = gopt.floor %[[COS]] : tensor<2x3xf32>
  %17 = gopt.floor %16 : tensor<2x3xf32>
  // CHECK: %[[CEIL:.*]] = gopt.ceil %[[FLOOR]] : tensor<2x3xf32>
  %18 = gopt.ceil %17 : tensor<2x3xf32>
  // CHECK: %[[ROUND:.*]] = gopt.round %[[CEIL]] : tensor<2x3xf32>
  %19 = gopt.round %18 : tensor<2x3xf32>
  // CHECK: return %[[ROUND]], %[[IRELU]]
  return %19, %14 : tensor<2x3xf32>, tensor<4xi32>
}

// CHECK-LABEL: func.func @gelu
// CHECK-SAME: (%[[X:.*]]: tensor<8xf16>)
func.func @gelu(%x: tensor<8xf16>) -> (tensor<8xf16>, tensor<8xf16>) {
  // CHECK: %[[ERF:.*]] = gopt.gelu %[[X]] : tensor<8xf16>
  %0 = gopt.gelu %x : tensor<8xf16>
  // CHECK: %[[TANH:.*]] = gopt.gelu %[[X]] tanh : tensor<8xf16>
  %1 = gopt.gelu %x tanh : tensor<8xf16>
  // CHECK: return %[[ERF]], %[[TANH]]
  return %0, %1 : tensor<8xf16>, tensor<8xf16>
}

// CHECK-LABEL: func.func @clip_cast
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[I:.*]]: tensor<4xi8>)
func.func @clip_cast(%x: tensor<4xf32>, %i: tensor<4xi8>) -> (tensor<4xf32>, tensor<4xi8>, tensor<4xf16>, tensor<4xi1>, tensor<4xf64>) {
  // CHECK: %[[CLIP:.*]] = gopt.clip %[[X]] min = -1.000000e+00 max = 6.000000e+00 : tensor<4xf32>
  %0 = gopt.clip %x min = -1.0 max = 6.0 : tensor<4xf32>
  // CHECK: %[[ICLIP:.*]] = gopt.clip %[[I]] min = 0.000000e+00 max = 1.000000e+01 : tensor<4xi8>
  %1 = gopt.clip %i min = 0.0 max = 10.0 : tensor<4xi8>
  // CHECK: %[[F16:.*]] = gopt.cast %[[CLIP]] : tensor<4xf32> to tensor<4xf16>
  %2 = gopt.cast %0 : tensor<4xf32> to tensor<4xf16>
  // CHECK: %[[BOOL:.*]] = gopt.cast %[[ICLIP]] : tensor<4xi8> to tensor<4xi1>
  %3 = gopt.cast %1 : tensor<4xi8> to tensor<4xi1>
  // CHECK: %[[F64:.*]] = gopt.cast %[[BOOL]] : tensor<4xi1> to tensor<4xf64>
  %4 = gopt.cast %3 : tensor<4xi1> to tensor<4xf64>
  // CHECK: return %[[CLIP]], %[[ICLIP]], %[[F16]], %[[BOOL]], %[[F64]]
  return %0, %1, %2, %3, %4 : tensor<4xf32>, tensor<4xi8>, tensor<4xf16>, tensor<4xi1>, tensor<4xf64>
}

// The types print once when lhs, rhs and result agree.
// CHECK-LABEL: func.func @binary_same_type
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<2x3xf32>)
func.func @binary_same_type(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK: %[[ADD:.*]] = gopt.add %[[A]], %[[B]] : tensor<2x3xf32>{{$}}
  %0 = gopt.add %a, %b : tensor<2x3xf32>
  // CHECK: %[[SUB:.*]] = gopt.sub %[[ADD]], %[[B]] : tensor<2x3xf32>{{$}}
  %1 = gopt.sub %0, %b : tensor<2x3xf32>
  // CHECK: %[[MUL:.*]] = gopt.mul %[[SUB]], %[[B]] : tensor<2x3xf32>{{$}}
  %2 = gopt.mul %1, %b : tensor<2x3xf32>
  // CHECK: %[[DIV:.*]] = gopt.div %[[MUL]], %[[B]] : tensor<2x3xf32>{{$}}
  %3 = gopt.div %2, %b : tensor<2x3xf32>
  // CHECK: %[[POW:.*]] = gopt.pow %[[DIV]], %[[B]] : tensor<2x3xf32>{{$}}
  %4 = gopt.pow %3, %b : tensor<2x3xf32>
  // CHECK: %[[MAX:.*]] = gopt.max %[[POW]], %[[B]] : tensor<2x3xf32>{{$}}
  %5 = gopt.max %4, %b : tensor<2x3xf32>
  // CHECK: %[[MIN:.*]] = gopt.min %[[MAX]], %[[B]] : tensor<2x3xf32>{{$}}
  %6 = gopt.min %5, %b : tensor<2x3xf32>
  // CHECK: return %[[MIN]]
  return %6 : tensor<2x3xf32>
}

// Broadcasting operands print `lhs, rhs -> result`.
// CHECK-LABEL: func.func @binary_broadcast
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xi32>, %[[ROW:.*]]: tensor<3xi32>, %[[COL:.*]]: tensor<4x1x1xi32>)
func.func @binary_broadcast(%a: tensor<2x3xi32>, %row: tensor<3xi32>, %col: tensor<4x1x1xi32>) -> (tensor<2x3xi32>, tensor<4x2x3xi32>) {
  // CHECK: %[[ADD:.*]] = gopt.add %[[A]], %[[ROW]] : tensor<2x3xi32>, tensor<3xi32> -> tensor<2x3xi32>
  %0 = gopt.add %a, %row : tensor<2x3xi32>, tensor<3xi32> -> tensor<2x3xi32>
  // CHECK: %[[SUB:.*]] = gopt.sub %[[ROW]], %[[ADD]] : tensor<3xi32>, tensor<2x3xi32> -> tensor<2x3xi32>
  %1 = gopt.sub %row, %0 : tensor<3xi32>, tensor<2x3xi32> -> tensor<2x3xi32>
  // CHECK: %[[MUL:.*]] = gopt.mul %[[SUB]], %[[COL]] : tensor<2x3xi32>, tensor<4x1x1xi32> -> tensor<4x2x3xi32>
  %2 = gopt.mul %1, %col : tensor<2x3xi32>, tensor<4x1x1xi32> -> tensor<4x2x3xi32>
  // CHECK: %[[DIV:.*]] = gopt.div %[[MUL]], %[[ROW]] : tensor<4x2x3xi32>, tensor<3xi32> -> tensor<4x2x3xi32>
  %3 = gopt.div %2, %row : tensor<4x2x3xi32>, tensor<3xi32> -> tensor<4x2x3xi32>
  // CHECK: %[[POW:.*]] = gopt.pow %[[DIV]], %[[COL]] : tensor<4x2x3xi32>, tensor<4x1x1xi32> -> tensor<4x2x3xi32>
  %4 = gopt.pow %3, %col : tensor<4x2x3xi32>, tensor<4x1x1xi32> -> tensor<4x2x3xi32>
  // CHECK: %[[MAX:.*]] = gopt.max %[[POW]], %[[ROW]] : tensor<4x2x3xi32>, tensor<3xi32> -> tensor<4x2x3xi32>
  %5 = gopt.max %4, %row : tensor<4x2x3xi32>, tensor<3xi32> -> tensor<4x2x3xi32>
  // CHECK: %[[MIN:.*]] = gopt.min %[[COL]], %[[MAX]] : tensor<4x1x1xi32>, tensor<4x2x3xi32> -> tensor<4x2x3xi32>
  %6 = gopt.min %col, %5 : tensor<4x1x1xi32>, tensor<4x2x3xi32> -> tensor<4x2x3xi32>
  // CHECK: return %[[ADD]], %[[MIN]]
  return %0, %6 : tensor<2x3xi32>, tensor<4x2x3xi32>
}

// CHECK-LABEL: func.func @compare
// CHECK-SAME: (%[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xf32>, %[[S:.*]]: tensor<1xf32>, %[[I:.*]]: tensor<2x4xi64>, %[[J:.*]]: tensor<4xi64>)
func.func @compare(%a: tensor<4xf32>, %b: tensor<4xf32>, %s: tensor<1xf32>, %i: tensor<2x4xi64>, %j: tensor<4xi64>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<2x4xi1>) {
  // CHECK: %[[EQ:.*]] = gopt.compare eq, %[[A]], %[[B]] : tensor<4xf32>, tensor<4xf32>
  %0 = gopt.compare eq, %a, %b : tensor<4xf32>, tensor<4xf32>
  // CHECK: %[[NE:.*]] = gopt.compare ne, %[[A]], %[[B]] : tensor<4xf32>, tensor<4xf32>
  %1 = gopt.compare ne, %a, %b : tensor<4xf32>, tensor<4xf32>
  // CHECK: %[[LT:.*]] = gopt.compare lt, %[[A]], %[[S]] : tensor<4xf32>, tensor<1xf32>
  %2 = gopt.compare lt, %a, %s : tensor<4xf32>, tensor<1xf32>
  // CHECK: %[[LE:.*]] = gopt.compare le, %[[S]], %[[B]] : tensor<1xf32>, tensor<4xf32>
  %3 = gopt.compare le, %s, %b : tensor<1xf32>, tensor<4xf32>
  // CHECK: %[[GT:.*]] = gopt.compare gt, %[[A]], %[[B]] : tensor<4xf32>, tensor<4xf32>
  %4 = gopt.compare gt, %a, %b : tensor<4xf32>, tensor<4xf32>
  // CHECK: %[[GE:.*]] = gopt.compare ge, %[[A]], %[[B]] : tensor<4xf32>, tensor<4xf32>
  %5 = gopt.compare ge, %a, %b : tensor<4xf32>, tensor<4xf32>
  // CHECK: %[[IGE:.*]] = gopt.compare ge, %[[I]], %[[J]] : tensor<2x4xi64>, tensor<4xi64>
  %6 = gopt.compare ge, %i, %j : tensor<2x4xi64>, tensor<4xi64>
  // CHECK: return %[[EQ]], %[[NE]], %[[LT]], %[[LE]], %[[GT]], %[[GE]], %[[IGE]]
  return %0, %1, %2, %3, %4, %5, %6 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<2x4xi1>
}

// CHECK-LABEL: func.func @select
// CHECK-SAME: (%[[C:.*]]: tensor<2x4xi1>, %[[T:.*]]: tensor<2x4xf32>, %[[F:.*]]: tensor<4xf32>, %[[C1:.*]]: tensor<3x1x1xi1>)
func.func @select(%c: tensor<2x4xi1>, %t: tensor<2x4xf32>, %f: tensor<4xf32>, %c1: tensor<3x1x1xi1>) -> (tensor<2x4xf32>, tensor<3x2x4xf32>) {
  // CHECK: %[[S0:.*]] = gopt.select %[[C]], %[[T]], %[[F]] : tensor<2x4xi1>, tensor<2x4xf32>, tensor<4xf32>
  %0 = gopt.select %c, %t, %f : tensor<2x4xi1>, tensor<2x4xf32>, tensor<4xf32>
  // CHECK: %[[S1:.*]] = gopt.select %[[C1]], %[[F]], %[[S0]] : tensor<3x1x1xi1>, tensor<4xf32>, tensor<2x4xf32>
  %1 = gopt.select %c1, %f, %0 : tensor<3x1x1xi1>, tensor<4xf32>, tensor<2x4xf32>
  // CHECK: return %[[S0]], %[[S1]]
  return %0, %1 : tensor<2x4xf32>, tensor<3x2x4xf32>
}

// CHECK-LABEL: func.func @reduce
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>, %[[I:.*]]: tensor<2x3xi32>)
func.func @reduce(%x: tensor<2x3x4xf32>, %i: tensor<2x3xi32>) -> (tensor<2x3xf32>, tensor<1x3x1xf32>, tensor<2xf32>, tensor<2x3x1xf32>, tensor<3xi32>, tensor<2x1xi32>) {
  // CHECK: %[[SUM:.*]] = gopt.reduce sum %[[X]] axes = [2] : tensor<2x3x4xf32> -> tensor<2x3xf32>
  %0 = gopt.reduce sum %x axes = [2] : tensor<2x3x4xf32> -> tensor<2x3xf32>
  // CHECK: %[[MEAN:.*]] = gopt.reduce mean %[[X]] axes = [0, -1] keepdims : tensor<2x3x4xf32> -> tensor<1x3x1xf32>
  %1 = gopt.reduce mean %x axes = [0, -1] keepdims : tensor<2x3x4xf32> -> tensor<1x3x1xf32>
  // CHECK: %[[MAX:.*]] = gopt.reduce max %[[X]] axes = [1, 2] : tensor<2x3x4xf32> -> tensor<2xf32>
  %2 = gopt.reduce max %x axes = [1, 2] : tensor<2x3x4xf32> -> tensor<2xf32>
  // CHECK: %[[MIN:.*]] = gopt.reduce min %[[X]] axes = [2] keepdims : tensor<2x3x4xf32> -> tensor<2x3x1xf32>
  %3 = gopt.reduce min %x axes = [2] keepdims : tensor<2x3x4xf32> -> tensor<2x3x1xf32>
  // CHECK: %[[ISUM:.*]] = gopt.reduce sum %[[I]] axes = [0] : tensor<2x3xi32> -> tensor<3xi32>
  %4 = gopt.reduce sum %i axes = [0] : tensor<2x3xi32> -> tensor<3xi32>
  // CHECK: %[[IMAX:.*]] = gopt.reduce max %[[I]] axes = [1] keepdims : tensor<2x3xi32> -> tensor<2x1xi32>
  %5 = gopt.reduce max %i axes = [1] keepdims : tensor<2x3xi32> -> tensor<2x1xi32>
  // CHECK: return %[[SUM]], %[[MEAN]], %[[MAX]], %[[MIN]], %[[ISUM]], %[[IMAX]]
  return %0, %1, %2, %3, %4, %5 : tensor<2x3xf32>, tensor<1x3x1xf32>, tensor<2xf32>, tensor<2x3x1xf32>, tensor<3xi32>, tensor<2x1xi32>
}

// CHECK-LABEL: func.func @normalizations
// CHECK-SAME: (%[[X:.*]]: tensor<2x8x16xf32>, %[[S:.*]]: tensor<16xf32>, %[[B:.*]]: tensor<16xf32>, %[[S2:.*]]: tensor<8x16xf32>)
func.func @normalizations(%x: tensor<2x8x16xf32>, %s: tensor<16xf32>, %b: tensor<16xf32>, %s2: tensor<8x16xf32>) -> (tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<2x8x16xf32>) {
  // CHECK: %[[SM:.*]] = gopt.softmax %[[X]] axis = -1 : tensor<2x8x16xf32>
  %0 = gopt.softmax %x axis = -1 : tensor<2x8x16xf32>
  // CHECK: %[[LN:.*]] = gopt.layer_norm %[[SM]], %[[S]], %[[B]] axes = [2] eps = 1.000000e-05 : tensor<2x8x16xf32>, tensor<16xf32>, tensor<16xf32>
  %1 = gopt.layer_norm %0, %s, %b axes = [2] eps = 1.0e-05 : tensor<2x8x16xf32>, tensor<16xf32>, tensor<16xf32>
  // CHECK: %[[LN2:.*]] = gopt.layer_norm %[[LN]], %[[S2]] axes = [1, 2] eps = 0.000000e+00 : tensor<2x8x16xf32>, tensor<8x16xf32>{{$}}
  %2 = gopt.layer_norm %1, %s2 axes = [1, 2] eps = 0.0 : tensor<2x8x16xf32>, tensor<8x16xf32>
  // CHECK: %[[SM2:.*]] = gopt.softmax %[[LN2]] axis = 0 : tensor<2x8x16xf32>
  %3 = gopt.softmax %2 axis = 0 : tensor<2x8x16xf32>
  // CHECK: return %[[SM]], %[[LN]], %[[LN2]], %[[SM2]]
  return %0, %1, %2, %3 : tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<2x8x16xf32>
}

// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8x16xf32>, %[[BA:.*]]: tensor<3x1x4x8xf32>, %[[BB:.*]]: tensor<5x8x2xf32>)
func.func @matmul(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %ba: tensor<3x1x4x8xf32>, %bb: tensor<5x8x2xf32>) -> (tensor<4x16xf32>, tensor<3x5x4x2xf32>, tensor<5x4x2xf32>) {
  // CHECK: %[[M0:.*]] = gopt.matmul %[[A]], %[[B]] : tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
  %0 = gopt.matmul %a, %b : tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
  // CHECK: %[[M1:.*]] = gopt.matmul %[[BA]], %[[BB]] : tensor<3x1x4x8xf32>, tensor<5x8x2xf32> -> tensor<3x5x4x2xf32>
  %1 = gopt.matmul %ba, %bb : tensor<3x1x4x8xf32>, tensor<5x8x2xf32> -> tensor<3x5x4x2xf32>
  // CHECK: %[[M2:.*]] = gopt.matmul %[[A]], %[[BB]] : tensor<4x8xf32>, tensor<5x8x2xf32> -> tensor<5x4x2xf32>
  %2 = gopt.matmul %a, %bb : tensor<4x8xf32>, tensor<5x8x2xf32> -> tensor<5x4x2xf32>
  // CHECK: return %[[M0]], %[[M1]], %[[M2]]
  return %0, %1, %2 : tensor<4x16xf32>, tensor<3x5x4x2xf32>, tensor<5x4x2xf32>
}

// CHECK-LABEL: func.func @linear
// CHECK-SAME: (%[[X:.*]]: tensor<2x4x8xf32>, %[[W:.*]]: tensor<8x16xf32>, %[[WT:.*]]: tensor<16x8xf32>, %[[B:.*]]: tensor<16xf32>, %[[XT:.*]]: tensor<8x4xf32>)
func.func @linear(%x: tensor<2x4x8xf32>, %w: tensor<8x16xf32>, %wt: tensor<16x8xf32>, %b: tensor<16xf32>, %xt: tensor<8x4xf32>) -> (tensor<2x4x16xf32>, tensor<2x4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>) {
  // CHECK: %[[L0:.*]] = gopt.linear %[[X]], %[[W]] : tensor<2x4x8xf32>, tensor<8x16xf32> -> tensor<2x4x16xf32>
  %0 = gopt.linear %x, %w : tensor<2x4x8xf32>, tensor<8x16xf32> -> tensor<2x4x16xf32>
  // CHECK: %[[L1:.*]] = gopt.linear %[[X]], %[[WT]], %[[B]] transpose_weight : tensor<2x4x8xf32>, tensor<16x8xf32>, tensor<16xf32> -> tensor<2x4x16xf32>
  %1 = gopt.linear %x, %wt, %b transpose_weight : tensor<2x4x8xf32>, tensor<16x8xf32>, tensor<16xf32> -> tensor<2x4x16xf32>
  // CHECK: %[[L2:.*]] = gopt.linear %[[XT]], %[[W]], %[[B]] transpose_input : tensor<8x4xf32>, tensor<8x16xf32>, tensor<16xf32> -> tensor<4x16xf32>
  %2 = gopt.linear %xt, %w, %b transpose_input : tensor<8x4xf32>, tensor<8x16xf32>, tensor<16xf32> -> tensor<4x16xf32>
  // CHECK: %[[L3:.*]] = gopt.linear %[[XT]], %[[WT]] transpose_input transpose_weight : tensor<8x4xf32>, tensor<16x8xf32> -> tensor<4x16xf32>
  %3 = gopt.linear %xt, %wt transpose_input transpose_weight : tensor<8x4xf32>, tensor<16x8xf32> -> tensor<4x16xf32>
  // CHECK: return %[[L0]], %[[L1]], %[[L2]], %[[L3]]
  return %0, %1, %2, %3 : tensor<2x4x16xf32>, tensor<2x4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>
}

// CHECK-LABEL: func.func @conv2d
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x8x8xf32>, %[[W:.*]]: tensor<8x4x3x3xf32>, %[[B:.*]]: tensor<8xf32>, %[[WG:.*]]: tensor<4x2x3x3xf32>)
func.func @conv2d(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x3x3xf32>, %b: tensor<8xf32>, %wg: tensor<4x2x3x3xf32>) -> (tensor<1x8x8x8xf32>, tensor<1x4x2x3xf32>) {
  // CHECK: %[[C0:.*]] = gopt.conv2d %[[X]], %[[W]], %[[B]] strides = [1, 1] padding = [1, 1, 1, 1] dilations = [1, 1] groups = 1 : tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>, tensor<8xf32> -> tensor<1x8x8x8xf32>
  %0 = gopt.conv2d %x, %w, %b strides = [1, 1] padding = [1, 1, 1, 1] dilations = [1, 1] groups = 1 : tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>, tensor<8xf32> -> tensor<1x8x8x8xf32>
  // CHECK: %[[C1:.*]] = gopt.conv2d %[[X]], %[[WG]] strides = [2, 3] padding = [0, 1, 0, 0] dilations = [2, 1] groups = 2 : tensor<1x4x8x8xf32>, tensor<4x2x3x3xf32> -> tensor<1x4x2x3xf32>
  %1 = gopt.conv2d %x, %wg strides = [2, 3] padding = [0, 1, 0, 0] dilations = [2, 1] groups = 2 : tensor<1x4x8x8xf32>, tensor<4x2x3x3xf32> -> tensor<1x4x2x3xf32>
  // CHECK: return %[[C0]], %[[C1]]
  return %0, %1 : tensor<1x8x8x8xf32>, tensor<1x4x2x3xf32>
}

// CHECK-LABEL: func.func @pooling
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x8x8xf32>)
func.func @pooling(%x: tensor<2x3x8x8xf32>) -> (tensor<2x3x4x4xf32>, tensor<2x3x8x8xf32>, tensor<2x3x8x8xf32>, tensor<2x3x1x1xf32>) {
  // CHECK: %[[MAX:.*]] = gopt.pool2d max %[[X]] kernel = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] : tensor<2x3x8x8xf32> -> tensor<2x3x4x4xf32>
  %0 = gopt.pool2d max %x kernel = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] : tensor<2x3x8x8xf32> -> tensor<2x3x4x4xf32>
  // CHECK: %[[AVG:.*]] = gopt.pool2d avg %[[X]] kernel = [3, 3] strides = [1, 1] padding = [1, 1, 1, 1] : tensor<2x3x8x8xf32> -> tensor<2x3x8x8xf32>
  %1 = gopt.pool2d avg %x kernel = [3, 3] strides = [1, 1] padding = [1, 1, 1, 1] : tensor<2x3x8x8xf32> -> tensor<2x3x8x8xf32>
  // CHECK: %[[AVGP:.*]] = gopt.pool2d avg %[[X]] kernel = [3, 3] strides = [1, 1] padding = [1, 1, 1, 1] count_include_pad : tensor<2x3x8x8xf32> -> tensor<2x3x8x8xf32>
  %2 = gopt.pool2d avg %x kernel = [3, 3] strides = [1, 1] padding = [1, 1, 1, 1] count_include_pad : tensor<2x3x8x8xf32> -> tensor<2x3x8x8xf32>
  // CHECK: %[[GAP:.*]] = gopt.global_avg_pool %[[X]] : tensor<2x3x8x8xf32> -> tensor<2x3x1x1xf32>
  %3 = gopt.global_avg_pool %x : tensor<2x3x8x8xf32> -> tensor<2x3x1x1xf32>
  // CHECK: return %[[MAX]], %[[AVG]], %[[AVGP]], %[[GAP]]
  return %0, %1, %2, %3 : tensor<2x3x4x4xf32>, tensor<2x3x8x8xf32>, tensor<2x3x8x8xf32>, tensor<2x3x1x1xf32>
}

// Channels last: NHWC input and result, FHWC weight (grouped: C/groups
// innermost); pooling and global average pooling over H and W of NHWC.
// CHECK-LABEL: func.func @channels_last
// CHECK-SAME: (%[[X:.*]]: tensor<1x8x8x4xf32>, %[[W:.*]]: tensor<6x3x3x4xf32>, %[[WG:.*]]: tensor<4x3x3x1xf32>)
func.func @channels_last(%x: tensor<1x8x8x4xf32>, %w: tensor<6x3x3x4xf32>, %wg: tensor<4x3x3x1xf32>) -> (tensor<1x8x8x6xf32>, tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>, tensor<1x1x1x4xf32>) {
  // CHECK: %[[C0:.*]] = gopt.conv2d %[[X]], %[[W]] strides = [1, 1] padding = [1, 1, 1, 1] dilations = [1, 1] groups = 1 channels_last : tensor<1x8x8x4xf32>, tensor<6x3x3x4xf32> -> tensor<1x8x8x6xf32>
  %0 = gopt.conv2d %x, %w strides = [1, 1] padding = [1, 1, 1, 1] dilations = [1, 1] groups = 1 channels_last : tensor<1x8x8x4xf32>, tensor<6x3x3x4xf32> -> tensor<1x8x8x6xf32>
  // CHECK: %[[C1:.*]] = gopt.conv2d %[[X]], %[[WG]] strides = [2, 2] padding = [1, 1, 1, 1] dilations = [1, 1] groups = 4 channels_last : tensor<1x8x8x4xf32>, tensor<4x3x3x1xf32> -> tensor<1x4x4x4xf32>
  %1 = gopt.conv2d %x, %wg strides = [2, 2] padding = [1, 1, 1, 1] dilations = [1, 1] groups = 4 channels_last : tensor<1x8x8x4xf32>, tensor<4x3x3x1xf32> -> tensor<1x4x4x4xf32>
  // CHECK: %[[P:.*]] = gopt.pool2d avg %[[X]] kernel = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] count_include_pad channels_last : tensor<1x8x8x4xf32> -> tensor<1x4x4x4xf32>
  %2 = gopt.pool2d avg %x kernel = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] count_include_pad channels_last : tensor<1x8x8x4xf32> -> tensor<1x4x4x4xf32>
  // CHECK: %[[G:.*]] = gopt.global_avg_pool %[[X]] channels_last : tensor<1x8x8x4xf32> -> tensor<1x1x1x4xf32>
  %3 = gopt.global_avg_pool %x channels_last : tensor<1x8x8x4xf32> -> tensor<1x1x1x4xf32>
  // CHECK: return %[[C0]], %[[C1]], %[[P]], %[[G]]
  return %0, %1, %2, %3 : tensor<1x8x8x6xf32>, tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>, tensor<1x1x1x4xf32>
}

// CHECK-LABEL: func.func @transpose_reshape_broadcast
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>, %[[Y:.*]]: tensor<3x1xi1>)
func.func @transpose_reshape_broadcast(%x: tensor<2x3x4xf32>, %y: tensor<3x1xi1>) -> (tensor<4x2x3xf32>, tensor<6x4xf32>, tensor<2x3x4xi1>) {
  // CHECK: %[[T:.*]] = gopt.transpose %[[X]] perm = [2, 0, 1] : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  %0 = gopt.transpose %x perm = [2, 0, 1] : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  // CHECK: %[[R:.*]] = gopt.reshape %[[X]] : tensor<2x3x4xf32> -> tensor<6x4xf32>
  %1 = gopt.reshape %x : tensor<2x3x4xf32> -> tensor<6x4xf32>
  // CHECK: %[[B:.*]] = gopt.broadcast_to %[[Y]] : tensor<3x1xi1> -> tensor<2x3x4xi1>
  %2 = gopt.broadcast_to %y : tensor<3x1xi1> -> tensor<2x3x4xi1>
  // CHECK: return %[[T]], %[[R]], %[[B]]
  return %0, %1, %2 : tensor<4x2x3xf32>, tensor<6x4xf32>, tensor<2x3x4xi1>
}

// CHECK-LABEL: func.func @concat_slice_split
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<2x5xf32>)
func.func @concat_slice_split(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>) -> (tensor<2x8xf32>, tensor<4x3xf32>, tensor<1x3xf32>, tensor<2x2xf32>, tensor<2x0xf32>, tensor<2x6xf32>) {
  // CHECK: %[[C0:.*]] = gopt.concat %[[A]], %[[B]] axis = 1 : tensor<2x3xf32>, tensor<2x5xf32> -> tensor<2x8xf32>
  %0 = gopt.concat %a, %b axis = 1 : tensor<2x3xf32>, tensor<2x5xf32> -> tensor<2x8xf32>
  // CHECK: %[[C1:.*]] = gopt.concat %[[A]], %[[A]] axis = -2 : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<4x3xf32>
  %1 = gopt.concat %a, %a axis = -2 : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<4x3xf32>
  // CHECK: %[[S:.*]] = gopt.slice %[[C1]] starts = [1, 0] ends = [-1, 3] steps = [2, 1] : tensor<4x3xf32> -> tensor<1x3xf32>
  %2 = gopt.slice %1 starts = [1, 0] ends = [-1, 3] steps = [2, 1] : tensor<4x3xf32> -> tensor<1x3xf32>
  // CHECK: %[[SP:.*]]:3 = gopt.split %[[C0]] axis = 1 sizes = [2, 0, 6] : tensor<2x8xf32> -> tensor<2x2xf32>, tensor<2x0xf32>, tensor<2x6xf32>
  %3:3 = gopt.split %0 axis = 1 sizes = [2, 0, 6] : tensor<2x8xf32> -> tensor<2x2xf32>, tensor<2x0xf32>, tensor<2x6xf32>
  // CHECK: return %[[C0]], %[[C1]], %[[S]], %[[SP]]#0, %[[SP]]#1, %[[SP]]#2
  return %0, %1, %2, %3#0, %3#1, %3#2 : tensor<2x8xf32>, tensor<4x3xf32>, tensor<1x3xf32>, tensor<2x2xf32>, tensor<2x0xf32>, tensor<2x6xf32>
}

// CHECK-LABEL: func.func @gather_elements
// CHECK-SAME: (%[[X:.*]]: tensor<5x4xf32>, %[[I:.*]]: tensor<5x2xi64>)
func.func @gather_elements(%x: tensor<5x4xf32>, %i: tensor<5x2xi64>) -> tensor<5x2xf32> {
  // CHECK: %[[G:.*]] = gopt.gather_elements %[[X]][%[[I]]] axis = -1 : tensor<5x4xf32>, tensor<5x2xi64> -> tensor<5x2xf32>
  %0 = gopt.gather_elements %x[%i] axis = -1 : tensor<5x4xf32>, tensor<5x2xi64> -> tensor<5x2xf32>
  // CHECK: return %[[G]]
  return %0 : tensor<5x2xf32>
}

// CHECK-LABEL: func.func @gather_pad_shape
// CHECK-SAME: (%[[X:.*]]: tensor<5x4xf32>, %[[I:.*]]: tensor<2x3xi64>, %[[J:.*]]: tensor<i32>)
func.func @gather_pad_shape(%x: tensor<5x4xf32>, %i: tensor<2x3xi64>, %j: tensor<i32>) -> (tensor<2x3x4xf32>, tensor<5xf32>, tensor<7x5xf32>, tensor<2xi64>) {
  // CHECK: %[[G0:.*]] = gopt.gather %[[X]][%[[I]]] axis = 0 : tensor<5x4xf32>, tensor<2x3xi64> -> tensor<2x3x4xf32>
  %0 = gopt.gather %x[%i] axis = 0 : tensor<5x4xf32>, tensor<2x3xi64> -> tensor<2x3x4xf32>
  // CHECK: %[[G1:.*]] = gopt.gather %[[X]][%[[J]]] axis = -1 : tensor<5x4xf32>, tensor<i32> -> tensor<5xf32>
  %1 = gopt.gather %x[%j] axis = -1 : tensor<5x4xf32>, tensor<i32> -> tensor<5xf32>
  // CHECK: %[[P:.*]] = gopt.pad %[[X]] low = [1, 0] high = [1, 1] value = -1.000000e+00 : tensor<5x4xf32> -> tensor<7x5xf32>
  %2 = gopt.pad %x low = [1, 0] high = [1, 1] value = -1.0 : tensor<5x4xf32> -> tensor<7x5xf32>
  // CHECK: %[[SH:.*]] = gopt.shape %[[X]] : tensor<5x4xf32> -> tensor<2xi64>
  %3 = gopt.shape %x : tensor<5x4xf32> -> tensor<2xi64>
  // CHECK: return %[[G0]], %[[G1]], %[[P]], %[[SH]]
  return %0, %1, %2, %3 : tensor<2x3x4xf32>, tensor<5xf32>, tensor<7x5xf32>, tensor<2xi64>
}

// Scale and offset print so that they parse back to the same doubles.
// CHECK-LABEL: func.func @resize
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x3x4xf32>, %[[I:.*]]: tensor<5x3xi32>)
func.func @resize(%x: tensor<1x2x3x4xf32>, %i: tensor<5x3xi32>) -> (tensor<1x2x6x7xf32>, tensor<2x3xi32>) {
  // CHECK: %[[L:.*]] = gopt.resize linear %[[X]] scale = [1.000000e+00, 1.000000e+00, 5.000000e-01, 0.5714285714285714] offset = [0.000000e+00, 0.000000e+00, -2.500000e-01, -0.21428571428571427] : tensor<1x2x3x4xf32> -> tensor<1x2x6x7xf32>
  %0 = gopt.resize linear %x scale = [1.0, 1.0, 0.5, 0.5714285714285714] offset = [0.0, 0.0, -0.25, -0.21428571428571427] : tensor<1x2x3x4xf32> -> tensor<1x2x6x7xf32>
  // CHECK: %[[N:.*]] = gopt.resize nearest_round_prefer_ceil %[[I]] scale = [2.500000e+00, 1.000000e+00] offset = [0.000000e+00, 0.000000e+00] : tensor<5x3xi32> -> tensor<2x3xi32>
  %1 = gopt.resize nearest_round_prefer_ceil %i scale = [2.5, 1.0] offset = [0.0, 0.0] : tensor<5x3xi32> -> tensor<2x3xi32>
  // CHECK: return %[[L]], %[[N]]
  return %0, %1 : tensor<1x2x6x7xf32>, tensor<2x3xi32>
}

// CHECK-LABEL: func.func @fusion
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8xf32>)
func.func @fusion(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  // CHECK: %[[F:.*]]:2 = gopt.fusion(%[[X]], %[[B]] : tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>, tensor<4x8xf32> {
  // CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<4x8xf32>, %[[C:.*]]: tensor<8xf32>):
  // CHECK-NEXT: %[[S:.*]] = gopt.add %[[A]], %[[C]] : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  // CHECK-NEXT: %[[T:.*]] = gopt.relu %[[S]] : tensor<4x8xf32>
  // CHECK-NEXT: gopt.yield %[[S]], %[[T]] : tensor<4x8xf32>, tensor<4x8xf32>
  // CHECK-NEXT: }
  %r:2 = gopt.fusion(%x, %b : tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>, tensor<4x8xf32> {
  ^bb0(%a: tensor<4x8xf32>, %c: tensor<8xf32>):
    %s = gopt.add %a, %c : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
    %t = gopt.relu %s : tensor<4x8xf32>
    gopt.yield %s, %t : tensor<4x8xf32>, tensor<4x8xf32>
  }
  // CHECK: return %[[F]]#0, %[[F]]#1
  return %r#0, %r#1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// A fusion with no inputs and a constant body.
// CHECK-LABEL: func.func @fusion_no_inputs
func.func @fusion_no_inputs() -> tensor<2xf32> {
  // CHECK: %[[F:.*]] = gopt.fusion() -> tensor<2xf32> {
  // CHECK-NEXT: %[[C:.*]] = gopt.constant dense<2.000000e+00> : tensor<2xf32>
  // CHECK-NEXT: %[[E:.*]] = gopt.exp %[[C]] : tensor<2xf32>
  // CHECK-NEXT: gopt.yield %[[E]] : tensor<2xf32>
  // CHECK-NEXT: }
  %r = gopt.fusion() -> tensor<2xf32> {
    %c = gopt.constant dense<2.0> : tensor<2xf32>
    %e = gopt.exp %c : tensor<2xf32>
    gopt.yield %e : tensor<2xf32>
  }
  // CHECK: return %[[F]]
  return %r : tensor<2xf32>
}

// gopt.attention_kernel, the kernel op code generation makes: on tensors
// with a mask, on buffers without (its diagnostics:
// attention-kernel-invalid.mlir).

// CHECK-LABEL: func.func @heads_transposed
// CHECK: %[[O:.*]] = gopt.attention_kernel ins(%{{.*}}, %{{.*}}, %{{.*}} mask %{{.*}} : tensor<1x128x4x32xf32>, tensor<1x128x4x32xf32>, tensor<1x128x4x32xf32>, tensor<1x1x1x128xf32>) outs(%{{.*}} : tensor<1x4x128x32xf32>) {key_perm = array<i64: 0, 2, 3, 1>, query_perm = array<i64: 0, 2, 1, 3>, scale = 1.250000e-01 : f32, value_perm = array<i64: 0, 2, 1, 3>} -> tensor<1x4x128x32xf32>
// CHECK: return %[[O]]
func.func @heads_transposed(%q: tensor<1x128x4x32xf32>, %k: tensor<1x128x4x32xf32>,
                            %v: tensor<1x128x4x32xf32>, %m: tensor<1x1x1x128xf32>,
                            %e: tensor<1x4x128x32xf32>) -> tensor<1x4x128x32xf32> {
  %o = gopt.attention_kernel ins(%q, %k, %v mask %m : tensor<1x128x4x32xf32>, tensor<1x128x4x32xf32>, tensor<1x128x4x32xf32>, tensor<1x1x1x128xf32>) outs(%e : tensor<1x4x128x32xf32>) {query_perm = array<i64: 0, 2, 1, 3>, key_perm = array<i64: 0, 2, 3, 1>, value_perm = array<i64: 0, 2, 1, 3>, scale = 0.125 : f32} -> tensor<1x4x128x32xf32>
  return %o : tensor<1x4x128x32xf32>
}

// CHECK-LABEL: func.func @buffers
// CHECK: gopt.attention_kernel ins(%{{.*}}, %{{.*}}, %{{.*}} : memref<8x16x8xf32>, memref<8x8x16xf32>, memref<8x16x4xf32>) outs(%{{.*}} : memref<8x16x4xf32>) {key_perm = array<i64: 0, 1, 2>, query_perm = array<i64: 0, 1, 2>, scale = 1.000000e+00 : f32, value_perm = array<i64: 0, 1, 2>}{{$}}
func.func @buffers(%q: memref<8x16x8xf32>, %kt: memref<8x8x16xf32>, %v: memref<8x16x4xf32>, %o: memref<8x16x4xf32>) {
  gopt.attention_kernel ins(%q, %kt, %v : memref<8x16x8xf32>, memref<8x8x16xf32>, memref<8x16x4xf32>) outs(%o : memref<8x16x4xf32>) {query_perm = array<i64: 0, 1, 2>, key_perm = array<i64: 0, 1, 2>, value_perm = array<i64: 0, 1, 2>, scale = 1.0 : f32}
  return
}

// The resource blob of the dense_resource constant survives both round trips.
// CHECK: dialect_resources: {
// CHECK-NEXT: builtin: {
// CHECK-NEXT: w0: "0x040000000000803F000000400000404000008040"

{-#
  dialect_resources: {
    builtin: {
      w0: "0x040000000000803F000000400000404000008040"
    }
  }
#-}
