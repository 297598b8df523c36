// RUN: gopt-opt %s -verify-each --gopt-optimize --gopt-lower-to-nvvm=format=isa | grep -o "gpu.binary @[a-z0-9_]*" | FileCheck %s --implicit-check-not=gpu.binary
// RUN: gopt-opt %s --gopt-optimize | FileCheck %s --check-prefix=FUSED
// RUN: gopt-opt %s --gopt-optimize --gopt-lower-to-nvvm=format=isa | FileCheck %s --check-prefix=CALLS

// gopt-optimize makes the attention chain one kernel (gopt-fuse's
// `attention`); the GPU has no attention kernel, so gopt-lower-to-nvvm
// splits it first (gopt-split-attention-kernels) into kernels a GEMM
// library takes: the scores (a cuBLAS call alone, its scaling by 0.125 the
// GEMM's alpha), the mask addition and the softmax (one launch), and P·V
// (a cuBLAS call alone, alpha 1).

// FUSED: gopt.fusion
// FUSED: gopt.softmax
// FUSED: gopt.matmul
// FUSED-NEXT: gopt.yield
// FUSED-NOT: gopt.fusion

// CALLS-DAG: %[[EIGHTH:.*]] = llvm.mlir.constant(1.250000e-01 : f32) : f32
// CALLS-DAG: %[[ONE:.*]] = llvm.mlir.constant(1.000000e+00 : f32) : f32
// CALLS-NOT: gpu.launch_func
// CALLS: llvm.call @gopt_cuda_sgemm_async(%{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %[[EIGHTH]],
// CALLS: gpu.launch_func <%{{.*}}> @main_k{{[0-9]+}}_add_softmax_kernel
// CALLS: llvm.call @gopt_cuda_sgemm_async(%{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %[[ONE]],

// One binary, the softmax's: the entry's copy of the result P·V's GEMM
// wrote folds away (the entry owns it), and its module with it
// (gopt-gpu-drop-unlaunched-modules).
// CHECK: gpu.binary @main_k{{[0-9]+}}_add_softmax_kernel
func.func @main(%q4: tensor<1x64x4x32xf32>, %k4: tensor<1x64x4x32xf32>,
                %v4: tensor<1x64x4x32xf32>, %mask: tensor<1x1x1x64xf32>)
    -> tensor<1x4x64x32xf32> {
  %c = gopt.constant dense<0.125> : tensor<1xf32>
  %qh = gopt.transpose %q4 perm = [0, 2, 1, 3] : tensor<1x64x4x32xf32> -> tensor<1x4x64x32xf32>
  %kt = gopt.transpose %k4 perm = [0, 2, 3, 1] : tensor<1x64x4x32xf32> -> tensor<1x4x32x64xf32>
  %vh = gopt.transpose %v4 perm = [0, 2, 1, 3] : tensor<1x64x4x32xf32> -> tensor<1x4x64x32xf32>
  %s = gopt.matmul %qh, %kt : tensor<1x4x64x32xf32>, tensor<1x4x32x64xf32> -> tensor<1x4x64x64xf32>
  %t = gopt.mul %s, %c : tensor<1x4x64x64xf32>, tensor<1xf32> -> tensor<1x4x64x64xf32>
  %u = gopt.add %t, %mask : tensor<1x4x64x64xf32>, tensor<1x1x1x64xf32> -> tensor<1x4x64x64xf32>
  %p = gopt.softmax %u axis = 3 : tensor<1x4x64x64xf32>
  %o = gopt.matmul %p, %vh : tensor<1x4x64x64xf32>, tensor<1x4x64x32xf32> -> tensor<1x4x64x32xf32>
  return %o : tensor<1x4x64x32xf32>
}
