// RUN: gopt-opt %s --gopt-lower-to-nvvm=emulate | FileCheck %s
// RUN: gopt-opt %s --gopt-optimize --gopt-lower-to-nvvm="emulate emulate-check-bounds=false cublaslt-epilogues" | FileCheck %s --check-prefix=NOCHECK
// RUN: gopt-opt %s --gopt-lower-to-nvvm=emulate --mlir-print-ir-after=gopt-gpu-emulate-launches -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOOPS

// gopt-lower-to-nvvm{emulate}: the GPU pipeline's kernels as host code for
// the CPU runner (docs/GPU.md, "Checking without a GPU"): no device
// module, no launch, no CUDA runtime call; the GEMM is the CPU runtime's
// gopt_sgemm (gopt_sgemm_epilogue with cublaslt-epilogues), and every load
// and store is checked against its buffer's bounds, a failed check printing
// the op and stopping the run.

// CHECK-NOT: gpu.binary
// CHECK-NOT: gpu.launch_func
// CHECK-NOT: mgpu
// CHECK-NOT: gopt_cuda
// CHECK-DAG: llvm.func @gopt_sgemm(
// CHECK-DAG: llvm.func @abort()
// CHECK-DAG: llvm.mlir.global private constant @assert_msg
// CHECK-DAG: llvm.func @main(
// CHECK-DAG: llvm.func @_mlir_ciface_main(

// NOCHECK-NOT: @abort
// NOCHECK-NOT: gopt_cuda
// NOCHECK: llvm.func @gopt_sgemm_epilogue(

// The softmax's launch, one block per row, as loops over blocks and
// threads, its block reductions in thread order.
// LOOPS-LABEL: func.func private @main_k{{[0-9]+}}_softmax(
// LOOPS-NOT: gpu.
// LOOPS: memref.alloc() : memref<1x64xf32>
// LOOPS: scf.for
// LOOPS: arith.maximumf
// LOOPS: return

func.func @main(%x: tensor<8x64xf32>, %w: tensor<64x32xf32>, %b: tensor<32xf32>) -> (tensor<8x32xf32>, tensor<8x64xf32>) {
  %m = gopt.matmul %x, %w : tensor<8x64xf32>, tensor<64x32xf32> -> tensor<8x32xf32>
  %l = gopt.add %m, %b : tensor<8x32xf32>, tensor<32xf32> -> tensor<8x32xf32>
  %r = gopt.relu %l : tensor<8x32xf32>
  %s = gopt.softmax %x axis = 1 : tensor<8x64xf32>
  return %r, %s : tensor<8x32xf32>, tensor<8x64xf32>
}
