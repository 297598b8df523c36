// RUN: gopt-opt %s -split-input-file --canonicalize | FileCheck %s
// RUN: gopt-opt %s -split-input-file --canonicalize --cse | FileCheck %s --check-prefix=CSE

// ODS folders: identities that hold for every input (NaN, +-Inf and -0
// included) and evaluation of ops whose operands are all splat constants.
// Each fold is paired with a case that must not fold.

//===----------------------------------------------------------------------===//
// add / sub
//===----------------------------------------------------------------------===//

// x + (-0.0) is x for every float x.
// CHECK-LABEL: func.func @add_neg_zero
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
func.func @add_neg_zero(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK-NOT: gopt.add
  // CHECK: return %[[X]]
  %nz = gopt.constant dense<-0.0> : tensor<4xf32>
  %0 = gopt.add %x, %nz : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// The constant is moved to the right first, so (-0.0) + x folds too.
// CHECK-LABEL: func.func @add_neg_zero_lhs
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
func.func @add_neg_zero_lhs(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK-NOT: gopt.add
  // CHECK: return %[[X]]
  %nz = gopt.constant dense<-0.0> : tensor<4xf32>
  %0 = gopt.add %nz, %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// x + (+0.0) is not x for floats: -0 + +0 = +0.
// CHECK-LABEL: func.func @add_pos_zero_no_fold
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
func.func @add_pos_zero_no_fold(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[Z:.*]] = gopt.constant dense<0.000000e+00> : tensor<4xf32>
  // CHECK: %[[ADD:.*]] = gopt.add %[[X]], %[[Z]] : tensor<4xf32>
  // CHECK: return %[[ADD]]
  %pz = gopt.constant dense<0.0> : tensor<4xf32>
  %0 = gopt.add %x, %pz : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @add_int_zero
// CHECK-SAME: (%[[X:.*]]: tensor<4xi32>)
func.func @add_int_zero(%x: tensor<4xi32>) -> tensor<4xi32> {
  // CHECK-NOT: gopt.add
  // CHECK: return %[[X]]
  %z = gopt.constant dense<0> : tensor<4xi32>
  %0 = gopt.add %x, %z : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// CHECK-LABEL: func.func @add_int_one_no_fold
// CHECK-SAME: (%[[X:.*]]: tensor<4xi32>)
func.func @add_int_one_no_fold(%x: tensor<4xi32>) -> tensor<4xi32> {
  // CHECK: %[[C:.*]] = gopt.constant dense<1> : tensor<4xi32>
  // CHECK: %[[ADD:.*]] = gopt.add %[[X]], %[[C]]
  // CHECK: return %[[ADD]]
  %c = gopt.constant dense<1> : tensor<4xi32>
  %0 = gopt.add %x, %c : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// x - (+0.0) is x for every float x.
// CHECK-LABEL: func.func @sub_pos_zero
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[I:.*]]: tensor<4xi8>)
func.func @sub_pos_zero(%x: tensor<4xf32>, %i: tensor<4xi8>) -> (tensor<4xf32>, tensor<4xi8>) {
  // CHECK-NOT: gopt.sub
  // CHECK: return %[[X]], %[[I]]
  %pz = gopt.constant dense<0.0> : tensor<4xf32>
  %0 = gopt.sub %x, %pz : tensor<4xf32>
  %iz = gopt.constant dense<0> : tensor<4xi8>
  %1 = gopt.sub %i, %iz : tensor<4xi8>
  return %0, %1 : tensor<4xf32>, tensor<4xi8>
}

// -----

// x - (-0.0) is not x: -0 - -0 = +0.
// CHECK-LABEL: func.func @sub_neg_zero_no_fold
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
func.func @sub_neg_zero_no_fold(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[NZ:.*]] = gopt.constant dense<-0.000000e+00> : tensor<4xf32>
  // CHECK: %[[SUB:.*]] = gopt.sub %[[X]], %[[NZ]] : tensor<4xf32>
  // CHECK: return %[[SUB]]
  %nz = gopt.constant dense<-0.0> : tensor<4xf32>
  %0 = gopt.sub %x, %nz : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// 0 - x is not x.
// CHECK-LABEL: func.func @sub_zero_lhs_no_fold
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
func.func @sub_zero_lhs_no_fold(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[Z:.*]] = gopt.constant dense<0.000000e+00> : tensor<4xf32>
  // CHECK: %[[SUB:.*]] = gopt.sub %[[Z]], %[[X]] : tensor<4xf32>
  // CHECK: return %[[SUB]]
  %pz = gopt.constant dense<0.0> : tensor<4xf32>
  %0 = gopt.sub %pz, %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

//===----------------------------------------------------------------------===//
// mul / div / pow
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @mul_one
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[I:.*]]: tensor<4xi32>)
func.func @mul_one(%x: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  // CHECK-NOT: gopt.mul
  // CHECK: return %[[X]], %[[I]]
  %one = gopt.constant dense<1.0> : tensor<4xf32>
  %0 = gopt.mul %x, %one : tensor<4xf32>
  %ione = gopt.constant dense<1> : tensor<4xi32>
  %1 = gopt.mul %ione, %i : tensor<4xi32>
  return %0, %1 : tensor<4xf32>, tensor<4xi32>
}

