//===- GOptToLinalg.h - gopt to linalg/tensor/arith patterns ----*- C++ -*-===//

#ifndef GOPT_CONVERSION_GOPTTOLINALG_GOPTTOLINALG_H
#define GOPT_CONVERSION_GOPTTOLINALG_GOPTTOLINALG_H

namespace mlir {
class ConversionTarget;
class RewritePatternSet;
namespace gopt {

/// Patterns lowering every gopt op to `linalg`, `tensor`, `arith` and `math`
/// ops on the same tensors; a `gopt.fusion` is inlined in place.
void populateGOptToLinalgPatterns(RewritePatternSet &patterns);

/// Marks gopt illegal and the dialects the patterns create legal.
void configureGOptToLinalgTarget(ConversionTarget &target);

} // namespace gopt
} // namespace mlir

#endif // GOPT_CONVERSION_GOPTTOLINALG_GOPTTOLINALG_H
