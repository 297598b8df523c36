//===- ShapeImporters.cpp - Shape and data-movement ONNX ops --------------===//
//
// Shape, Size, Reshape, Flatten, Unsqueeze, Squeeze, Expand, Concat, Slice,
// Split, Gather, GatherElements, Pad (constant, and edge and reflect as
// gathers) and Transpose. Shape operands (Reshape's shape, Slice's bounds,
// axes given as inputs) must be known at import time: constants, or values
// the importer evaluates from a Shape -> Gather -> Unsqueeze -> Concat
// chain. The chain's ops are still emitted, so gopt-fold removes them.
//
//===----------------------------------------------------------------------===//

#include "GraphImporter.h"

#include "GOpt/Dialect/GOpt/IR/ShapeInference.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <limits>

using namespace mlir;
using namespace mlir::gopt;
using namespace mlir::gopt::onnx_import;

using AttrType = onnx::AttributeProto;

namespace {

LogicalResult importShape(NodeContext &n) {
  FailureOr<Value> x = n.requiredInput(0, "data");
  if (failed(x))
    return failure();
  FailureOr<Value> shape = n.create<ShapeOp>(*x);
  if (failed(shape))
    return failure();
  if (n.attr("start") || n.attr("end")) {
    int64_t rank = NodeContext::typeOf(*x).getRank();
    int64_t start = std::clamp<int64_t>(n.getInt("start", 0), -rank, rank);
    int64_t end = std::clamp<int64_t>(n.getInt("end", rank), -rank, rank);
    shape = n.create<SliceOp>(*shape, ArrayRef<int64_t>{start},
                              ArrayRef<int64_t>{end}, ArrayRef<int64_t>{1});
    if (failed(shape))
      return failure();
  }
  return n.setResults({*shape});
}

/// Reshape: 0 copies the input dim (unless allowzero), -1 is inferred.
LogicalResult importReshape(NodeContext &n) {
  FailureOr<Value> x = n.requiredInput(0, "data");
  FailureOr<SmallVector<int64_t>> target = n.knownInts(1, "shape");
  if (failed(x) || failed(target))
    return failure();
  RankedTensorType type = NodeContext::typeOf(*x);
  bool allowZero = n.getInt("allowzero", 0) != 0;
  SmallVector<int64_t> shape;
  std::optional<unsigned> inferred;
  int64_t known = 1;
  for (auto [i, d] : llvm::enumerate(*target)) {
    if (d == -1) {
      if (inferred)
        return n.emitError() << "shape has more than one -1";
      inferred = i;
      shape.push_back(1);
      continue;
    }
    if (d == 0 && !allowZero) {
      if (static_cast<int64_t>(i) >= type.getRank())
        return n.emitError() << "shape entry " << i
                             << " is 0 (copy the input dim), but the input "
                                "has rank "
                             << type.getRank();
      d = type.getDimSize(i);
    }
    if (d < 0)
      return n.emitError() << "invalid shape entry " << d;
    if (d > 0 && known > std::numeric_limits<int64_t>::max() / d)
      return n.emitError() << "shape " << shapeToString(*target)
                           << " has too many elements";
    shape.push_back(d);
    known *= d;
  }
  int64_t total = type.getNumElements();
  if (inferred) {
    if (known == 0 || total % known != 0)
      return n.emitError() << "cannot infer the -1 of shape "
                           << shapeToString(*target) << " for input shape "
                           << shapeToString(type.getShape());
    shape[*inferred] = total / known;
  }
  FailureOr<Value> r = n.createTyped<ReshapeOp>(type.clone(shape), *x);
  return failed(r) ? failure() : n.setResults({*r});
}

LogicalResult importFlatten(NodeContext &n) {
  FailureOr<Value> x = n.requiredInput(0, "input");
  if (failed(x))
    return failure();
  RankedTensorType type = NodeContext::typeOf(*x);
  int64_t rank = type.getRank();
  int64_t axis = n.getInt("axis", 1);
  if (axis < -rank || axis > rank)
    return n.emitError() << "axis " << axis << " is out of range for rank "
                         << rank;
  if (axis < 0)
    axis += rank;
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < rank; ++d)
    (d < axis ? outer : inner) *= type.getDimSize(d);
  FailureOr<Value> r = n.reshape(*x, {outer, inner});
  return failed(r) ? failure() : n.setResults({*r});
}

