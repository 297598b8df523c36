// RUN: gopt-opt %s -split-input-file --gopt-fold | FileCheck %s
// RUN: gopt-opt %s -split-input-file --gopt-fold=max-folded-elements=4 | FileCheck %s --check-prefix=BOUND

// Dense constant evaluation by the gopt-fold pass. The pass uses the walk
// driver, which never erases dead ops: the constants an evaluated op read
// stay in the IR, so the checks follow the uses.

// CHECK-LABEL: func.func @unary_fold
func.func @unary_fold() -> (tensor<4xf32>, tensor<3xi32>) {
  // CHECK-DAG: %[[E:.*]] = gopt.constant dense<[0.36787945, 7.3890562, 1.000000e+00, 1.000000e+00]> : tensor<4xf32>
  // CHECK-DAG: %[[A:.*]] = gopt.constant dense<[1, 2, 3]> : tensor<3xi32>
  // CHECK-NOT: gopt.neg
  // CHECK-NOT: gopt.exp
  // CHECK-NOT: gopt.abs
  // CHECK: return %[[E]], %[[A]]
  %c = gopt.constant dense<[1.0, -2.0, 0.0, -0.0]> : tensor<4xf32>
  %0 = gopt.neg %c : tensor<4xf32>
  %1 = gopt.exp %0 : tensor<4xf32>
  %i = gopt.constant dense<[1, -2, 3]> : tensor<3xi32>
  %2 = gopt.abs %i : tensor<3xi32>
  return %1, %2 : tensor<4xf32>, tensor<3xi32>
}

// -----

// round takes halves to even (ONNX's Round); floor and ceil keep the sign
// of zero.
// CHECK-LABEL: func.func @rounding_fold
func.func @rounding_fold() -> (tensor<5xf32>, tensor<5xf32>, tensor<5xf32>) {
  // CHECK-DAG: %[[R:.*]] = gopt.constant dense<[2.000000e+00, -2.000000e+00, -0.000000e+00, 2.000000e+00, 1.000000e+00]> : tensor<5xf32>
  // CHECK-DAG: %[[F:.*]] = gopt.constant dense<[2.000000e+00, -3.000000e+00, -1.000000e+00, 1.000000e+00, 1.000000e+00]> : tensor<5xf32>
  // CHECK-DAG: %[[C:.*]] = gopt.constant dense<[3.000000e+00, -2.000000e+00, -0.000000e+00, 2.000000e+00, 2.000000e+00]> : tensor<5xf32>
  // CHECK: return %[[R]], %[[F]], %[[C]]
  %c = gopt.constant dense<[2.5, -2.5, -0.5, 1.5, 1.25]> : tensor<5xf32>
  %0 = gopt.round %c : tensor<5xf32>
  %1 = gopt.floor %c : tensor<5xf32>
  %2 = gopt.ceil %c : tensor<5xf32>
  return %0, %1, %2 : tensor<5xf32>, tensor<5xf32>, tensor<5xf32>
}

// -----

// CHECK-LABEL: func.func @unary_no_fold
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
func.func @unary_no_fold(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[N:.*]] = gopt.neg %[[X]]
  // CHECK: %[[E:.*]] = gopt.exp %[[N]]
  // CHECK: return %[[E]]
  %0 = gopt.neg %x : tensor<4xf32>
  %1 = gopt.exp %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// Negation keeps the sign of zero; sqrt of a negative number is NaN.
// CHECK-LABEL: func.func @unary_signed_zero_and_nan
func.func @unary_signed_zero_and_nan() -> (tensor<2xf32>, tensor<2xf32>) {
  // CHECK-DAG: %[[N:.*]] = gopt.constant dense<[-0.000000e+00, 0.000000e+00]> : tensor<2xf32>
  // CHECK-DAG: %[[S:.*]] = gopt.constant dense<[0x{{7F|FF}}C00000, 2.000000e+00]> : tensor<2xf32>
  // CHECK: return %[[N]], %[[S]]
  %z = gopt.constant dense<[0.0, -0.0]> : tensor<2xf32>
  %0 = gopt.neg %z : tensor<2xf32>
  %c = gopt.constant dense<[-1.0, 4.0]> : tensor<2xf32>
  %1 = gopt.sqrt %c : tensor<2xf32>
  return %0, %1 : tensor<2xf32>, tensor<2xf32>
}

// -----

// CHECK-LABEL: func.func @binary_broadcast_fold
func.func @binary_broadcast_fold() -> (tensor<2x3xf32>, tensor<2x3xi32>) {
  // CHECK-DAG: %[[ADD:.*]] = gopt.constant dense<{{\[}}[1.100000e+01, 2.200000e+01, 3.300000e+01], [1.400000e+01, 2.500000e+01, 3.600000e+01]]> : tensor<2x3xf32>
  // CHECK-DAG: %[[SUB:.*]] = gopt.constant dense<{{\[}}[9, 8, 7], [19, 18, 17]]> : tensor<2x3xi32>
  // CHECK-NOT: gopt.add
  // CHECK-NOT: gopt.sub
  // CHECK: return %[[ADD]], %[[SUB]]
  %a = gopt.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %b = gopt.constant dense<[10.0, 20.0, 30.0]> : tensor<3xf32>
  %0 = gopt.add %a, %b : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
  %c = gopt.constant dense<[[10], [20]]> : tensor<2x1xi32>
  %d = gopt.constant dense<[1, 2, 3]> : tensor<3xi32>
  %1 = gopt.sub %c, %d : tensor<2x1xi32>, tensor<3xi32> -> tensor<2x3xi32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xi32>
}

