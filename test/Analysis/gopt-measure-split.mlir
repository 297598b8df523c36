// Several pass managers (one per -split-input-file chunk) write one record,
// in order: chunk by chunk, pass by pass.
// RUN: gopt-opt %s -split-input-file --gopt-fold --gopt-dce --gopt-measure -o /dev/null 2>&1 | FileCheck %s
// CHECK:      (baseline) - 3 0 3 32 B
// CHECK-NEXT: 0 gopt-fold {{[0-9.]+}} 2 -1 2 32 B yes
// CHECK-NEXT: 1 gopt-dce {{[0-9.]+}} 1 -1 1 16 B yes
// CHECK-NEXT: 2 gopt-fold {{[0-9.]+}} 1 0 1 16 B no
// CHECK-NEXT: 3 gopt-dce {{[0-9.]+}} 1 0 1 16 B no

func.func @first(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = gopt.exp %x : tensor<4xf32>
  %1 = gopt.neg %0 : tensor<4xf32>
  %2 = gopt.neg %1 : tensor<4xf32>
  return %2 : tensor<4xf32>
}

// -----

func.func @second(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = gopt.tanh %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