LogicalResult importUnsqueeze(NodeContext &n) {
  FailureOr<Value> x = n.requiredInput(0, "data");
  FailureOr<SmallVector<int64_t>> axes = n.knownInts(1, "axes");
  if (failed(x) || failed(axes))
    return failure();
  RankedTensorType type = NodeContext::typeOf(*x);
  int64_t outRank = type.getRank() + axes->size();
  FailureOr<SmallVector<int64_t>> sorted = normalizeAxes(n, *axes, outRank);
  if (failed(sorted))
    return failure();
  SmallVector<int64_t> shape;
  unsigned next = 0;
  for (int64_t d = 0; d < outRank; ++d)
    shape.push_back(llvm::is_contained(*sorted, d) ? 1
                                                   : type.getDimSize(next++));
  FailureOr<Value> r = n.createTyped<ReshapeOp>(type.clone(shape), *x);
  return failed(r) ? failure() : n.setResults({*r});
}

LogicalResult importSqueeze(NodeContext &n) {
  FailureOr<Value> x = n.requiredInput(0, "data");
  if (failed(x))
    return failure();
  RankedTensorType type = NodeContext::typeOf(*x);
  SmallVector<int64_t> axes;
  if (n.input(1)) {
    FailureOr<SmallVector<int64_t>> given = n.knownInts(1, "axes");
    if (failed(given))
      return failure();
    FailureOr<SmallVector<int64_t>> sorted =
        normalizeAxes(n, *given, type.getRank());
    if (failed(sorted))
      return failure();
    axes = *sorted;
    for (int64_t a : axes)
      if (type.getDimSize(a) != 1)
        return n.emitError() << "cannot squeeze axis " << a << " of size "
                             << type.getDimSize(a);
  } else {
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (type.getDimSize(d) == 1)
        axes.push_back(d);
  }
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (!llvm::is_contained(axes, d))
      shape.push_back(type.getDimSize(d));
  FailureOr<Value> r = n.createTyped<ReshapeOp>(type.clone(shape), *x);
  return failed(r) ? failure() : n.setResults({*r});
}

/// Expand broadcasts both ways: the result is broadcast(input, shape).
LogicalResult importExpand(NodeContext &n) {
  FailureOr<Value> x = n.requiredInput(0, "input");
  FailureOr<SmallVector<int64_t>> target = n.knownInts(1, "shape");
  if (failed(x) || failed(target))
    return failure();
  RankedTensorType type = NodeContext::typeOf(*x);
  auto shape = broadcastShapes(type.getShape(), *target);
  if (!shape)
    return n.emitError() << "cannot expand shape "
                         << shapeToString(type.getShape()) << " to "
                         << shapeToString(*target);
  FailureOr<Value> r = n.createTyped<BroadcastToOp>(type.clone(*shape), *x);
  return failed(r) ? failure() : n.setResults({*r});
}

LogicalResult importConcat(NodeContext &n) {
  SmallVector<Value> inputs;
  for (int i = 0; i < n.node.input_size(); ++i) {
    FailureOr<Value> v = n.requiredInput(i, "inputs");
    if (failed(v))
      return failure();
    inputs.push_back(*v);
  }
  if (inputs.empty())
    return n.emitError() << "needs at least one input";
  if (!n.attr("axis"))
    return n.emitError() << "missing attribute 'axis'";
  FailureOr<Value> r = n.create<ConcatOp>(inputs, n.getInt("axis", 0));
  return failed(r) ? failure() : n.setResults({*r});
}

