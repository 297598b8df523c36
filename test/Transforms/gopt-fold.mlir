// RUN: gopt-opt %s -split-input-file --gopt-fold | FileCheck %s
// RUN: gopt-opt %s -split-input-file --gopt-fold=max-folded-elements=2 | FileCheck %s --check-prefix=MAX2
// RUN: not gopt-opt %s --gopt-fold=max-folded-elements=-1 2>&1 | FileCheck %s --check-prefix=ERR

// ERR: gopt-fold: max-folded-elements must be non-negative, got -1

// A shape computation (shape -> gather -> mul -> concat, as exporters emit
// for a flatten) is evaluated into one constant.
// CHECK-LABEL: func.func @shape_chain
// CHECK-NOT: gopt.shape
// CHECK-NOT: gopt.gather
// CHECK-NOT: gopt.mul
// CHECK-NOT: gopt.concat
// CHECK: %[[C:.*]] = gopt.constant dense<[2, 12]> : tensor<2xi64>
// CHECK-NEXT: return %[[C]] : tensor<2xi64>
func.func @shape_chain(%x: tensor<2x3x4xf32>) -> tensor<2xi64> {
  %s = gopt.shape %x : tensor<2x3x4xf32> -> tensor<3xi64>
  %i0 = gopt.constant dense<[0]> : tensor<1xi64>
  %i1 = gopt.constant dense<[1]> : tensor<1xi64>
  %i2 = gopt.constant dense<[-1]> : tensor<1xi64>
  %d0 = gopt.gather %s[%i0] axis = 0 : tensor<3xi64>, tensor<1xi64> -> tensor<1xi64>
  %d1 = gopt.gather %s[%i1] axis = 0 : tensor<3xi64>, tensor<1xi64> -> tensor<1xi64>
  %d2 = gopt.gather %s[%i2] axis = 0 : tensor<3xi64>, tensor<1xi64> -> tensor<1xi64>
  %p = gopt.mul %d1, %d2 : tensor<1xi64>
  %c = gopt.concat %d0, %p axis = 0 : tensor<1xi64>, tensor<1xi64> -> tensor<2xi64>
  return %c : tensor<2xi64>
}

// -----

// An out-of-range gather index is left to run time.
// CHECK-LABEL: func.func @gather_out_of_range
// CHECK: %[[S:.*]] = gopt.constant dense<[2, 3]> : tensor<2xi64>
// CHECK: %[[I:.*]] = gopt.constant dense<5> : tensor<1xi64>
// CHECK: %[[G:.*]] = gopt.gather %[[S]][%[[I]]] axis = 0
// CHECK: return %[[G]]
func.func @gather_out_of_range(%x: tensor<2x3xf32>) -> tensor<1xi64> {
  %s = gopt.shape %x : tensor<2x3xf32> -> tensor<2xi64>
  %i = gopt.constant dense<[5]> : tensor<1xi64>
  %g = gopt.gather %s[%i] axis = 0 : tensor<2xi64>, tensor<1xi64> -> tensor<1xi64>
  return %g : tensor<1xi64>
}

// -----

// transpose o transpose: the identity composition folds to the input, any
// other composition becomes one transpose of the input.
// CHECK-LABEL: func.func @transpose_transpose
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<2x3x4xf32>)
// CHECK: %[[T:.*]] = gopt.transpose %[[X]] perm = [2, 0, 1] : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
// CHECK: return %[[X]], %[[T]] : tensor<2x3x4xf32>, tensor<4x2x3xf32>
func.func @transpose_transpose(%x: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<4x2x3xf32>) {
  %a = gopt.transpose %x perm = [1, 0, 2] : tensor<2x3x4xf32> -> tensor<3x2x4xf32>
  %b = gopt.transpose %a perm = [1, 0, 2] : tensor<3x2x4xf32> -> tensor<2x3x4xf32>
  %c = gopt.transpose %x perm = [1, 2, 0] : tensor<2x3x4xf32> -> tensor<3x4x2xf32>
  %d = gopt.transpose %c perm = [1, 2, 0] : tensor<3x4x2xf32> -> tensor<4x2x3xf32>
  return %b, %d : tensor<2x3x4xf32>, tensor<4x2x3xf32>
}

// -----

