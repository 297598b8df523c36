//===- Pipelines.h - Registered GOpt pass pipelines -------------*- C++ -*-===//
//
// The graph pipeline `gopt-optimize` and the registration of every GOpt
// pipeline. The target pipelines are built next to their passes: the CPU
// one in include/GOpt/Codegen/CPU/Pipeline.h, the GPU one in
// include/GOpt/Codegen/GPU/Pipeline.h.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_PIPELINES_PIPELINES_H
#define GOPT_PIPELINES_PIPELINES_H

#include "GOpt/Codegen/CPU/Pipeline.h"
#include "GOpt/Codegen/GPU/Pipeline.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
namespace gopt {

/// Options of the default graph pipeline `gopt-optimize`:
/// fold, layout (gopt-channels-last), dce, cse, fuse, dce, each of which can
/// be dropped.
struct OptimizePipelineOptions
    : public PassPipelineOptions<OptimizePipelineOptions> {
  Option<bool> fold{*this, "fold", llvm::cl::desc("Run gopt-fold"),
                    llvm::cl::init(true)};
  Option<bool> layout{
      *this, "layout",
      llvm::cl::desc("Run gopt-channels-last (convolutions on NHWC)"),
      llvm::cl::init(true)};
  Option<bool> dce{*this, "dce", llvm::cl::desc("Run gopt-dce (both times)"),
                   llvm::cl::init(true)};
  Option<bool> cse{*this, "cse", llvm::cl::desc("Run upstream cse"),
                   llvm::cl::init(true)};
  Option<bool> fuse{*this, "fuse", llvm::cl::desc("Run gopt-fuse"),
                    llvm::cl::init(true)};
  Option<int64_t> maxFoldedElements{
      *this, "max-folded-elements",
      llvm::cl::desc("gopt-fold: largest non-splat constant to create"),
      llvm::cl::init(1 << 16)};
  Option<int64_t> maxGroupSize{
      *this, "max-group-size",
      llvm::cl::desc("gopt-fuse: largest number of ops in a group"),
      llvm::cl::init(64)};
  Option<bool> attention{
      *this, "attention",
      llvm::cl::desc("gopt-fuse: the attention chain as one kernel"),
      llvm::cl::init(true)};
};

/// Appends the default graph pipeline to `pm` (op-agnostic: it runs on
/// whatever op `pm` is anchored on).
void buildOptimizePipeline(OpPassManager &pm,
                           const OptimizePipelineOptions &options);

/// Parses a textual graph pipeline into `pm`, a pass manager anchored on
/// builtin.module: an outer "builtin.module(...)" is the module itself, so
/// "gopt-fold" and "builtin.module(gopt-fold)" mean the same. On failure,
/// `error` holds the parser's message.
LogicalResult parseGraphPipeline(llvm::StringRef pipeline, OpPassManager &pm,
                                 std::string &error);

/// Registers GOpt's pipelines with the global pipeline registry: the graph
/// pipeline `gopt-optimize`, the CPU pipeline `gopt-lower-to-llvm`
/// (include/GOpt/Codegen/CPU/Pipeline.h) and the GPU pipeline
/// `gopt-lower-to-nvvm` (include/GOpt/Codegen/GPU/Pipeline.h).
void registerPipelines();

} // namespace gopt
} // namespace mlir

#endif // GOPT_PIPELINES_PIPELINES_H
