// RUN: gopt-opt %s -split-input-file -verify-diagnostics

// Every diagnostic of the gopt verifiers and result-type inference, and the
// ODS type constraints. Errors from inferReturnTypes are reported at the op
// and, when the verifier asks for the inferred type, followed by the
// InferTypeOpInterface's "failed to infer returned types". compare and select
// print no result type, so their custom form infers it while parsing and
// reports only the first error.

//===----------------------------------------------------------------------===//
// ODS type constraints
//===----------------------------------------------------------------------===//

func.func @dynamic_shape(%x: tensor<?x4xf32>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<?x4xf32>'}}
  %0 = gopt.exp %x : tensor<?x4xf32>
  return
}

// -----

func.func @unranked(%x: tensor<*xf32>) {
  // expected-error @+1 {{invalid kind of type specified: expected builtin.tensor, but found 'tensor<*xf32>'}}
  %0 = gopt.relu %x : tensor<*xf32>
  return
}

// -----

func.func @dynamic_binary_operand(%x: tensor<4xf32>, %y: tensor<?xf32>) {
  // expected-error @+1 {{operand #1 must be statically shaped tensor of}}
  %0 = gopt.add %x, %y : tensor<4xf32>, tensor<?xf32> -> tensor<4xf32>
  return
}

// -----

func.func @float_op_on_integer(%x: tensor<4xi32>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<4xi32>'}}
  %0 = gopt.exp %x : tensor<4xi32>
  return
}

// -----

func.func @numeric_op_on_bool(%x: tensor<4xi1>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<4xi1>'}}
  %0 = gopt.neg %x : tensor<4xi1>
  return
}

// -----

func.func @unsupported_element_type(%x: tensor<4xui8>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of}}
  %0 = gopt.abs %x : tensor<4xui8>
  return
}

// -----

func.func @select_condition_not_bool(%c: tensor<4xi8>, %x: tensor<4xf32>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of 1-bit signless integer values, but got 'tensor<4xi8>'}}
  %0 = gopt.select %c, %x, %x : tensor<4xi8>, tensor<4xf32>, tensor<4xf32>
  return
}

// -----

func.func @gather_float_indices(%x: tensor<4xf32>, %i: tensor<2xf32>) {
  // expected-error @+1 {{operand #1 must be statically shaped tensor of 32-bit signless integer or 64-bit signless integer values, but got 'tensor<2xf32>'}}
  %0 = gopt.gather %x[%i] axis = 0 : tensor<4xf32>, tensor<2xf32> -> tensor<2xf32>
  return
}

// -----

