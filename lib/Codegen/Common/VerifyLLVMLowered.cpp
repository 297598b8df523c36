//===- VerifyLLVMLowered.cpp - Check that only LLVM-dialect ops remain ----===//

#include "GOpt/Codegen/Common/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir {
namespace gopt {
#define GEN_PASS_DEF_GOPTVERIFYLLVMLOWERED
#include "GOpt/Codegen/Common/Passes.h.inc"
} // namespace gopt
} // namespace mlir

using namespace mlir;

namespace {

/// Reports the first op outside the llvm dialect, with the number of others.
struct GOptVerifyLLVMLoweredPass
    : gopt::impl::GOptVerifyLLVMLoweredBase<GOptVerifyLLVMLoweredPass> {
  using GOptVerifyLLVMLoweredBase::GOptVerifyLLVMLoweredBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    Operation *first = nullptr;
    int64_t count = 0;
    module.walk([&](Operation *op) {
      if (op == module.getOperation() ||
          isa<LLVM::LLVMDialect>(op->getDialect()) ||
          (gpuHost && isa<gpu::LaunchFuncOp, gpu::BinaryOp>(op)))
        return;
      if (!first)
        first = op;
      ++count;
    });
    if (!first)
      return markAllAnalysesPreserved();
    first->emitError() << pipeline << ": '" << first->getName()
        << "' was not lowered to the LLVM dialect ("
        << count << " non-LLVM op" << (count == 1 ? "" : "s")
        << (count == 1 ? " remains" : " remain")
        << "); its dialect needs a conversion in the pipeline";
    signalPassFailure();
  }
};

} // namespace