// An identity permutation folds away; a single real transpose stays.
// CHECK-LABEL: func.func @transpose_identity
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<2x3xf32>)
// CHECK: %[[T:.*]] = gopt.transpose %[[X]] perm = [1, 0]
// CHECK: return %[[X]], %[[T]]
func.func @transpose_identity(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<3x2xf32>) {
  %a = gopt.transpose %x perm = [0, 1] : tensor<2x3xf32> -> tensor<2x3xf32>
  %b = gopt.transpose %x perm = [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  return %a, %b : tensor<2x3xf32>, tensor<3x2xf32>
}

// -----

// A transpose that moves only unit dims keeps every element where it was: a
// reshape (the sequence-first transposes of an exported encoder at batch 1).
// Moving a unit dim across two others is one too; swapping two dims of
// extent > 1 is not, even with a unit dim between them.
// CHECK-LABEL: func.func @transpose_unit_dims
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<1x16x64xf32>, %[[Y:[a-z0-9]+]]: tensor<4x1x8xf32>)
// CHECK: %[[A:.*]] = gopt.reshape %[[X]] : tensor<1x16x64xf32> -> tensor<16x1x64xf32>
// CHECK: %[[B:.*]] = gopt.reshape %[[X]] : tensor<1x16x64xf32> -> tensor<16x64x1xf32>
// CHECK: %[[C:.*]] = gopt.transpose %[[Y]] perm = [2, 1, 0] : tensor<4x1x8xf32> -> tensor<8x1x4xf32>
// CHECK-NOT: gopt.transpose
// CHECK: return %[[A]], %[[B]], %[[C]]
func.func @transpose_unit_dims(%x: tensor<1x16x64xf32>, %y: tensor<4x1x8xf32>) -> (tensor<16x1x64xf32>, tensor<16x64x1xf32>, tensor<8x1x4xf32>) {
  %a = gopt.transpose %x perm = [1, 0, 2] : tensor<1x16x64xf32> -> tensor<16x1x64xf32>
  %b = gopt.transpose %x perm = [1, 2, 0] : tensor<1x16x64xf32> -> tensor<16x64x1xf32>
  %c = gopt.transpose %y perm = [2, 1, 0] : tensor<4x1x8xf32> -> tensor<8x1x4xf32>
  return %a, %b, %c : tensor<16x1x64xf32>, tensor<16x64x1xf32>, tensor<8x1x4xf32>
}

// -----

// reshape o reshape collapses; back to the input's shape it is the input.
// CHECK-LABEL: func.func @reshape_reshape
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<2x3x4xf32>)
// CHECK: %[[R:.*]] = gopt.reshape %[[X]] : tensor<2x3x4xf32> -> tensor<4x6xf32>
// CHECK: return %[[X]], %[[R]] : tensor<2x3x4xf32>, tensor<4x6xf32>
func.func @reshape_reshape(%x: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<4x6xf32>) {
  %a = gopt.reshape %x : tensor<2x3x4xf32> -> tensor<6x4xf32>
  %b = gopt.reshape %a : tensor<6x4xf32> -> tensor<2x3x4xf32>
  %c = gopt.reshape %x : tensor<2x3x4xf32> -> tensor<24xf32>
  %d = gopt.reshape %c : tensor<24xf32> -> tensor<4x6xf32>
  return %b, %d : tensor<2x3x4xf32>, tensor<4x6xf32>
}

// -----

// neg o neg is the input, bit for bit; a single neg stays.
// CHECK-LABEL: func.func @double_negation
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<4xf32>)
// CHECK: gopt.neg %[[X]] : tensor<4xf32>
// CHECK-NEXT: %[[N:.*]] = gopt.neg %[[X]] : tensor<4xf32>
// CHECK-NEXT: return %[[X]], %[[N]] : tensor<4xf32>, tensor<4xf32>
func.func @double_negation(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %a = gopt.neg %x : tensor<4xf32>
  %b = gopt.neg %a : tensor<4xf32>
  %c = gopt.neg %x : tensor<4xf32>
  return %b, %c : tensor<4xf32>, tensor<4xf32>
}

// -----

