//===- PopulatePatterns.h - gopt-to-linalg patterns by op family -*- C++
//-*-===//
//
// Private to lib/Conversion/GOptToLinalg: each op family's patterns live in a
// file of their own; populateGOptToLinalgPatterns (GOptToLinalg.cpp) adds
// them all.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_LIB_CONVERSION_GOPTTOLINALG_POPULATEPATTERNS_H
#define GOPT_LIB_CONVERSION_GOPTTOLINALG_POPULATEPATTERNS_H

namespace mlir {
class RewritePatternSet;
namespace gopt {
namespace detail {

/// Constants, unary and binary elementwise ops, compare, select, cast,
/// broadcast_to (ElementwiseToLinalg.cpp).
void populateElementwiseToLinalgPatterns(RewritePatternSet &patterns);
/// reduce, softmax, layer_norm, pool2d, global_avg_pool
/// (ReductionsToLinalg.cpp).
void populateReductionsToLinalgPatterns(RewritePatternSet &patterns);
/// matmul, linear, conv2d (ContractionsToLinalg.cpp).
void populateContractionsToLinalgPatterns(RewritePatternSet &patterns);
/// transpose, reshape, concat, slice, split, gather, pad, shape
/// (DataMovementToLinalg.cpp).
void populateDataMovementToLinalgPatterns(RewritePatternSet &patterns);

} // namespace detail
} // namespace gopt
} // namespace mlir

#endif // GOPT_LIB_CONVERSION_GOPTTOLINALG_POPULATEPATTERNS_H
