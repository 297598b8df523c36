//===- InlineViewKernels.cpp - Reshape kernels as views in their caller ---===//
//
// A kernel that only reshapes (memref.expand_shape, a collapse, a cast)
// returns a view of its argument. Called, that view is opaque to its
// caller: ownership-based deallocation must free the argument's buffer
// under a runtime ownership check, and gopt-plan-buffers cannot place a
// buffer freed that way. Cloning the kernel's view ops at each call site
// lets the caller see the alias, free the buffer after the view's last use
// and plan it (docs/Lowering.md, "Static buffer planning"). The kernel
// function stays, uncalled, so the kernel list and the timers keep it.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Codegen/Common/Passes.h"
#include "GOpt/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir {
namespace gopt {
#define GEN_PASS_DEF_GOPTINLINEVIEWKERNELS
#include "GOpt/Codegen/Common/Passes.h.inc"
} // namespace gopt
} // namespace mlir

using namespace mlir;

namespace {

/// Whether `kernel` is a private gopt kernel of one block whose ops are
/// side-effect-free views and constants, returning memrefs.
bool isViewKernel(func::FuncOp kernel) {
  if (kernel.isExternal() || kernel.isPublic() ||
      !kernel->hasAttr(gopt::kKernelAttrName) ||
      !kernel.getBody().hasOneBlock() || kernel.getNumResults() == 0)
    return false;
  for (Operation &op : kernel.getBody().front()) {
    if (isa<func::ReturnOp>(op))
      continue;
    if (op.getNumRegions() != 0 || !isMemoryEffectFree(&op) ||
        !(isa<ViewLikeOpInterface>(op) || op.hasTrait<OpTrait::ConstantLike>()))
      return false;
  }
  return llvm::all_of(kernel.getResultTypes(),
                      [](Type type) { return isa<MemRefType>(type); });
}

struct GOptInlineViewKernelsPass
    : gopt::impl::GOptInlineViewKernelsBase<GOptInlineViewKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::DenseMap<StringAttr, func::FuncOp> viewKernels;
    for (auto kernel : module.getOps<func::FuncOp>())
      if (isViewKernel(kernel))
        viewKernels[kernel.getSymNameAttr()] = kernel;
    if (viewKernels.empty())
      return;

    SmallVector<func::CallOp> calls;
    module.walk([&](func::CallOp call) {
      if (viewKernels.count(call.getCalleeAttr().getAttr()))
        calls.push_back(call);
    });
    for (func::CallOp call : calls) {
      func::FuncOp kernel = viewKernels.lookup(call.getCalleeAttr().getAttr());
      Block &body = kernel.getBody().front();
      IRMapping mapping;
      mapping.map(body.getArguments(), call.getOperands());
      OpBuilder builder(call);
      for (Operation &op : body.without_terminator())
        builder.clone(op, mapping);
      auto ret = cast<func::ReturnOp>(body.getTerminator());
      for (auto [result, returned] :
           llvm::zip(call.getResults(), ret.getOperands()))
        result.replaceAllUsesWith(mapping.lookupOrDefault(returned));
      call.erase();
      ++numInlined;
    }
  }
};

} // namespace
