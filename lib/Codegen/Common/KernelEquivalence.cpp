//===- KernelEquivalence.cpp - When two kernels are one function ----------===//

#include "GOpt/Codegen/Common/KernelEquivalence.h"
#include "GOpt/Transforms/Passes.h"

#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;

bool mlir::gopt::isMergeableKernel(func::FuncOp func) {
  return func->hasAttr(gopt::kKernelAttrName) && func.isPrivate() &&
         !func.isExternal();
}

std::optional<gopt::KernelCalls>
mlir::gopt::collectKernelCalls(ModuleOp module) {
  std::optional<SymbolTable::UseRange> uses =
      SymbolTable::getSymbolUses(&module.getBodyRegion());
  if (!uses)
    return std::nullopt;
  KernelCalls result;
  for (const SymbolTable::SymbolUse &use : *uses) {
    StringAttr name = use.getSymbolRef().getRootReference();
    auto call = dyn_cast<func::CallOp>(use.getUser());
    if (call && use.getSymbolRef() == call.getCalleeAttr())
      result.calls[name].push_back(call);
    else
      result.namedOtherwise.insert(name);
  }
  return result;
}

llvm::hash_code mlir::gopt::hashKernel(
    func::FuncOp kernel,
    llvm::function_ref<std::optional<llvm::hash_code>(Operation *)> hashOp) {
  llvm::hash_code hash =
      llvm::hash_combine(kernel.getFunctionType(), kernel.getArgAttrsAttr(),
                         kernel.getResAttrsAttr());
  kernel.getBody().walk([&](Operation *op) {
    std::optional<llvm::hash_code> own;
    if (hashOp)
      own = hashOp(op);
    hash = llvm::hash_combine(
        hash, own ? *own
                  : OperationEquivalence::computeHash(
                        op, OperationEquivalence::ignoreHashValue,
                        OperationEquivalence::ignoreHashValue,
                        OperationEquivalence::IgnoreLocations));
  });
  return hash;
}

bool mlir::gopt::isSameKernel(func::FuncOp a, func::FuncOp b) {
  return a.getFunctionType() == b.getFunctionType() &&
         a.getArgAttrsAttr() == b.getArgAttrsAttr() &&
         a.getResAttrsAttr() == b.getResAttrsAttr() &&
         OperationEquivalence::isRegionEquivalentTo(
             &a.getBody(), &b.getBody(), OperationEquivalence::IgnoreLocations);
}
