//===- KernelEquivalence.h - When two kernels are one function --*- C++ -*-===//
//
// What gopt-deduplicate-kernels and gopt-parametrize-slice-offsets share:
// which kernels may be merged, and when two are the same function.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_CODEGEN_COMMON_KERNELEQUIVALENCE_H
#define GOPT_CODEGEN_COMMON_KERNELEQUIVALENCE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/Hashing.h"

namespace mlir {
namespace gopt {

/// Whether `func` is a kernel that may be merged with another: private (no
/// caller outside the module names it), with a body, carrying gopt.kernel.
bool isMergeableKernel(func::FuncOp func);

/// The calls of each symbol of a module, and the symbols something other
/// than a call names (kernels that may not be redirected or changed).
struct KernelCalls {
  llvm::DenseMap<StringAttr, SmallVector<func::CallOp>> calls;
  llvm::DenseSet<StringAttr> namedOtherwise;
};

/// Every use of a symbol of `module`, in one walk; nullopt when an op's
/// symbol uses are unknown (then no kernel is safe to change).
std::optional<KernelCalls> collectKernelCalls(ModuleOp module);

/// A hash of what makes two kernels the same function: the signature, the
/// argument and result attributes, and every op of the body (name,
/// attributes, properties, result types; values and locations left out,
/// isSameKernel checks them). `hashOp`, when given, hashes the ops it
/// returns a value for in place of the default.
llvm::hash_code hashKernel(
    func::FuncOp kernel,
    llvm::function_ref<std::optional<llvm::hash_code>(Operation *)> hashOp =
        nullptr);

/// Whether `a` and `b` are the same function: signature, argument and
/// result attributes, and bodies equal op for op (locations aside).
bool isSameKernel(func::FuncOp a, func::FuncOp b);

} // namespace gopt
} // namespace mlir

#endif // GOPT_CODEGEN_COMMON_KERNELEQUIVALENCE_H
