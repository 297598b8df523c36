//===- Passes.td - Code generation passes of every target -*- tablegen -*-===//
//
// Target-independent code generation passes, shared by the CPU pipeline
// gopt-lower-to-llvm (include/GOpt/Codegen/CPU/Pipeline.h) and the GPU
// pipeline gopt-lower-to-nvvm (include/GOpt/Codegen/GPU/Pipeline.h): one
// loop nest per kernel, the C interface of entry functions, and the check
// that only LLVM-dialect ops remain. docs/Lowering.md describes them.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_CODEGEN_COMMON_PASSES_TD
#define GOPT_CODEGEN_COMMON_PASSES_TD

include "mlir/Pass/PassBase.td"

def GOptFuseKernelLoops : Pass<"gopt-fuse-kernel-loops", "::mlir::ModuleOp"> {
  let summary = "Make each outlined kernel one loop nest";
  let description = [{
    Runs on functions carrying `gopt.kernel` (made by
    `gopt-outline-kernels`, then lowered by `convert-gopt-to-linalg`). First
    fuses chains of elementwise `linalg.generic` ops into one generic
    (upstream elementwise-op fusion); then, when the kernel computes one
    result, tiles the op that produces it along the parallel dimensions that
    every fused producer also iterates (so no reduction is recomputed per
    tile) and fuses all its producers into that tile loop nest. Kernels
    whose result op has no tileable dimension stay as their fused linalg
    ops.
  }];
  let options = [
    ListOption<"tileSizes", "tile-sizes", "int64_t",
               "Tile sizes for the leading tileable dimensions of each "
               "kernel's result op (the last one repeats for the rest; 0 "
               "leaves a dimension untiled)">,
    Option<"parallelTileLoops", "parallel-tile-loops", "bool",
           /*default=*/"false",
           "Make the tile loops one scf.forall (independent iterations, "
           "for mapping onto GPU threads) instead of nested scf.for">,
  ];
  let statistics = [
    Statistic<"numTiledKernels", "tiled-kernels",
              "Kernels turned into one tiled loop nest">,
    Statistic<"numUntiledKernels", "untiled-kernels",
              "Kernels left as fused linalg ops (no tileable dimension or "
              "several results)">,
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def GOptEmitCInterface : Pass<"gopt-emit-c-interface", "::mlir::ModuleOp"> {
  let summary = "Mark public functions with bodies llvm.emit_c_interface";
  let description = [{
    Adds the `llvm.emit_c_interface` unit attribute to every public
    `func.func` with a body, so `convert-func-to-llvm` also emits
    `_mlir_ciface_<name>`, which takes and returns memrefs as pointers to
    descriptors (the ABI runtimes and `mlir-runner` call).
  }];
}

def GOptVerifyLLVMLowered : Pass<"gopt-verify-llvm-lowered", "::mlir::ModuleOp"> {
  let summary = "Fail unless only LLVM-dialect ops remain";
  let description = [{
    The last stage of `gopt-lower-to-llvm` (and, with `gpu-host`, of
    `gopt-lower-to-nvvm`): reports the first op (and how many others) that
    is neither in the `llvm` dialect nor the module itself, so a lowering
    gap is a clear error and not a failure of translation to LLVM IR later.
    With `gpu-host`, `gpu.launch_func` and `gpu.binary` are allowed too
    (translation to LLVM IR turns them into runtime calls and an embedded
    binary).
  }];
  let options = [
    Option<"pipeline", "pipeline", "std::string",
           /*default=*/"\"gopt-lower-to-llvm\"",
           "The pipeline named in the diagnostic">,
    Option<"gpuHost", "gpu-host", "bool", /*default=*/"false",
           "Also allow gpu.launch_func and gpu.binary">,
  ];
}

#endif // GOPT_CODEGEN_COMMON_PASSES_TD
