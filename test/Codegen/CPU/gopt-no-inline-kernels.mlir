// RUN: gopt-opt %s -verify-each --gopt-no-inline-kernels | FileCheck %s
// RUN: gopt-opt %s --gopt-no-inline-kernels | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=IR

// Kernels (gopt.kernel) get no_inline; other functions are left alone.
// CHECK-LABEL: llvm.func @main(
// CHECK-NOT: no_inline
// CHECK: llvm.func @main_k0_exp(
// CHECK-SAME: no_inline
// IR: define void @main_k0_exp({{.*}}) #[[ATTRS:[0-9]+]]
// IR: attributes #[[ATTRS]] = { noinline }
llvm.func @main() {
  llvm.call @main_k0_exp() : () -> ()
  llvm.return
}
llvm.func @main_k0_exp() attributes {gopt.kernel = 0 : i64} {
  llvm.return
}
