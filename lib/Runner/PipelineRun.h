//===- PipelineRun.h - Run a pass pipeline, verifying its result -*- C++
//-*-===//
//
// Private to lib/Runner.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_LIB_RUNNER_PIPELINERUN_H
#define GOPT_LIB_RUNNER_PIPELINERUN_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/Error.h"

namespace mlir {
namespace gopt {

/// Runs `pm` on `module`. With `verifyEachPass`, MLIR's verifier runs after
/// every pass, as mlir-opt does by default, so a pass that breaks the IR
/// fails itself; without, the module is verified once, after the last
/// pass: broken IR is still an error, only not pinned to a pass (and a
/// later pass may fail on it first). Verifying after each of a lowering's
/// 60 passes was a third of its time. The error is `failure`, the pass
/// that failed (" in gopt-fuse"), and the diagnostics.
llvm::Error runPipeline(PassManager &pm, ModuleOp module, bool verifyEachPass,
                        llvm::StringRef failure);

} // namespace gopt
} // namespace mlir

#endif // GOPT_LIB_RUNNER_PIPELINERUN_H
