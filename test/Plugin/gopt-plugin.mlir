// The stock mlir-opt is not instrumented: it cannot load a sanitizer build.
// UNSUPPORTED: sanitize
// GOpt as a plugin of the stock mlir-opt: the gopt dialect parses and prints,
// GOpt's passes and pipelines run by name in --pass-pipeline, and both
// lowering pipelines reach their targets.
// RUN: %mlir_opt --load-dialect-plugin=%gopt_plugin %s | FileCheck %s --check-prefix=PARSE
// RUN: %mlir_opt --load-dialect-plugin=%gopt_plugin --load-pass-plugin=%gopt_plugin %s --pass-pipeline='builtin.module(gopt-optimize)' | FileCheck %s --check-prefix=OPT
// RUN: %mlir_opt --load-dialect-plugin=%gopt_plugin --load-pass-plugin=%gopt_plugin %s --pass-pipeline='builtin.module(func.func(gopt-dce))' | FileCheck %s --check-prefix=DCE
// RUN: %mlir_opt --load-dialect-plugin=%gopt_plugin --load-pass-plugin=%gopt_plugin %s --pass-pipeline='builtin.module(gopt-optimize,gopt-lower-to-llvm)' | FileCheck %s --check-prefix=LLVM
// RUN: %mlir_opt --load-dialect-plugin=%gopt_plugin --load-pass-plugin=%gopt_plugin %s --pass-pipeline='builtin.module(gopt-optimize,gopt-lower-to-nvvm{format=isa})' | FileCheck %s --check-prefix=NVVM
// Without the dialect plugin the gopt ops are unknown.
// RUN: not %mlir_opt %s 2>&1 | FileCheck %s --check-prefix=NODIALECT

// PARSE-LABEL: func.func @f
// PARSE: gopt.relu
// PARSE: gopt.relu
// PARSE: gopt.exp

// OPT-LABEL: func.func @f
// OPT-NEXT: gopt.relu %arg0
// OPT-NEXT: return

// DCE-LABEL: func.func @f
// DCE-NOT: gopt.exp
// DCE: return

// LLVM: llvm.func @f(
// LLVM-NOT: = gopt.

// NVVM-DAG: gpu.binary @f_k0_relu_kernel
// NVVM-DAG: llvm.func @f(
// NVVM-DAG: gpu.launch_func {{.*}}@f_k0_relu_kernel

// NODIALECT: error: Dialect `gopt' not found for custom op 'gopt.relu'
func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %a = gopt.relu %x : tensor<4x8xf32>
  %b = gopt.relu %a : tensor<4x8xf32>
  %dead = gopt.exp %x : tensor<4x8xf32>
  return %b : tensor<4x8xf32>
}
