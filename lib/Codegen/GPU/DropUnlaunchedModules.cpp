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
    // The modules something names: a gpu.launch_func (@module::@kernel), or
    // any other op (one this pass does not know keeps its module too).
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(&module.getBodyRegion());
    if (!uses)
      return;
    llvm::DenseSet<StringAttr> named;
    for (const SymbolTable::SymbolUse &use : *uses)
      named.insert(use.getSymbolRef().getRootReference());
    for (auto gpuModule :
         llvm::make_early_inc_range(module.getOps<gpu::GPUModuleOp>())) {
      if (named.contains(gpuModule.getSymNameAttr()))
        continue;
      gpuModule.erase();
      ++numErased;
    }
  }
};

} // namespace
