//===- EvaluatedImporters.cpp - ONNX ops computed at import time ----------===//
//
// Range, Mod and ScatterND have no gopt op: exporters emit them to
// build index tables and masks from shapes (Swin Transformer's shifted-window
// attention mask is a ScatterND of window ids into a zero image, its
// relative-position index a Range, Mod and Sub chain), which are constants
// once the input shapes are static. The importer computes them from their
// known inputs (constants, and what it evaluates from Shape chains) and emits
// the result as a gopt.constant; an input not known at import time is an
// error naming it.
//
//===----------------------------------------------------------------------===//

#include "GraphImporter.h"

#include "GOpt/Dialect/GOpt/IR/ConstantEvaluator.h"
#include "GOpt/Dialect/GOpt/IR/ShapeInference.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::gopt;
using namespace mlir::gopt::onnx_import;

using AttrType = onnx::AttributeProto;

namespace {

/// The largest result computed at import time, in elements: index tables
/// and masks, not activations.
constexpr int64_t kMaxEvaluatedElements = 1 << 24;

/// The import-time values of one input, as integers (integer and bool
/// tensors) or doubles (float tensors).
struct KnownTensor {
  RankedTensorType type;
  SmallVector<int64_t> ints;
  SmallVector<double> floats;
  bool isFloat() const { return isa<FloatType>(type.getElementType()); }
};

FailureOr<KnownTensor> knownInput(NodeContext &n, unsigned i,
                                  llvm::StringRef what) {
  FailureOr<Value> v = n.requiredInput(i, what);
  if (failed(v))
    return failure();
  KnownTensor t{NodeContext::typeOf(*v), {}, {}};
  Attribute known = n.graph.getKnown(*v);
  if (t.isFloat()) {
    if (auto values = getFloatValues(known)) {
      t.floats = std::move(*values);
      return t;
    }
  } else if (auto values = getIntValues(known)) {
    t.ints = std::move(*values);
    return t;
  }
  return n.emitError() << "input " << i << " (" << what << ", '"
                       << n.node.input(i)
                       << "') is not known at import time; GOpt computes "
                       << n.node.op_type()
                       << " only from constants and shape arithmetic";
}

/// A constant of `type` holding `ints` (integer or bool elements) or
/// `floats`; float tensors of more than one element become a blob named
/// after the node's first output.
Value makeConstant(NodeContext &n, RankedTensorType type,
                   ArrayRef<int64_t> ints, ArrayRef<double> floats) {
  if (isa<FloatType>(type.getElementType()))
    return n.constant(makeFloatElements(type, floats, n.node.output(0)));
  unsigned width = type.getElementType().getIntOrFloatBitWidth();
  SmallVector<APInt> values;
  for (int64_t v : ints)
    values.push_back(APInt(width, static_cast<uint64_t>(v), /*isSigned=*/true,
                           /*implicitTrunc=*/true));
  return n.constant(cast<ElementsAttr>(DenseElementsAttr::get(type, values)));
}

/// An error when a result of `count` elements is more than GOpt computes
/// at import time.
LogicalResult checkEvaluatedSize(NodeContext &n, double count) {
  if (count <= kMaxEvaluatedElements)
    return success();
  return n.emitError() << "a result of " << count
                       << " elements is more than GOpt computes at import "
                          "time ("
                       << kMaxEvaluatedElements << ")";
}

LogicalResult importRange(NodeContext &n) {
  FailureOr<KnownTensor> start = knownInput(n, 0, "start");
  FailureOr<KnownTensor> limit = knownInput(n, 1, "limit");
  FailureOr<KnownTensor> delta = knownInput(n, 2, "delta");
  if (failed(start) || failed(limit) || failed(delta))
    return failure();
  for (const KnownTensor *t : {&*start, &*limit, &*delta})
    if (t->type.getRank() != 0)
      return n.emitError() << "start, limit and delta must be scalars";
  Type element = start->type.getElementType();
  if (limit->type.getElementType() != element ||
      delta->type.getElementType() != element)
    return n.emitError() << "start, limit and delta must have one type";
  bool isFloat = start->isFloat();
  double first = isFloat ? start->floats[0] : start->ints[0];
  double step = isFloat ? delta->floats[0] : delta->ints[0];
  double end = isFloat ? limit->floats[0] : limit->ints[0];
  if (step == 0)
    return n.emitError() << "delta is 0";
  double count = std::max(std::ceil((end - first) / step), 0.0);
  if (failed(checkEvaluatedSize(n, count)))
    return failure();
  auto type = RankedTensorType::get({static_cast<int64_t>(count)}, element);
  SmallVector<int64_t> ints;
  SmallVector<double> floats;
  for (int64_t i = 0; i < static_cast<int64_t>(count); ++i) {
    if (isFloat)
      floats.push_back(start->floats[0] + i * delta->floats[0]);
    else
      ints.push_back(start->ints[0] + i * delta->ints[0]);
  }
  return n.setResults({makeConstant(n, type, ints, floats)});
}

/// Mod: integers take the divisor's sign (fmod = 0, Python's %); fmod = 1
/// takes the dividend's (C's fmod), the only form ONNX allows for floats.
LogicalResult importMod(NodeContext &n) {
  FailureOr<KnownTensor> a = knownInput(n, 0, "A");
  FailureOr<KnownTensor> b = knownInput(n, 1, "B");
  if (failed(a) || failed(b))
    return failure();
  if (a->type.getElementType() != b->type.getElementType())
    return n.emitError() << "A and B must have one element type";
  bool fmod = n.getInt("fmod", 0) != 0;
  if (a->isFloat() && !fmod)
    return n.emitError() << "fmod must be 1 for float tensors";
  std::optional<SmallVector<int64_t>> shape =
      broadcastShapes(a->type.getShape(), b->type.getShape());
  if (!shape)
    return n.emitError() << "shapes do not broadcast";
  auto type = RankedTensorType::get(*shape, a->type.getElementType());
  if (failed(checkEvaluatedSize(n, type.getNumElements())))
    return failure();
  std::vector<int64_t> aSources = broadcastSources(a->type.getShape(), *shape);
  std::vector<int64_t> bSources = broadcastSources(b->type.getShape(), *shape);
  SmallVector<int64_t> ints;
  SmallVector<double> floats;
  for (int64_t i = 0, e = type.getNumElements(); i < e; ++i) {
    int64_t ia = aSources[i], ib = bSources[i];
    if (a->isFloat()) {
      floats.push_back(std::fmod(a->floats[ia], b->floats[ib]));
      continue;
    }
    int64_t x = a->ints[ia], y = b->ints[ib];
    if (y == 0)
      return n.emitError() << "division by zero";
    int64_t r = x % y;
    if (!fmod && r != 0 && ((r < 0) != (y < 0)))
      r += y;
    ints.push_back(r);
  }
  return n.setResults({makeConstant(n, type, ints, floats)});
}

/// ScatterND: a copy of data with the slices `indices` address replaced by
/// (or, with `reduction`, combined with) `updates`.
LogicalResult importScatterND(NodeContext &n) {
  FailureOr<KnownTensor> data = knownInput(n, 0, "data");
  FailureOr<KnownTensor> indices = knownInput(n, 1, "indices");
  FailureOr<KnownTensor> updates = knownInput(n, 2, "updates");
  if (failed(data) || failed(indices) || failed(updates))
    return failure();
  std::string reduction = n.getString("reduction", "none");
  enum class Reduction { None, Add, Mul, Max, Min };
  std::optional<Reduction> kind =
      llvm::StringSwitch<std::optional<Reduction>>(reduction)
          .Case("none", Reduction::None)
          .Case("add", Reduction::Add)
          .Case("mul", Reduction::Mul)
          .Case("max", Reduction::Max)
          .Case("min", Reduction::Min)
          .Default(std::nullopt);
  if (!kind)
    return n.emitError() << "reduction '" << reduction << "' is unknown";
  auto combine = [&](auto old, auto update) {
    switch (*kind) {
    case Reduction::Add:
      return old + update;
    case Reduction::Mul:
      return old * update;
    case Reduction::Max:
      return std::max(old, update);
    case Reduction::Min:
      return std::min(old, update);
    case Reduction::None:
      break;
    }
    return update;
  };
  ArrayRef<int64_t> dataShape = data->type.getShape();
  ArrayRef<int64_t> indexShape = indices->type.getShape();
  if (indices->isFloat() || indexShape.empty() ||
      indexShape.back() > static_cast<int64_t>(dataShape.size()))
    return n.emitError() << "indices must be an integer tensor whose last "
                            "dim is at most data's rank";
  int64_t k = indexShape.back();
  SmallVector<int64_t> expectedUpdates(indexShape.drop_back());
  llvm::append_range(expectedUpdates, dataShape.drop_front(k));
  if (updates->type.getShape() != ArrayRef<int64_t>(expectedUpdates) ||
      updates->type.getElementType() != data->type.getElementType())
    return n.emitError() << "updates must have indices' shape without its "
                            "last dim, then data's dims from "
                         << k << ", and data's element type";
  SmallVector<int64_t> strides = computeStrides(dataShape);
  // The elements one index tuple addresses: data's dims from k on.
  int64_t sliceSize = ShapedType::getNumElements(dataShape.drop_front(k));
  int64_t tuples = ShapedType::getNumElements(indexShape.drop_back());
  SmallVector<int64_t> ints = data->ints;
  SmallVector<double> floats = data->floats;
  bool isFloat = data->isFloat();
  for (int64_t t = 0; t < tuples; ++t) {
    int64_t offset = 0;
    for (int64_t j = 0; j < k; ++j) {
      int64_t index = indices->ints[t * k + j];
      if (index < 0)
        index += dataShape[j];
      if (index < 0 || index >= dataShape[j])
        return n.emitError() << "index " << indices->ints[t * k + j]
                             << " is out of range for dim " << j
                             << " of extent " << dataShape[j];
      offset += index * strides[j];
    }
    for (int64_t e = 0; e < sliceSize; ++e) {
      int64_t to = offset + e, from = t * sliceSize + e;
      if (isFloat)
        floats[to] = combine(floats[to], updates->floats[from]);
      else
        ints[to] = combine(ints[to], updates->ints[from]);
    }
  }
  return n.setResults({makeConstant(n, data->type, ints, floats)});
}

} // namespace

void onnx_import::registerEvaluatedImporters(OpImporterTable &table) {
  table["Range"] = {importRange, {}};
  table["Mod"] = {importMod, {{"fmod", AttrType::INT}}};
  table["ScatterND"] = {importScatterND, {{"reduction", AttrType::STRING}}};
}