func.func @shape_result_not_i64(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{result #0 must be statically shaped tensor of 64-bit signless integer values, but got 'tensor<2xi32>'}}
  %0 = gopt.shape %x : tensor<4x2xf32> -> tensor<2xi32>
  return
}

// -----

func.func @unary_type_mismatch(%x: tensor<4xf32>) {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %0 = "gopt.exp"(%x) : (tensor<4xf32>) -> tensor<4xf16>
  return
}

// -----

func.func @constant_type_mismatch() {
  // expected-error @+1 {{failed to verify that all of {value, result} have same type}}
  %0 = "gopt.constant"() {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf16>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Result types that differ from the inferred ones
//===----------------------------------------------------------------------===//

func.func @inferred_type_incompatible(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) {
  // expected-error @+2 {{'gopt.matmul' op inferred type(s) 'tensor<4x16xf32>' are incompatible with return type(s) of operation 'tensor<4x17xf32>'}}
  // expected-error @+1 {{'gopt.matmul' op failed to infer returned types}}
  %0 = gopt.matmul %a, %b : tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x17xf32>
  return
}

// -----

func.func @binary_result_not_broadcast(%a: tensor<2x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+2 {{'gopt.add' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<4x2x3xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.add %a, %b : tensor<2x3xf32>, tensor<3xf32> -> tensor<4x2x3xf32>
  return
}

// -----

func.func @compare_result_not_bool(%a: tensor<4xf32>) {
  // expected-error @+1 {{result #0 must be statically shaped tensor of 1-bit signless integer values, but got 'tensor<4xf32>'}}
  %0 = "gopt.compare"(%a, %a) <{predicate = 0 : i32}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @compare_result_shape(%a: tensor<4xf32>) {
  // expected-error @+2 {{'gopt.compare' op inferred type(s) 'tensor<4xi1>' are incompatible with return type(s) of operation 'tensor<2x4xi1>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = "gopt.compare"(%a, %a) <{predicate = 0 : i32}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<2x4xi1>
  return
}

// -----

func.func @reduce_result_without_keepdims(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation 'tensor<2x1xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.reduce sum %x axes = [1] : tensor<2x3xf32> -> tensor<2x1xf32>
  return
}

// -----

func.func @shape_wrong_rank(%x: tensor<4x2xf32>) {
  // expected-error @+2 {{inferred type(s) 'tensor<2xi64>' are incompatible with return type(s) of operation 'tensor<3xi64>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.shape %x : tensor<4x2xf32> -> tensor<3xi64>
  return
}

// -----

func.func @transpose_wrong_result(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{inferred type(s) 'tensor<3x2xf32>' are incompatible with return type(s) of operation 'tensor<2x3xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.transpose %x perm = [1, 0] : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

func.func @binary_element_type_mismatch(%a: tensor<4xf32>, %b: tensor<4xf16>) {
  // expected-error @+2 {{operand 'rhs' has element type 'f16' but 'lhs' has 'f32'; expected the same element type}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.mul %a, %b : tensor<4xf32>, tensor<4xf16> -> tensor<4xf32>
  return
}

// -----

func.func @binary_broadcast_mismatch(%a: tensor<2x3xf32>, %b: tensor<4xf32>) {
  // expected-error @+2 {{operand 'rhs' of shape [4] does not broadcast with operand 'lhs' of shape [2, 3]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.sub %a, %b : tensor<2x3xf32>, tensor<4xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @compare_element_type_mismatch(%a: tensor<4xi32>, %b: tensor<4xi64>) {
  // expected-error @+1 {{operand 'rhs' has element type 'i64' but 'lhs' has 'i32'; expected the same element type}}
  %0 = gopt.compare lt, %a, %b : tensor<4xi32>, tensor<4xi64>
  return
}

// -----

// compare and select infer their result type while parsing the custom form
// (one error); the generic form goes through the verifier (two errors).
func.func @compare_element_type_mismatch_generic(%a: tensor<4xi32>, %b: tensor<4xi64>) {
  // expected-error @+2 {{operand 'rhs' has element type 'i64' but 'lhs' has 'i32'; expected the same element type}}
  // expected-error @+1 {{'gopt.compare' op failed to infer returned types}}
  %0 = "gopt.compare"(%a, %b) <{predicate = 2 : i32}> : (tensor<4xi32>, tensor<4xi64>) -> tensor<4xi1>
  return
}

// -----

func.func @compare_broadcast_mismatch(%a: tensor<3xf32>, %b: tensor<2xf32>) {
  // expected-error @+1 {{operand 'rhs' of shape [2] does not broadcast with operand 'lhs' of shape [3]}}
  %0 = gopt.compare eq, %a, %b : tensor<3xf32>, tensor<2xf32>
  return
}

// -----

func.func @select_element_type_mismatch(%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xi32>) {
  // expected-error @+1 {{operand 'on_false' has element type 'i32' but 'on_true' has 'f32'; expected the same element type}}
  %0 = gopt.select %c, %a, %b : tensor<4xi1>, tensor<4xf32>, tensor<4xi32>
  return
}

// -----

func.func @select_values_do_not_broadcast(%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{operand 'on_false' of shape [3] does not broadcast with operand 'on_true' of shape [4]}}
  %0 = gopt.select %c, %a, %b : tensor<4xi1>, tensor<4xf32>, tensor<3xf32>
  return
}

// -----

func.func @select_condition_does_not_broadcast(%c: tensor<3x1xi1>, %a: tensor<2x4xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{operand 'condition' of shape [3, 1] does not broadcast with the values' shape [2, 4]}}
  %0 = gopt.select %c, %a, %b : tensor<3x1xi1>, tensor<2x4xf32>, tensor<4xf32>
  return
}

// -----

func.func @clip_min_greater_than_max(%x: tensor<4xf32>) {
  // expected-error @+1 {{'gopt.clip' op min 6.000000e+00 is greater than max 1.000000e+00}}
  %0 = gopt.clip %x min = 6.0 max = 1.0 : tensor<4xf32>
  return
}

// -----

func.func @cast_shape_mismatch(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'gopt.cast' op result shape [3, 2] differs from input shape [2, 3]}}
  %0 = gopt.cast %x : tensor<2x3xf32> to tensor<3x2xi32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Reductions and normalizations
//===----------------------------------------------------------------------===//

func.func @reduce_axis_out_of_range(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{reduce axis 2 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.reduce sum %x axes = [2] : tensor<2x3xf32> -> tensor<2xf32>
  return
}

// -----

func.func @reduce_negative_axis_out_of_range(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{reduce axis -3 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.reduce max %x axes = [-3] : tensor<2x3xf32> -> tensor<2xf32>
  return
}

// -----

func.func @reduce_axis_repeated(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{reduce axis -1 is repeated}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.reduce mean %x axes = [1, -1] : tensor<2x3xf32> -> tensor<2xf32>
  return
}

// -----

func.func @reduce_no_axes(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{reduce needs at least one axis}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.reduce min %x axes = [] : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @softmax_axis_out_of_range(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'gopt.softmax' op axis 2 is out of range for rank 2}}
  %0 = gopt.softmax %x axis = 2 : tensor<2x3xf32>
  return
}

// -----

func.func @layer_norm_axis_out_of_range(%x: tensor<2x8xf32>, %s: tensor<8xf32>) {
  // expected-error @+1 {{layer_norm axis 2 is out of range for rank 2}}
  %0 = gopt.layer_norm %x, %s axes = [2] eps = 1.0e-5 : tensor<2x8xf32>, tensor<8xf32>
  return
}

// -----

func.func @layer_norm_axis_repeated(%x: tensor<2x8xf32>, %s: tensor<8xf32>) {
  // expected-error @+1 {{layer_norm axis 1 is repeated}}
  %0 = gopt.layer_norm %x, %s axes = [-1, 1] eps = 1.0e-5 : tensor<2x8xf32>, tensor<8xf32>
  return
}

// -----

func.func @layer_norm_no_axes(%x: tensor<2x8xf32>, %s: tensor<8xf32>) {
  // expected-error @+1 {{'gopt.layer_norm' op needs at least one normalized axis}}
  %0 = gopt.layer_norm %x, %s axes = [] eps = 1.0e-5 : tensor<2x8xf32>, tensor<8xf32>
  return
}

// -----

func.func @layer_norm_axes_not_trailing(%x: tensor<2x4x8xf32>, %s: tensor<4xf32>) {
  // expected-error @+1 {{'gopt.layer_norm' op axes must be the trailing dimensions of the input}}
  %0 = gopt.layer_norm %x, %s axes = [1] eps = 1.0e-5 : tensor<2x4x8xf32>, tensor<4xf32>
  return
}

// -----

func.func @layer_norm_axes_with_gap(%x: tensor<2x4x8xf32>, %s: tensor<2x8xf32>) {
  // expected-error @+1 {{'gopt.layer_norm' op axes must be the trailing dimensions of the input}}
  %0 = gopt.layer_norm %x, %s axes = [0, 2] eps = 1.0e-5 : tensor<2x4x8xf32>, tensor<2x8xf32>
  return
}

// -----

func.func @layer_norm_scale_element_type(%x: tensor<2x8xf32>, %s: tensor<8xf16>) {
  // expected-error @+1 {{'gopt.layer_norm' op operand 'scale' has element type 'f16', expected 'f32'}}
  %0 = gopt.layer_norm %x, %s axes = [1] eps = 1.0e-5 : tensor<2x8xf32>, tensor<8xf16>
  return
}

// -----

func.func @layer_norm_scale_shape(%x: tensor<2x4x8xf32>, %s: tensor<8xf32>) {
  // expected-error @+1 {{'gopt.layer_norm' op operand 'scale' has shape [8], expected the normalized shape [4, 8]}}
  %0 = gopt.layer_norm %x, %s axes = [1, 2] eps = 1.0e-5 : tensor<2x4x8xf32>, tensor<8xf32>
  return
}

// -----

func.func @layer_norm_bias_element_type(%x: tensor<2x8xf32>, %s: tensor<8xf32>, %b: tensor<8xbf16>) {
  // expected-error @+1 {{'gopt.layer_norm' op operand 'bias' has element type 'bf16', expected 'f32'}}
  %0 = gopt.layer_norm %x, %s, %b axes = [1] eps = 1.0e-5 : tensor<2x8xf32>, tensor<8xf32>, tensor<8xbf16>
  return
}

// -----

func.func @layer_norm_bias_shape(%x: tensor<2x8xf32>, %s: tensor<8xf32>, %b: tensor<1x8xf32>) {
  // expected-error @+1 {{'gopt.layer_norm' op operand 'bias' has shape [1, 8], expected the normalized shape [8]}}
  %0 = gopt.layer_norm %x, %s, %b axes = [1] eps = 1.0e-5 : tensor<2x8xf32>, tensor<8xf32>, tensor<1x8xf32>
  return
}

// -----

func.func @layer_norm_negative_eps(%x: tensor<2x8xf32>, %s: tensor<8xf32>) {
  // expected-error @+1 {{'gopt.layer_norm' op eps must be non-negative}}
  %0 = gopt.layer_norm %x, %s axes = [1] eps = -1.0e-5 : tensor<2x8xf32>, tensor<8xf32>
  return
}

// -----

func.func @layer_norm_result_type(%x: tensor<2x8xf32>, %s: tensor<8xf32>) {
  // expected-error @+1 {{failed to verify that all of {input, result} have same type}}
  %0 = "gopt.layer_norm"(%x, %s) {axes = array<i64: 1>, epsilon = 1.0e-5 : f64, operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf16>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

func.func @matmul_rank(%a: tensor<8xf32>, %b: tensor<8x4xf32>) {
  // expected-error @+2 {{operands 'lhs' and 'rhs' need rank >= 2, got 1 and 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.matmul %a, %b : tensor<8xf32>, tensor<8x4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @matmul_element_type(%a: tensor<2x8xf32>, %b: tensor<8x4xf16>) {
  // expected-error @+2 {{operand 'rhs' has element type 'f16' but 'lhs' has 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.matmul %a, %b : tensor<2x8xf32>, tensor<8x4xf16> -> tensor<2x4xf32>
  return
}

// -----

func.func @matmul_k_mismatch(%a: tensor<4x8xf32>, %b: tensor<7x16xf32>) {
  // expected-error @+2 {{contraction size mismatch: 'lhs' [4, 8] has K = 8 but 'rhs' [7, 16] has K = 7}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.matmul %a, %b : tensor<4x8xf32>, tensor<7x16xf32> -> tensor<4x16xf32>
  return
}

// -----

func.func @matmul_batch_mismatch(%a: tensor<3x4x8xf32>, %b: tensor<2x8x16xf32>) {
  // expected-error @+2 {{batch dimensions of 'lhs' [3, 4, 8] and 'rhs' [2, 8, 16] do not broadcast}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.matmul %a, %b : tensor<3x4x8xf32>, tensor<2x8x16xf32> -> tensor<3x4x16xf32>
  return
}

// -----

func.func @linear_input_rank(%x: tensor<8xf32>, %w: tensor<8x4xf32>) {
  // expected-error @+2 {{operand 'input' needs rank >= 2, got 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.linear %x, %w : tensor<8xf32>, tensor<8x4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @linear_weight_rank(%x: tensor<2x8xf32>, %w: tensor<1x8x4xf32>) {
  // expected-error @+2 {{operand 'weight' needs rank 2, got 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.linear %x, %w : tensor<2x8xf32>, tensor<1x8x4xf32> -> tensor<2x4xf32>
  return
}

// -----

func.func @linear_element_type(%x: tensor<2x8xf32>, %w: tensor<8x4xf64>) {
  // expected-error @+2 {{operand 'weight' has element type 'f64' but 'input' has 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.linear %x, %w : tensor<2x8xf32>, tensor<8x4xf64> -> tensor<2x4xf32>
  return
}

// -----

func.func @linear_k_mismatch(%x: tensor<2x8xf32>, %w: tensor<4x8xf32>) {
  // expected-error @+2 {{contraction size mismatch: 'input' [2, 8] has K = 8 but 'weight' [4, 8] has K = 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.linear %x, %w : tensor<2x8xf32>, tensor<4x8xf32> -> tensor<2x8xf32>
  return
}

// -----

func.func @linear_k_mismatch_transpose_weight(%x: tensor<2x8xf32>, %w: tensor<8x4xf32>) {
  // expected-error @+2 {{contraction size mismatch: 'input' [2, 8] has K = 8 but 'weight' [8, 4] has K = 4 (transpose_weight)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.linear %x, %w transpose_weight : tensor<2x8xf32>, tensor<8x4xf32> -> tensor<2x8xf32>
  return
}

// -----

func.func @linear_k_mismatch_transpose_input(%x: tensor<2x8xf32>, %w: tensor<8x4xf32>) {
  // expected-error @+2 {{contraction size mismatch: 'input' [2, 8] has K = 2 but 'weight' [8, 4] has K = 8}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.linear %x, %w transpose_input : tensor<2x8xf32>, tensor<8x4xf32> -> tensor<8x4xf32>
  return
}

// -----

func.func @linear_bias_element_type(%x: tensor<2x8xf32>, %w: tensor<8x4xf32>, %b: tensor<4xf16>) {
  // expected-error @+2 {{operand 'bias' has element type 'f16', expected 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.linear %x, %w, %b : tensor<2x8xf32>, tensor<8x4xf32>, tensor<4xf16> -> tensor<2x4xf32>
  return
}

// -----

func.func @linear_bias_shape(%x: tensor<2x8xf32>, %w: tensor<8x4xf32>, %b: tensor<8xf32>) {
  // expected-error @+2 {{operand 'bias' of shape [8] does not broadcast to the result shape [2, 4]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.linear %x, %w, %b : tensor<2x8xf32>, tensor<8x4xf32>, tensor<8xf32> -> tensor<2x4xf32>
  return
}

// -----

func.func @linear_bias_widens_result(%x: tensor<2x8xf32>, %w: tensor<8x4xf32>, %b: tensor<3x2x4xf32>) {
  // expected-error @+2 {{operand 'bias' of shape [3, 2, 4] does not broadcast to the result shape [2, 4]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.linear %x, %w, %b : tensor<2x8xf32>, tensor<8x4xf32>, tensor<3x2x4xf32> -> tensor<2x4xf32>
  return
}

// -----

func.func @conv2d_input_rank(%x: tensor<4x8x8xf32>, %w: tensor<8x4x3x3xf32>) {
  // expected-error @+2 {{operand 'input' must be NCHW (rank 4), got rank 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.conv2d %x, %w strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<4x8x8xf32>, tensor<8x4x3x3xf32> -> tensor<1x8x6x6xf32>
  return
}

// -----

func.func @conv2d_channels_last_input_rank(%x: tensor<8x8x4xf32>, %w: tensor<8x3x3x4xf32>) {
  // expected-error @+2 {{operand 'input' must be NHWC (rank 4), got rank 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.conv2d %x, %w strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 channels_last : tensor<8x8x4xf32>, tensor<8x3x3x4xf32> -> tensor<1x6x6x8xf32>
  return
}

// -----

// Channels last, the weight's channels are its last dim: an FCHW weight
// does not fit an NHWC input.
func.func @conv2d_channels_last_weight_layout(%x: tensor<1x8x8x4xf32>, %w: tensor<8x4x3x3xf32>) {
  // expected-error @+2 {{operand 'weight' has 3 channels per group, expected C/groups = 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.conv2d %x, %w strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 channels_last : tensor<1x8x8x4xf32>, tensor<8x4x3x3xf32> -> tensor<1x6x6x8xf32>
  return
}

// -----

// The result of a channels-last convolution is NHWC.
func.func @conv2d_channels_last_result(%x: tensor<1x8x8x4xf32>, %w: tensor<8x3x3x4xf32>) {
  // expected-error @+2 {{'gopt.conv2d' op inferred type(s) 'tensor<1x6x6x8xf32>' are incompatible with return type(s) of operation 'tensor<1x8x6x6xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.conv2d %x, %w strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 channels_last : tensor<1x8x8x4xf32>, tensor<8x3x3x4xf32> -> tensor<1x8x6x6xf32>
  return
}

// -----

func.func @global_avg_pool_channels_last_rank(%x: tensor<8x8x4xf32>) {
  // expected-error @+2 {{operand 'input' must be NHWC (rank 4), got rank 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.global_avg_pool %x channels_last : tensor<8x8x4xf32> -> tensor<1x1x4xf32>
  return
}

// -----

func.func @conv2d_weight_rank(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x3xf32>) {
  // expected-error @+2 {{operand 'weight' must be FCHW (rank 4), got rank 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.conv2d %x, %w strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x4x8x8xf32>, tensor<8x4x3xf32> -> tensor<1x8x6x6xf32>
  return
}

// -----

func.func @conv2d_element_type(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x3x3xf16>) {
  // expected-error @+2 {{operand 'weight' has element type 'f16' but 'input' has 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.conv2d %x, %w strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x4x8x8xf32>, tensor<8x4x3x3xf16> -> tensor<1x8x6x6xf32>
  return
}

// -----

func.func @conv2d_strides_length(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x3x3xf32>) {
  // expected-error @+2 {{strides must be 2 positive values, got [1]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.conv2d %x, %w strides = [1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32> -> tensor<1x8x6x6xf32>
  return
}

// -----

func.func @conv2d_zero_stride(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x3x3xf32>) {
  // expected-error @+2 {{strides must be 2 positive values, got [1, 0]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.conv2d %x, %w strides = [1, 0] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32> -> tensor<1x8x6x6xf32>
  return
}

// -----

func.func @conv2d_padding_length(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x3x3xf32>) {
  // expected-error @+2 {{padding must be 4 non-negative values [top, left, bottom, right], got [1, 1]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.conv2d %x, %w strides = [1, 1] padding = [1, 1] dilations = [1, 1] groups = 1 : tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32> -> tensor<1x8x8x8xf32>
  return
}

// -----

func.func @conv2d_negative_padding(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x3x3xf32>) {
  // expected-error @+2 {{padding must be 4 non-negative values [top, left, bottom, right], got [0, -1, 0, 0]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.conv2d %x, %w strides = [1, 1] padding = [0, -1, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32> -> tensor<1x8x6x5xf32>
  return
}

// -----

func.func @conv2d_dilations(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x3x3xf32>) {
  // expected-error @+2 {{dilations must be 2 positive values, got [0, 1]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.conv2d %x, %w strides = [1, 1] padding = [0, 0, 0, 0] dilations = [0, 1] groups = 1 : tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32> -> tensor<1x8x6x6xf32>
  return
}

// -----

func.func @conv2d_groups_zero(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x3x3xf32>) {
  // expected-error @+2 {{groups = 0 must be positive and divide input channels (4) and filters (8)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.conv2d %x, %w strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 0 : tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32> -> tensor<1x8x6x6xf32>
  return
}

// -----

func.func @conv2d_groups_negative(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x3x3xf32>) {
  // expected-error @+2 {{groups = -2 must be positive and divide input channels (4) and filters (8)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.conv2d %x, %w strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = -2 : tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32> -> tensor<1x8x6x6xf32>
  return
}

// -----

func.func @conv2d_groups_do_not_divide_channels(%x: tensor<1x4x8x8xf32>, %w: tensor<6x1x3x3xf32>) {
  // expected-error @+2 {{groups = 3 must be positive and divide input channels (4) and filters (6)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.conv2d %x, %w strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 3 : tensor<1x4x8x8xf32>, tensor<6x1x3x3xf32> -> tensor<1x6x6x6xf32>
  return
}

// -----

func.func @conv2d_groups_do_not_divide_filters(%x: tensor<1x4x8x8xf32>, %w: tensor<3x2x3x3xf32>) {
  // expected-error @+2 {{groups = 2 must be positive and divide input channels (4) and filters (3)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.conv2d %x, %w strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 2 : tensor<1x4x8x8xf32>, tensor<3x2x3x3xf32> -> tensor<1x3x6x6xf32>
  return
}

// -----

func.func @conv2d_weight_channels(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x3x3xf32>) {
  // expected-error @+2 {{operand 'weight' has 4 channels per group, expected C/groups = 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.conv2d %x, %w strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 2 : tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32> -> tensor<1x8x6x6xf32>
  return
}

// -----

func.func @conv2d_kernel_does_not_fit(%x: tensor<1x4x4x4xf32>, %w: tensor<8x4x3x3xf32>) {
  // expected-error @+2 {{the kernel does not fit the padded input}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.conv2d %x, %w strides = [1, 1] padding = [0, 0, 0, 0] dilations = [2, 1] groups = 1 : tensor<1x4x4x4xf32>, tensor<8x4x3x3xf32> -> tensor<1x8x1x2xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

func.func @pool2d_rank(%x: tensor<3x8x8xf32>) {
  // expected-error @+2 {{operand 'input' must be NCHW (rank 4), got rank 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.pool2d max %x kernel = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] : tensor<3x8x8xf32> -> tensor<3x4x4xf32>
  return
}

// -----

func.func @pool2d_kernel_length(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{kernel must be 2 positive values, got [2, 2, 2]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.pool2d max %x kernel = [2, 2, 2] strides = [2, 2] padding = [0, 0, 0, 0] : tensor<1x3x8x8xf32> -> tensor<1x3x4x4xf32>
  return
}

// -----

func.func @pool2d_kernel_zero(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{kernel must be 2 positive values, got [0, 2]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.pool2d avg %x kernel = [0, 2] strides = [2, 2] padding = [0, 0, 0, 0] : tensor<1x3x8x8xf32> -> tensor<1x3x4x4xf32>
  return
}

// -----

func.func @pool2d_strides(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{strides must be 2 positive values, got [2, -1]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.pool2d max %x kernel = [2, 2] strides = [2, -1] padding = [0, 0, 0, 0] : tensor<1x3x8x8xf32> -> tensor<1x3x4x4xf32>
  return
}

// -----

func.func @pool2d_padding_length(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{padding must be 4 non-negative values [top, left, bottom, right], got [0, 0, 0]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.pool2d max %x kernel = [2, 2] strides = [2, 2] padding = [0, 0, 0] : tensor<1x3x8x8xf32> -> tensor<1x3x4x4xf32>
  return
}

// -----

func.func @pool2d_padding_not_smaller_than_kernel(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{padding [0, 0, 0, 2] must be smaller than the kernel [2, 2]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.pool2d avg %x kernel = [2, 2] strides = [2, 2] padding = [0, 0, 0, 2] count_include_pad : tensor<1x3x8x8xf32> -> tensor<1x3x4x5xf32>
  return
}

// -----

func.func @pool2d_kernel_does_not_fit(%x: tensor<1x3x2x8xf32>) {
  // expected-error @+2 {{the kernel does not fit the padded input}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.pool2d max %x kernel = [3, 3] strides = [1, 1] padding = [0, 0, 0, 0] : tensor<1x3x2x8xf32> -> tensor<1x3x1x6xf32>
  return
}

// -----

func.func @global_avg_pool_rank(%x: tensor<3x8x8xf32>) {
  // expected-error @+2 {{operand 'input' must be NCHW (rank 4), got rank 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.global_avg_pool %x : tensor<3x8x8xf32> -> tensor<3x1x1xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

func.func @transpose_perm_length(%x: tensor<2x3x4xf32>) {
  // expected-error @+2 {{perm [1, 0] has 2 entries, expected the input rank 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.transpose %x perm = [1, 0] : tensor<2x3x4xf32> -> tensor<3x2x4xf32>
  return
}

// -----

func.func @transpose_perm_repeated(%x: tensor<2x3x4xf32>) {
  // expected-error @+2 {{perm [0, 1, 1] is not a permutation of [0, 3)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.transpose %x perm = [0, 1, 1] : tensor<2x3x4xf32> -> tensor<2x3x3xf32>
  return
}

// -----

func.func @transpose_perm_out_of_range(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{perm [-1, 0] is not a permutation of [0, 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.transpose %x perm = [-1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  return
}

// -----

func.func @reshape_element_count(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'gopt.reshape' op result shape [4, 2] has 8 elements, but input shape [2, 3] has 6}}
  %0 = gopt.reshape %x : tensor<2x3xf32> -> tensor<4x2xf32>
  return
}

// -----

func.func @reshape_element_type(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'gopt.reshape' op result element type 'i32' differs from input element type 'f32'}}
  %0 = gopt.reshape %x : tensor<2x3xf32> -> tensor<6xi32>
  return
}

// -----

func.func @broadcast_to_element_type(%x: tensor<3xf32>) {
  // expected-error @+1 {{'gopt.broadcast_to' op result element type 'f16' differs from input element type 'f32'}}
  %0 = gopt.broadcast_to %x : tensor<3xf32> -> tensor<2x3xf16>
  return
}

// -----

func.func @broadcast_to_incompatible(%x: tensor<3xf32>) {
  // expected-error @+1 {{'gopt.broadcast_to' op input shape [3] does not broadcast to result shape [2, 4]}}
  %0 = gopt.broadcast_to %x : tensor<3xf32> -> tensor<2x4xf32>
  return
}

// -----

func.func @broadcast_to_shrinks(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'gopt.broadcast_to' op input shape [2, 3] does not broadcast to result shape [3]}}
  %0 = gopt.broadcast_to %x : tensor<2x3xf32> -> tensor<3xf32>
  return
}

// -----

func.func @broadcast_to_drops_dim(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'gopt.broadcast_to' op input shape [4, 3] does not broadcast to result shape [1, 3]}}
  %0 = gopt.broadcast_to %x : tensor<4x3xf32> -> tensor<1x3xf32>
  return
}

// -----

func.func @concat_no_inputs() {
  // expected-error @+2 {{concat needs at least one input}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = "gopt.concat"() {axis = 0 : i64} : () -> tensor<0xf32>
  return
}

// -----

func.func @concat_axis_out_of_range(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{axis 2 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.concat %a, %a axis = 2 : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x6xf32>
  return
}

// -----

func.func @concat_element_type(%a: tensor<2x3xf32>, %b: tensor<2x3xi32>) {
  // expected-error @+2 {{input #1 has type 'tensor<2x3xi32>', expected rank 2 and 'f32' elements}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.concat %a, %b axis = 0 : tensor<2x3xf32>, tensor<2x3xi32> -> tensor<4x3xf32>
  return
}

// -----

func.func @concat_rank(%a: tensor<2x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+2 {{input #1 has type 'tensor<3xf32>', expected rank 2 and 'f32' elements}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.concat %a, %b axis = 0 : tensor<2x3xf32>, tensor<3xf32> -> tensor<3x3xf32>
  return
}

// -----

func.func @concat_shape_outside_axis(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) {
  // expected-error @+2 {{input #1 has shape [2, 4], expected [2, 3] outside axis 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.concat %a, %b axis = 0 : tensor<2x3xf32>, tensor<2x4xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @slice_entry_count(%x: tensor<4x4xf32>) {
  // expected-error @+2 {{starts, ends and steps need one entry per dimension (2), got 2, 1 and 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.slice %x starts = [0, 0] ends = [2] steps = [1, 1] : tensor<4x4xf32> -> tensor<2x4xf32>
  return
}

// -----

func.func @slice_non_positive_step(%x: tensor<4x4xf32>) {
  // expected-error @+2 {{step -1 of dimension 1 must be positive}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.slice %x starts = [0, 3] ends = [4, 0] steps = [1, -1] : tensor<4x4xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @split_axis_out_of_range(%x: tensor<4x4xf32>) {
  // expected-error @+2 {{axis 2 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = gopt.split %x axis = 2 sizes = [2, 2] : tensor<4x4xf32> -> tensor<2x4xf32>, tensor<2x4xf32>
  return
}

// -----

func.func @split_negative_size(%x: tensor<4x4xf32>) {
  // expected-error @+2 {{split sizes must be non-negative, got [6, -2]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = gopt.split %x axis = 0 sizes = [6, -2] : tensor<4x4xf32> -> tensor<4x4xf32>, tensor<0x4xf32>
  return
}

// -----

func.func @split_sizes_do_not_add_up(%x: tensor<4x4xf32>) {
  // expected-error @+2 {{split sizes [1, 2] must add up to dimension 1 (4)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = gopt.split %x axis = 1 sizes = [1, 2] : tensor<4x4xf32> -> tensor<4x1xf32>, tensor<4x2xf32>
  return
}

// -----

func.func @split_no_sizes(%x: tensor<4x4xf32>) {
  // expected-error @+2 {{split sizes [] must add up to dimension 0 (4)}}
  // expected-error @+1 {{failed to infer returned types}}
  "gopt.split"(%x) {axis = 0 : i64, sizes = array<i64>} : (tensor<4x4xf32>) -> ()
  return
}

// -----

func.func @split_result_count(%x: tensor<4x4xf32>) {
  // expected-error @+2 {{inferred type(s) 'tensor<2x4xf32>', 'tensor<2x4xf32>' are incompatible with return type(s) of operation 'tensor<2x4xf32>', 'tensor<2x4xf32>', 'tensor<0x4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:3 = gopt.split %x axis = 0 sizes = [2, 2] : tensor<4x4xf32> -> tensor<2x4xf32>, tensor<2x4xf32>, tensor<0x4xf32>
  return
}

// -----

func.func @gather_elements_rank(%x: tensor<4x4xf32>, %i: tensor<2xi32>) {
  // expected-error @+2 {{indices of rank 1 for an input of rank 2: they must have one rank}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.gather_elements %x[%i] axis = 0 : tensor<4x4xf32>, tensor<2xi32> -> tensor<2xf32>
  return
}

// -----

func.func @gather_elements_wider(%x: tensor<4x4xf32>, %i: tensor<2x5xi32>) {
  // expected-error @+2 {{indices of shape [2, 5] exceed the input's [4, 4] on dim 1, which is not the axis}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.gather_elements %x[%i] axis = 0 : tensor<4x4xf32>, tensor<2x5xi32> -> tensor<2x5xf32>
  return
}

// -----

func.func @gather_axis_out_of_range(%x: tensor<4x4xf32>, %i: tensor<2xi32>) {
  // expected-error @+2 {{axis 2 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.gather %x[%i] axis = 2 : tensor<4x4xf32>, tensor<2xi32> -> tensor<4x4x2xf32>
  return
}

// -----

func.func @pad_entry_count(%x: tensor<4x4xf32>) {
  // expected-error @+2 {{low and high need one entry per dimension (2), got 2 and 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.pad %x low = [1, 1] high = [1, 1, 1] value = 0.0 : tensor<4x4xf32> -> tensor<6x6xf32>
  return
}

// -----

func.func @pad_negative(%x: tensor<4x4xf32>) {
  // expected-error @+2 {{padding must be non-negative, got low = [0, -1], high = [1, 1]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.pad %x low = [0, -1] high = [1, 1] value = 0.0 : tensor<4x4xf32> -> tensor<5x4xf32>
  return
}

// -----

func.func @resize_entry_count(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{'gopt.resize' op scale and offset need one entry per dimension (2), got 2 and 1}}
  %0 = gopt.resize linear %x scale = [1.0, 0.5] offset = [0.0] : tensor<4x4xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @resize_rank(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{'gopt.resize' op result rank 3 differs from the input's 2}}
  %0 = gopt.resize linear %x scale = [1.0, 0.5] offset = [0.0, 0.0] : tensor<4x4xf32> -> tensor<1x4x8xf32>
  return
}

// -----

func.func @resize_element_type(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{'gopt.resize' op result element type 'f16' differs from the input's 'f32'}}
  %0 = gopt.resize linear %x scale = [1.0, 0.5] offset = [0.0, 0.0] : tensor<4x4xf32> -> tensor<4x8xf16>
  return
}

// -----

func.func @resize_linear_integer(%x: tensor<4x4xi32>) {
  // expected-error @+1 {{'gopt.resize' op linear interpolation needs a float element type, got 'i32'}}
  %0 = gopt.resize linear %x scale = [1.0, 0.5] offset = [0.0, 0.0] : tensor<4x4xi32> -> tensor<4x8xi32>
  return
}

// -----

func.func @resize_not_finite(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{'gopt.resize' op scale and offset must be finite, got INF and 0.000000e+00 on dim 1}}
  %0 = gopt.resize linear %x scale = [1.0, 0x7FF0000000000000] offset = [0.0, 0.0] : tensor<4x4xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @resize_empty_input(%x: tensor<4x0xf32>) {
  // expected-error @+1 {{'gopt.resize' op dim 1 is empty in the input and has 8 elements in the result}}
  %0 = gopt.resize nearest_floor %x scale = [1.0, 0.5] offset = [0.0, 0.0] : tensor<4x0xf32> -> tensor<4x8xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Fusion groups
//===----------------------------------------------------------------------===//

func.func @fusion_argument_count(%x: tensor<4xf32>, %y: tensor<4xf32>) {
  // expected-error @+1 {{'gopt.fusion' op body has 1 arguments, expected one per input (2)}}
  %0 = gopt.fusion(%x, %y : tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    gopt.yield %a : tensor<4xf32>
  }
  return
}

// -----

func.func @fusion_argument_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'gopt.fusion' op body argument #0 has type 'tensor<4xf16>', expected the type of input #0 'tensor<4xf32>'}}
  %0 = gopt.fusion(%x : tensor<4xf32>) -> tensor<4xf16> {
  ^bb0(%a: tensor<4xf16>):
    gopt.yield %a : tensor<4xf16>
  }
  return
}

// -----

func.func @fusion_yield_count(%x: tensor<4xf32>) {
  // expected-error @+1 {{'gopt.fusion' op yields 2 values, expected one per result (1)}}
  %0 = gopt.fusion(%x : tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    gopt.yield %a, %a : tensor<4xf32>, tensor<4xf32>
  }
  return
}

// -----

func.func @fusion_yield_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'gopt.fusion' op yielded value #1 has type 'tensor<4xf32>', expected result type 'tensor<4xi1>'}}
  %0:2 = gopt.fusion(%x : tensor<4xf32>) -> tensor<4xf32>, tensor<4xi1> {
  ^bb0(%a: tensor<4xf32>):
    %e = gopt.exp %a : tensor<4xf32>
    gopt.yield %a, %e : tensor<4xf32>, tensor<4xf32>
  }
  return
}

// -----

func.func @fusion_wrong_terminator(%x: tensor<4xf32>) {
  // expected-error @+1 {{'gopt.fusion' op body must end with gopt.yield}}
  %0 = gopt.fusion(%x : tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    func.return %a : tensor<4xf32>
  }
  return
}

// -----

func.func @fusion_empty_body(%x: tensor<4xf32>) {
  // expected-error @+1 {{'gopt.fusion' op expects a non-empty block}}
  %0 = gopt.fusion(%x : tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
  }
  return
}

// -----

func.func @fusion_not_isolated(%x: tensor<4xf32>) {
  // expected-note @+1 {{required by region isolation constraints}}
  %0 = gopt.fusion(%x : tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    // expected-error @+1 {{'gopt.yield' op using value defined outside the region}}
    gopt.yield %x : tensor<4xf32>
  }
  return
}

// -----

func.func @fusion_dynamic_input(%x: tensor<?xf32>) {
  // expected-error @+1 {{operand #0 must be variadic of statically shaped tensor of}}
  %0 = gopt.fusion(%x : tensor<?xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<?xf32>):
    %c = gopt.constant dense<0.0> : tensor<4xf32>
    gopt.yield %c : tensor<4xf32>
  }
  return
}

// -----

func.func @yield_outside_fusion(%x: tensor<4xf32>) {
  // expected-error @+1 {{'gopt.yield' op expects parent op 'gopt.fusion'}}
  gopt.yield %x : tensor<4xf32>
}
