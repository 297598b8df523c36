//===- VerifyLowered.cpp - Check what gopt-lower-to-nvvm leaves -----------===//

#include "GOpt/Codegen/GPU/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir {
namespace gopt {
#define GEN_PASS_DEF_GOPTGPUVERIFYLOWERED
#include "GOpt/Codegen/GPU/Passes.h.inc"
} // namespace gopt
} // namespace mlir

using namespace mlir;

namespace {

/// Reports the first op that translation to LLVM IR would not take, with
/// the number of others.
struct GOptGPUVerifyLoweredPass
    : gopt::impl::GOptGPUVerifyLoweredBase<GOptGPUVerifyLoweredPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    Operation *first = nullptr;
    int64_t count = 0;
    module.walk([&](Operation *op) {
      if (op == module.getOperation() ||
          isa<LLVM::LLVMDialect>(op->getDialect()) ||
          isa<gpu::LaunchFuncOp, gpu::BinaryOp>(op))
        return;
      if (!first)
        first = op;
      ++count;
    });
    if (!first)
      return markAllAnalysesPreserved();
    first->emitError("gopt-lower-to-nvvm: '")
        << first->getName() << "' was not lowered (" << count << " op"
        << (count == 1 ? "" : "s")
        << " remain that are neither LLVM-dialect ops, launches nor GPU "
           "binaries); its dialect needs a conversion in the pipeline";
    signalPassFailure();
  }
};

} // namespace
