//===- TileShapes.cpp - Tile shapes both tiling levels share --------------===//

#include "GOpt/Codegen/Common/TileShapes.h"

#include <algorithm>

using namespace mlir;

int64_t mlir::gopt::largestDivisorUpTo(int64_t bound, int64_t limit) {
  for (int64_t d = std::min(limit, bound); d > 1; --d)
    if (bound % d == 0)
      return d;
  return 1;
}

int64_t mlir::gopt::innermostParallelDim(linalg::LinalgOp op) {
  auto iterators = op.getIteratorTypesArray();
  for (int64_t d = static_cast<int64_t>(iterators.size()) - 1; d >= 0; --d)
    if (iterators[d] == utils::IteratorType::parallel)
      return d;
  return -1;
}

int64_t mlir::gopt::transposedReadDim(linalg::LinalgOp op, int64_t inner) {
  if (inner < 0)
    return -1;
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  auto iterators = op.getIteratorTypesArray();
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (map.getNumResults() == 0 ||
        !map.isFunctionOfDim(static_cast<unsigned>(inner)))
      continue;
    auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
    if (!last)
      continue;
    int64_t d = last.getPosition();
    if (d != inner && bounds[d] > 1 &&
        iterators[d] == utils::IteratorType::parallel)
      return d;
  }
  return -1;
}
