// Kernels that return intermediates of their loop nest (found by
// gopt-difftest, seeds 60 and 80 at 40 ops): the loops yield those values,
// and every other user moves after the loops.
// RUN: gopt-opt %s -split-input-file -verify-each --gopt-outline-kernels --convert-gopt-to-linalg --gopt-fuse-kernel-loops | FileCheck %s
// RUN: gopt-run %s --entry=pool_mul --reps=0 --output-dir=%t.pool
// RUN: gopt-run %s --entry=pool_mul --reps=0 --lowering-options=vectorize=false --inputs=%t.pool/input0.npy,%t.pool/input1.npy --expect=%t.pool/result0.npy,%t.pool/result1.npy
// RUN: gopt-run %s --entry=chain --reps=0 --output-dir=%t.chain
// RUN: gopt-run %s --entry=chain --reps=0 --lowering-options=vectorize=false --inputs=%t.chain/input0.npy,%t.chain/input1.npy,%t.chain/input2.npy,%t.chain/input3.npy --expect=%t.chain/result0.npy,%t.chain/result1.npy,%t.chain/result2.npy

// A reduction with keepdims is returned through a reshape that came before
// the loop nest in program order: the reshape now follows the loops.
// CHECK-LABEL: func.func private @pool_mul_k0_global_avg_pool_mul
// CHECK: %[[LOOP:.*]]:2 = scf.for
// CHECK: %[[R:.*]] = tensor.expand_shape %[[LOOP]]#1
// CHECK: return %[[R]], %[[LOOP]]#0
func.func @pool_mul(%a: tensor<5x4x3x5xf32>, %b: tensor<4x5xf32>) -> (tensor<5x4x1x1xf32>, tensor<5x4x4x5xf32>) {
  %0:2 = gopt.fusion(%a, %b : tensor<5x4x3x5xf32>, tensor<4x5xf32>) -> tensor<5x4x1x1xf32>, tensor<5x4x4x5xf32> {
  ^bb0(%x: tensor<5x4x3x5xf32>, %y: tensor<4x5xf32>):
    %p = gopt.global_avg_pool %x : tensor<5x4x3x5xf32> -> tensor<5x4x1x1xf32>
    %m = gopt.mul %p, %y : tensor<5x4x1x1xf32>, tensor<4x5xf32> -> tensor<5x4x4x5xf32>
    gopt.yield %p, %m : tensor<5x4x1x1xf32>, tensor<5x4x4x5xf32>
  }
  return %0#0, %0#1 : tensor<5x4x1x1xf32>, tensor<5x4x4x5xf32>
}

// -----

// Two returned producers in a chain (select, then a max-reduction of it)
// under a compare: the original ops are dead once the loops yield their
// values, and nothing is left using them.
// CHECK-LABEL: func.func private @chain_k0_select_reduce_compare
// CHECK-NOT: linalg.generic
// CHECK: %[[LOOP:.*]]:3 = scf.for
// CHECK: return %[[LOOP]]#2, %[[LOOP]]#1, %[[LOOP]]#0
func.func @chain(%c: tensor<8x3x2x2xi1>, %x: tensor<8x3x2x2xf32>, %y: tensor<2xf32>, %z: tensor<8x3x1x2xf32>) -> (tensor<8x3x2x2xf32>, tensor<3x2xf32>, tensor<8x3x3x2xi1>) {
  %0:3 = gopt.fusion(%c, %x, %y, %z : tensor<8x3x2x2xi1>, tensor<8x3x2x2xf32>, tensor<2xf32>, tensor<8x3x1x2xf32>) -> tensor<8x3x2x2xf32>, tensor<3x2xf32>, tensor<8x3x3x2xi1> {
  ^bb0(%a0: tensor<8x3x2x2xi1>, %a1: tensor<8x3x2x2xf32>, %a2: tensor<2xf32>, %a3: tensor<8x3x1x2xf32>):
    %s = gopt.select %a0, %a1, %a2 : tensor<8x3x2x2xi1>, tensor<8x3x2x2xf32>, tensor<2xf32>
    %r = gopt.reduce max %s axes = [0, 2] : tensor<8x3x2x2xf32> -> tensor<3x2xf32>
    %k = gopt.compare ne, %r, %a3 : tensor<3x2xf32>, tensor<8x3x1x2xf32>
    gopt.yield %s, %r, %k : tensor<8x3x2x2xf32>, tensor<3x2xf32>, tensor<8x3x3x2xi1>
  }
  return %0#0, %0#1, %0#2 : tensor<8x3x2x2xf32>, tensor<3x2xf32>, tensor<8x3x3x2xi1>
}