// x + (-0.0) is x for every float x (also with the constant on the left:
// operands are sorted first); x + (+0.0) is not (-0 + 0 = +0), so it stays.
// CHECK-LABEL: func.func @add_zero
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<4xf32>)
// CHECK: %[[P:.*]] = gopt.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK: %[[A:.*]] = gopt.add %[[X]], %[[P]] : tensor<4xf32>
// CHECK: return %[[X]], %[[X]], %[[A]]
func.func @add_zero(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %nz = gopt.constant dense<-0.0> : tensor<4xf32>
  %pz = gopt.constant dense<0.0> : tensor<4xf32>
  %a = gopt.add %x, %nz : tensor<4xf32>
  %b = gopt.add %nz, %x : tensor<4xf32>
  %c = gopt.add %x, %pz : tensor<4xf32>
  return %a, %b, %c : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// x * 1, x / 1 and x - 0 are x; x * 0 is not folded for floats (NaN * 0),
// nor is x * 1 when the constant broadcasts x to a larger result.
// CHECK-LABEL: func.func @mul_div_identities
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<4xf32>)
// CHECK-DAG: %[[ZERO:.*]] = gopt.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK-DAG: %[[ONES:.*]] = gopt.constant dense<1.000000e+00> : tensor<2x4xf32>
// CHECK-DAG: %[[M0:.*]] = gopt.mul %[[X]], %[[ZERO]] : tensor<4xf32>
// CHECK-DAG: %[[WIDE:.*]] = gopt.mul %[[X]], %[[ONES]] : tensor<4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
// CHECK: return %[[X]], %[[X]], %[[X]], %[[M0]], %[[WIDE]]
func.func @mul_div_identities(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2x4xf32>) {
  %one = gopt.constant dense<1.0> : tensor<4xf32>
  %zero = gopt.constant dense<0.0> : tensor<4xf32>
  %ones = gopt.constant dense<1.0> : tensor<2x4xf32>
  %a = gopt.mul %x, %one : tensor<4xf32>
  %b = gopt.div %x, %one : tensor<4xf32>
  %c = gopt.sub %x, %zero : tensor<4xf32>
  %d = gopt.mul %x, %zero : tensor<4xf32>
  %e = gopt.mul %x, %ones : tensor<4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
  return %a, %b, %c, %d, %e : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2x4xf32>
}

// -----

// Integer x * 0 is 0.
// CHECK-LABEL: func.func @int_mul_zero
// CHECK: %[[Z:.*]] = gopt.constant dense<0> : tensor<4xi32>
// CHECK-NOT: gopt.mul
// CHECK: return %[[Z]]
func.func @int_mul_zero(%x: tensor<4xi32>) -> tensor<4xi32> {
  %zero = gopt.constant dense<0> : tensor<4xi32>
  %a = gopt.mul %x, %zero : tensor<4xi32>
  return %a : tensor<4xi32>
}

// -----

// A constant subgraph (1/sqrt(16)) becomes one constant.
// CHECK-LABEL: func.func @constant_subgraph
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<4xf32>)
// CHECK-NOT: gopt.sqrt
// CHECK-NOT: gopt.reciprocal
// CHECK: %[[S:.*]] = gopt.constant dense<2.500000e-01> : tensor<f32>
// CHECK: %[[M:.*]] = gopt.mul %[[X]], %[[S]] : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
// CHECK: return %[[M]]
func.func @constant_subgraph(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = gopt.constant dense<16.0> : tensor<f32>
  %s = gopt.sqrt %c : tensor<f32>
  %r = gopt.reciprocal %s : tensor<f32>
  %m = gopt.mul %x, %r : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  return %m : tensor<4xf32>
}

// -----

// Non-splat dense constants are evaluated up to max-folded-elements; splats
// always (they are one value). With max-folded-elements=2 the 4-element
// negation stays, the 2-element one and the splat fold.
// CHECK-LABEL: func.func @folded_elements_bound
// CHECK-DAG: %[[N4:.*]] = gopt.constant dense<[-1.000000e+00, -2.000000e+00, -3.000000e+00, -4.000000e+00]> : tensor<4xf32>
// CHECK-DAG: %[[N2:.*]] = gopt.constant dense<[-5.000000e+00, -6.000000e+00]> : tensor<2xf32>
// CHECK-DAG: %[[NS:.*]] = gopt.constant dense<-7.000000e+00> : tensor<4xf32>
// CHECK-NOT: gopt.neg
// CHECK: return %[[N4]], %[[N2]], %[[NS]]
// MAX2-LABEL: func.func @folded_elements_bound
// MAX2-DAG: %[[C4:.*]] = gopt.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
// MAX2-DAG: %[[N4:.*]] = gopt.neg %[[C4]] : tensor<4xf32>
// MAX2-DAG: %[[N2:.*]] = gopt.constant dense<[-5.000000e+00, -6.000000e+00]> : tensor<2xf32>
// MAX2-DAG: %[[NS:.*]] = gopt.constant dense<-7.000000e+00> : tensor<4xf32>
// MAX2: return %[[N4]], %[[N2]], %[[NS]]
func.func @folded_elements_bound() -> (tensor<4xf32>, tensor<2xf32>, tensor<4xf32>) {
  %c4 = gopt.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %c2 = gopt.constant dense<[5.0, 6.0]> : tensor<2xf32>
  %cs = gopt.constant dense<7.0> : tensor<4xf32>
  %n4 = gopt.neg %c4 : tensor<4xf32>
  %n2 = gopt.neg %c2 : tensor<2xf32>
  %ns = gopt.neg %cs : tensor<4xf32>
  return %n4, %n2, %ns : tensor<4xf32>, tensor<2xf32>, tensor<4xf32>
}