// -----

// x * 0 is not 0 for floats: NaN * 0 and Inf * 0 are NaN, -x * 0 is -0.
// CHECK-LABEL: func.func @mul_float_zero_no_fold
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
func.func @mul_float_zero_no_fold(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[Z:.*]] = gopt.constant dense<0.000000e+00> : tensor<4xf32>
  // CHECK: %[[MUL:.*]] = gopt.mul %[[X]], %[[Z]] : tensor<4xf32>
  // CHECK: return %[[MUL]]
  %z = gopt.constant dense<0.0> : tensor<4xf32>
  %0 = gopt.mul %x, %z : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Integer x * 0 is 0, also when the zero broadcasts x.
// CHECK-LABEL: func.func @mul_int_zero
func.func @mul_int_zero(%x: tensor<4xi32>) -> (tensor<4xi32>, tensor<3x4xi32>) {
  // CHECK-DAG: %[[Z:.*]] = gopt.constant dense<0> : tensor<4xi32>
  // CHECK-DAG: %[[ZB:.*]] = gopt.constant dense<0> : tensor<3x4xi32>
  // CHECK-NOT: gopt.mul
  // CHECK: return %[[Z]], %[[ZB]]
  %z = gopt.constant dense<0> : tensor<4xi32>
  %0 = gopt.mul %x, %z : tensor<4xi32>
  %zb = gopt.constant dense<0> : tensor<3x4xi32>
  %1 = gopt.mul %x, %zb : tensor<4xi32>, tensor<3x4xi32> -> tensor<3x4xi32>
  return %0, %1 : tensor<4xi32>, tensor<3x4xi32>
}

// -----

// CHECK-LABEL: func.func @mul_int_two_no_fold
// CHECK-SAME: (%[[X:.*]]: tensor<4xi32>)
func.func @mul_int_two_no_fold(%x: tensor<4xi32>) -> tensor<4xi32> {
  // CHECK: %[[C:.*]] = gopt.constant dense<2> : tensor<4xi32>
  // CHECK: %[[MUL:.*]] = gopt.mul %[[X]], %[[C]]
  // CHECK: return %[[MUL]]
  %c = gopt.constant dense<2> : tensor<4xi32>
  %0 = gopt.mul %x, %c : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// CHECK-LABEL: func.func @div_one
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[I:.*]]: tensor<4xi16>)
func.func @div_one(%x: tensor<4xf32>, %i: tensor<4xi16>) -> (tensor<4xf32>, tensor<4xi16>) {
  // CHECK-NOT: gopt.div
  // CHECK: return %[[X]], %[[I]]
  %one = gopt.constant dense<1.0> : tensor<4xf32>
  %0 = gopt.div %x, %one : tensor<4xf32>
  %ione = gopt.constant dense<1> : tensor<4xi16>
  %1 = gopt.div %i, %ione : tensor<4xi16>
  return %0, %1 : tensor<4xf32>, tensor<4xi16>
}

// -----

