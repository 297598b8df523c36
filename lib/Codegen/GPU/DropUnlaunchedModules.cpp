//===- DropUnlaunchedModules.cpp - No binary for a kernel never launched --===//
//
// gpu-kernel-outlining makes one gpu.module per gpu.launch; a launch that
// later folds away (the entry's copy of a result it turns out to own) leaves
// its module behind, which gpu-module-to-binary would still compile.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Codegen/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include "llvm/ADT/DenseSet.h"

namespace mlir {
namespace gopt {
#define GEN_PASS_DEF_GOPTGPUDROPUNLAUNCHEDMODULES
#include "GOpt/Codegen/GPU/Passes.h.inc"
} // namespace gopt
} // namespace mlir

using namespace mlir;

namespace {

struct GOptGPUDropUnlaunchedModulesPass
    : gopt::impl::GOptGPUDropUnlaunchedModulesBase<
          GOptGPUDropUnlaunchedModulesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::DenseSet<StringAttr> launched;
    module.walk([&](gpu::LaunchFuncOp launch) {
      launched.insert(launch.getKernelModuleName());
    });
    // Any other use of a module's name (an op this pass does not know)
    // keeps it too.
    if (std::optional<SymbolTable::UseRange> uses =
            SymbolTable::getSymbolUses(&module.getBodyRegion())) {
      for (const SymbolTable::SymbolUse &use : *uses)
        if (!isa<gpu::LaunchFuncOp>(use.getUser()))
          launched.insert(use.getSymbolRef().getRootReference());
    } else {
      return;
    }
    for (auto gpuModule :
         llvm::make_early_inc_range(module.getOps<gpu::GPUModuleOp>())) {
      if (launched.contains(gpuModule.getSymNameAttr()))
        continue;
      gpuModule.erase();
      ++numErased;
    }
  }
};

} // namespace
