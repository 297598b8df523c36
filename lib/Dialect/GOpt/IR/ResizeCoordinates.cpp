//===- ResizeCoordinates.cpp - Where gopt.resize reads --------------------===//

#include "GOpt/Dialect/GOpt/IR/ResizeCoordinates.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::gopt;

SmallVector<int64_t> mlir::gopt::getResizedDims(ResizeOp op) {
  RankedTensorType in = op.getInput().getType(), out = op.getType();
  SmallVector<int64_t> dims;
  for (int64_t d = 0; d < in.getRank(); ++d)
    if (in.getDimSize(d) != out.getDimSize(d) || op.getScale()[d] != 1.0 ||
        op.getOffset()[d] != 0.0)
      dims.push_back(d);
  return dims;
}

/// `c` moved onto the nearest multiple of 1/2 when it is that close to one.
static double snapToHalves(double c) {
  double halves = std::round(c * 2.0) / 2.0;
  return std::fabs(c - halves) <= 1e-9 * std::max(1.0, std::fabs(c)) ? halves
                                                                     : c;
}

/// `c` rounded as a nearest mode says (still a double: it is clamped to
/// the input before it becomes an index, so a far coordinate converts).
static double roundNearest(ResizeMode mode, double c) {
  double lower = std::floor(c);
  double fraction = c - lower;
  switch (mode) {
  case ResizeMode::nearest_floor:
    return lower;
  case ResizeMode::nearest_ceil:
    return std::ceil(c);
  case ResizeMode::nearest_round_prefer_floor:
    return fraction <= 0.5 ? lower : lower + 1;
  case ResizeMode::nearest_round_prefer_ceil:
    return fraction < 0.5 ? lower : lower + 1;
  case ResizeMode::linear:
    break;
  }
  return lower;
}

SmallVector<ResizeTap>
mlir::gopt::computeResizeTaps(ResizeMode mode, double scale, double offset,
                              int64_t inSize, int64_t outSize) {
  SmallVector<ResizeTap> taps;
  taps.reserve(outSize);
  auto clamp = [&](double i) {
    return static_cast<int64_t>(
        std::clamp(i, 0.0, static_cast<double>(inSize - 1)));
  };
  for (int64_t o = 0; o < outSize; ++o) {
    double c = snapToHalves(static_cast<double>(o) * scale + offset);
    if (mode != ResizeMode::linear) {
      int64_t i = clamp(roundNearest(mode, c));
      taps.push_back({i, i, 0.0});
      continue;
    }
    double lower = std::floor(c);
    int64_t i0 = clamp(lower), i1 = clamp(lower + 1.0);
    taps.push_back({i0, i1, i0 == i1 ? 0.0 : c - lower});
  }
  return taps;
}