// -----

// Division by zero (float and integer) and 1/0 are left to run time.
// CHECK-LABEL: func.func @division_by_zero
// CHECK-DAG: %[[A:.*]] = gopt.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-DAG: %[[Z:.*]] = gopt.constant dense<[0.000000e+00, 1.000000e+00]> : tensor<2xf32>
// CHECK-DAG: %[[IA:.*]] = gopt.constant dense<[7, 8]> : tensor<2xi32>
// CHECK-DAG: %[[IZ:.*]] = gopt.constant dense<0> : tensor<2xi32>
// CHECK-DAG: %[[D:.*]] = gopt.div %[[A]], %[[Z]] : tensor<2xf32>
// CHECK-DAG: %[[R:.*]] = gopt.reciprocal %[[Z]] : tensor<2xf32>
// CHECK-DAG: %[[ID:.*]] = gopt.div %[[IA]], %[[IZ]] : tensor<2xi32>
// CHECK: return %[[D]], %[[R]], %[[ID]]
func.func @division_by_zero() -> (tensor<2xf32>, tensor<2xf32>, tensor<2xi32>) {
  %a = gopt.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %z = gopt.constant dense<[0.0, 1.0]> : tensor<2xf32>
  %d = gopt.div %a, %z : tensor<2xf32>
  %r = gopt.reciprocal %z : tensor<2xf32>
  %ia = gopt.constant dense<[7, 8]> : tensor<2xi32>
  %iz = gopt.constant dense<0> : tensor<2xi32>
  %id = gopt.div %ia, %iz : tensor<2xi32>
  return %d, %r, %id : tensor<2xf32>, tensor<2xf32>, tensor<2xi32>
}

// -----

// Commutative operands are put in canonical order (constant last), so cse
// can merge add(c, x) with add(x, c).
// CHECK-LABEL: func.func @commutative_order
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<4xf32>)
// CHECK: %[[C:.*]] = gopt.constant
// CHECK: %[[A:.*]] = gopt.add %[[X]], %[[C]] : tensor<4xf32>
// CHECK: %[[B:.*]] = gopt.add %[[X]], %[[C]] : tensor<4xf32>
// CHECK: return %[[A]], %[[B]]
func.func @commutative_order(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %c = gopt.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %a = gopt.add %c, %x : tensor<4xf32>
  %b = gopt.add %x, %c : tensor<4xf32>
  return %a, %b : tensor<4xf32>, tensor<4xf32>
}

// -----

// The walk driver never erases dead ops: only the ops it replaces go; the
// constants a fold consumed, the inner neg that neg(neg x) bypassed and a
// plain dead op are all still there (gopt-dce's job).
// CHECK-LABEL: func.func @fold_keeps_dead_ops
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<4xf32>)
// CHECK: gopt.constant dense<2.000000e+00> : tensor<4xf32>
// CHECK-NEXT: gopt.neg %[[X]] : tensor<4xf32>
// CHECK-NEXT: gopt.exp %[[X]] : tensor<4xf32>
// CHECK: %[[C:.*]] = gopt.constant dense<4.000000e+00> : tensor<4xf32>
// CHECK: %[[M:.*]] = gopt.mul %[[X]], %[[C]] : tensor<4xf32>
// CHECK: return %[[M]]
func.func @fold_keeps_dead_ops(%x: tensor<4xf32>) -> tensor<4xf32> {
  %two = gopt.constant dense<2.0> : tensor<4xf32>
  %n1 = gopt.neg %x : tensor<4xf32>
  %n2 = gopt.neg %n1 : tensor<4xf32>
  %dead = gopt.exp %x : tensor<4xf32>
  %four = gopt.mul %two, %two : tensor<4xf32>
  %m = gopt.mul %n2, %four : tensor<4xf32>
  return %m : tensor<4xf32>
}