// 1 / x is not x.
// CHECK-LABEL: func.func @div_one_lhs_no_fold
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
func.func @div_one_lhs_no_fold(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[ONE:.*]] = gopt.constant dense<1.000000e+00> : tensor<4xf32>
  // CHECK: %[[DIV:.*]] = gopt.div %[[ONE]], %[[X]]
  // CHECK: return %[[DIV]]
  %one = gopt.constant dense<1.0> : tensor<4xf32>
  %0 = gopt.div %one, %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @pow_one
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
func.func @pow_one(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK-NOT: gopt.pow
  // CHECK: return %[[X]]
  %one = gopt.constant dense<1.0> : tensor<4xf32>
  %0 = gopt.pow %x, %one : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @pow_two_no_fold
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
func.func @pow_two_no_fold(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[TWO:.*]] = gopt.constant dense<2.000000e+00> : tensor<4xf32>
  // CHECK: %[[POW:.*]] = gopt.pow %[[X]], %[[TWO]]
  // CHECK: return %[[POW]]
  %two = gopt.constant dense<2.0> : tensor<4xf32>
  %0 = gopt.pow %x, %two : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

//===----------------------------------------------------------------------===//
// max / min
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @max_min_same
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
func.func @max_min_same(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK-NOT: gopt.max
  // CHECK-NOT: gopt.min
  // CHECK: return %[[X]], %[[X]]
  %0 = gopt.max %x, %x : tensor<4xf32>
  %1 = gopt.min %x, %x : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @max_min_different_no_fold
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xf32>)
func.func @max_min_different_no_fold(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK: %[[MAX:.*]] = gopt.max %[[X]], %[[Y]]
  // CHECK: %[[MIN:.*]] = gopt.min %[[X]], %[[Y]]
  // CHECK: return %[[MAX]], %[[MIN]]
  %0 = gopt.max %x, %y : tensor<4xf32>
  %1 = gopt.min %x, %y : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// No identity applies when broadcasting widens the result.
// CHECK-LABEL: func.func @identity_broadcast_no_fold
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
func.func @identity_broadcast_no_fold(%x: tensor<4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) {
  // CHECK-DAG: %[[NZ:.*]] = gopt.constant dense<-0.000000e+00> : tensor<2x4xf32>
  // CHECK-DAG: %[[PZ:.*]] = gopt.constant dense<0.000000e+00> : tensor<2x4xf32>
  // CHECK-DAG: %[[ONE:.*]] = gopt.constant dense<1.000000e+00> : tensor<2x4xf32>
  // CHECK: %[[ADD:.*]] = gopt.add %[[X]], %[[NZ]] : tensor<4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
  // CHECK: %[[SUB:.*]] = gopt.sub %[[X]], %[[PZ]] : tensor<4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
  // CHECK: %[[MUL:.*]] = gopt.mul %[[X]], %[[ONE]] : tensor<4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
  // CHECK: %[[DIV:.*]] = gopt.div %[[X]], %[[ONE]] : tensor<4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
  // CHECK: %[[POW:.*]] = gopt.pow %[[X]], %[[ONE]] : tensor<4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
  // CHECK: return %[[ADD]], %[[SUB]], %[[MUL]], %[[DIV]], %[[POW]]
  %nz = gopt.constant dense<-0.0> : tensor<2x4xf32>
  %pz = gopt.constant dense<0.0> : tensor<2x4xf32>
  %one = gopt.constant dense<1.0> : tensor<2x4xf32>
  %0 = gopt.add %x, %nz : tensor<4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
  %1 = gopt.sub %x, %pz : tensor<4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
  %2 = gopt.mul %x, %one : tensor<4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
  %3 = gopt.div %x, %one : tensor<4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
  %4 = gopt.pow %x, %one : tensor<4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
  return %0, %1, %2, %3, %4 : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>
}

// -----

// A broadcasting rhs that does not widen the result keeps the identity.
// CHECK-LABEL: func.func @identity_broadcast_rhs
// CHECK-SAME: (%[[X:.*]]: tensor<2x4xf32>)
func.func @identity_broadcast_rhs(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // CHECK-NOT: gopt.mul
  // CHECK: return %[[X]]
  %one = gopt.constant dense<1.0> : tensor<4xf32>
  %0 = gopt.mul %x, %one : tensor<2x4xf32>, tensor<4xf32> -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Unary
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @neg_neg
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[I:.*]]: tensor<4xi32>)
func.func @neg_neg(%x: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  // CHECK-NOT: gopt.neg
  // CHECK: return %[[X]], %[[I]]
  %0 = gopt.neg %x : tensor<4xf32>
  %1 = gopt.neg %0 : tensor<4xf32>
  %2 = gopt.neg %i : tensor<4xi32>
  %3 = gopt.neg %2 : tensor<4xi32>
  return %1, %3 : tensor<4xf32>, tensor<4xi32>
}

// -----

// CHECK-LABEL: func.func @neg_abs_no_fold
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
func.func @neg_abs_no_fold(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[A:.*]] = gopt.abs %[[X]]
  // CHECK: %[[N:.*]] = gopt.neg %[[A]]
  // CHECK: return %[[N]]
  %0 = gopt.abs %x : tensor<4xf32>
  %1 = gopt.neg %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// abs(abs x) and relu(relu x) are the inner op.
// CHECK-LABEL: func.func @abs_abs_relu_relu
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[I:.*]]: tensor<4xi8>)
func.func @abs_abs_relu_relu(%x: tensor<4xf32>, %i: tensor<4xi8>) -> (tensor<4xf32>, tensor<4xi8>) {
  // CHECK: %[[A:.*]] = gopt.abs %[[X]] : tensor<4xf32>
  // CHECK-NOT: gopt.abs
  // CHECK: %[[R:.*]] = gopt.relu %[[I]] : tensor<4xi8>
  // CHECK-NOT: gopt.relu
  // CHECK: return %[[A]], %[[R]]
  %0 = gopt.abs %x : tensor<4xf32>
  %1 = gopt.abs %0 : tensor<4xf32>
  %2 = gopt.relu %i : tensor<4xi8>
  %3 = gopt.relu %2 : tensor<4xi8>
  return %1, %3 : tensor<4xf32>, tensor<4xi8>
}

