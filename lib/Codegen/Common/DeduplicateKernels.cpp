//===- DeduplicateKernels.cpp - One function per distinct kernel ----------===//
//
// Weights are arguments of the compiled code, so the kernels of a network's
// repeated blocks (each layer of a transformer, each bottleneck of a ResNet
// stage after the first) are the same function under different names.
// Lowering and compiling each once instead of once per call is most of what
// compile time can lose without losing code quality.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Codegen/Common/Passes.h"
#include "GOpt/Transforms/Passes.h"

#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/MapVector.h"

namespace mlir {
namespace gopt {
#define GEN_PASS_DEF_GOPTDEDUPLICATEKERNELS
#include "GOpt/Codegen/Common/Passes.h.inc"
} // namespace gopt
} // namespace mlir

using namespace mlir;

namespace {

/// A hash of what makes two kernels the same function: the signature, the
/// argument and result attributes, and every op of the body (name,
/// attributes, properties, result types; values and locations left out,
/// the comparison below checks them).
llvm::hash_code hashKernel(func::FuncOp kernel) {
  llvm::hash_code hash =
      llvm::hash_combine(kernel.getFunctionType(), kernel.getArgAttrsAttr(),
                         kernel.getResAttrsAttr());
  kernel.getBody().walk([&](Operation *op) {
    hash =
        llvm::hash_combine(hash, OperationEquivalence::computeHash(
                                     op, OperationEquivalence::ignoreHashValue,
                                     OperationEquivalence::ignoreHashValue,
                                     OperationEquivalence::IgnoreLocations));
  });
  return hash;
}

bool isSameKernel(func::FuncOp a, func::FuncOp b) {
  return a.getFunctionType() == b.getFunctionType() &&
         a.getArgAttrsAttr() == b.getArgAttrsAttr() &&
         a.getResAttrsAttr() == b.getResAttrsAttr() &&
         OperationEquivalence::isRegionEquivalentTo(
             &a.getBody(), &b.getBody(), OperationEquivalence::IgnoreLocations);
}

/// Whether `func` is a kernel this pass may merge: private (no caller
/// outside the module names it), with a body.
bool isMergeableKernel(func::FuncOp func) {
  return func->hasAttr(gopt::kKernelAttrName) && func.isPrivate() &&
         !func.isExternal();
}

struct GOptDeduplicateKernelsPass
    : gopt::impl::GOptDeduplicateKernelsBase<GOptDeduplicateKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Every use of a kernel's name, in one walk: the calls to redirect. A
    // kernel named by anything but a call is left alone, and with an op
    // whose symbol uses are unknown, nothing is safe to redirect.
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(&module.getBodyRegion());
    if (!uses)
      return;
    llvm::DenseMap<StringAttr, SmallVector<func::CallOp>> calls;
    llvm::DenseSet<StringAttr> namedOtherwise;
    for (const SymbolTable::SymbolUse &use : *uses) {
      StringAttr name = use.getSymbolRef().getRootReference();
      auto call = dyn_cast<func::CallOp>(use.getUser());
      if (call && use.getSymbolRef() == call.getCalleeAttr())
        calls[name].push_back(call);
      else
        namedOtherwise.insert(name);
    }

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
