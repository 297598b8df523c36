//===- Pipelines.cpp - Registered GOpt pass pipelines ---------------------===//

#include "GOpt/Pipelines/Pipelines.h"
#include "GOpt/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::gopt::buildOptimizePipeline(OpPassManager &pm,
                                       const OptimizePipelineOptions &options) {
  if (options.fold) {
    GOptFoldOptions foldOptions;
    foldOptions.maxFoldedElements = options.maxFoldedElements;
    pm.addPass(createGOptFold(foldOptions));
  }
  // After folding, so that constant subgraphs are gone and only the
  // convolutions' data flow is left to move to channels last.
  if (options.layout)
    pm.addPass(createGOptChannelsLast());
  if (options.dce)
    pm.addPass(createGOptDCE());
  if (options.cse)
    pm.addPass(createCSEPass());
  if (options.fuse) {
    GOptFuseOptions fuseOptions;
    fuseOptions.maxGroupSize = options.maxGroupSize;
    fuseOptions.fuseAttention = options.attention;
    pm.addPass(createGOptFuse(fuseOptions));
  }
  if (options.dce)
    pm.addPass(createGOptDCE());
}

void mlir::gopt::registerPipelines() {
  PassPipelineRegistration<OptimizePipelineOptions>(
      "gopt-optimize",
      "GOpt's default graph pipeline: gopt-fold, gopt-channels-last, "
      "gopt-dce, cse, gopt-fuse, gopt-dce (each can be dropped with an "
      "option)",
      buildOptimizePipeline);
  registerLowerToLLVMPipeline();
  registerLowerToNVVMPipeline();
}

LogicalResult mlir::gopt::parseGraphPipeline(llvm::StringRef pipeline,
                                             OpPassManager &pm,
                                             std::string &error) {
  llvm::StringRef text = pipeline.trim();
  if (text.starts_with("builtin.module(") && text.ends_with(")"))
    text = text.drop_front(strlen("builtin.module(")).drop_back();
  llvm::raw_string_ostream os(error);
  return parsePassPipeline(text, pm, os);
}
