//===- Stages.cpp - Pipeline stages every target shares -------------------===//

#include "GOpt/Codegen/Common/Stages.h"
#include "GOpt/Codegen/Common/Passes.h"
#include "GOpt/Conversion/Passes.h"
#include "GOpt/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

OpPassManager &mlir::gopt::addKernelsToLinalgStage(OpPassManager &pm,
                                                   bool kernelTimers,
                                                   bool attentionKernels,
                                                   bool sliceViews,
                                                   bool deduplicateKernels) {
  if (sliceViews)
    pm.addPass(createGOptMergeSiblingLinears());
  if (!attentionKernels)
    pm.addPass(createGOptSplitAttentionKernels());
  if (sliceViews) {
    pm.addPass(createGOptFuseGemmLayerNorms());
    pm.addPass(createGOptFuseSliceInputs());
  }
  GOptOutlineKernelsOptions outline;
  outline.timers = kernelTimers;
  pm.addPass(createGOptOutlineKernels(outline));
  if (deduplicateKernels)
    pm.addPass(createGOptDeduplicateKernels());
  // Nested on func.func, so functions (kernels) are processed in parallel.
  OpPassManager &toLinalg = pm.nest<func::FuncOp>();
  if (attentionKernels)
    toLinalg.addPass(createGOptFormAttentionKernels());
  toLinalg.addPass(createConvertGOptToLinalg());
  // Elementwise arith/math ops of other producers on whole tensors.
  toLinalg.addPass(createConvertElementwiseToLinalgPass());
  toLinalg.addPass(createCanonicalizerPass());
  // Transposes gopt-fuse put into their matmul's kernel become strides.
  toLinalg.addPass(createGOptFoldPermutationsIntoContractions());
  // Constant factors the contractions read (attention's scaling of Q) as
  // part of their multiply-accumulate: a GEMM's alpha.
  toLinalg.addPass(createGOptFoldScalingIntoContractions());
  return toLinalg;
}

void mlir::gopt::addBufferizeStage(OpPassManager &pm) {
  // A call's results are taken to be writable: a kernel that folded to a
  // constant returns a copy, not the read-only global.
  pm.addNestedPass<func::FuncOp>(createGOptCopyConstantKernelResults());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
}

void mlir::gopt::addDeallocationStage(OpPassManager &pm,
                                      bool freeAfterLastUse) {
  // Upstream's buffer-deallocation-pipeline, with gopt-dealloc-after-last-use
  // before the simplification (below).
  memref::ExpandReallocPassOptions expandRealloc;
  expandRealloc.emitDeallocs = false;
  pm.addNestedPass<func::FuncOp>(memref::createExpandReallocPass(expandRealloc));
  pm.addNestedPass<func::FuncOp>(createCanonicalizerPass());
  bufferization::OwnershipBasedBufferDeallocationPassOptions ownership;
  ownership.privateFuncDynamicOwnership = true;
  pm.addNestedPass<func::FuncOp>(
      bufferization::createOwnershipBasedBufferDeallocationPass(ownership));
  pm.addNestedPass<func::FuncOp>(createCanonicalizerPass());
  // Split before the simplification: it compares every memref of a dealloc
  // with every other, O(n²) in the entry's one dealloc of every kernel's
  // result (an unrolled LSTM without graph passes, 2,362 kernels: 0.74 s),
  // and O(1) each in the deallocs of one memref this pass leaves.
  if (freeAfterLastUse)
    pm.addPass(createGOptDeallocAfterLastUse());
  pm.addNestedPass<func::FuncOp>(
      bufferization::createBufferDeallocationSimplificationPass());
  pm.addPass(bufferization::createLowerDeallocationsPass());
  pm.addNestedPass<func::FuncOp>(createCSEPass());
  pm.addNestedPass<func::FuncOp>(createCanonicalizerPass());
  pm.addPass(createConvertBufferizationToMemRefPass());
}
