//===- DeduplicateKernels.cpp - One function per distinct kernel ----------===//
//
// Weights are arguments of the compiled code, so the kernels of a network's
// repeated blocks (each layer of a transformer, each bottleneck of a ResNet
// stage after the first) are the same function under different names.
// Lowering and compiling each once instead of once per call is most of what
// compile time can lose without losing code quality.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Codegen/Common/KernelEquivalence.h"
#include "GOpt/Codegen/Common/Passes.h"
#include "GOpt/Transforms/Passes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"

namespace mlir {
namespace gopt {
#define GEN_PASS_DEF_GOPTDEDUPLICATEKERNELS
#include "GOpt/Codegen/Common/Passes.h.inc"
} // namespace gopt
} // namespace mlir

using namespace mlir;
using namespace mlir::gopt;

namespace {

struct GOptDeduplicateKernelsPass
    : gopt::impl::GOptDeduplicateKernelsBase<GOptDeduplicateKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<KernelCalls> uses = collectKernelCalls(module);
    if (!uses)
      return;
    auto &[calls, namedOtherwise] = *uses;

    // Kernels kept so far, by hash, in module order.
    llvm::DenseMap<llvm::hash_code, SmallVector<func::FuncOp, 1>> kept;
    // Each kept kernel's copies, name -> id, in module order.
    llvm::MapVector<Operation *, SmallVector<NamedAttribute>> copies;
    SmallVector<func::FuncOp> erased;
    for (auto kernel : module.getOps<func::FuncOp>()) {
      if (!isMergeableKernel(kernel) ||
          namedOtherwise.contains(kernel.getSymNameAttr()))
        continue;
      SmallVector<func::FuncOp, 1> &candidates = kept[hashKernel(kernel)];
      auto same = llvm::find_if(
          candidates, [&](func::FuncOp k) { return isSameKernel(k, kernel); });
      if (same == candidates.end()) {
        candidates.push_back(kernel);
        continue;
      }
      func::FuncOp original = *same;
      auto &list = copies[original];
      list.emplace_back(kernel.getSymNameAttr(),
                        kernel->getAttr(gopt::kKernelAttrName));
      // Copies a kernel took over earlier (a second run of the pass).
      if (auto earlier = kernel->getAttrOfType<DictionaryAttr>(
              gopt::kKernelCopiesAttrName))
        llvm::append_range(list, earlier.getValue());
      for (func::CallOp call : calls.lookup(kernel.getSymNameAttr()))
        call.setCalleeAttr(FlatSymbolRefAttr::get(original.getSymNameAttr()));
      erased.push_back(kernel);
    }
    Builder b(&getContext());
    for (auto &[original, list] : copies) {
      if (auto earlier = original->getAttrOfType<DictionaryAttr>(
              gopt::kKernelCopiesAttrName))
        llvm::append_range(list, earlier.getValue());
      original->setAttr(gopt::kKernelCopiesAttrName, b.getDictionaryAttr(list));
    }
    for (func::FuncOp kernel : erased)
      kernel.erase();
    numMerged += erased.size();
  }
};

} // namespace
