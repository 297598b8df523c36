//===- ShapeInference.h - Shape rules of gopt ops ---------------*- C++ -*-===//
//
// The shape rules shared by op verification, result-type inference, the
// folders and the builders.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_DIALECT_GOPT_IR_SHAPEINFERENCE_H
#define GOPT_DIALECT_GOPT_IR_SHAPEINFERENCE_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace mlir {
namespace gopt {

/// numpy broadcasting of two shapes; std::nullopt when incompatible.
std::optional<SmallVector<int64_t>> broadcastShapes(ArrayRef<int64_t> lhs,
                                                    ArrayRef<int64_t> rhs);

/// Result type of a broadcasting elementwise op on `lhs` and `rhs`: same
/// element type required; the result element is `resultElement` when given,
/// else the operands' element type. Emits a diagnostic at `loc` on failure.
LogicalResult inferBroadcastBinaryType(std::optional<Location> loc, Value lhs,
                                       Value rhs, Type resultElement,
                                       SmallVectorImpl<Type> &types);

/// Whether every dim of `shape` is 1 (a rank-0 shape included): such an
/// operand broadcasts the same against any shape, in any layout, so a
/// permutation of the other operands never needs to move it.
inline bool isUnitShape(ArrayRef<int64_t> shape) {
  return llvm::all_of(shape, [](int64_t d) { return d == 1; });
}

/// Normalizes `axis` for a tensor of `rank` (negative counts from the back);
/// std::nullopt when out of range.
std::optional<int64_t> normalizeAxis(int64_t axis, int64_t rank);

/// Printable `[a, b, c]` form of a shape, for diagnostics.
std::string shapeToString(ArrayRef<int64_t> shape);

/// Row-major strides of a shape.
SmallVector<int64_t> computeStrides(ArrayRef<int64_t> shape);

/// Normalized [start, end) bounds of one sliced dimension and its size.
struct SliceBounds {
  int64_t start;
  int64_t size;
};
std::optional<SliceBounds> normalizeSlice(int64_t dim, int64_t start,
                                          int64_t end, int64_t step);

} // namespace gopt
} // namespace mlir

#endif // GOPT_DIALECT_GOPT_IR_SHAPEINFERENCE_H
