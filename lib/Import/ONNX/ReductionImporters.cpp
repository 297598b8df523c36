//===- ReductionImporters.cpp - Reductions, Softmax, ArgMax, CumSum ------===//
//
// ReduceSum/Mean/Max/Min as `gopt.reduce`; the reductions gopt has no kind
// for as reduces of elementwise ops (ReduceL1, ReduceL2, ReduceSumSquare,
// ReduceLogSumExp) or as products of slices (ReduceProd); Softmax, and
// LogSoftmax as reduces around it; ArgMax/ArgMin as a reduce,
// a comparison and a reduce of the indices that hit, Hardmax as the
// one-hot of that, TopK as K such picks; LpNormalization and
// MeanVarianceNormalization as reduces and elementwise ops; CumSum as a
// product with a triangular matrix of ones.
//
//===----------------------------------------------------------------------===//

#include "GraphImporter.h"

#include "GOpt/Dialect/GOpt/IR/ShapeInference.h"

using namespace mlir;
using namespace mlir::gopt;
using namespace mlir::gopt::onnx_import;

using AttrType = onnx::AttributeProto;

namespace {

/// The longest axis CumSum imports: its [n, n] matrix of ones takes n²
/// elements (16 MiB of f32 at this length).
constexpr int64_t kMaxCumSumLength = 2048;

/// The widest axis ReduceProd multiplies slice by slice.
constexpr int64_t kMaxProductAxis = 256;

/// The largest K TopK imports: each of the K picks is a handful of ops.
constexpr int64_t kMaxTopK = 64;

/// A reduction's axes, normalized and sorted: from the `axes` input
/// (`axesAsInput`: ReduceSum from opset 13) or attribute (the others up to
/// opset 17). No axes means every axis, or none with noop_with_empty_axes
/// (an empty result).
FailureOr<SmallVector<int64_t>> reductionAxes(NodeContext &n, Value x,
                                              bool axesAsInput) {
  int64_t rank = NodeContext::typeOf(x).getRank();
  SmallVector<int64_t> axes;
  if (axesAsInput && n.input(1)) {
    FailureOr<SmallVector<int64_t>> given = n.knownInts(1, "axes");
    if (failed(given))
      return failure();
    axes = *given;
  } else if (auto given = n.getInts("axes")) {
    axes = *given;
  }
  if (axes.empty()) {
    if (n.getInt("noop_with_empty_axes", 0) != 0)
      return axes;
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
    return axes;
  }
  return normalizeAxes(n, axes, rank);
}

/// A reduction's data input (`floatOnly`: an error unless float) and its
/// axes (reductionAxes).
FailureOr<std::pair<Value, SmallVector<int64_t>>>
readReduction(NodeContext &n, bool axesAsInput, bool floatOnly) {
  FailureOr<Value> x = n.requiredInput(0, "data");
  if (failed(x))
    return failure();
  if (floatOnly && !isa<FloatType>(NodeContext::typeOf(*x).getElementType()))
    return n.emitError() << "data must be a float tensor";
  FailureOr<SmallVector<int64_t>> axes = reductionAxes(n, *x, axesAsInput);
  if (failed(axes))
    return failure();
  return std::make_pair(*x, std::move(*axes));
}

bool keepdims(NodeContext &n) { return n.getInt("keepdims", 1) != 0; }

FailureOr<Value> reduce(NodeContext &n, ReduceKind kind, Value x,
                        ArrayRef<int64_t> axes, bool keep) {
  return n.create<ReduceOp>(kind, x, axes, keep);
}

/// x with the `axes` dims dropped (a reduce's keepdims = 0 result).
FailureOr<Value> dropAxes(NodeContext &n, Value x, ArrayRef<int64_t> axes) {
  SmallVector<int64_t> shape;
  for (auto [d, size] : llvm::enumerate(NodeContext::typeOf(x).getShape()))
    if (!llvm::is_contained(axes, int64_t(d)))
      shape.push_back(size);
  return n.reshape(x, shape);
}

/// ReduceSum/Mean/Max/Min.
template <ReduceKind kind, bool axesAsInput>
LogicalResult importReduce(NodeContext &n) {
  auto in = readReduction(n, axesAsInput, /*floatOnly=*/false);
  if (failed(in))
    return failure();
  auto &[x, axes] = *in;
  if (axes.empty())
    return n.setResults({x});
  FailureOr<Value> r = reduce(n, kind, x, axes, keepdims(n));
  return failed(r) ? failure() : n.setResults({*r});
}

/// ReduceL1 = Σ|x|, ReduceSumSquare = Σx², ReduceL2 = √Σx².
enum class Norm { L1, SumSquare, L2 };
template <Norm norm> LogicalResult importNormReduce(NodeContext &n) {
  auto in = readReduction(n, /*axesAsInput=*/false, /*floatOnly=*/true);
  if (failed(in))
    return failure();
  auto &[x, axes] = *in;
  FailureOr<Value> terms =
      norm == Norm::L1 ? n.create<AbsOp>(x) : n.create<MulOp>(x, x);
  if (failed(terms))
    return failure();
  FailureOr<Value> r = *terms;
  if (!axes.empty())
    r = reduce(n, ReduceKind::sum, *terms, axes, keepdims(n));
  if (succeeded(r) && norm == Norm::L2)
    r = n.create<SqrtOp>(*r);
  return failed(r) ? failure() : n.setResults({*r});
}

/// log Σ exp(x) over `axes`, kept as 1: the maximum m taken out first,
/// m + log Σ exp(x − m), so that large x does not overflow.
FailureOr<Value> logSumExp(NodeContext &n, Value x, ArrayRef<int64_t> axes) {
  FailureOr<Value> m = reduce(n, ReduceKind::max, x, axes, true);
  if (failed(m))
    return failure();
  FailureOr<Value> t = n.create<SubOp>(x, *m);
  if (succeeded(t))
    t = n.create<ExpOp>(*t);
  if (succeeded(t))
    t = reduce(n, ReduceKind::sum, *t, axes, true);
  if (succeeded(t))
    t = n.create<LogOp>(*t);
  if (succeeded(t))
    t = n.create<AddOp>(*t, *m);
  return t;
}

LogicalResult importReduceLogSumExp(NodeContext &n) {
  auto in = readReduction(n, /*axesAsInput=*/false, /*floatOnly=*/true);
  if (failed(in))
    return failure();
  auto &[x, axes] = *in;
  if (axes.empty()) {
    FailureOr<Value> r = n.create<ExpOp>(x);
    if (succeeded(r))
      r = n.create<LogOp>(*r);
    return failed(r) ? failure() : n.setResults({*r});
  }
  FailureOr<Value> r = logSumExp(n, x, axes);
  if (succeeded(r) && !keepdims(n))
    r = dropAxes(n, *r, axes);
  return failed(r) ? failure() : n.setResults({*r});
}

/// ReduceProd: gopt has no product reduction, so each reduced axis is
/// multiplied slice by slice (exact, and known at import time when the
/// input is: torch's var and std take the product of a shape so).
LogicalResult importReduceProd(NodeContext &n) {
  auto in = readReduction(n, /*axesAsInput=*/false, /*floatOnly=*/false);
  if (failed(in))
    return failure();
  auto &[x, axes] = *in;
  Value acc = x;
  for (int64_t axis : axes) {
    RankedTensorType type = NodeContext::typeOf(acc);
    int64_t extent = type.getDimSize(axis);
    if (extent > kMaxProductAxis)
      return n.emitError() << "axis " << axis << " has " << extent
                           << " elements; GOpt multiplies at most "
                           << kMaxProductAxis << " slices per axis";
    if (extent == 0)
      return n.emitError() << "axis " << axis << " is empty";
    int64_t rank = type.getRank();
    SmallVector<int64_t> starts(rank, 0), ends(type.getShape()), steps(rank, 1);
    Value product;
    for (int64_t i = 0; i < extent; ++i) {
      starts[axis] = i;
      ends[axis] = i + 1;
      FailureOr<Value> slice =
          n.create<SliceOp>(acc, ArrayRef<int64_t>(starts),
                            ArrayRef<int64_t>(ends), ArrayRef<int64_t>(steps));
      if (failed(slice))
        return failure();
      FailureOr<Value> next =
          product ? n.create<MulOp>(product, *slice) : slice;
      if (failed(next))
        return failure();
      product = *next;
    }
    acc = product;
  }
  FailureOr<Value> r = acc;
  if (!keepdims(n))
    r = dropAxes(n, acc, axes);
  return failed(r) ? failure() : n.setResults({*r});
}

/// The `axis` attribute of Softmax-like ops and ArgMax, normalized.
FailureOr<int64_t> axisAttribute(NodeContext &n, Value x, int64_t defaultAxis) {
  return n.normalizedAxis(n.getInt("axis", defaultAxis),
                          NodeContext::typeOf(x).getRank());
}

LogicalResult importSoftmax(NodeContext &n) {
  FailureOr<Value> x = n.requiredInput(0, "input");
  if (failed(x))
    return failure();
  FailureOr<int64_t> axis = axisAttribute(n, *x, -1);
  if (failed(axis))
    return failure();
  FailureOr<Value> r =
      n.createTyped<SoftmaxOp>(NodeContext::typeOf(*x), *x, *axis);
  return failed(r) ? failure() : n.setResults({*r});
}

/// The float input `input` and the `axis` attribute (default -1),
/// normalized: LogSoftmax's and LpNormalization's operands.
FailureOr<std::pair<Value, int64_t>> floatInputAlongAxis(NodeContext &n) {
  FailureOr<Value> x = n.requiredInput(0, "input");
  if (failed(x))
    return failure();
  if (!isa<FloatType>(NodeContext::typeOf(*x).getElementType()))
    return n.emitError() << "input must be a float tensor";
  FailureOr<int64_t> axis = axisAttribute(n, *x, -1);
  if (failed(axis))
    return failure();
  return std::make_pair(*x, *axis);
}

/// LogSoftmax(x) = x − log Σ exp(x) along the axis (opset-13 semantics).
LogicalResult importLogSoftmax(NodeContext &n) {
  FailureOr<std::pair<Value, int64_t>> in = floatInputAlongAxis(n);
  if (failed(in))
    return failure();
  auto [x, axis] = *in;
  FailureOr<Value> lse = logSumExp(n, x, {axis});
  FailureOr<Value> r = failed(lse) ? lse : n.create<SubOp>(x, *lse);
  return failed(r) ? failure() : n.setResults({*r});
}

/// Where x equals its reduced extreme `m`, or is NaN (which wins as in ONNX
/// Runtime and torch: the float reduce propagates it).
FailureOr<Value> extremeHits(NodeContext &n, Value x, Value m) {
  FailureOr<Value> hit = n.create<CompareOp>(ComparePredicate::eq, x, m);
  if (failed(hit) || !isa<FloatType>(NodeContext::typeOf(x).getElementType()))
    return hit;
  FailureOr<Value> isNaN = n.create<CompareOp>(ComparePredicate::ne, x, x);
  if (failed(isNaN))
    return failure();
  return n.create<SelectOp>(*isNaN, n.boolScalar(true), *hit);
}

/// The index of the first (`last`: the last) extreme of `x` along `axis`,
/// the axis kept as 1 with `keep`, int64: the positions where x equals its
/// reduce max (min), or is NaN, keep their index, the others a sentinel past
/// the end (−1 for the last), and a reduce min (max) picks it. `positions` is
/// positionsAlong's for the axis.
FailureOr<Value> extremeIndex(NodeContext &n, Value x, int64_t axis,
                              ReduceKind kind, bool last, Value positions,
                              bool keep) {
  int64_t extent = NodeContext::typeOf(x).getDimSize(axis);
  FailureOr<Value> m = reduce(n, kind, x, {axis}, true);
  FailureOr<Value> hit = failed(m) ? m : extremeHits(n, x, *m);
  if (failed(hit))
    return failure();
  Value sentinel = n.scalarLike(positions, last ? -1.0 : double(extent));
  FailureOr<Value> candidates = n.create<SelectOp>(*hit, positions, sentinel);
  if (failed(candidates))
    return failure();
  return reduce(n, last ? ReduceKind::max : ReduceKind::min, *candidates,
                {axis}, keep);
}

/// The input, its `axis` attribute normalized and that axis' size, for ops
/// that pick along an axis (ArgMax, ArgMin, Hardmax), with the positions
/// along it.
struct AlongAxis {
  Value x;
  int64_t axis, extent;
  Value positions;
};

FailureOr<AlongAxis> readAlongAxis(NodeContext &n, llvm::StringRef input,
                                   int64_t defaultAxis) {
  FailureOr<Value> x = n.requiredInput(0, input);
  if (failed(x))
    return failure();
  FailureOr<int64_t> axis = axisAttribute(n, *x, defaultAxis);
  if (failed(axis))
    return failure();
  int64_t extent = NodeContext::typeOf(*x).getDimSize(*axis);
  if (extent == 0)
    return n.emitError() << "axis " << *axis << " is empty";
  FailureOr<Value> positions =
      n.positionsAlong(NodeContext::typeOf(*x).getRank(), *axis, extent);
  if (failed(positions))
    return failure();
  return AlongAxis{*x, *axis, extent, *positions};
}

/// ArgMax / ArgMin along `axis` (extremeIndex).
template <ReduceKind kind> LogicalResult importArgExtreme(NodeContext &n) {
  FailureOr<AlongAxis> in = readAlongAxis(n, "data", 0);
  if (failed(in))
    return failure();
  FailureOr<Value> r = extremeIndex(n, in->x, in->axis, kind,
                                    n.getInt("select_last_index", 0) != 0,
                                    in->positions, keepdims(n));
  return failed(r) ? failure() : n.setResults({*r});
}

/// Hardmax: 1 at the first position of each maximum along `axis` (as
/// ArgMax finds it), 0 elsewhere, in the input's type.
LogicalResult importHardmax(NodeContext &n) {
  FailureOr<AlongAxis> in = readAlongAxis(n, "input", -1);
  if (failed(in))
    return failure();
  FailureOr<Value> first =
      extremeIndex(n, in->x, in->axis, ReduceKind::max, /*last=*/false,
                   in->positions, /*keep=*/true);
  FailureOr<Value> isFirst =
      failed(first)
          ? first
          : n.create<CompareOp>(ComparePredicate::eq, in->positions, *first);
  if (failed(isFirst))
    return failure();
  auto scalar =
      RankedTensorType::get({}, NodeContext::typeOf(in->x).getElementType());
  FailureOr<Value> r =
      n.create<SelectOp>(*isFirst, n.splat(scalar, 1.0), n.splat(scalar, 0.0));
  return failed(r) ? failure() : n.setResults({*r});
}

/// LpNormalization: x divided by its p-norm along `axis` (p 1 or 2), no
/// epsilon, as ONNX defines it.
LogicalResult importLpNormalization(NodeContext &n) {
  FailureOr<std::pair<Value, int64_t>> in = floatInputAlongAxis(n);
  if (failed(in))
    return failure();
  auto [x, axis] = *in;
  int64_t p = n.getInt("p", 2);
  if (p != 1 && p != 2)
    return n.emitError() << "p = " << p << " is not 1 or 2";
  FailureOr<Value> norm = p == 1 ? n.create<AbsOp>(x) : n.create<MulOp>(x, x);
  if (succeeded(norm))
    norm = reduce(n, ReduceKind::sum, *norm, {axis}, true);
  if (succeeded(norm) && p == 2)
    norm = n.create<SqrtOp>(*norm);
  FailureOr<Value> r = failed(norm) ? norm : n.create<DivOp>(x, *norm);
  return failed(r) ? failure() : n.setResults({*r});
}

/// MeanVarianceNormalization: (x − mean) / (std + 1e-9) over `axes`
/// (default [0, 2, 3]), the standard deviation taken as √mean((x − mean)²),
/// ONNX's epsilon added as its reference does.
LogicalResult importMeanVarianceNormalization(NodeContext &n) {
  FailureOr<Value> x = n.requiredInput(0, "X");
  if (failed(x))
    return failure();
  RankedTensorType type = NodeContext::typeOf(*x);
  if (!isa<FloatType>(type.getElementType()))
    return n.emitError() << "X must be a float tensor";
  FailureOr<SmallVector<int64_t>> axes = normalizeAxes(
      n, n.getInts("axes").value_or(SmallVector<int64_t>{0, 2, 3}),
      type.getRank());
  if (failed(axes))
    return failure();
  FailureOr<Value> mean = reduce(n, ReduceKind::mean, *x, *axes, true);
  FailureOr<Value> centered = failed(mean) ? mean : n.create<SubOp>(*x, *mean);
  FailureOr<Value> std =
      failed(centered) ? centered : n.create<MulOp>(*centered, *centered);
  if (succeeded(std))
    std = reduce(n, ReduceKind::mean, *std, *axes, true);
  if (succeeded(std))
    std = n.create<SqrtOp>(*std);
  if (succeeded(std))
    std = n.create<AddOp>(*std, n.scalarLike(*x, 1e-9));
  FailureOr<Value> r = failed(std) ? std : n.create<DivOp>(*centered, *std);
  return failed(r) ? failure() : n.setResults({*r});
}

/// TopK: K rounds, each picking the extreme of the elements not yet taken
/// (a reduce max or min kept as 1) and its first index (as ArgMax: the
/// least position holding it, or a NaN), then marking that position taken.
/// The values and indices are the rounds' concatenated along the axis:
/// sorted, ties in index order, as ONNX says.
LogicalResult importTopK(NodeContext &n) {
  FailureOr<Value> x = n.requiredInput(0, "X");
  FailureOr<SmallVector<int64_t>> kValues = n.knownInts(1, "K");
  if (failed(x) || failed(kValues))
    return failure();
  RankedTensorType type = NodeContext::typeOf(*x);
  FailureOr<int64_t> axis = axisAttribute(n, *x, -1);
  if (failed(axis))
    return failure();
  int64_t extent = type.getDimSize(*axis);
  if (kValues->size() != 1)
    return n.emitError() << "K must be a single value";
  int64_t k = kValues->front();
  if (k < 1 || k > extent)
    return n.emitError() << "K = " << k << " is not in [1, " << extent
                         << "], the axis' size";
  if (k > kMaxTopK)
    return n.emitError() << "K = " << k << " is more than GOpt's " << kMaxTopK
                         << " (each pick is a reduction)";
  Type element = type.getElementType();
  if (element.isInteger(1))
    return n.emitError() << "X must be a numeric tensor, not bool";
  bool largest = n.getInt("largest", 1) != 0;
  // What a taken element becomes, so that it never wins again.
  double fill = largest ? lowestValue(element) : highestValue(element);

  FailureOr<Value> positions = n.positionsAlong(type.getRank(), *axis, extent);
  if (failed(positions))
    return failure();
  Value pastEnd = n.scalarLike(*positions, double(extent));
  Value trueScalar = n.boolScalar(true), falseScalar = n.boolScalar(false);
  Value fillScalar = n.scalarLike(*x, fill);
  Value taken;
  ReduceKind kind = largest ? ReduceKind::max : ReduceKind::min;

  SmallVector<Value> values, indices;
  for (int64_t round = 0; round < k; ++round) {
    FailureOr<Value> left =
        taken ? n.create<SelectOp>(taken, fillScalar, *x) : *x;
    FailureOr<Value> m =
        failed(left) ? left : reduce(n, kind, *left, {*axis}, true);
    if (failed(m))
      return failure();
    FailureOr<Value> hit = extremeHits(n, *x, *m);
    if (succeeded(hit) && taken)
      hit = n.create<SelectOp>(taken, falseScalar, *hit);
    FailureOr<Value> candidates =
        failed(hit) ? hit : n.create<SelectOp>(*hit, *positions, pastEnd);
    FailureOr<Value> index =
        failed(candidates)
            ? candidates
            : reduce(n, ReduceKind::min, *candidates, {*axis}, true);
    if (failed(index))
      return failure();
    values.push_back(*m);
    indices.push_back(*index);
    if (round + 1 == k)
      break;
    FailureOr<Value> picked =
        n.create<CompareOp>(ComparePredicate::eq, *positions, *index);
    if (succeeded(picked) && taken)
      picked = n.create<SelectOp>(*picked, trueScalar, taken);
    if (failed(picked))
      return failure();
    taken = *picked;
  }
  auto concat = [&](ArrayRef<Value> parts) -> FailureOr<Value> {
    if (parts.size() == 1)
      return parts.front();
    return n.create<ConcatOp>(ValueRange(parts), *axis);
  };
  FailureOr<Value> topValues = concat(values), topIndices = concat(indices);
  if (failed(topValues) || failed(topIndices))
    return failure();
  return n.setResults({*topValues, *topIndices});
}

/// CumSum along the known `axis`: the axis moved last and the rows
/// multiplied by an [n, n] matrix of ones on and above the diagonal
/// (strictly above: `exclusive`; on and below, strictly below: `reverse`),
/// a GEMM on the library path where a loop of n steps would be sequential.
/// Exact for integers; floats add in the GEMM's order.
LogicalResult importCumSum(NodeContext &n) {
  FailureOr<Value> x = n.requiredInput(0, "x");
  if (failed(x))
    return failure();
  FailureOr<SmallVector<int64_t>> axisValues = n.knownInts(1, "axis");
  if (failed(axisValues))
    return failure();
  RankedTensorType type = NodeContext::typeOf(*x);
  int64_t rank = type.getRank();
  if (axisValues->size() != 1)
    return n.emitError() << "axis must be a single value";
  FailureOr<int64_t> axis = n.normalizedAxis(axisValues->front(), rank);
  if (failed(axis))
    return failure();
  if (type.getElementType().isInteger(1))
    return n.emitError() << "x must be a numeric tensor, not bool";
  int64_t length = type.getDimSize(*axis);
  if (length > kMaxCumSumLength)
    return n.emitError() << "axis " << *axis << " has " << length
                         << " elements; GOpt sums at most " << kMaxCumSumLength
                         << " (a product with an n x n matrix of ones)";
  bool exclusive = n.getInt("exclusive", 0) != 0;
  bool reverse = n.getInt("reverse", 0) != 0;

  // [..., n] with the axis last, flattened to [rows, n].
  SmallVector<int64_t> perm;
  for (int64_t d = 0; d < rank; ++d)
    if (d != *axis)
      perm.push_back(d);
  perm.push_back(*axis);
  bool moved = *axis != rank - 1;
  FailureOr<Value> t = *x;
  if (moved)
    t = n.create<TransposeOp>(*x, ArrayRef<int64_t>(perm));
  if (failed(t))
    return failure();
  SmallVector<int64_t> movedShape(NodeContext::typeOf(*t).getShape());
  int64_t rows = length == 0 ? 0 : type.getNumElements() / length;
  t = n.reshape(*t, {rows, length});
  if (failed(t))
    return failure();

  // ones[i][j]: does x[i] count towards y[j]?
  SmallVector<double> ones(length * length, 0.0);
  for (int64_t i = 0; i < length; ++i)
    for (int64_t j = 0; j < length; ++j) {
      bool counts =
          reverse ? (exclusive ? i > j : i >= j) : (exclusive ? i < j : i <= j);
      ones[i * length + j] = counts ? 1.0 : 0.0;
    }
  auto onesType =
      RankedTensorType::get({length, length}, type.getElementType());
  ElementsAttr onesAttr;
  if (isa<FloatType>(type.getElementType())) {
    onesAttr =
        makeFloatElements(onesType, ones, n.node.output(0) + ".cumsum_ones");
  } else {
    SmallVector<APInt> values;
    unsigned width = type.getElementType().getIntOrFloatBitWidth();
    for (double v : ones)
      values.push_back(APInt(width, v != 0.0 ? 1 : 0));
    onesAttr = DenseElementsAttr::get(onesType, values);
  }
  FailureOr<Value> r = n.create<MatmulOp>(*t, n.constant(onesAttr));
  if (succeeded(r))
    r = n.reshape(*r, movedShape);
  if (succeeded(r) && moved) {
    SmallVector<int64_t> inverse(rank);
    for (int64_t d = 0; d < rank; ++d)
      inverse[perm[d]] = d;
    r = n.create<TransposeOp>(*r, ArrayRef<int64_t>(inverse));
  }
  return failed(r) ? failure() : n.setResults({*r});
}

} // namespace

