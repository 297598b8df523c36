//===- ResizeCoordinates.h - Where gopt.resize reads ------------*- C++ -*-===//
//
// The input elements each result index of a gopt.resize reads on one dim,
// and with what weight. The constant evaluator and the lowering to linalg
// both take them from here, so a folded resize and a compiled one read the
// same elements; only the arithmetic on them is each one's own.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_DIALECT_GOPT_IR_RESIZECOORDINATES_H
#define GOPT_DIALECT_GOPT_IR_RESIZECOORDINATES_H

#include "GOpt/Dialect/GOpt/IR/GOptOps.h"

#include "llvm/ADT/SmallVector.h"

namespace mlir {
namespace gopt {

/// What one result index reads on one dim: the element is
/// `x[lower] + weight * (x[upper] - x[lower])` (nearest modes: upper ==
/// lower, weight 0). Both indices lie in [0, inSize).
struct ResizeTap {
  int64_t lower;
  int64_t upper;
  double weight;
};

/// The dims `op` resizes, in order: those that do not map every result
/// index to the same input index (the same size, scale 1, offset 0). The
/// others are read as they are.
SmallVector<int64_t> getResizedDims(ResizeOp op);

/// The taps of result indices 0 .. outSize-1 of a dim of `inSize` input
/// elements. The coordinate `o * scale + offset` is computed in double and
/// snapped to the nearest multiple of 1/2 when within 1e-9 of it, so that
/// an exact coordinate such as 3 * (1/3) rounds as the exact value would
/// (the nearest modes' floor and ties hang on it).
SmallVector<ResizeTap> computeResizeTaps(ResizeMode mode, double scale,
                                         double offset, int64_t inSize,
                                         int64_t outSize);

} // namespace gopt
} // namespace mlir

#endif // GOPT_DIALECT_GOPT_IR_RESIZECOORDINATES_H
