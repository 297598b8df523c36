// RUN: gopt-opt %s -split-input-file --gopt-fold | FileCheck %s

// gopt-fold's ReuseConcatPrefix: a concat whose leading inputs an earlier
// concat (same axis, same block) joined reads that concat instead. A
// DenseNet block: each layer concatenates every earlier feature map, and
// each concat then joins the previous concat and one new map.
// CHECK-LABEL: func.func @dense_block
// CHECK-SAME: (%[[X0:[^:]+]]: tensor<1x2x4x4xf32>, %[[X1:[^:]+]]: tensor<1x3x4x4xf32>, %[[X2:[^:]+]]: tensor<1x1x4x4xf32>, %[[X3:[^:]+]]: tensor<1x2x4x4xf32>)
// CHECK: %[[A:.*]] = gopt.concat %[[X0]], %[[X1]] axis = 1
// CHECK: %[[B:.*]] = gopt.concat %[[A]], %[[X2]] axis = 1 : tensor<1x5x4x4xf32>, tensor<1x1x4x4xf32> -> tensor<1x6x4x4xf32>
// CHECK: %[[C:.*]] = gopt.concat %[[B]], %[[X3]] axis = 1 : tensor<1x6x4x4xf32>, tensor<1x2x4x4xf32> -> tensor<1x8x4x4xf32>
// CHECK: return %[[A]], %[[B]], %[[C]]
func.func @dense_block(%x0: tensor<1x2x4x4xf32>, %x1: tensor<1x3x4x4xf32>,
                       %x2: tensor<1x1x4x4xf32>, %x3: tensor<1x2x4x4xf32>)
    -> (tensor<1x5x4x4xf32>, tensor<1x6x4x4xf32>, tensor<1x8x4x4xf32>) {
  %a = gopt.concat %x0, %x1 axis = 1 : tensor<1x2x4x4xf32>, tensor<1x3x4x4xf32> -> tensor<1x5x4x4xf32>
  %b = gopt.concat %x0, %x1, %x2 axis = 1 : tensor<1x2x4x4xf32>, tensor<1x3x4x4xf32>, tensor<1x1x4x4xf32> -> tensor<1x6x4x4xf32>
  %c = gopt.concat %x0, %x1, %x2, %x3 axis = 1 : tensor<1x2x4x4xf32>, tensor<1x3x4x4xf32>, tensor<1x1x4x4xf32>, tensor<1x2x4x4xf32> -> tensor<1x8x4x4xf32>
  return %a, %b, %c : tensor<1x5x4x4xf32>, tensor<1x6x4x4xf32>, tensor<1x8x4x4xf32>
}

// -----

// The longest prefix is reused: with concats of two and of three inputs
// before it, a concat of four reads the one of three.
// CHECK-LABEL: func.func @longest_prefix
// CHECK: %[[A:.*]] = gopt.concat %arg0, %arg1 axis = 0
// CHECK: %[[B:.*]] = gopt.concat %[[A]], %arg2 axis = 0
// CHECK: %[[C:.*]] = gopt.concat %[[B]], %arg3 axis = 0 : tensor<6xf32>, tensor<4xf32> -> tensor<10xf32>
func.func @longest_prefix(%x0: tensor<1xf32>, %x1: tensor<2xf32>,
                          %x2: tensor<3xf32>, %x3: tensor<4xf32>)
    -> (tensor<3xf32>, tensor<6xf32>, tensor<10xf32>) {
  %a = gopt.concat %x0, %x1 axis = 0 : tensor<1xf32>, tensor<2xf32> -> tensor<3xf32>
  %b = gopt.concat %x0, %x1, %x2 axis = 0 : tensor<1xf32>, tensor<2xf32>, tensor<3xf32> -> tensor<6xf32>
  %c = gopt.concat %x0, %x1, %x2, %x3 axis = 0 : tensor<1xf32>, tensor<2xf32>, tensor<3xf32>, tensor<4xf32> -> tensor<10xf32>
  return %a, %b, %c : tensor<3xf32>, tensor<6xf32>, tensor<10xf32>
}

// -----

// Not reused: a concat along another axis, one that joins the inputs in
// another order, one that joins a part that is not a prefix, and one that
// comes after (it does not dominate).
// CHECK-LABEL: func.func @not_a_prefix
// CHECK: gopt.concat %arg0, %arg1 axis = 0
// CHECK: gopt.concat %arg1, %arg0 axis = 1
// CHECK: gopt.concat %arg1, %arg2 axis = 1
// CHECK: gopt.concat %arg0, %arg1, %arg2 axis = 1
// CHECK: gopt.concat %arg0, %arg1 axis = 1
func.func @not_a_prefix(%x0: tensor<2x2xf32>, %x1: tensor<2x2xf32>,
                        %x2: tensor<2x2xf32>)
    -> (tensor<4x2xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x6xf32>,
        tensor<2x4xf32>) {
  %rows = gopt.concat %x0, %x1 axis = 0 : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<4x2xf32>
  %swapped = gopt.concat %x1, %x0 axis = 1 : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<2x4xf32>
  %tail = gopt.concat %x1, %x2 axis = 1 : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<2x4xf32>
  %all = gopt.concat %x0, %x1, %x2 axis = 1 : tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32> -> tensor<2x6xf32>
  %later = gopt.concat %x0, %x1 axis = 1 : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<2x4xf32>
  return %rows, %swapped, %tail, %all, %later
      : tensor<4x2xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x6xf32>,
        tensor<2x4xf32>
}