// -----

// Ops of other dialects are left alone, even on constants.
// CHECK-LABEL: func.func @foreign_ops
// CHECK: %[[C:.*]] = arith.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK: %[[A:.*]] = arith.addf %[[C]], %[[C]] : tensor<4xf32>
// CHECK: %[[E:.*]] = gopt.exp %[[A]] : tensor<4xf32>
// CHECK: return %[[E]]
func.func @foreign_ops() -> tensor<4xf32> {
  %c = arith.constant dense<1.0> : tensor<4xf32>
  %a = arith.addf %c, %c : tensor<4xf32>
  %e = gopt.exp %a : tensor<4xf32>
  return %e : tensor<4xf32>
}

// -----

// Ops on non-constant values are left alone.
// CHECK-LABEL: func.func @nothing_to_fold
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<4xf32>, %[[Y:[a-z0-9]+]]: tensor<4xf32>)
// CHECK: %[[A:.*]] = gopt.add %[[X]], %[[Y]] : tensor<4xf32>
// CHECK: %[[E:.*]] = gopt.exp %[[A]] : tensor<4xf32>
// CHECK: return %[[E]]
func.func @nothing_to_fold(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %a = gopt.add %x, %y : tensor<4xf32>
  %e = gopt.exp %a : tensor<4xf32>
  return %e : tensor<4xf32>
}

// -----

// Contractions and normalizations of constants are evaluated too (in double,
// rounded once), within the element bound.
// CHECK-LABEL: func.func @contractions_and_normalizations
// CHECK-DAG: %[[M:.*]] = gopt.constant dense<{{\[\[}}1.900000e+01, 2.200000e+01], [4.300000e+01, 5.000000e+01]]> : tensor<2x2xf32>
// CHECK-DAG: %[[L:.*]] = gopt.constant dense<{{\[\[}}1.500000e+01, 3.100000e+01]]> : tensor<1x2xf32>
// CHECK-DAG: %[[S:.*]] = gopt.constant dense<5.000000e-01> : tensor<2xf32>
// CHECK-DAG: %[[N:.*]] = gopt.constant dense<[-1.000000e+00, 3.000000e+00]> : tensor<2xf32>
// CHECK-DAG: %[[G:.*]] = gopt.constant dense<2.500000e+00> : tensor<1x1x1x1xf32>
// CHECK-DAG: %[[I:.*]] = gopt.constant dense<{{\[\[}}7, 10], [15, 22]]> : tensor<2x2xi32>
// CHECK: return %[[M]], %[[L]], %[[S]], %[[N]], %[[G]], %[[I]]
// With max-folded-elements=2 the 4-element results stay.
// MAX2-LABEL: func.func @contractions_and_normalizations
// MAX2: gopt.matmul
// MAX2: gopt.global_avg_pool
func.func @contractions_and_normalizations() -> (tensor<2x2xf32>, tensor<1x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<1x1x1x1xf32>, tensor<2x2xi32>) {
  %a = gopt.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b = gopt.constant dense<[[5.0, 6.0], [7.0, 8.0]]> : tensor<2x2xf32>
  %m = gopt.matmul %a, %b : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<2x2xf32>
  %x = gopt.constant dense<[[1.0, 2.0]]> : tensor<1x2xf32>
  %bias = gopt.constant dense<[10.0, 20.0]> : tensor<2xf32>
  %l = gopt.linear %x, %a, %bias transpose_weight : tensor<1x2xf32>, tensor<2x2xf32>, tensor<2xf32> -> tensor<1x2xf32>
  %z = gopt.constant dense<[0.0, 0.0]> : tensor<2xf32>
  %s = gopt.softmax %z axis = 0 : tensor<2xf32>
  %v = gopt.constant dense<[1.0, 3.0]> : tensor<2xf32>
  %sc = gopt.constant dense<2.0> : tensor<2xf32>
  %bi = gopt.constant dense<1.0> : tensor<2xf32>
  %n = gopt.layer_norm %v, %sc, %bi axes = [0] eps = 0.0 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
  %p = gopt.constant dense<[[[[1.0, 2.0], [3.0, 4.0]]]]> : tensor<1x1x2x2xf32>
  %g = gopt.global_avg_pool %p : tensor<1x1x2x2xf32> -> tensor<1x1x1x1xf32>
  %ia = gopt.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %im = gopt.matmul %ia, %ia : tensor<2x2xi32>, tensor<2x2xi32> -> tensor<2x2xi32>
  return %m, %l, %s, %n, %g, %im : tensor<2x2xf32>, tensor<1x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<1x1x1x1xf32>, tensor<2x2xi32>
}

