//===- Pipeline.cpp - The CPU pipeline gopt-lower-to-llvm -----------------===//

#include "GOpt/Codegen/CPU/Pipeline.h"
#include "GOpt/Codegen/CPU/Passes.h"
#include "GOpt/Codegen/Common/Passes.h"
#include "GOpt/Codegen/Common/Stages.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::gopt::buildLowerToLLVMPipeline(
    OpPassManager &pm, const gopt::LowerToLLVMOptions &options) {
  // Kernels: one function each, lowered to linalg, one loop nest each.
  // Function-local stages are nested on func.func so functions (kernels)
  // are processed in parallel.
  // Library path: contractions sgemm computes stay whole (a call after
  // bufferization); their kernels' epilogues become the loop nest; an
  // attention kernel is one call.
  bool library = options.contractions == ContractionPath::Library;
  OpPassManager &toLinalg =
      addKernelsToLinalgStage(pm, options.kernelTimers, library,
                              /*sliceViews=*/false, options.deduplicateKernels);
  if (library) {
    if (options.convolutionsAsGemm)
      toLinalg.addPass(createGOptConvolutionsToGemm());
    GOptSelectLibraryContractionsOptions select;
    select.minFlops = options.libraryMinFlops;
    toLinalg.addPass(createGOptSelectLibraryContractions(select));
  }
  // Kernels that differ only in where they slice their arguments (an
  // unrolled recurrence's steps) take the offsets as arguments and are one
  // function.
  if (options.deduplicateKernels) {
    pm.addPass(createGOptParametrizeSliceOffsets());
    pm.addPass(createGOptDeduplicateKernels());
  }
  GOptFuseKernelLoopsOptions loops;
  loops.tileSizes = llvm::to_vector(options.tileSizes);
  // Tile loops over parallel dims are scf.forall (scf.parallel once
  // bufferized): gopt-parallelize-kernel-loops may run them on threads.
  loops.parallelTileLoops = true;
  loops.convolutionEpilogues = library && options.convolutionEpilogues;
  pm.addPass(createGOptFuseKernelLoops(loops));
  OpPassManager &tiles = pm.nest<func::FuncOp>();
  if (options.vectorize)
    tiles.addPass(createGOptVectorizeKernels());
  if (options.approximateMath)
    tiles.addPass(createGOptApproximateMath());
  tiles.addPass(createCanonicalizerPass());
  tiles.addPass(createCSEPass());

  // Buffers: identity-layout memrefs at function boundaries, ownership-based
  // deallocation.
  addBufferizeStage(pm);
  pm.addNestedPass<func::FuncOp>(createForallToParallelLoopPass());
  // Tile loops would otherwise allocate their temporaries once per
  // iteration: hoist allocations out of loops (and up their blocks) before
  // deallocation is placed.
  pm.addNestedPass<func::FuncOp>(bufferization::createBufferHoistingPass());
  pm.addNestedPass<func::FuncOp>(
      bufferization::createBufferLoopHoistingPass());
  // Reshape kernels' views move into their callers, and kernels whose
  // results are their own static allocations write into buffers their
  // caller allocates; the rest are private and may return views of their
  // arguments with an ownership flag instead of a copy.
  if (options.planBuffers) {
    pm.addPass(createGOptInlineViewKernels());
    pm.addPass(createGOptKernelResultsToOutParams());
  }
  addDeallocationStage(pm, options.freeAfterLastUse);
  // The entry function's intermediates, allocated and freed in its block,
  // share one arena.
  if (options.planBuffers)
    pm.addNestedPass<func::FuncOp>(createGOptPlanBuffers());
  if (library)
    pm.addPass(createGOptLowerLibraryContractions());

  // Loops and scalars.
  OpPassManager &loopNests = pm.nest<func::FuncOp>();
  loopNests.addPass(createConvertLinalgToParallelLoopsPass());
  if (options.vectorize) {
    loopNests.addPass(createGOptLowerVectors());
    loopNests.addPass(createConvertVectorToSCFPass(
        VectorTransferToSCFOptions().enableFullUnroll()));
    loopNests.addPass(createGOptLowerVectors());
  }
  // Parallel loops (scf.parallel) that do enough work: outlined and run on
  // the runtime's threads; the rest become sequential loops below.
  if (options.parallelLoops) {
    GOptParallelizeKernelLoopsOptions parallel;
    parallel.minWork = options.parallelMinWork;
    pm.addPass(createGOptParallelizeKernelLoops(parallel));
  }
  // Every loop left is sequential now: kernels' small temporaries move to
  // the stack, allocated once per call instead of once per iteration.
  if (options.stackScratch)
    pm.addNestedPass<func::FuncOp>(createGOptStackScratchBuffers());
  addLowerToHostLLVMStage(pm, options.useGenericAllocFunctions);
}

void mlir::gopt::addLowerToHostLLVMStage(OpPassManager &pm,
                                         bool useGenericAllocFunctions) {
  OpPassManager &scalar = pm.nest<func::FuncOp>();
  scalar.addPass(createLowerAffinePass());
  scalar.addPass(createSCFToControlFlowPass());
  scalar.addPass(memref::createExpandStridedMetadataPass());
  scalar.addPass(createLowerAffinePass());
  scalar.addPass(createCanonicalizerPass());

  // LLVM dialect: math first to intrinsics, what LLVM has no intrinsic for
  // (erf, tanh) to libm, integer powers to generated functions. Conversions
  // that need no module (symbols, signatures) run nested, one function at a
  // time: a module-wide conversion of thousands of kernels keeps all of
  // their rewrites live at once and its time per kernel grows with the
  // kernel count (bench/compile_scaling.cpp).
  pm.addPass(createConvertMathToFuncs());
  pm.addNestedPass<func::FuncOp>(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addNestedPass<func::FuncOp>(createConvertVectorToLLVMPass());
  FinalizeMemRefToLLVMConversionPassOptions memrefOptions;
  memrefOptions.useGenericFunctions = useGenericAllocFunctions;
  // Aligned allocations ask the allocator for the alignment instead of
  // over-allocating by it and rounding the pointer up: an arena or an
  // out-parameter asks for 64 bytes (kBufferAlignment), which the runtime's
  // allocator gives every block anyway.
  memrefOptions.useAlignedAlloc = true;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefOptions));
  pm.addPass(createGOptEmitCInterface());
  OpPassManager &scalars = pm.nest<func::FuncOp>();
  scalars.addPass(createConvertMathToLLVMPass());
  scalars.addPass(createArithToLLVMConversionPass());
  scalars.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createGOptNoInlineKernels());
  OpPassManager &llvmFunctions = pm.nest<LLVM::LLVMFuncOp>();
  llvmFunctions.addPass(createUBToLLVMConversionPass());
  llvmFunctions.addPass(createReconcileUnrealizedCastsPass());
  llvmFunctions.addPass(createCanonicalizerPass());
  pm.addPass(createGOptVerifyLLVMLowered());
}

void mlir::gopt::registerLowerToLLVMPipeline() {
  PassPipelineRegistration<gopt::LowerToLLVMOptions>(
      "gopt-lower-to-llvm",
      "CPU pipeline from gopt to the LLVM dialect: outline kernels, lower to "
      "linalg, one loop nest per kernel (f32 matmul/linear: an sgemm call "
      "and the epilogue's loop nest), vectorize, bufferize, LLVM",
      buildLowerToLLVMPipeline);
}
