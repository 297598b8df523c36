// gopt-lower-to-llvm computes gelu's erf with a vector polynomial by default;
// approximate-math=false keeps the libm call.
// RUN: gopt-opt %s --gopt-lower-to-llvm | FileCheck %s
// RUN: gopt-opt %s --gopt-lower-to-llvm="approximate-math=false" | FileCheck %s --check-prefix=LIBM

// CHECK-NOT: llvm.call @erff
// CHECK-LABEL: llvm.func @main
// LIBM: llvm.call @erff
func.func @main(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %g = gopt.gelu %x : tensor<4x64xf32>
  return %g : tensor<4x64xf32>
}