// -----

// CHECK-LABEL: func.func @binary_no_fold
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
func.func @binary_no_fold(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK: %[[B:.*]] = gopt.constant dense<[1.000000e+01, 2.000000e+01, 3.000000e+01]> : tensor<3xf32>
  // CHECK: %[[ADD:.*]] = gopt.add %[[X]], %[[B]] : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
  // CHECK: return %[[ADD]]
  %b = gopt.constant dense<[10.0, 20.0, 30.0]> : tensor<3xf32>
  %0 = gopt.add %x, %b : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Float comparisons are ordered: NaN compares false except under `ne`;
// -0 == +0. NaN propagates through max and min; max(-0, +0) is +0.
// CHECK-LABEL: func.func @compare_fold
func.func @compare_fold() -> (tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xf32>, tensor<3xf32>) {
  // CHECK-DAG: %[[EQ:.*]] = gopt.constant dense<[true, false, true]> : tensor<3xi1>
  // CHECK-DAG: %[[NE:.*]] = gopt.constant dense<[false, true, false]> : tensor<3xi1>
  // CHECK-DAG: %[[GE:.*]] = gopt.constant dense<[false, false, true]> : tensor<3xi1>
  // CHECK-DAG: %[[MAX:.*]] = gopt.constant dense<[1.000000e+00, 0x7FC00000, 0.000000e+00]> : tensor<3xf32>
  // CHECK-DAG: %[[MIN:.*]] = gopt.constant dense<[1.000000e+00, 0x7FC00000, -0.000000e+00]> : tensor<3xf32>
  // CHECK-NOT: gopt.compare
  // CHECK: return %[[EQ]], %[[NE]], %[[GE]], %[[MAX]], %[[MIN]]
  %a = gopt.constant dense<[1.0, 0x7FC00000, -0.0]> : tensor<3xf32>
  %b = gopt.constant dense<[1.0, 1.0, 0.0]> : tensor<3xf32>
  %s = gopt.constant dense<[0.0]> : tensor<1xf32>
  %0 = gopt.compare eq, %a, %b : tensor<3xf32>, tensor<3xf32>
  %1 = gopt.compare ne, %a, %b : tensor<3xf32>, tensor<3xf32>
  %2 = gopt.compare ge, %s, %a : tensor<1xf32>, tensor<3xf32>
  %3 = gopt.max %a, %b : tensor<3xf32>
  %4 = gopt.min %a, %b : tensor<3xf32>
  return %0, %1, %2, %3, %4 : tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
}

// -----

// CHECK-LABEL: func.func @compare_no_fold
// CHECK-SAME: (%[[X:.*]]: tensor<3xi32>)
func.func @compare_no_fold(%x: tensor<3xi32>) -> tensor<3xi1> {
  // CHECK: %[[C:.*]] = gopt.constant
  // CHECK: %[[LT:.*]] = gopt.compare lt, %[[X]], %[[C]]
  // CHECK: return %[[LT]]
  %c = gopt.constant dense<[1, 2, 3]> : tensor<3xi32>
  %0 = gopt.compare lt, %x, %c : tensor<3xi32>, tensor<3xi32>
  return %0 : tensor<3xi1>
}

// -----

// CHECK-LABEL: func.func @select_fold
func.func @select_fold() -> tensor<2x2xf32> {
  // CHECK: %[[S:.*]] = gopt.constant dense<{{\[}}[1.000000e+00, -1.000000e+00], [3.000000e+00, -1.000000e+00]]> : tensor<2x2xf32>
  // CHECK-NOT: gopt.select
  // CHECK: return %[[S]]
  %c = gopt.constant dense<[true, false]> : tensor<2xi1>
  %t = gopt.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %f = gopt.constant dense<-1.0> : tensor<2x2xf32>
  %0 = gopt.select %c, %t, %f : tensor<2xi1>, tensor<2x2xf32>, tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// CHECK-LABEL: func.func @select_no_fold
// CHECK-SAME: (%[[X:.*]]: tensor<2x2xf32>)
func.func @select_no_fold(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  // CHECK-DAG: %[[C:.*]] = gopt.constant dense<[true, false]> : tensor<2xi1>
  // CHECK-DAG: %[[F:.*]] = gopt.constant dense<-1.000000e+00> : tensor<2x2xf32>
  // CHECK: %[[S:.*]] = gopt.select %[[C]], %[[X]], %[[F]]
  // CHECK: return %[[S]]
  %c = gopt.constant dense<[true, false]> : tensor<2xi1>
  %f = gopt.constant dense<-1.0> : tensor<2x2xf32>
  %0 = gopt.select %c, %x, %f : tensor<2xi1>, tensor<2x2xf32>, tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// Float to integer truncates toward zero; any to i1 is `x != 0`; float to
// float rounds to nearest even (70000 overflows f16 to +Inf).
// CHECK-LABEL: func.func @cast_fold
func.func @cast_fold() -> (tensor<4xi8>, tensor<3xi1>, tensor<2xf16>, tensor<2xf32>) {
  // CHECK-DAG: %[[I8:.*]] = gopt.constant dense<[-1, 2, -128, 127]> : tensor<4xi8>
  // CHECK-DAG: %[[I1:.*]] = gopt.constant dense<[true, false, true]> : tensor<3xi1>
  // CHECK-DAG: %[[F16:.*]] = gopt.constant dense<[0x7C00, 1.000000e+00]> : tensor<2xf16>
  // CHECK-DAG: %[[F32:.*]] = gopt.constant dense<[-3.000000e+00, 1.000000e+00]> : tensor<2xf32>
  // CHECK-NOT: gopt.cast
  // CHECK: return %[[I8]], %[[I1]], %[[F16]], %[[F32]]
  %a = gopt.constant dense<[-1.7, 2.9, -128.9, 127.9]> : tensor<4xf32>
  %0 = gopt.cast %a : tensor<4xf32> to tensor<4xi8>
  %b = gopt.constant dense<[0.5, -0.0, 0x7FC00000]> : tensor<3xf32>
  %1 = gopt.cast %b : tensor<3xf32> to tensor<3xi1>
  %c = gopt.constant dense<[70000.0, 1.0]> : tensor<2xf32>
  %2 = gopt.cast %c : tensor<2xf32> to tensor<2xf16>
  %d = gopt.constant dense<[-3, 1]> : tensor<2xi32>
  %3 = gopt.cast %d : tensor<2xi32> to tensor<2xf32>
  return %0, %1, %2, %3 : tensor<4xi8>, tensor<3xi1>, tensor<2xf16>, tensor<2xf32>
}

// -----

// A float-to-integer cast of NaN or of an out-of-range value has no defined
// result and is left alone.
// CHECK-LABEL: func.func @cast_no_fold
func.func @cast_no_fold() -> (tensor<2xi32>, tensor<2xi8>, tensor<1xi8>, tensor<1xi32>) {
  // CHECK: %[[NAN:.*]] = gopt.cast %{{.*}} : tensor<2xf32> to tensor<2xi32>
  // CHECK: %[[BIG:.*]] = gopt.cast %{{.*}} : tensor<2xf32> to tensor<2xi8>
  // CHECK: %[[LOW:.*]] = gopt.cast %{{.*}} : tensor<1xf32> to tensor<1xi8>
  // CHECK: %[[INF:.*]] = gopt.cast %{{.*}} : tensor<1xf32> to tensor<1xi32>
  // CHECK: return %[[NAN]], %[[BIG]], %[[LOW]], %[[INF]]
  %a = gopt.constant dense<[1.5, 0x7FC00000]> : tensor<2xf32>
  %0 = gopt.cast %a : tensor<2xf32> to tensor<2xi32>
  %b = gopt.constant dense<[1.0, 300.0]> : tensor<2xf32>
  %1 = gopt.cast %b : tensor<2xf32> to tensor<2xi8>
  %c = gopt.constant dense<[-129.0]> : tensor<1xf32>
  %2 = gopt.cast %c : tensor<1xf32> to tensor<1xi8>
  %d = gopt.constant dense<[0x7F800000]> : tensor<1xf32>
  %3 = gopt.cast %d : tensor<1xf32> to tensor<1xi32>
  return %0, %1, %2, %3 : tensor<2xi32>, tensor<2xi8>, tensor<1xi8>, tensor<1xi32>
}

// -----

// CHECK-LABEL: func.func @reduce_fold
func.func @reduce_fold() -> (tensor<2xf32>, tensor<1x3xf32>, tensor<f32>, tensor<2x1xi32>, tensor<2xi32>) {
  // CHECK-DAG: %[[SUM:.*]] = gopt.constant dense<[6.000000e+00, 1.500000e+01]> : tensor<2xf32>
  // CHECK-DAG: %[[MEAN:.*]] = gopt.constant dense<{{\[}}[2.500000e+00, 3.500000e+00, 4.500000e+00]]> : tensor<1x3xf32>
  // CHECK-DAG: %[[MAX:.*]] = gopt.constant dense<0x7FC00000> : tensor<f32>
  // CHECK-DAG: %[[MIN:.*]] = gopt.constant dense<{{\[}}[-3], [1]]> : tensor<2x1xi32>
  // CHECK-DAG: %[[IMEAN:.*]] = gopt.constant dense<[0, 3]> : tensor<2xi32>
  // CHECK-NOT: gopt.reduce
  // CHECK: return %[[SUM]], %[[MEAN]], %[[MAX]], %[[MIN]], %[[IMEAN]]
  %a = gopt.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %0 = gopt.reduce sum %a axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
  %1 = gopt.reduce mean %a axes = [0] keepdims : tensor<2x3xf32> -> tensor<1x3xf32>
  %n = gopt.constant dense<[1.0, 0x7FC00000, 3.0]> : tensor<3xf32>
  %2 = gopt.reduce max %n axes = [0] : tensor<3xf32> -> tensor<f32>
  %i = gopt.constant dense<[[-3, 0, 2], [1, 4, 5]]> : tensor<2x3xi32>
  %3 = gopt.reduce min %i axes = [-1] keepdims : tensor<2x3xi32> -> tensor<2x1xi32>
  // Integer mean truncates toward zero: (-3 + 0 + 2) / 3 = 0, 10 / 3 = 3.
  %4 = gopt.reduce mean %i axes = [1] : tensor<2x3xi32> -> tensor<2xi32>
  return %0, %1, %2, %3, %4 : tensor<2xf32>, tensor<1x3xf32>, tensor<f32>, tensor<2x1xi32>, tensor<2xi32>
}

// -----

// CHECK-LABEL: func.func @reduce_no_fold
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
func.func @reduce_no_fold(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  // CHECK: %[[R:.*]] = gopt.reduce sum %[[X]] axes = [1]
  // CHECK: return %[[R]]
  %0 = gopt.reduce sum %x axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// CHECK-LABEL: func.func @transpose_fold
func.func @transpose_fold() -> tensor<3x2xi32> {
  // The dead input constant is not erased by the pass.
  // CHECK: gopt.constant dense<{{\[}}[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  // CHECK: %[[T:.*]] = gopt.constant dense<{{\[}}[1, 4], [2, 5], [3, 6]]> : tensor<3x2xi32>
  // CHECK-NOT: gopt.transpose
  // CHECK: return %[[T]]
  %a = gopt.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %0 = gopt.transpose %a perm = [1, 0] : tensor<2x3xi32> -> tensor<3x2xi32>
  return %0 : tensor<3x2xi32>
}

// -----

// CHECK-LABEL: func.func @transpose_no_fold
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xi32>)
func.func @transpose_no_fold(%x: tensor<2x3xi32>) -> tensor<3x2xi32> {
  // CHECK: %[[T:.*]] = gopt.transpose %[[X]] perm = [1, 0]
  // CHECK: return %[[T]]
  %0 = gopt.transpose %x perm = [1, 0] : tensor<2x3xi32> -> tensor<3x2xi32>
  return %0 : tensor<3x2xi32>
}

// -----

// CHECK-LABEL: func.func @reshape_fold
func.func @reshape_fold() -> tensor<3x2xi32> {
  // CHECK: %[[R:.*]] = gopt.constant dense<{{\[}}[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32>
  // CHECK-NOT: gopt.reshape
  // CHECK: return %[[R]]
  %a = gopt.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %0 = gopt.reshape %a : tensor<2x3xi32> -> tensor<3x2xi32>
  return %0 : tensor<3x2xi32>
}

// -----

// CHECK-LABEL: func.func @reshape_no_fold
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xi32>)
func.func @reshape_no_fold(%x: tensor<2x3xi32>) -> tensor<3x2xi32> {
  // CHECK: %[[R:.*]] = gopt.reshape %[[X]]
  // CHECK: return %[[R]]
  %0 = gopt.reshape %x : tensor<2x3xi32> -> tensor<3x2xi32>
  return %0 : tensor<3x2xi32>
}

// -----

// CHECK-LABEL: func.func @broadcast_to_fold
func.func @broadcast_to_fold() -> tensor<2x3xf32> {
  // CHECK: %[[B:.*]] = gopt.constant dense<{{\[}}[1.000000e+00, 2.000000e+00, 3.000000e+00], [1.000000e+00, 2.000000e+00, 3.000000e+00]]> : tensor<2x3xf32>
  // CHECK-NOT: gopt.broadcast_to
  // CHECK: return %[[B]]
  %a = gopt.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %0 = gopt.broadcast_to %a : tensor<3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @broadcast_to_no_fold
// CHECK-SAME: (%[[X:.*]]: tensor<3xf32>)
func.func @broadcast_to_no_fold(%x: tensor<3xf32>) -> tensor<2x3xf32> {
  // CHECK: %[[B:.*]] = gopt.broadcast_to %[[X]]
  // CHECK: return %[[B]]
  %0 = gopt.broadcast_to %x : tensor<3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Starts and ends clamp python-style.
// CHECK-LABEL: func.func @slice_fold
func.func @slice_fold() -> (tensor<2x2xi32>, tensor<1x3xi32>) {
  // CHECK-DAG: %[[S0:.*]] = gopt.constant dense<{{\[}}[1, 3], [4, 6]]> : tensor<2x2xi32>
  // CHECK-DAG: %[[S1:.*]] = gopt.constant dense<{{\[}}[4, 5, 6]]> : tensor<1x3xi32>
  // CHECK-NOT: gopt.slice
  // CHECK: return %[[S0]], %[[S1]]
  %a = gopt.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %0 = gopt.slice %a starts = [0, -3] ends = [2, 100] steps = [1, 2] : tensor<2x3xi32> -> tensor<2x2xi32>
  %1 = gopt.slice %a starts = [-1, 0] ends = [2, 3] steps = [1, 1] : tensor<2x3xi32> -> tensor<1x3xi32>
  return %0, %1 : tensor<2x2xi32>, tensor<1x3xi32>
}

// -----

// CHECK-LABEL: func.func @slice_no_fold
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xi32>)
func.func @slice_no_fold(%x: tensor<2x3xi32>) -> tensor<2x2xi32> {
  // CHECK: %[[S:.*]] = gopt.slice %[[X]]
  // CHECK: return %[[S]]
  %0 = gopt.slice %x starts = [0, -3] ends = [2, 100] steps = [1, 2] : tensor<2x3xi32> -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

// -----

// Linear: 2 → 4 with half_pixel (scale 1/2, offset -1/4): coordinates
// -0.25, 0.25, 0.75, 1.25 clamp at the edges. Nearest (floor, asymmetric
// 3 → 2 by scale 1.5): indices 0 and 1.
// CHECK-LABEL: func.func @resize_fold
func.func @resize_fold() -> (tensor<1x4xf32>, tensor<2x1xi32>) {
  // CHECK-DAG: %[[L:.*]] = gopt.constant dense<{{\[}}[1.000000e+00, 1.500000e+00, 2.500000e+00, 3.000000e+00]]> : tensor<1x4xf32>
  // CHECK-DAG: %[[N:.*]] = gopt.constant dense<{{\[}}[7], [8]]> : tensor<2x1xi32>
  // CHECK-NOT: gopt.resize
  // CHECK: return %[[L]], %[[N]]
  %a = gopt.constant dense<[[1.0, 3.0]]> : tensor<1x2xf32>
  %0 = gopt.resize linear %a scale = [1.0, 0.5] offset = [0.0, -0.25] : tensor<1x2xf32> -> tensor<1x4xf32>
  %b = gopt.constant dense<[[7], [8], [9]]> : tensor<3x1xi32>
  %1 = gopt.resize nearest_floor %b scale = [1.5, 1.0] offset = [0.0, 0.0] : tensor<3x1xi32> -> tensor<2x1xi32>
  return %0, %1 : tensor<1x4xf32>, tensor<2x1xi32>
}

// -----

// CHECK-LABEL: func.func @split_fold
func.func @split_fold() -> (tensor<2x1xi32>, tensor<2x2xi32>) {
  // CHECK-DAG: %[[P0:.*]] = gopt.constant dense<{{\[}}[1], [4]]> : tensor<2x1xi32>
  // CHECK-DAG: %[[P1:.*]] = gopt.constant dense<{{\[}}[2, 3], [5, 6]]> : tensor<2x2xi32>
  // CHECK-NOT: gopt.split
  // CHECK: return %[[P0]], %[[P1]]
  %a = gopt.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %0:2 = gopt.split %a axis = 1 sizes = [1, 2] : tensor<2x3xi32> -> tensor<2x1xi32>, tensor<2x2xi32>
  return %0#0, %0#1 : tensor<2x1xi32>, tensor<2x2xi32>
}

// -----

// CHECK-LABEL: func.func @split_no_fold
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xi32>)
func.func @split_no_fold(%x: tensor<2x3xi32>) -> (tensor<2x1xi32>, tensor<2x2xi32>) {
  // CHECK: %[[P:.*]]:2 = gopt.split %[[X]]
  // CHECK: return %[[P]]#0, %[[P]]#1
  %0:2 = gopt.split %x axis = 1 sizes = [1, 2] : tensor<2x3xi32> -> tensor<2x1xi32>, tensor<2x2xi32>
  return %0#0, %0#1 : tensor<2x1xi32>, tensor<2x2xi32>
}

// -----

// CHECK-LABEL: func.func @concat_fold
func.func @concat_fold() -> (tensor<2x3xi32>, tensor<4xf32>) {
  // CHECK-DAG: %[[C0:.*]] = gopt.constant dense<{{\[}}[1, 2, 7], [3, 4, 8]]> : tensor<2x3xi32>
  // CHECK-DAG: %[[C1:.*]] = gopt.constant dense<[1.000000e+00, 1.000000e+00, 2.000000e+00, 2.000000e+00]> : tensor<4xf32>
  // CHECK-NOT: gopt.concat
  // CHECK: return %[[C0]], %[[C1]]
  %a = gopt.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %b = gopt.constant dense<[[7], [8]]> : tensor<2x1xi32>
  %0 = gopt.concat %a, %b axis = 1 : tensor<2x2xi32>, tensor<2x1xi32> -> tensor<2x3xi32>
  %s = gopt.constant dense<1.0> : tensor<2xf32>
  %t = gopt.constant dense<2.0> : tensor<2xf32>
  %1 = gopt.concat %s, %t axis = 0 : tensor<2xf32>, tensor<2xf32> -> tensor<4xf32>
  return %0, %1 : tensor<2x3xi32>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @concat_no_fold
// CHECK-SAME: (%[[X:.*]]: tensor<2x1xi32>)
func.func @concat_no_fold(%x: tensor<2x1xi32>) -> tensor<2x3xi32> {
  // CHECK: %[[A:.*]] = gopt.constant
  // CHECK: %[[C:.*]] = gopt.concat %[[A]], %[[X]] axis = 1
  // CHECK: return %[[C]]
  %a = gopt.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %0 = gopt.concat %a, %x axis = 1 : tensor<2x2xi32>, tensor<2x1xi32> -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// -----

// Negative indices count from the back.
// CHECK-LABEL: func.func @gather_fold
func.func @gather_fold() -> (tensor<2x3xi32>, tensor<2xf32>) {
  // CHECK-DAG: %[[G0:.*]] = gopt.constant dense<{{\[}}[3, 3, 1], [6, 6, 4]]> : tensor<2x3xi32>
  // CHECK-DAG: %[[G1:.*]] = gopt.constant dense<[3.000000e+00, 1.000000e+00]> : tensor<2xf32>
  // CHECK-NOT: gopt.gather
  // CHECK: return %[[G0]], %[[G1]]
  %a = gopt.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %i = gopt.constant dense<[2, -1, 0]> : tensor<3xi64>
  %0 = gopt.gather %a[%i] axis = 1 : tensor<2x3xi32>, tensor<3xi64> -> tensor<2x3xi32>
  %x = gopt.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %j = gopt.constant dense<[-1, 0]> : tensor<2xi32>
  %1 = gopt.gather %x[%j] axis = 0 : tensor<3xf32>, tensor<2xi32> -> tensor<2xf32>
  return %0, %1 : tensor<2x3xi32>, tensor<2xf32>
}

// -----

// An out-of-range index (3, or -4, for a dimension of 3) is left alone.
// CHECK-LABEL: func.func @gather_out_of_range_no_fold
func.func @gather_out_of_range_no_fold() -> (tensor<2xf32>, tensor<f32>, tensor<f32>) {
  // CHECK: %[[G0:.*]] = gopt.gather %{{.*}}[%{{.*}}] axis = 0 : tensor<3xf32>, tensor<2xi32> -> tensor<2xf32>
  // CHECK: %[[G1:.*]] = gopt.gather %{{.*}}[%{{.*}}] axis = 0 : tensor<3xf32>, tensor<i64> -> tensor<f32>
  // CHECK: %[[G2:.*]] = gopt.gather %{{.*}}[%{{.*}}] axis = 0 : tensor<3xf32>, tensor<i64> -> tensor<f32>
  // CHECK: return %[[G0]], %[[G1]], %[[G2]]
  %x = gopt.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %i = gopt.constant dense<[3, 0]> : tensor<2xi32>
  %0 = gopt.gather %x[%i] axis = 0 : tensor<3xf32>, tensor<2xi32> -> tensor<2xf32>
  %j = gopt.constant dense<-4> : tensor<i64>
  %1 = gopt.gather %x[%j] axis = 0 : tensor<3xf32>, tensor<i64> -> tensor<f32>
  %s = gopt.constant dense<5.0> : tensor<3xf32>
  %2 = gopt.gather %s[%j] axis = 0 : tensor<3xf32>, tensor<i64> -> tensor<f32>
  return %0, %1, %2 : tensor<2xf32>, tensor<f32>, tensor<f32>
}

// -----

// CHECK-LABEL: func.func @pad_fold
func.func @pad_fold() -> (tensor<2x5xi32>, tensor<4xf32>) {
  // CHECK-DAG: %[[P0:.*]] = gopt.constant dense<{{\[}}[9, 1, 2, 3, 9], [9, 4, 5, 6, 9]]> : tensor<2x5xi32>
  // CHECK-DAG: %[[P1:.*]] = gopt.constant dense<[-1.000000e+00, 2.000000e+00, 2.000000e+00, -1.000000e+00]> : tensor<4xf32>
  // CHECK-NOT: gopt.pad
  // CHECK: return %[[P0]], %[[P1]]
  %a = gopt.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %0 = gopt.pad %a low = [0, 1] high = [0, 1] value = 9.0 : tensor<2x3xi32> -> tensor<2x5xi32>
  %s = gopt.constant dense<2.0> : tensor<2xf32>
  %1 = gopt.pad %s low = [1] high = [1] value = -1.0 : tensor<2xf32> -> tensor<4xf32>
  return %0, %1 : tensor<2x5xi32>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @pad_no_fold
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xi32>)
func.func @pad_no_fold(%x: tensor<2x3xi32>) -> tensor<2x5xi32> {
  // CHECK: %[[P:.*]] = gopt.pad %[[X]] low = [0, 1] high = [0, 1]
  // CHECK: return %[[P]]
  %0 = gopt.pad %x low = [0, 1] high = [0, 1] value = 9.0 : tensor<2x3xi32> -> tensor<2x5xi32>
  return %0 : tensor<2x5xi32>
}

// -----

// A shape computation folds to one constant: shape -> gather -> concat -> mul.
// CHECK-LABEL: func.func @shape_chain_fold
// BOUND-LABEL: func.func @shape_chain_fold
func.func @shape_chain_fold(%x: tensor<2x3x4xf32>) -> tensor<3xi64> {
  // CHECK: %[[R:.*]] = gopt.constant dense<[4, 8, 10]> : tensor<3xi64>
  // CHECK-NOT: gopt.shape
  // CHECK-NOT: gopt.gather
  // CHECK-NOT: gopt.concat
  // CHECK-NOT: gopt.mul
  // CHECK: return %[[R]]
  // BOUND: %[[R:.*]] = gopt.constant dense<[4, 8, 10]> : tensor<3xi64>
  // BOUND: return %[[R]]
  %s = gopt.shape %x : tensor<2x3x4xf32> -> tensor<3xi64>
  %i = gopt.constant dense<[0, 2]> : tensor<2xi64>
  %g = gopt.gather %s[%i] axis = 0 : tensor<3xi64>, tensor<2xi64> -> tensor<2xi64>
  %five = gopt.constant dense<[5]> : tensor<1xi64>
  %c = gopt.concat %g, %five axis = 0 : tensor<2xi64>, tensor<1xi64> -> tensor<3xi64>
  %two = gopt.constant dense<2> : tensor<3xi64>
  %m = gopt.mul %c, %two : tensor<3xi64>
  return %m : tensor<3xi64>
}

// -----

// The same chain with a run-time factor: everything up to the mul folds.
// CHECK-LABEL: func.func @shape_chain_no_fold
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>, %[[F:.*]]: tensor<3xi64>)
func.func @shape_chain_no_fold(%x: tensor<2x3x4xf32>, %f: tensor<3xi64>) -> tensor<3xi64> {
  // CHECK-NOT: gopt.shape
  // CHECK: %[[C:.*]] = gopt.constant dense<[2, 4, 5]> : tensor<3xi64>
  // CHECK-NOT: gopt.concat
  // Commutative operands are ordered with the constant on the right.
  // CHECK: %[[M:.*]] = gopt.mul %[[F]], %[[C]]
  // CHECK: return %[[M]]
  %s = gopt.shape %x : tensor<2x3x4xf32> -> tensor<3xi64>
  %i = gopt.constant dense<[0, 2]> : tensor<2xi64>
  %g = gopt.gather %s[%i] axis = 0 : tensor<3xi64>, tensor<2xi64> -> tensor<2xi64>
  %five = gopt.constant dense<[5]> : tensor<1xi64>
  %c = gopt.concat %g, %five axis = 0 : tensor<2xi64>, tensor<1xi64> -> tensor<3xi64>
  %m = gopt.mul %c, %f : tensor<3xi64>
  return %m : tensor<3xi64>
}

// -----

// Integer division truncates toward zero.
// CHECK-LABEL: func.func @div_fold
func.func @div_fold() -> (tensor<4xi32>, tensor<2xf32>, tensor<2xf32>) {
  // CHECK-DAG: %[[I:.*]] = gopt.constant dense<[3, -3, -3, 3]> : tensor<4xi32>
  // CHECK-DAG: %[[F:.*]] = gopt.constant dense<[5.000000e-01, -2.500000e-01]> : tensor<2xf32>
  // CHECK-DAG: %[[R:.*]] = gopt.constant dense<[5.000000e-01, -2.500000e-01]> : tensor<2xf32>
  // CHECK-NOT: gopt.div
  // CHECK-NOT: gopt.reciprocal
  // CHECK: return %[[I]], %[[F]], %[[R]]
  %a = gopt.constant dense<[7, -7, 7, -7]> : tensor<4xi32>
  %b = gopt.constant dense<[2, 2, -2, -2]> : tensor<4xi32>
  %0 = gopt.div %a, %b : tensor<4xi32>
  %one = gopt.constant dense<1.0> : tensor<2xf32>
  %d = gopt.constant dense<[2.0, -4.0]> : tensor<2xf32>
  %1 = gopt.div %one, %d : tensor<2xf32>
  %2 = gopt.reciprocal %d : tensor<2xf32>
  return %0, %1, %2 : tensor<4xi32>, tensor<2xf32>, tensor<2xf32>
}

// -----

// Division by zero (div, reciprocal, rsqrt; float or integer) is not folded.
// CHECK-LABEL: func.func @div_by_zero_no_fold
func.func @div_by_zero_no_fold() -> (tensor<2xf32>, tensor<2xi32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  // CHECK: %[[F:.*]] = gopt.div %{{.*}}, %{{.*}} : tensor<2xf32>
  // CHECK: %[[I:.*]] = gopt.div %{{.*}}, %{{.*}} : tensor<2xi32>
  // CHECK: %[[R:.*]] = gopt.reciprocal %{{.*}} : tensor<2xf32>
  // CHECK: %[[S:.*]] = gopt.rsqrt %{{.*}} : tensor<2xf32>
  // CHECK: %[[N:.*]] = gopt.div %{{.*}}, %{{.*}} : tensor<2xf32>
  // CHECK: return %[[F]], %[[I]], %[[R]], %[[S]], %[[N]]
  %a = gopt.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = gopt.constant dense<[1.0, 0.0]> : tensor<2xf32>
  %0 = gopt.div %a, %b : tensor<2xf32>
  %ia = gopt.constant dense<[1, 2]> : tensor<2xi32>
  %ib = gopt.constant dense<[1, 0]> : tensor<2xi32>
  %1 = gopt.div %ia, %ib : tensor<2xi32>
  %2 = gopt.reciprocal %b : tensor<2xf32>
  %3 = gopt.rsqrt %b : tensor<2xf32>
  %nz = gopt.constant dense<[-0.0, 1.0]> : tensor<2xf32>
  %4 = gopt.div %a, %nz : tensor<2xf32>
  return %0, %1, %2, %3, %4 : tensor<2xf32>, tensor<2xi32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// -----

// max-folded-elements bounds the non-splat constants the pass reads and
// creates: an 8-element result, or an 8-element operand, is left alone under
// max-folded-elements=4. Splats are exempt.
// CHECK-LABEL: func.func @bound
// BOUND-LABEL: func.func @bound
func.func @bound() -> (tensor<8xf32>, tensor<f32>, tensor<4xf32>, tensor<1024xf32>) {
  // CHECK-DAG: %[[NEG:.*]] = gopt.constant dense<[-1.000000e+00, -2.000000e+00, -3.000000e+00, -4.000000e+00, -5.000000e+00, -6.000000e+00, -7.000000e+00, -8.000000e+00]> : tensor<8xf32>
  // CHECK-DAG: %[[SUM:.*]] = gopt.constant dense<3.600000e+01> : tensor<f32>
  // CHECK-DAG: %[[SL:.*]] = gopt.constant dense<[1.000000e+00, 3.000000e+00, 5.000000e+00, 7.000000e+00]> : tensor<4xf32>
  // CHECK-DAG: %[[EXP:.*]] = gopt.constant dense<2.71828175> : tensor<1024xf32>
  // CHECK: return %[[NEG]], %[[SUM]], %[[SL]], %[[EXP]]
  // BOUND: %[[A:.*]] = gopt.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00, 7.000000e+00, 8.000000e+00]> : tensor<8xf32>
  // BOUND: %[[NEG:.*]] = gopt.neg %[[A]]
  // BOUND: %[[SUM:.*]] = gopt.reduce sum %[[A]]
  // BOUND: %[[SL:.*]] = gopt.slice %[[A]]
  // BOUND: %[[EXP:.*]] = gopt.constant dense<2.71828175> : tensor<1024xf32>
  // BOUND: return %[[NEG]], %[[SUM]], %[[SL]], %[[EXP]]
  %a = gopt.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
  %0 = gopt.neg %a : tensor<8xf32>
  %1 = gopt.reduce sum %a axes = [0] : tensor<8xf32> -> tensor<f32>
  %2 = gopt.slice %a starts = [0] ends = [8] steps = [2] : tensor<8xf32> -> tensor<4xf32>
  %s = gopt.constant dense<1.0> : tensor<1024xf32>
  %3 = gopt.exp %s : tensor<1024xf32>
  return %0, %1, %2, %3 : tensor<8xf32>, tensor<f32>, tensor<4xf32>, tensor<1024xf32>
}

// -----

// Within the bound, both runs fold.
// CHECK-LABEL: func.func @within_bound
// BOUND-LABEL: func.func @within_bound
func.func @within_bound() -> tensor<4xi32> {
  // CHECK: %[[R:.*]] = gopt.constant dense<[2, 4, 6, 8]> : tensor<4xi32>
  // CHECK: return %[[R]]
  // BOUND: %[[R:.*]] = gopt.constant dense<[2, 4, 6, 8]> : tensor<4xi32>
  // BOUND: return %[[R]]
  %a = gopt.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %0 = gopt.add %a, %a : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// A folded constant of up to 64 elements prints inline.
// CHECK-LABEL: func.func @inline_result
// BOUND-LABEL: func.func @inline_result
func.func @inline_result() -> tensor<2x32xf32> {
  // CHECK: %[[R:.*]] = gopt.constant dense<{{\[}}[1.000000e+00, {{.*}}], [2.000000e+00, {{.*}}]]> : tensor<2x32xf32>
  // CHECK-NOT: dense_resource
  // CHECK: return %[[R]]
  // BOUND: %[[B:.*]] = gopt.broadcast_to
  // BOUND: return %[[B]]
  %a = gopt.constant dense<[[1.0], [2.0]]> : tensor<2x1xf32>
  %0 = gopt.broadcast_to %a : tensor<2x1xf32> -> tensor<2x32xf32>
  return %0 : tensor<2x32xf32>
}

// -----

// A larger folded constant is stored as a dense_resource blob.
// CHECK-LABEL: func.func @resource_result
// BOUND-LABEL: func.func @resource_result
func.func @resource_result() -> tensor<2x40xf32> {
  // CHECK: %[[R:.*]] = gopt.constant dense_resource<[[BLOB:folded[_0-9]*]]> : tensor<2x40xf32>
  // CHECK-NOT: gopt.broadcast_to
  // CHECK: return %[[R]]
  // CHECK: dialect_resources: {
  // CHECK-NEXT: builtin: {
  // CHECK-NEXT: [[BLOB]]: "0x080000000000803F0000803F
  // BOUND: %[[B:.*]] = gopt.broadcast_to
  // BOUND: return %[[B]]
  // BOUND-NOT: dense_resource
  %a = gopt.constant dense<[[1.0], [2.0]]> : tensor<2x1xf32>
  %0 = gopt.broadcast_to %a : tensor<2x1xf32> -> tensor<2x40xf32>
  return %0 : tensor<2x40xf32>
}

// -----

// dense_resource operands are read from their blob; one without a blob is not
// evaluated.
// CHECK-LABEL: func.func @resource_operand
// BOUND-LABEL: func.func @resource_operand
func.func @resource_operand() -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK-DAG: %[[N:.*]] = gopt.constant dense<[-1.000000e+00, -2.000000e+00, -3.000000e+00, -4.000000e+00]> : tensor<4xf32>
  // CHECK-DAG: %[[M:.*]] = gopt.constant dense_resource<missing> : tensor<4xf32>
  // CHECK: %[[NM:.*]] = gopt.neg %[[M]]
  // CHECK: return %[[N]], %[[NM]]
  %c = gopt.constant dense_resource<w0> : tensor<4xf32>
  %0 = gopt.neg %c : tensor<4xf32>
  %d = gopt.constant dense_resource<missing> : tensor<4xf32>
  %1 = gopt.neg %d : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

{-#
  dialect_resources: {
    builtin: {
      w0: "0x040000000000803F000000400000404000008040"
    }
  }
#-}

// -----

// The pass also applies the identities of the ODS folders.
// CHECK-LABEL: func.func @identity
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
func.func @identity(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK: %[[PZ:.*]] = gopt.constant dense<0.000000e+00> : tensor<4xf32>
  // CHECK: %[[ADD:.*]] = gopt.add %[[X]], %[[PZ]]
  // CHECK: return %[[X]], %[[ADD]]
  %nz = gopt.constant dense<-0.0> : tensor<4xf32>
  %0 = gopt.add %nz, %x : tensor<4xf32>
  %pz = gopt.constant dense<0.0> : tensor<4xf32>
  %1 = gopt.add %x, %pz : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}
