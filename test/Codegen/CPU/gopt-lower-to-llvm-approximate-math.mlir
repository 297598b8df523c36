// gopt-lower-to-llvm computes gelu's erf with a vector polynomial by default;
// approximate-math=false keeps the libm call. The kernel is its own function
// (@main_k0_gelu), so the checks look inside it, and no erff may appear
// anywhere in the approximated output.
// RUN: gopt-opt %s --gopt-lower-to-llvm | FileCheck %s --implicit-check-not=erff
// RUN: gopt-opt %s --gopt-lower-to-llvm="approximate-math=false" | FileCheck %s --check-prefix=LIBM

// CHECK-LABEL: llvm.func @main(
// CHECK-LABEL: llvm.func @main_k0_gelu(
// CHECK: llvm.intr.fma{{.*}}vector<
// CHECK: llvm.return

// LIBM-LABEL: llvm.func @main_k0_gelu(
// LIBM: llvm.call @erff
// LIBM: llvm.return
func.func @main(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %g = gopt.gelu %x : tensor<4x64xf32>
  return %g : tensor<4x64xf32>
}
