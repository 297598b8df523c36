// Diagnostics found in review: signed axes, the conv2d bias type, fusion
// bodies, clip and pad values.
// RUN: gopt-opt %s -split-input-file -verify-diagnostics

func.func @softmax_negative_axis(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{axis -3 is out of range for rank 2}}
  %0 = gopt.softmax %x axis = -3 : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @concat_negative_axis(%x: tensor<2xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{axis -2 is out of range for rank 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.concat %x, %x axis = -2 : tensor<2xf32>, tensor<2xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @conv_bias(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x8x6x6xf32> {
  // expected-error @+2 {{operand 'bias' has type 'tensor<4xf32>', expected 'tensor<8xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = gopt.conv2d %x, %w, %b strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>, tensor<4xf32> -> tensor<1x8x6x6xf32>
  return %0 : tensor<1x8x6x6xf32>
}

// -----

func.func @fusion_without_results(%x: tensor<4xf32>) {
  // expected-error @+1 {{must expose at least one value}}
  "gopt.fusion"(%x) ({
  ^bb0(%a: tensor<4xf32>):
    "gopt.yield"() : () -> ()
  }) : (tensor<4xf32>) -> ()
  return
}

// -----

func.func @fusion_without_terminator(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{body must end with gopt.yield}}
  %0 = "gopt.fusion"(%x) ({
  ^bb0(%a: tensor<4xf32>):
    %e = gopt.exp %a : tensor<4xf32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @clip_nan(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{min and max must not be NaN}}
  %0 = gopt.clip %x min = 0x7FF8000000000000 max = 1.0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @pad_nan_on_integers(%x: tensor<2xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{pad value nan is not representable in 'i32'}}
  %0 = gopt.pad %x low = [1] high = [1] value = 0x7FF8000000000000 : tensor<2xi32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @pad_fraction_on_integers(%x: tensor<2xi8>) -> tensor<4xi8> {
  // expected-error @+1 {{pad value 1.500000e+00 is not representable in 'i8'}}
  %0 = gopt.pad %x low = [1] high = [1] value = 1.5 : tensor<2xi8> -> tensor<4xi8>
  return %0 : tensor<4xi8>
}