void onnx_import::registerReductionImporters(OpImporterTable &table) {
  std::vector<AttrSpec> reduceAttrs = {{"axes", AttrType::INTS},
                                       {"keepdims", AttrType::INT}};
  std::vector<AttrSpec> argAttrs = {{"axis", AttrType::INT},
                                    {"keepdims", AttrType::INT},
                                    {"select_last_index", AttrType::INT}};
  table["ReduceMean"] = {importReduce<ReduceKind::mean, false>, reduceAttrs};
  table["ReduceMax"] = {importReduce<ReduceKind::max, false>, reduceAttrs};
  table["ReduceMin"] = {importReduce<ReduceKind::min, false>, reduceAttrs};
  table["ReduceSum"] = {
      importReduce<ReduceKind::sum, true>,
      {{"keepdims", AttrType::INT}, {"noop_with_empty_axes", AttrType::INT}}};
  table["ReduceL1"] = {importNormReduce<Norm::L1>, reduceAttrs};
  table["ReduceL2"] = {importNormReduce<Norm::L2>, reduceAttrs};
  table["ReduceSumSquare"] = {importNormReduce<Norm::SumSquare>, reduceAttrs};
  table["ReduceLogSumExp"] = {importReduceLogSumExp, reduceAttrs};
  table["ReduceProd"] = {importReduceProd, reduceAttrs};
  table["Softmax"] = {importSoftmax, {{"axis", AttrType::INT}}};
  table["LogSoftmax"] = {importLogSoftmax, {{"axis", AttrType::INT}}};
  table["ArgMax"] = {importArgExtreme<ReduceKind::max>, argAttrs};
  table["ArgMin"] = {importArgExtreme<ReduceKind::min>, argAttrs};
  table["Hardmax"] = {importHardmax, {{"axis", AttrType::INT}}};
  table["LpNormalization"] = {importLpNormalization,
                              {{"axis", AttrType::INT}, {"p", AttrType::INT}}};
  table["MeanVarianceNormalization"] = {importMeanVarianceNormalization,
                                        {{"axes", AttrType::INTS}}};
  table["TopK"] = {importTopK,
                   {{"axis", AttrType::INT},
                    {"largest", AttrType::INT},
                    {"sorted", AttrType::INT}}};
  table["CumSum"] = {
      importCumSum, {{"exclusive", AttrType::INT}, {"reverse", AttrType::INT}}};
}