// -----

// Convolution and pooling of constants: a 2x2 identity-diagonal kernel over
// 1..9, max pooling, and average pooling with padding that does not count.
// CHECK-LABEL: func.func @convolution_and_pooling
// CHECK-DAG: %[[C:.*]] = gopt.constant dense<{{\[\[\[\[}}6.000000e+00, 8.000000e+00], [1.200000e+01, 1.400000e+01]]]]> : tensor<1x1x2x2xf32>
// CHECK-DAG: %[[M:.*]] = gopt.constant dense<{{\[\[\[\[}}5.000000e+00, 6.000000e+00], [8.000000e+00, 9.000000e+00]]]]> : tensor<1x1x2x2xf32>
// CHECK-DAG: %[[A:.*]] = gopt.constant dense<{{\[\[\[\[}}1.000000e+00, 2.500000e+00], [5.500000e+00, 7.000000e+00]]]]> : tensor<1x1x2x2xf32>
// CHECK: return %[[C]], %[[M]], %[[A]]
func.func @convolution_and_pooling() -> (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) {
  %x = gopt.constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]]]> : tensor<1x1x3x3xf32>
  %w = gopt.constant dense<[[[[1.0, 0.0], [0.0, 1.0]]]]> : tensor<1x1x2x2xf32>
  %c = gopt.conv2d %x, %w strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32> -> tensor<1x1x2x2xf32>
  %m = gopt.pool2d max %x kernel = [2, 2] strides = [1, 1] padding = [0, 0, 0, 0] : tensor<1x1x3x3xf32> -> tensor<1x1x2x2xf32>
  %a = gopt.pool2d avg %x kernel = [2, 2] strides = [2, 2] padding = [1, 1, 0, 0] : tensor<1x1x3x3xf32> -> tensor<1x1x2x2xf32>
  return %c, %m, %a : tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>
}

// -----

// Transposes and reshapes of constants fold at any size: they move bytes
// and never grow the model (max-folded-elements bounds the evaluator only).
// With max-folded-elements=2, the 4-element neg stays but a 12-element
// transpose folds; a transpose of a weight in a blob (81 elements, more than
// fit inline) gives a blob, transposed.
// MAX2-LABEL: func.func @weight_transforms_any_size
// MAX2-DAG: %[[T:.*]] = gopt.constant dense<{{\[\[}}1.000000e+00, 5.000000e+00, 9.000000e+00], [2.000000e+00, 6.000000e+00, 1.000000e+01], [3.000000e+00, 7.000000e+00, 1.100000e+01], [4.000000e+00, 8.000000e+00, 1.200000e+01]]> : tensor<4x3xf32>
// MAX2-DAG: %[[R:.*]] = gopt.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00, 7.000000e+00, 8.000000e+00, 9.000000e+00, 1.000000e+01, 1.100000e+01, 1.200000e+01]> : tensor<12xf32>
// MAX2-DAG: %[[BT:.*]] = gopt.constant dense_resource<[[BLOB:folded[_0-9]*]]> : tensor<9x9xf32>
// MAX2-NOT: gopt.transpose
// MAX2-NOT: gopt.reshape
// MAX2: return %[[T]], %[[R]], %[[BT]]
// MAX2: [[BLOB]]: "0x400000000000000000001041000090410000D84100001042000034420000584200007C42000090420000803F00002041000098410000E041000014420000384200005C42000080420000924200000040000030410000A0410000E8410000184200003C4200006042000082420000944200004040000040410000A8410000F04100001C420000404200006442000084420000964200008040000050410000B0410000F84100002042000044420000684200008642000098420000A040000060410000B84100000042000024420000484200006C420000884200009A420000C040000070410000C041000004420000284200004C420000704200008A4200009C420000E040000080410000C8410000084200002C42000050420000744200008C4200009E4200000041000088410000D04100000C4200003042000054420000784200008E420000A042"
func.func @weight_transforms_any_size() -> (tensor<4x3xf32>, tensor<12xf32>, tensor<9x9xf32>) {
  %w = gopt.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]]> : tensor<3x4xf32>
  %t = gopt.transpose %w perm = [1, 0] : tensor<3x4xf32> -> tensor<4x3xf32>
  %r = gopt.reshape %w : tensor<3x4xf32> -> tensor<12xf32>
  %b = gopt.constant dense_resource<weight_blob> : tensor<9x9xf32>
  %bt = gopt.transpose %b perm = [1, 0] : tensor<9x9xf32> -> tensor<9x9xf32>
  return %t, %r, %bt : tensor<4x3xf32>, tensor<12xf32>, tensor<9x9xf32>
}

