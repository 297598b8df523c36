//===- Passes.h - GOpt graph passes -----------------------------*- C++ -*-===//

#ifndef GOPT_TRANSFORMS_PASSES_H
#define GOPT_TRANSFORMS_PASSES_H

#include "GOpt/Dialect/GOpt/IR/GOptDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;
namespace gopt {

#define GEN_PASS_DECL
#include "GOpt/Transforms/Passes.h.inc"

/// What gopt-outline-kernels makes, which later stages look for: the
/// attribute carrying a kernel function's id, and the runtime hooks its
/// `timers` option calls around each kernel call.
inline constexpr llvm::StringLiteral kKernelAttrName = "gopt.kernel";
inline constexpr llvm::StringLiteral kKernelBeginTimer = "gopt_kernel_begin";
inline constexpr llvm::StringLiteral kKernelEndTimer = "gopt_kernel_end";

/// Patterns of gopt-fold: dense constant evaluation bounded by
/// `maxFoldedElements`, plus the canonicalization patterns of gopt ops.
void populateGOptFoldPatterns(RewritePatternSet &patterns,
                              int64_t maxFoldedElements);

#define GEN_PASS_REGISTRATION
#include "GOpt/Transforms/Passes.h.inc"

} // namespace gopt
} // namespace mlir

#endif // GOPT_TRANSFORMS_PASSES_H