/// Slice with starts/ends/axes/steps as (known) inputs; positive steps.
LogicalResult importSlice(NodeContext &n) {
  FailureOr<Value> x = n.requiredInput(0, "data");
  FailureOr<SmallVector<int64_t>> starts = n.knownInts(1, "starts");
  FailureOr<SmallVector<int64_t>> ends = n.knownInts(2, "ends");
  if (failed(x) || failed(starts) || failed(ends))
    return failure();
  RankedTensorType type = NodeContext::typeOf(*x);
  int64_t rank = type.getRank();
  SmallVector<int64_t> axes, steps(starts->size(), 1);
  if (n.input(3)) {
    FailureOr<SmallVector<int64_t>> given = n.knownInts(3, "axes");
    if (failed(given))
      return failure();
    axes = *given;
  } else {
    for (int64_t i = 0; i < static_cast<int64_t>(starts->size()); ++i)
      axes.push_back(i);
  }
  if (n.input(4)) {
    FailureOr<SmallVector<int64_t>> given = n.knownInts(4, "steps");
    if (failed(given))
      return failure();
    steps = *given;
  }
  if (ends->size() != starts->size() || axes.size() != starts->size() ||
      steps.size() != starts->size())
    return n.emitError() << "starts, ends, axes and steps differ in length";

  SmallVector<int64_t> fullStarts(rank, 0), fullEnds(type.getShape()),
      fullSteps(rank, 1);
  SmallVector<bool> seen(rank, false);
  // Axes with a negative step, and the indices each visits in order.
  SmallVector<std::pair<int64_t, SmallVector<int64_t>>> reversed;
  for (auto [i, axis] : llvm::enumerate(axes)) {
    FailureOr<int64_t> a = n.normalizedAxis(axis, rank);
    if (failed(a))
      return failure();
    if (seen[*a])
      return n.emitError() << "axis " << axis << " is repeated";
    seen[*a] = true;
    if (steps[i] == 0)
      return n.emitError() << "step 0 on axis " << axis;
    int64_t dim = type.getDimSize(*a);
    if (steps[i] < 0) {
      // Walks the axis backwards: a gather of the indices it visits after
      // the slice of the other axes. ONNX clamps the start into
      // [0, dim - 1] and the end into [-1, dim - 1].
      int64_t start = (*starts)[i], end = (*ends)[i];
      start = std::clamp<int64_t>(
          start < 0 ? std::max(start, -dim) + dim : start, 0, dim - 1);
      end = std::clamp<int64_t>(end < 0 ? std::max(end, -dim - 1) + dim : end,
                                -1, dim - 1);
      SmallVector<int64_t> visited;
      for (int64_t j = start; j > end; j += steps[i])
        visited.push_back(j);
      reversed.push_back({*a, std::move(visited)});
      continue;
    }
    // Clamping into [-dim, dim] keeps ONNX's meaning and avoids overflow
    // of the INT64_MAX "to the end" idiom.
    fullStarts[*a] = std::clamp<int64_t>((*starts)[i], -dim, dim);
    fullEnds[*a] = std::clamp<int64_t>((*ends)[i], -dim, dim);
    fullSteps[*a] = steps[i];
  }
  FailureOr<Value> r = *x;
  if (fullStarts != SmallVector<int64_t>(rank, 0) ||
      fullEnds != ArrayRef<int64_t>(type.getShape()) ||
      fullSteps != SmallVector<int64_t>(rank, 1) || reversed.empty())
    r = n.create<SliceOp>(*x, ArrayRef<int64_t>(fullStarts),
                          ArrayRef<int64_t>(fullEnds),
                          ArrayRef<int64_t>(fullSteps));
  for (auto &[axis, visited] : reversed) {
    if (failed(r))
      return failure();
    auto indexType = RankedTensorType::get(
        {static_cast<int64_t>(visited.size())}, n.builder().getI64Type());
    Value indices = n.constant(cast<ElementsAttr>(
        DenseElementsAttr::get(indexType, ArrayRef<int64_t>(visited))));
    r = n.create<GatherOp>(*r, indices, axis);
  }
  return failed(r) ? failure() : n.setResults({*r});
}

