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

/// Patterns of gopt-fold: dense constant evaluation bounded by
/// `maxFoldedElements`, plus the canonicalization patterns of gopt ops.
void populateGOptFoldPatterns(RewritePatternSet &patterns,
                              int64_t maxFoldedElements);

#define GEN_PASS_REGISTRATION
#include "GOpt/Transforms/Passes.h.inc"

} // namespace gopt
} // namespace mlir

#endif // GOPT_TRANSFORMS_PASSES_H
