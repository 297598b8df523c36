//===- KernelResultsToOutParams.cpp - Kernels write into caller buffers ---===//
//
// After bufferization a kernel allocates its results and returns them, so
// its caller only sees opaque call results. Moving those allocations to the
// call sites (destination-passing style) puts every intermediate's
// allocation and lifetime in the entry function, where gopt-plan-buffers
// places them in one arena (docs/Lowering.md, "Static buffer planning").
//
//===----------------------------------------------------------------------===//

#include "GOpt/Codegen/Common/Passes.h"
#include "GOpt/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include "llvm/ADT/SmallPtrSet.h"

namespace mlir {
namespace gopt {
#define GEN_PASS_DEF_GOPTKERNELRESULTSTOOUTPARAMS
#include "GOpt/Codegen/Common/Passes.h.inc"
} // namespace gopt
} // namespace mlir

using namespace mlir;

namespace {

/// Whether each memref `kernel` returns is a static-shaped, identity-layout
/// buffer it allocates itself and returns once, through its only return:
/// the results the caller can allocate instead, with no copy.
bool returnsOnlyOwnStaticAllocations(func::FuncOp kernel) {
  if (kernel.isExternal() || kernel.isPublic() ||
      !kernel->hasAttr(gopt::kKernelAttrName))
    return false;
  SmallVector<func::ReturnOp> returns;
  kernel.walk([&](func::ReturnOp ret) { returns.push_back(ret); });
  if (returns.size() != 1)
    return false;
  llvm::SmallPtrSet<Value, 4> seen;
  bool returnsMemref = false;
  for (Value operand : returns.front().getOperands()) {
    auto type = dyn_cast<MemRefType>(operand.getType());
    if (!type)
      continue;
    returnsMemref = true;
    auto alloc = operand.getDefiningOp<memref::AllocOp>();
    if (!alloc || !type.hasStaticShape() || !type.getLayout().isIdentity() ||
        type.getMemorySpace() || !seen.insert(operand).second)
      return false;
  }
  return returnsMemref;
}

struct GOptKernelResultsToOutParamsPass
    : gopt::impl::GOptKernelResultsToOutParamsBase<
          GOptKernelResultsToOutParamsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Decided once, before any rewrite: the rewrite changes the kernels'
    // returns, and upstream asks the filter again at every call site.
    llvm::SmallPtrSet<Operation *, 16> converted;
    for (auto kernel : module.getOps<func::FuncOp>())
      if (returnsOnlyOwnStaticAllocations(kernel))
        converted.insert(kernel);
    if (converted.empty())
      return;

    bufferization::BufferResultsToOutParamsOpts options;
    options.filterFn = [&](func::FuncOp *kernel) {
      return converted.contains(kernel->getOperation());
    };
    options.hoistStaticAllocs = true;
    options.allocationFn = [](OpBuilder &builder, Location loc, MemRefType type,
                              ValueRange dynamicSizes) -> FailureOr<Value> {
      return memref::AllocOp::create(
                 builder, loc, type, dynamicSizes,
                 builder.getI64IntegerAttr(gopt::kBufferAlignment))
          .getResult();
    };
    if (failed(bufferization::promoteBufferResultsToOutParams(module, options)))
      return signalPassFailure();
    numConverted += converted.size();
  }
};

} // namespace