/// Split into given sizes (input 'split'), or equal parts, one per output.
LogicalResult importSplit(NodeContext &n) {
  FailureOr<Value> x = n.requiredInput(0, "input");
  if (failed(x))
    return failure();
  RankedTensorType type = NodeContext::typeOf(*x);
  FailureOr<int64_t> axis =
      n.normalizedAxis(n.getInt("axis", 0), type.getRank());
  if (failed(axis))
    return failure();
  int64_t dim = type.getDimSize(*axis);
  SmallVector<int64_t> sizes;
  if (n.input(1)) {
    FailureOr<SmallVector<int64_t>> given = n.knownInts(1, "split");
    if (failed(given))
      return failure();
    sizes = *given;
  } else {
    int64_t parts = n.node.output_size();
    if (parts == 0 || dim % parts != 0)
      return n.emitError() << "cannot split dimension " << dim << " into "
                           << parts << " equal parts";
    sizes.assign(parts, dim / parts);
  }
  if (static_cast<int64_t>(sizes.size()) != n.node.output_size())
    return n.emitError() << "split has " << sizes.size() << " sizes for "
                         << n.node.output_size() << " outputs";
  SmallVector<Type> types;
  for (int64_t s : sizes) {
    if (s < 0)
      return n.emitError() << "negative split size " << s;
    SmallVector<int64_t> shape(type.getShape());
    shape[*axis] = s;
    types.push_back(type.clone(shape));
  }
  auto op = SplitOp::create(n.builder(), n.loc, types, *x, *axis,
                            ArrayRef<int64_t>(sizes));
  if (failed(n.finish(op)))
    return failure();
  return n.setResults(SmallVector<Value>(op->getResults()));
}

/// Constant-mode Pad with non-negative pads (begins, then ends).
/// Edge and reflect padding: per padded axis, a `gather` of the input
/// positions each output position copies (edge: the nearest one; reflect:
/// mirrored about the first and last element, which is not repeated).
FailureOr<Value> padByGather(NodeContext &n, Value x, ArrayRef<int64_t> pads,
                             bool reflect) {
  RankedTensorType type = NodeContext::typeOf(x);
  int64_t rank = type.getRank();
  Value acc = x;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t begin = pads[d], end = pads[d + rank];
    if (begin == 0 && end == 0)
      continue;
    int64_t size = type.getDimSize(d);
    if (size == 0)
      return n.emitError() << "cannot pad the empty axis " << d << " with "
                           << (reflect ? "reflect" : "edge") << " mode";
    if (reflect && (begin >= size || end >= size))
      return n.emitError() << "reflect pads of axis " << d << " (" << begin
                           << ", " << end << ") must be smaller than its size "
                           << size;
    if (failed(n.checkTableSize(begin, "the padding's positions")) ||
        failed(n.checkTableSize(end, "the padding's positions")) ||
        failed(n.checkTableSize(size + begin + end, "the padded positions")))
      return failure();
    SmallVector<int64_t> positions;
    for (int64_t i = -begin; i < size + end; ++i) {
      int64_t p = i;
      if (reflect)
        p = i < 0 ? -i : (i >= size ? 2 * (size - 1) - i : i);
      else
        p = std::clamp<int64_t>(i, 0, size - 1);
      positions.push_back(p);
    }
    Value indices = n.constant(DenseElementsAttr::get(
        RankedTensorType::get({int64_t(positions.size())},
                              n.builder().getI64Type()),
        ArrayRef<int64_t>(positions)));
    FailureOr<Value> gathered = n.create<GatherOp>(acc, indices, d);
    if (failed(gathered))
      return failure();
    acc = *gathered;
  }
  return acc;
}