{-#
  dialect_resources: {
    builtin: {
      weight_blob: "0x04000000000000000000803F0000004000004040000080400000A0400000C0400000E0400000004100001041000020410000304100004041000050410000604100007041000080410000884100009041000098410000A0410000A8410000B0410000B8410000C0410000C8410000D0410000D8410000E0410000E8410000F0410000F84100000042000004420000084200000C4200001042000014420000184200001C4200002042000024420000284200002C4200003042000034420000384200003C4200004042000044420000484200004C4200005042000054420000584200005C4200006042000064420000684200006C4200007042000074420000784200007C42000080420000824200008442000086420000884200008A4200008C4200008E42000090420000924200009442000096420000984200009A4200009C4200009E420000A042"
    }
  }
#-}

// -----

// A linear's constant weight in the [out, in] layout (transpose_weight) is
// stored [in, out] at compile time, for every linear that reads it so (a
// reshape of a constant first folds to one); a constant something else
// reads too, or a computed weight, stays.
// CHECK-LABEL: func.func @pack_linear_weights
// CHECK-SAME: (%[[X:.*]]: tensor<4x3xf32>, %[[W:.*]]: tensor<2x3xf32>, %[[Y:.*]]: tensor<2x3xf32>)
// CHECK-DAG: %[[PACKED:.*]] = gopt.constant dense<{{\[}}[1.000000e+00, 4.000000e+00], [2.000000e+00, 5.000000e+00], [3.000000e+00, 6.000000e+00]]> : tensor<3x2xf32>
// CHECK-DAG: %[[SHARED:.*]] = gopt.constant dense<{{\[}}[6.000000e+00, 3.000000e+00], [5.000000e+00, 2.000000e+00], [4.000000e+00, 1.000000e+00]]> : tensor<3x2xf32>
// CHECK-DAG: %[[SPLAT:.*]] = gopt.constant dense<5.000000e-01> : tensor<3x2xf32>
// CHECK-DAG: %[[KEPT:.*]] = gopt.constant dense<{{\[}}[7.000000e+00, 8.000000e+00, 9.000000e+00], [1.000000e+01, 1.100000e+01, 1.200000e+01]]> : tensor<2x3xf32>
// CHECK: gopt.linear %[[X]], %[[PACKED]] : tensor<4x3xf32>, tensor<3x2xf32> -> tensor<4x2xf32>
// CHECK: gopt.linear %[[X]], %[[SHARED]] : tensor<4x3xf32>, tensor<3x2xf32> -> tensor<4x2xf32>
// CHECK: gopt.linear %[[X]], %[[SHARED]] : tensor<4x3xf32>, tensor<3x2xf32> -> tensor<4x2xf32>
// CHECK: gopt.linear %[[X]], %[[SPLAT]] : tensor<4x3xf32>, tensor<3x2xf32> -> tensor<4x2xf32>
// CHECK: gopt.linear %[[X]], %[[KEPT]] transpose_weight
// CHECK: gopt.add %[[Y]], %[[KEPT]]
// CHECK: gopt.linear %[[X]], %[[W]] transpose_weight
func.func @pack_linear_weights(%x: tensor<4x3xf32>, %w: tensor<2x3xf32>, %y: tensor<2x3xf32>)
    -> (tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<2x3xf32>, tensor<4x2xf32>) {
  %w0 = gopt.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %w1 = gopt.constant dense<[[6.0, 5.0], [4.0, 3.0], [2.0, 1.0]]> : tensor<3x2xf32>
  %w1t = gopt.reshape %w1 : tensor<3x2xf32> -> tensor<2x3xf32>
  %ws = gopt.constant dense<0.5> : tensor<2x3xf32>
  %wk = gopt.constant dense<[[7.0, 8.0, 9.0], [10.0, 11.0, 12.0]]> : tensor<2x3xf32>
  %a = gopt.linear %x, %w0 transpose_weight : tensor<4x3xf32>, tensor<2x3xf32> -> tensor<4x2xf32>
  %b = gopt.linear %x, %w1t transpose_weight : tensor<4x3xf32>, tensor<2x3xf32> -> tensor<4x2xf32>
  %c = gopt.linear %x, %w1t transpose_weight : tensor<4x3xf32>, tensor<2x3xf32> -> tensor<4x2xf32>
  %d = gopt.linear %x, %ws transpose_weight : tensor<4x3xf32>, tensor<2x3xf32> -> tensor<4x2xf32>
  %e = gopt.linear %x, %wk transpose_weight : tensor<4x3xf32>, tensor<2x3xf32> -> tensor<4x2xf32>
  %f = gopt.add %wk, %y : tensor<2x3xf32>
  %g = gopt.linear %x, %w transpose_weight : tensor<4x3xf32>, tensor<2x3xf32> -> tensor<4x2xf32>
  return %a, %b, %c, %d, %e, %f, %g : tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<2x3xf32>, tensor<4x2xf32>
}

// -----

// After gopt-fuse the weights are fusion inputs: packed too when the
// fusion's block argument is only the weight of transpose_weight linears
// (the argument's type follows); not when the body reads it otherwise.
// CHECK-LABEL: func.func @pack_linear_weights_in_fusions
// CHECK-DAG: %[[PACKED:.*]] = gopt.constant dense<{{\[}}[1.000000e+00, 4.000000e+00], [2.000000e+00, 5.000000e+00], [3.000000e+00, 6.000000e+00]]> : tensor<3x2xf32>
// CHECK-DAG: %[[KEPT:.*]] = gopt.constant dense<{{\[}}[7.000000e+00, 8.000000e+00, 9.000000e+00], [1.000000e+01, 1.100000e+01, 1.200000e+01]]> : tensor<2x3xf32>
// CHECK: gopt.fusion(%{{.*}}, %[[PACKED]] : tensor<4x3xf32>, tensor<3x2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT: ^bb0(%[[IN:.*]]: tensor<4x3xf32>, %[[WEIGHT:.*]]: tensor<3x2xf32>):
// CHECK-NEXT: gopt.linear %[[IN]], %[[WEIGHT]] : tensor<4x3xf32>, tensor<3x2xf32> -> tensor<4x2xf32>
// CHECK: gopt.fusion(%{{.*}}, %[[KEPT]] : tensor<4x3xf32>, tensor<2x3xf32>)
// CHECK: gopt.linear {{.*}} transpose_weight
func.func @pack_linear_weights_in_fusions(%x: tensor<4x3xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>) {
  %w0 = gopt.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %wk = gopt.constant dense<[[7.0, 8.0, 9.0], [10.0, 11.0, 12.0]]> : tensor<2x3xf32>
  %a = gopt.fusion(%x, %w0 : tensor<4x3xf32>, tensor<2x3xf32>) -> tensor<4x2xf32> {
  ^bb0(%in: tensor<4x3xf32>, %w: tensor<2x3xf32>):
    %l = gopt.linear %in, %w transpose_weight : tensor<4x3xf32>, tensor<2x3xf32> -> tensor<4x2xf32>
    %r = gopt.relu %l : tensor<4x2xf32>
    gopt.yield %r : tensor<4x2xf32>
  }
  %b = gopt.fusion(%x, %wk : tensor<4x3xf32>, tensor<2x3xf32>) -> tensor<4x2xf32> {
  ^bb0(%in: tensor<4x3xf32>, %w: tensor<2x3xf32>):
    %l = gopt.linear %in, %w transpose_weight : tensor<4x3xf32>, tensor<2x3xf32> -> tensor<4x2xf32>
    %s = gopt.relu %w : tensor<2x3xf32>
    gopt.yield %l : tensor<4x2xf32>
  }
  return %a, %b : tensor<4x2xf32>, tensor<4x2xf32>
}
