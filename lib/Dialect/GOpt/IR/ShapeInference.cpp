//===- ShapeInference.cpp - Shape rules of gopt ops -----------------------===//

#include "GOpt/Dialect/GOpt/IR/ShapeInference.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::gopt;

std::optional<SmallVector<int64_t>>
mlir::gopt::broadcastShapes(ArrayRef<int64_t> lhs, ArrayRef<int64_t> rhs) {
  size_t rank = std::max(lhs.size(), rhs.size());
  SmallVector<int64_t> result(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    int64_t l = i < rank - lhs.size() ? 1 : lhs[i - (rank - lhs.size())];
    int64_t r = i < rank - rhs.size() ? 1 : rhs[i - (rank - rhs.size())];
    if (l != r && l != 1 && r != 1)
      return std::nullopt;
    result[i] = l == 1 ? r : l;
  }
  return result;
}

std::string mlir::gopt::shapeToString(ArrayRef<int64_t> shape) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "[";
  llvm::interleaveComma(shape, os);
  os << "]";
  return s;
}

LogicalResult mlir::gopt::inferBroadcastBinaryType(
    std::optional<Location> loc, Value lhs, Value rhs, Type resultElement,
    SmallVectorImpl<Type> &types) {
  auto lhsType = dyn_cast<RankedTensorType>(lhs.getType());
  auto rhsType = dyn_cast<RankedTensorType>(rhs.getType());
  if (!lhsType || !rhsType)
    return emitOptionalError(loc, "operands must be ranked tensors");
  if (lhsType.getElementType() != rhsType.getElementType())
    return emitOptionalError(loc, "operand 'rhs' has element type ",
                             rhsType.getElementType(), " but 'lhs' has ",
                             lhsType.getElementType(),
                             "; expected the same element type");
  auto shape = broadcastShapes(lhsType.getShape(), rhsType.getShape());
  if (!shape)
    return emitOptionalError(
        loc, "operand 'rhs' of shape ", shapeToString(rhsType.getShape()),
        " does not broadcast with operand 'lhs' of shape ",
        shapeToString(lhsType.getShape()));
  types.push_back(RankedTensorType::get(
      *shape, resultElement ? resultElement : lhsType.getElementType()));
  return success();
}

std::optional<int64_t> mlir::gopt::normalizeAxis(int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank)
    return std::nullopt;
  return axis < 0 ? axis + rank : axis;
}

SmallVector<int64_t> mlir::gopt::computeStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

std::optional<SliceBounds> mlir::gopt::normalizeSlice(int64_t dim,
                                                      int64_t start,
                                                      int64_t end,
                                                      int64_t step) {
  if (step <= 0)
    return std::nullopt;
  auto clamp = [&](int64_t v) {
    if (v < 0)
      v += dim;
    return std::min(std::max<int64_t>(v, 0), dim);
  };
  int64_t s = clamp(start), e = clamp(end);
  int64_t size = e > s ? (e - s + step - 1) / step : 0;
  return SliceBounds{s, size};
}
