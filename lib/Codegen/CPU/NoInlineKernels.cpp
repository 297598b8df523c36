//===- NoInlineKernels.cpp - Keep each kernel its own function ------------===//

#include "GOpt/Codegen/CPU/Passes.h"
#include "GOpt/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir {
namespace gopt {
#define GEN_PASS_DEF_GOPTNOINLINEKERNELS
#include "GOpt/Codegen/CPU/Passes.h.inc"
} // namespace gopt
} // namespace mlir

using namespace mlir;

namespace {

/// Marks every `llvm.func` that carries `gopt.kernel` `no_inline`.
struct GOptNoInlineKernelsPass
    : gopt::impl::GOptNoInlineKernelsBase<GOptNoInlineKernelsPass> {
  void runOnOperation() override {
    getOperation().walk([](LLVM::LLVMFuncOp func) {
      if (func->hasAttr(gopt::kKernelAttrName))
        func.setNoInline(true);
    });
  }
};

} // namespace
