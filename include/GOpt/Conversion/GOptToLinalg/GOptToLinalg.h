//===- GOptToLinalg.h - gopt to linalg/tensor/arith patterns ----*- C++ -*-===//

#ifndef GOPT_CONVERSION_GOPTTOLINALG_GOPTTOLINALG_H
#define GOPT_CONVERSION_GOPTTOLINALG_GOPTTOLINALG_H

#include "llvm/ADT/StringRef.h"

namespace mlir {
class ConversionTarget;
class RewritePatternSet;
namespace gopt {

/// Discardable attribute on the `linalg.generic` a grouped `gopt.conv2d`
/// (groups > 1) lowers to: `{groups, strides, dilations}` of the
/// convolution, with the input already padded, and a unit `channels_last`
/// when its operands are NHWC / FHWC / NHWC.
inline constexpr llvm::StringLiteral kGroupedConv2DAttrName =
    "gopt.grouped_conv2d";

/// Patterns lowering every gopt op to `linalg`, `tensor`, `arith` and `math`
/// ops on the same tensors; a `gopt.fusion` is inlined in place.
void populateGOptToLinalgPatterns(RewritePatternSet &patterns);

/// Marks gopt illegal and the dialects the patterns create legal.
void configureGOptToLinalgTarget(ConversionTarget &target);

} // namespace gopt
} // namespace mlir

#endif // GOPT_CONVERSION_GOPTTOLINALG_GOPTTOLINALG_H