LogicalResult importPad(NodeContext &n) {
  FailureOr<Value> x = n.requiredInput(0, "data");
  FailureOr<SmallVector<int64_t>> pads = n.knownInts(1, "pads");
  if (failed(x) || failed(pads))
    return failure();
  std::string mode = n.getString("mode", "constant");
  if (mode != "constant" && mode != "edge" && mode != "reflect")
    return n.emitError() << "mode '" << mode
                         << "' is not supported (constant, edge and reflect "
                            "are)";
  RankedTensorType type = NodeContext::typeOf(*x);
  int64_t rank = type.getRank();
  if (static_cast<int64_t>(pads->size()) != 2 * rank)
    return n.emitError() << "pads has " << pads->size() << " entries, expected "
                         << 2 * rank;
  for (int64_t p : *pads)
    if (p < 0)
      return n.emitError() << "negative pads (cropping) are not supported";
  if (mode != "constant") {
    FailureOr<Value> r = padByGather(n, *x, *pads, mode == "reflect");
    return failed(r) ? failure() : n.setResults({*r});
  }
  double value = 0.0;
  if (n.input(2)) {
    FailureOr<SmallVector<double>> v = n.knownFloats(2, "constant_value");
    if (failed(v))
      return failure();
    if (v->size() != 1)
      return n.emitError() << "constant_value must be a single value";
    value = v->front();
  }
  ArrayRef<int64_t> all(*pads);
  Builder &b = n.builder();
  FailureOr<Value> r = n.create<PadOp>(
      *x, b.getDenseI64ArrayAttr(all.take_front(rank)),
      b.getDenseI64ArrayAttr(all.drop_front(rank)), b.getF64FloatAttr(value));
  return failed(r) ? failure() : n.setResults({*r});
}

LogicalResult importGather(NodeContext &n) {
  FailureOr<Value> x = n.requiredInput(0, "data");
  FailureOr<Value> indices = n.requiredInput(1, "indices");
  if (failed(x) || failed(indices))
    return failure();
  FailureOr<Value> r = n.create<GatherOp>(*x, *indices, n.getInt("axis", 0));
  return failed(r) ? failure() : n.setResults({*r});
}

/// Size: the element count, a constant (shapes are static).
LogicalResult importSize(NodeContext &n) {
  FailureOr<Value> x = n.requiredInput(0, "data");
  if (failed(x))
    return failure();
  int64_t elements = NodeContext::typeOf(*x).getNumElements();
  return n.setResults({n.splat(
      RankedTensorType::get({}, n.builder().getI64Type()), double(elements))});
}

LogicalResult importGatherElements(NodeContext &n) {
  FailureOr<Value> x = n.requiredInput(0, "data");
  FailureOr<Value> indices = n.requiredInput(1, "indices");
  if (failed(x) || failed(indices))
    return failure();
  FailureOr<Value> r =
      n.create<GatherElementsOp>(*x, *indices, n.getInt("axis", 0));
  return failed(r) ? failure() : n.setResults({*r});
}

LogicalResult importTranspose(NodeContext &n) {
  FailureOr<Value> x = n.requiredInput(0, "data");
  if (failed(x))
    return failure();
  int64_t rank = NodeContext::typeOf(*x).getRank();
  SmallVector<int64_t> perm;
  if (auto given = n.getInts("perm"))
    perm = *given;
  else
    for (int64_t d = rank - 1; d >= 0; --d)
      perm.push_back(d);
  FailureOr<Value> r = n.create<TransposeOp>(*x, ArrayRef<int64_t>(perm));
  return failed(r) ? failure() : n.setResults({*r});
}

} // namespace

void onnx_import::registerShapeImporters(OpImporterTable &table) {
  table["Shape"] = {importShape,
                    {{"start", AttrType::INT}, {"end", AttrType::INT}}};
  table["Reshape"] = {importReshape, {{"allowzero", AttrType::INT}}};
  table["Flatten"] = {importFlatten, {{"axis", AttrType::INT}}};
  table["Unsqueeze"] = {importUnsqueeze, {}};
  table["Squeeze"] = {importSqueeze, {}};
  table["Expand"] = {importExpand, {}};
  table["Concat"] = {importConcat, {{"axis", AttrType::INT}}};
  table["Slice"] = {importSlice, {}};
  table["Split"] = {importSplit, {{"axis", AttrType::INT}}};
  table["Gather"] = {importGather, {{"axis", AttrType::INT}}};
  table["GatherElements"] = {importGatherElements, {{"axis", AttrType::INT}}};
  table["Size"] = {importSize, {}};
  table["Pad"] = {importPad, {{"mode", AttrType::STRING}}};
  table["Transpose"] = {importTranspose, {{"perm", AttrType::INTS}}};
}
