// RUN: gopt-opt %s --gopt-lower-to-nvvm=format=isa | FileCheck %s
// RUN: gopt-opt %s --gopt-lower-to-nvvm=format=isa | grep -o "gpu.binary @[a-z0-9_]*" | FileCheck %s --check-prefix=BINARIES --implicit-check-not=gpu.binary
// RUN: gopt-opt %s --gopt-lower-to-nvvm="format=isa dedup-kernels=false" | grep -o "gpu.binary @[a-z0-9_]*" | FileCheck %s --check-prefix=APART --implicit-check-not=gpu.binary

// Four kernels of two kinds (exp, tanh, exp, tanh on the same shape): two
// device binaries, each launched from two sites in program order. (The
// entry's copy of its result folds away once the kernels are inlined: its
// module is dropped, gopt-gpu-drop-unlaunched-modules.)
// CHECK-LABEL: llvm.func @chain(
// CHECK: gpu.launch_func <{{.*}}> @[[EXP:[a-z0-9_]+]]::@
// CHECK: gpu.launch_func <{{.*}}> @[[TANH:[a-z0-9_]+]]::@
// CHECK: gpu.launch_func <{{.*}}> @[[EXP]]::@
// CHECK: gpu.launch_func <{{.*}}> @[[TANH]]::@
// BINARIES: gpu.binary @chain_k0_exp_kernel
// BINARIES: gpu.binary @chain_k1_tanh_kernel

// Kernel by kernel: a binary each.
// APART: gpu.binary @chain_k0_exp_kernel
// APART: gpu.binary @chain_k1_tanh_kernel
// APART: gpu.binary @chain_k2_exp_kernel
// APART: gpu.binary @chain_k3_tanh_kernel
func.func @chain(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %a = gopt.exp %x : tensor<64x64xf32>
  %b = gopt.tanh %a : tensor<64x64xf32>
  %c = gopt.exp %b : tensor<64x64xf32>
  %d = gopt.tanh %c : tensor<64x64xf32>
  return %d : tensor<64x64xf32>
}
