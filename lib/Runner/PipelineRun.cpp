//===- PipelineRun.cpp - Run a pass pipeline, verifying its result --------===//

#include "PipelineRun.h"
#include "DiagnosticCollector.h"
#include "GOpt/Support/Error.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"

#include <mutex>

using namespace mlir;
using namespace mlir::gopt;

namespace {

/// Remembers the first pass that failed (a failed verification after a
/// pass counts as its failure); nested pipelines run on several threads.
class FirstFailedPass : public PassInstrumentation {
public:
  explicit FirstFailedPass(std::string &name) : name(name) {}
  void runAfterPassFailed(Pass *pass, Operation *) override {
    std::lock_guard<std::mutex> lock(mutex);
    if (name.empty())
      name = pass->getArgument().empty() ? pass->getName().str()
                                         : pass->getArgument().str();
  }

private:
  std::string &name;
  std::mutex mutex;
};

} // namespace

llvm::Error mlir::gopt::runPipeline(PassManager &pm, ModuleOp module,
                                    bool verifyEachPass,
                                    llvm::StringRef failure) {
  pm.enableVerifier(verifyEachPass);
  std::string failedPass;
  pm.addInstrumentation(std::make_unique<FirstFailedPass>(failedPass));
  DiagnosticCollector diags(module.getContext());
  if (failed(pm.run(module)))
    return makeError(failure + (failedPass.empty() ? "" : " in " + failedPass) +
                     ":" + diags.str());
  if (!verifyEachPass && failed(verify(module)))
    return makeError(failure +
                     " (its result does not verify; verifying "
                     "after each pass names the pass):" +
                     diags.str());
  return llvm::Error::success();
}