// -----

// CHECK-LABEL: func.func @abs_neg_relu_abs_no_fold
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
func.func @abs_neg_relu_abs_no_fold(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK: %[[N:.*]] = gopt.neg %[[X]]
  // CHECK: %[[A:.*]] = gopt.abs %[[N]]
  // CHECK: %[[R:.*]] = gopt.relu %[[A]]
  // CHECK: return %[[A]], %[[R]]
  %0 = gopt.neg %x : tensor<4xf32>
  %1 = gopt.abs %0 : tensor<4xf32>
  %2 = gopt.relu %1 : tensor<4xf32>
  return %1, %2 : tensor<4xf32>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @cast_same_type
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
func.func @cast_same_type(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK-NOT: gopt.cast
  // CHECK: return %[[X]]
  %0 = gopt.cast %x : tensor<4xf32> to tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @cast_no_fold
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
func.func @cast_no_fold(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[H:.*]] = gopt.cast %[[X]] : tensor<4xf32> to tensor<4xf16>
  // CHECK: %[[F:.*]] = gopt.cast %[[H]] : tensor<4xf16> to tensor<4xf32>
  // CHECK: return %[[F]]
  %0 = gopt.cast %x : tensor<4xf32> to tensor<4xf16>
  %1 = gopt.cast %0 : tensor<4xf16> to tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @transpose_identity
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
func.func @transpose_identity(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK-NOT: gopt.transpose
  // CHECK: return %[[X]]
  %0 = gopt.transpose %x perm = [0, 1] : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// A permutation that keeps the shape (both dims are 2) is not the identity.
// CHECK-LABEL: func.func @transpose_same_shape_no_fold
// CHECK-SAME: (%[[X:.*]]: tensor<2x2xf32>)
func.func @transpose_same_shape_no_fold(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  // CHECK: %[[T:.*]] = gopt.transpose %[[X]] perm = [1, 0] : tensor<2x2xf32> -> tensor<2x2xf32>
  // CHECK: return %[[T]]
  %0 = gopt.transpose %x perm = [1, 0] : tensor<2x2xf32> -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// transpose(transpose(x, p1), p2) = transpose(x, p1[p2[i]]).
// CHECK-LABEL: func.func @transpose_transpose
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
func.func @transpose_transpose(%x: tensor<2x3x4xf32>) -> (tensor<4x2x3xf32>, tensor<2x3x4xf32>) {
  // CHECK: %[[T:.*]] = gopt.transpose %[[X]] perm = [2, 0, 1] : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  // CHECK-NOT: gopt.transpose
  // CHECK: return %[[T]], %[[X]]
  %t = gopt.transpose %x perm = [1, 2, 0] : tensor<2x3x4xf32> -> tensor<3x4x2xf32>
  %0 = gopt.transpose %t perm = [1, 2, 0] : tensor<3x4x2xf32> -> tensor<4x2x3xf32>
  %1 = gopt.transpose %t perm = [2, 0, 1] : tensor<3x4x2xf32> -> tensor<2x3x4xf32>
  return %0, %1 : tensor<4x2x3xf32>, tensor<2x3x4xf32>
}

// -----

// CHECK-LABEL: func.func @transpose_of_other_no_fold
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
func.func @transpose_of_other_no_fold(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // CHECK: %[[E:.*]] = gopt.exp %[[X]]
  // CHECK: %[[T:.*]] = gopt.transpose %[[E]] perm = [1, 0]
  // CHECK: return %[[T]]
  %0 = gopt.exp %x : tensor<2x3xf32>
  %1 = gopt.transpose %0 perm = [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  return %1 : tensor<3x2xf32>
}

// -----

// reshape(reshape x) reshapes x directly, or is x; a reshape to the same type
// is its input.
// CHECK-LABEL: func.func @reshape_reshape
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
func.func @reshape_reshape(%x: tensor<2x3xf32>) -> (tensor<6xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  // CHECK: %[[R:.*]] = gopt.reshape %[[X]] : tensor<2x3xf32> -> tensor<6xf32>
  // CHECK-NOT: gopt.reshape
  // CHECK: return %[[R]], %[[X]], %[[X]]
  %r = gopt.reshape %x : tensor<2x3xf32> -> tensor<3x2xf32>
  %0 = gopt.reshape %r : tensor<3x2xf32> -> tensor<6xf32>
  %1 = gopt.reshape %r : tensor<3x2xf32> -> tensor<2x3xf32>
  %2 = gopt.reshape %x : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0, %1, %2 : tensor<6xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_no_fold
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
func.func @reshape_no_fold(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // CHECK: %[[R:.*]] = gopt.reshape %[[X]] : tensor<2x3xf32> -> tensor<3x2xf32>
  // CHECK: return %[[R]]
  %0 = gopt.reshape %x : tensor<2x3xf32> -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// CHECK-LABEL: func.func @broadcast_to_same_type
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
func.func @broadcast_to_same_type(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<4x2x3xf32>) {
  // CHECK: %[[B:.*]] = gopt.broadcast_to %[[X]] : tensor<2x3xf32> -> tensor<4x2x3xf32>
  // CHECK-NOT: gopt.broadcast_to
  // CHECK: return %[[X]], %[[B]]
  %0 = gopt.broadcast_to %x : tensor<2x3xf32> -> tensor<2x3xf32>
  %b = gopt.broadcast_to %x : tensor<2x3xf32> -> tensor<1x2x3xf32>
  %1 = gopt.broadcast_to %b : tensor<1x2x3xf32> -> tensor<4x2x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<4x2x3xf32>
}

// -----

// CHECK-LABEL: func.func @broadcast_to_no_fold
// CHECK-SAME: (%[[X:.*]]: tensor<3xf32>)
func.func @broadcast_to_no_fold(%x: tensor<3xf32>) -> tensor<2x3xf32> {
  // CHECK: %[[B:.*]] = gopt.broadcast_to %[[X]] : tensor<3xf32> -> tensor<2x3xf32>
  // CHECK: return %[[B]]
  %0 = gopt.broadcast_to %x : tensor<3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// A slice that covers the whole tensor is its input.
// CHECK-LABEL: func.func @slice_full
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
func.func @slice_full(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  // CHECK-NOT: gopt.slice
  // CHECK: return %[[X]], %[[X]]
  %0 = gopt.slice %x starts = [0, 0] ends = [2, 3] steps = [1, 1] : tensor<2x3xf32> -> tensor<2x3xf32>
  %1 = gopt.slice %x starts = [-5, 0] ends = [100, 3] steps = [1, 1] : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @slice_partial_no_fold
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
func.func @slice_partial_no_fold(%x: tensor<2x3xf32>) -> tensor<2x2xf32> {
  // CHECK: %[[S:.*]] = gopt.slice %[[X]] starts = [0, 1] ends = [2, 3] steps = [1, 1]
  // CHECK: return %[[S]]
  %0 = gopt.slice %x starts = [0, 1] ends = [2, 3] steps = [1, 1] : tensor<2x3xf32> -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// CHECK-LABEL: func.func @concat_single
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
func.func @concat_single(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK-NOT: gopt.concat
  // CHECK: return %[[X]]
  %0 = gopt.concat %x axis = 1 : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @concat_two_no_fold
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
func.func @concat_two_no_fold(%x: tensor<2x3xf32>) -> tensor<2x6xf32> {
  // CHECK: %[[C:.*]] = gopt.concat %[[X]], %[[X]] axis = 1
  // CHECK: return %[[C]]
  %0 = gopt.concat %x, %x axis = 1 : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

// CHECK-LABEL: func.func @pad_zero
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
func.func @pad_zero(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK-NOT: gopt.pad
  // CHECK: return %[[X]]
  %0 = gopt.pad %x low = [0, 0] high = [0, 0] value = 1.0 : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// A resize whose every dim is the identity is its input; a resize of a
// splat is the splat; one that moves elements stays (a scale of 1 with an
// offset shifts them).
// CHECK-LABEL: func.func @resize_identity_and_splat
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
func.func @resize_identity_and_splat(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<4x6xf32>, tensor<2x3xf32>) {
  // CHECK-DAG: %[[S:.*]] = gopt.constant dense<2.500000e+00> : tensor<4x6xf32>
  // CHECK-DAG: %[[R:.*]] = gopt.resize nearest_floor %[[X]] scale = [1.000000e+00, 1.000000e+00] offset = [0.000000e+00, 1.000000e+00]
  // CHECK: return %[[X]], %[[S]], %[[R]]
  %0 = gopt.resize linear %x scale = [1.0, 1.0] offset = [0.0, 0.0] : tensor<2x3xf32> -> tensor<2x3xf32>
  %c = gopt.constant dense<2.5> : tensor<2x3xf32>
  %1 = gopt.resize linear %c scale = [0.5, 0.5] offset = [-0.25, -0.25] : tensor<2x3xf32> -> tensor<4x6xf32>
  %2 = gopt.resize nearest_floor %x scale = [1.0, 1.0] offset = [0.0, 1.0] : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0, %1, %2 : tensor<2x3xf32>, tensor<4x6xf32>, tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @pad_no_fold
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
func.func @pad_no_fold(%x: tensor<2x3xf32>) -> tensor<3x3xf32> {
  // CHECK: %[[P:.*]] = gopt.pad %[[X]] low = [1, 0] high = [0, 0]
  // CHECK: return %[[P]]
  %0 = gopt.pad %x low = [1, 0] high = [0, 0] value = 1.0 : tensor<2x3xf32> -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

//===----------------------------------------------------------------------===//
// select / reduce / shape
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @select_fold
// CHECK-SAME: (%[[C:.*]]: tensor<4xi1>, %[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xf32>)
func.func @select_fold(%c: tensor<4xi1>, %x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  // CHECK-NOT: gopt.select
  // CHECK: return %[[X]], %[[Y]], %[[X]]
  %t = gopt.constant dense<true> : tensor<4xi1>
  %f = gopt.constant dense<false> : tensor<4xi1>
  %0 = gopt.select %t, %x, %y : tensor<4xi1>, tensor<4xf32>, tensor<4xf32>
  %1 = gopt.select %f, %x, %y : tensor<4xi1>, tensor<4xf32>, tensor<4xf32>
  %2 = gopt.select %c, %x, %x : tensor<4xi1>, tensor<4xf32>, tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Not folded: a run-time condition with different branches, a condition that
// is not a splat, and branches that the result broadcasts.
// CHECK-LABEL: func.func @select_no_fold
// CHECK-SAME: (%[[C:.*]]: tensor<4xi1>, %[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xf32>, %[[CB:.*]]: tensor<2x4xi1>)
func.func @select_no_fold(%c: tensor<4xi1>, %x: tensor<4xf32>, %y: tensor<4xf32>, %cb: tensor<2x4xi1>) -> (tensor<4xf32>, tensor<4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) {
  // CHECK-DAG: %[[D:.*]] = gopt.constant dense<[true, false, true, false]> : tensor<4xi1>
  // CHECK-DAG: %[[T:.*]] = gopt.constant dense<true> : tensor<2x4xi1>
  // CHECK: %[[S0:.*]] = gopt.select %[[C]], %[[X]], %[[Y]]
  // CHECK: %[[S1:.*]] = gopt.select %[[D]], %[[X]], %[[Y]]
  // CHECK: %[[S2:.*]] = gopt.select %[[T]], %[[X]], %[[Y]] : tensor<2x4xi1>, tensor<4xf32>, tensor<4xf32>
  // CHECK: %[[S3:.*]] = gopt.select %[[CB]], %[[X]], %[[X]] : tensor<2x4xi1>, tensor<4xf32>, tensor<4xf32>
  // CHECK: return %[[S0]], %[[S1]], %[[S2]], %[[S3]]
  %d = gopt.constant dense<[true, false, true, false]> : tensor<4xi1>
  %t = gopt.constant dense<true> : tensor<2x4xi1>
  %0 = gopt.select %c, %x, %y : tensor<4xi1>, tensor<4xf32>, tensor<4xf32>
  %1 = gopt.select %d, %x, %y : tensor<4xi1>, tensor<4xf32>, tensor<4xf32>
  %2 = gopt.select %t, %x, %y : tensor<2x4xi1>, tensor<4xf32>, tensor<4xf32>
  %3 = gopt.select %cb, %x, %x : tensor<2x4xi1>, tensor<4xf32>, tensor<4xf32>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<2x4xf32>, tensor<2x4xf32>
}

// -----

// Reducing only unit dimensions with keepdims changes nothing.
// CHECK-LABEL: func.func @reduce_unit_keepdims
// CHECK-SAME: (%[[X:.*]]: tensor<4x1x1xf32>)
func.func @reduce_unit_keepdims(%x: tensor<4x1x1xf32>) -> (tensor<4x1x1xf32>, tensor<4x1x1xf32>) {
  // CHECK-NOT: gopt.reduce
  // CHECK: return %[[X]], %[[X]]
  %0 = gopt.reduce max %x axes = [1] keepdims : tensor<4x1x1xf32> -> tensor<4x1x1xf32>
  %1 = gopt.reduce sum %x axes = [-1, 1] keepdims : tensor<4x1x1xf32> -> tensor<4x1x1xf32>
  return %0, %1 : tensor<4x1x1xf32>, tensor<4x1x1xf32>
}

// -----

// Without keepdims the type changes; over a non-unit axis the values do.
// CHECK-LABEL: func.func @reduce_no_fold
// CHECK-SAME: (%[[X:.*]]: tensor<4x1xf32>)
func.func @reduce_no_fold(%x: tensor<4x1xf32>) -> (tensor<4xf32>, tensor<1x1xf32>) {
  // CHECK: %[[R0:.*]] = gopt.reduce sum %[[X]] axes = [1] : tensor<4x1xf32> -> tensor<4xf32>
  // CHECK: %[[R1:.*]] = gopt.reduce mean %[[X]] axes = [0] keepdims : tensor<4x1xf32> -> tensor<1x1xf32>
  // CHECK: return %[[R0]], %[[R1]]
  %0 = gopt.reduce sum %x axes = [1] : tensor<4x1xf32> -> tensor<4xf32>
  %1 = gopt.reduce mean %x axes = [0] keepdims : tensor<4x1xf32> -> tensor<1x1xf32>
  return %0, %1 : tensor<4xf32>, tensor<1x1xf32>
}

// -----

// shape always folds to a constant; the op that reads it does not, unless its
// other operands are splats too.
// CHECK-LABEL: func.func @shape_fold
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>, %[[Y:.*]]: tensor<3xi64>)
func.func @shape_fold(%x: tensor<2x3x4xf32>, %y: tensor<3xi64>) -> (tensor<3xi64>, tensor<3xi64>) {
  // CHECK: %[[S:.*]] = gopt.constant dense<[2, 3, 4]> : tensor<3xi64>
  // CHECK-NOT: gopt.shape
  // CHECK: %[[ADD:.*]] = gopt.add %[[Y]], %[[S]] : tensor<3xi64>
  // CHECK: return %[[S]], %[[ADD]]
  %0 = gopt.shape %x : tensor<2x3x4xf32> -> tensor<3xi64>
  %1 = gopt.add %0, %y : tensor<3xi64>
  return %0, %1 : tensor<3xi64>, tensor<3xi64>
}

// -----

//===----------------------------------------------------------------------===//
// Splat constant evaluation
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @splat_fold
func.func @splat_fold() -> (tensor<4xf32>, tensor<4xf32>, tensor<4xi1>, tensor<2x4xf32>, tensor<4xi32>, tensor<2xf32>) {
  // CHECK-DAG: %[[EXP:.*]] = gopt.constant dense<1.000000e+00> : tensor<4xf32>
  // CHECK-DAG: %[[ADD:.*]] = gopt.constant dense<2.500000e+00> : tensor<4xf32>
  // CHECK-DAG: %[[CMP:.*]] = gopt.constant dense<true> : tensor<4xi1>
  // CHECK-DAG: %[[BC:.*]] = gopt.constant dense<2.000000e+00> : tensor<2x4xf32>
  // CHECK-DAG: %[[CAST:.*]] = gopt.constant dense<-2> : tensor<4xi32>
  // CHECK-DAG: %[[SUM:.*]] = gopt.constant dense<8.000000e+00> : tensor<2xf32>
  // CHECK-NOT: gopt.exp
  // CHECK-NOT: gopt.add
  // CHECK: return %[[EXP]], %[[ADD]], %[[CMP]], %[[BC]], %[[CAST]], %[[SUM]]
  %z = gopt.constant dense<0.0> : tensor<4xf32>
  %h = gopt.constant dense<0.5> : tensor<4xf32>
  %two = gopt.constant dense<2.0> : tensor<4xf32>
  %0 = gopt.exp %z : tensor<4xf32>
  %1 = gopt.add %h, %two : tensor<4xf32>
  %2 = gopt.compare lt, %z, %two : tensor<4xf32>, tensor<4xf32>
  %3 = gopt.broadcast_to %two : tensor<4xf32> -> tensor<2x4xf32>
  %m = gopt.constant dense<-2.7> : tensor<4xf32>
  %4 = gopt.cast %m : tensor<4xf32> to tensor<4xi32>
  %b = gopt.constant dense<2.0> : tensor<2x4xf32>
  %5 = gopt.reduce sum %b axes = [1] : tensor<2x4xf32> -> tensor<2xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<4xf32>, tensor<4xf32>, tensor<4xi1>, tensor<2x4xf32>, tensor<4xi32>, tensor<2xf32>
}

// -----

// Dense (non-splat) constants are left to gopt-fold, and a splat division by
// zero is not evaluated.
// CHECK-LABEL: func.func @splat_no_fold
func.func @splat_no_fold() -> (tensor<2xf32>, tensor<4xf32>, tensor<4xi32>) {
  // CHECK: %[[D:.*]] = gopt.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  // CHECK: %[[EXP:.*]] = gopt.exp %[[D]]
  // CHECK: %[[DIV:.*]] = gopt.div %{{.*}}, %{{.*}} : tensor<4xf32>
  // CHECK: %[[CAST:.*]] = gopt.cast %{{.*}} : tensor<4xf32> to tensor<4xi32>
  // CHECK: return %[[EXP]], %[[DIV]], %[[CAST]]
  %d = gopt.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %0 = gopt.exp %d : tensor<2xf32>
  %z = gopt.constant dense<0.0> : tensor<4xf32>
  %two = gopt.constant dense<2.0> : tensor<4xf32>
  %1 = gopt.div %two, %z : tensor<4xf32>
  %nan = gopt.constant dense<0x7FC00000> : tensor<4xf32>
  %2 = gopt.cast %nan : tensor<4xf32> to tensor<4xi32>
  return %0, %1, %2 : tensor<2xf32>, tensor<4xf32>, tensor<4xi32>
}

// -----

//===----------------------------------------------------------------------===//
// Commutative operand order
//===----------------------------------------------------------------------===//

// The operands of commutative ops are put in one canonical order, so that
// add(a, b) and add(b, a) are the same op to CSE; non-commutative ops keep
// their order.
// CHECK-LABEL: func.func @commutative
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CSE-LABEL: func.func @commutative
func.func @commutative(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  // CHECK: %[[T:.*]] = gopt.tanh %[[X]]
  // CHECK: %[[E:.*]] = gopt.exp %[[X]]
  // CHECK: %[[A0:.*]] = gopt.add %[[E]], %[[T]]
  // CHECK: %[[A1:.*]] = gopt.add %[[E]], %[[T]]
  // CHECK: %[[M0:.*]] = gopt.mul %[[E]], %[[T]]
  // CHECK: %[[M1:.*]] = gopt.mul %[[E]], %[[T]]
  // CHECK: %[[S0:.*]] = gopt.sub %[[T]], %[[E]]
  // CHECK: %[[S1:.*]] = gopt.sub %[[E]], %[[T]]
  // CHECK: return %[[A0]], %[[A1]], %[[M0]], %[[M1]], %[[S0]], %[[S1]]
  // CSE: %[[T:.*]] = gopt.tanh
  // CSE: %[[E:.*]] = gopt.exp
  // CSE: %[[A:.*]] = gopt.add %[[E]], %[[T]]
  // CSE-NOT: gopt.add
  // CSE: %[[M:.*]] = gopt.mul %[[E]], %[[T]]
  // CSE-NOT: gopt.mul
  // CSE: %[[S0:.*]] = gopt.sub %[[T]], %[[E]]
  // CSE: %[[S1:.*]] = gopt.sub %[[E]], %[[T]]
  // CSE: return %[[A]], %[[A]], %[[M]], %[[M]], %[[S0]], %[[S1]]
  %t = gopt.tanh %x : tensor<4xf32>
  %e = gopt.exp %x : tensor<4xf32>
  %0 = gopt.add %t, %e : tensor<4xf32>
  %1 = gopt.add %e, %t : tensor<4xf32>
  %2 = gopt.mul %t, %e : tensor<4xf32>
  %3 = gopt.mul %e, %t : tensor<4xf32>
  %4 = gopt.sub %t, %e : tensor<4xf32>
  %5 = gopt.sub %e, %t : tensor<4xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Constants go to the right of commutative ops, max and min included.
// CHECK-LABEL: func.func @commutative_constant_right
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
func.func @commutative_constant_right(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  // CHECK: %[[C:.*]] = gopt.constant dense<3.000000e+00> : tensor<4xf32>
  // CHECK: %[[MAX:.*]] = gopt.max %[[X]], %[[C]]
  // CHECK: %[[MIN:.*]] = gopt.min %[[X]], %[[C]]
  // CHECK: %[[SUB:.*]] = gopt.sub %[[C]], %[[X]]
  // CHECK: return %[[MAX]], %[[MIN]], %[[SUB]]
  %c = gopt.constant dense<3.0> : tensor<4xf32>
  %0 = gopt.max %c, %x : tensor<4xf32>
  %1 = gopt.min %c, %x : tensor<4xf32>
  %2 = gopt.sub %c, %x : tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
