//===- RearrangeImporters.cpp - Tile, DepthToSpace, Trilu, OneHot --------===//
//
// ONNX ops that copy, move or place elements and that gopt has no op for,
// built from its views and elementwise ops: Tile as a broadcast between
// reshapes, DepthToSpace and SpaceToDepth as a reshape, a transpose and a
// reshape, Trilu as a select by a constant mask, OneHot as a comparison
// with the positions along the new axis.
//
//===----------------------------------------------------------------------===//

#include "GraphImporter.h"

#include "GOpt/Dialect/GOpt/IR/ShapeInference.h"

using namespace mlir;
using namespace mlir::gopt;
using namespace mlir::gopt::onnx_import;

using AttrType = onnx::AttributeProto;

namespace {

/// Tile: each axis with r > 1 repeats gets a unit dim before it, which a
/// broadcast widens to r; a reshape merges each pair. [2, 3] tiled [2, 1]
/// is [1, 2, 3] → [2, 2, 3] → [4, 3].
LogicalResult importTile(NodeContext &n) {
  FailureOr<Value> x = n.requiredInput(0, "input");
  FailureOr<SmallVector<int64_t>> repeats = n.knownInts(1, "repeats");
  if (failed(x) || failed(repeats))
    return failure();
  RankedTensorType type = NodeContext::typeOf(*x);
  if (static_cast<int64_t>(repeats->size()) != type.getRank())
    return n.emitError() << "repeats has " << repeats->size()
                         << " entries, expected " << type.getRank();
  SmallVector<int64_t> split, widened, result;
  for (auto [size, r] : llvm::zip_equal(type.getShape(), *repeats)) {
    if (r < 0)
      return n.emitError() << "negative repeat " << r;
    if (r != 1) {
      split.push_back(1);
      widened.push_back(r);
    }
    split.push_back(size);
    widened.push_back(size);
    result.push_back(size * r);
  }
  if (split.size() == size_t(type.getRank()))
    return n.setResults({*x});
  FailureOr<Value> r = n.reshape(*x, split);
  if (succeeded(r))
    r = n.createTyped<BroadcastToOp>(type.clone(widened), *r);
  if (succeeded(r))
    r = n.reshape(*r, result);
  return failed(r) ? failure() : n.setResults({*r});
}

/// The 4-D input and the blocksize of DepthToSpace and SpaceToDepth.
FailureOr<std::pair<Value, int64_t>> blockInput(NodeContext &n) {
  FailureOr<Value> x = n.requiredInput(0, "input");
  if (failed(x))
    return failure();
  if (NodeContext::typeOf(*x).getRank() != 4)
    return n.emitError() << "the input must be 4-D [N, C, H, W], got rank "
                         << NodeContext::typeOf(*x).getRank();
  if (!n.attr("blocksize"))
    return n.emitError() << "missing attribute 'blocksize'";
  int64_t block = n.getInt("blocksize", 0);
  if (block <= 0)
    return n.emitError() << "blocksize must be positive, got " << block;
  return std::make_pair(*x, block);
}

/// A reshape to `split`, a transpose by `perm` and a reshape to `result`.
LogicalResult rearrange(NodeContext &n, Value x, ArrayRef<int64_t> split,
                        ArrayRef<int64_t> perm, ArrayRef<int64_t> result) {
  FailureOr<Value> r = n.reshape(x, split);
  if (succeeded(r))
    r = n.create<TransposeOp>(*r, perm);
  if (succeeded(r))
    r = n.reshape(*r, result);
  return failed(r) ? failure() : n.setResults({*r});
}

/// DepthToSpace: [N, C, H, W] → [N, C/b², H·b, W·b]. DCR mode takes the
/// block offsets from the channel's high part ([N, b, b, C/b², H, W]), CRD
/// (PyTorch's pixel_shuffle) from its low part ([N, C/b², b, b, H, W]).
LogicalResult importDepthToSpace(NodeContext &n) {
  FailureOr<std::pair<Value, int64_t>> in = blockInput(n);
  if (failed(in))
    return failure();
  auto [x, b] = *in;
  ArrayRef<int64_t> s = NodeContext::typeOf(x).getShape();
  int64_t c = s[1];
  if (b > c || c % (b * b) != 0)
    return n.emitError() << "channels " << c
                         << " are not a multiple of blocksize² (blocksize " << b
                         << ")";
  std::string mode = n.getString("mode", "DCR");
  SmallVector<int64_t> result = {s[0], c / (b * b), s[2] * b, s[3] * b};
  if (mode == "DCR")
    return rearrange(n, x, {s[0], b, b, c / (b * b), s[2], s[3]},
                     {0, 3, 4, 1, 5, 2}, result);
  if (mode == "CRD")
    return rearrange(n, x, {s[0], c / (b * b), b, b, s[2], s[3]},
                     {0, 1, 4, 2, 5, 3}, result);
  return n.emitError() << "mode '" << mode << "' is not DCR or CRD";
}

/// SpaceToDepth: [N, C, H, W] → [N, C·b², H/b, W/b], the block offsets the
/// channel's high part (DepthToSpace DCR's inverse).
LogicalResult importSpaceToDepth(NodeContext &n) {
  FailureOr<std::pair<Value, int64_t>> in = blockInput(n);
  if (failed(in))
    return failure();
  auto [x, b] = *in;
  ArrayRef<int64_t> s = NodeContext::typeOf(x).getShape();
  if (b > s[2] || b > s[3] || s[2] % b != 0 || s[3] % b != 0)
    return n.emitError() << "height " << s[2] << " and width " << s[3]
                         << " must be multiples of blocksize " << b;
  return rearrange(n, x, {s[0], s[1], s[2] / b, b, s[3] / b, b},
                   {0, 3, 5, 1, 2, 4},
                   {s[0], s[1] * b * b, s[2] / b, s[3] / b});
}

/// Trilu: the elements of each [N, M] matrix (the last two dims) on and
/// above the k-th diagonal (upper) or on and below it (lower) are kept, the
/// others zero: a select by an [N, M] constant mask.
LogicalResult importTrilu(NodeContext &n) {
  FailureOr<Value> x = n.requiredInput(0, "input");
  if (failed(x))
    return failure();
  RankedTensorType type = NodeContext::typeOf(*x);
  if (type.getRank() < 2)
    return n.emitError() << "the input must have rank 2 or more, got "
                         << type.getRank();
  int64_t k = 0;
  if (n.input(1)) {
    FailureOr<SmallVector<int64_t>> given = n.knownInts(1, "k");
    if (failed(given))
      return failure();
    if (given->size() != 1)
      return n.emitError() << "k must be a single value";
    k = given->front();
  }
  bool upper = n.getInt("upper", 1) != 0;
  int64_t rows = type.getDimSize(type.getRank() - 2);
  int64_t cols = type.getDimSize(type.getRank() - 1);
  // Each at most the bound first, so that their product cannot overflow.
  if (failed(n.checkTableSize(rows, "the mask's rows")) ||
      failed(n.checkTableSize(cols, "the mask's columns")) ||
      failed(n.checkTableSize(rows * cols, "the mask")))
    return failure();
  SmallVector<bool> keep;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      keep.push_back(upper ? j - i >= k : j - i <= k);
  Value mask = n.constant(DenseElementsAttr::get(
      RankedTensorType::get({rows, cols}, n.builder().getI1Type()),
      ArrayRef<bool>(keep)));
  FailureOr<Value> r = n.create<SelectOp>(mask, *x, n.scalarLike(*x, 0.0));
  return failed(r) ? failure() : n.setResults({*r});
}

/// OneHot: output[..., j at axis, ...] = on where indices[...] (negative
/// ones counting from depth) equals j, off elsewhere (out-of-range indices
/// give a row of off): the indices with a unit dim at `axis`, compared
/// with the positions 0..depth−1 along it.
LogicalResult importOneHot(NodeContext &n) {
  FailureOr<Value> indices = n.requiredInput(0, "indices");
  FailureOr<SmallVector<int64_t>> depthValues = n.knownInts(1, "depth");
  FailureOr<Value> values = n.requiredInput(2, "values");
  if (failed(indices) || failed(depthValues) || failed(values))
    return failure();
  if (depthValues->size() != 1 || depthValues->front() < 1)
    return n.emitError() << "depth must be a single positive value";
  int64_t depth = depthValues->front();
  RankedTensorType valuesType = NodeContext::typeOf(*values);
  if (valuesType.getNumElements() != 2)
    return n.emitError() << "values must hold two elements, [off, on]";
  RankedTensorType indexType = NodeContext::typeOf(*indices);
  int64_t rank = indexType.getRank() + 1;
  FailureOr<int64_t> axis = n.normalizedAxis(n.getInt("axis", -1), rank);
  if (failed(axis))
    return failure();

  Type i64 = n.builder().getI64Type();
  Value idx = *indices;
  if (indexType.getElementType() != i64) {
    // Float indices truncate, as ONNX's cast to an integer does.
    FailureOr<Value> cast = n.createTyped<CastOp>(indexType.clone(i64), idx);
    if (failed(cast))
      return failure();
    idx = *cast;
  }
  FailureOr<Value> negative =
      n.create<CompareOp>(ComparePredicate::lt, idx, n.scalarLike(idx, 0.0));
  FailureOr<Value> wrapped =
      n.create<AddOp>(idx, n.scalarLike(idx, double(depth)));
  if (failed(negative) || failed(wrapped))
    return failure();
  FailureOr<Value> position = n.create<SelectOp>(*negative, *wrapped, idx);
  SmallVector<int64_t> withUnit(indexType.getShape());
  withUnit.insert(withUnit.begin() + *axis, 1);
  if (succeeded(position))
    position = n.reshape(*position, withUnit);
  if (failed(position))
    return failure();

  FailureOr<Value> positions = n.positionsAlong(rank, *axis, depth);
  if (failed(positions))
    return failure();
  FailureOr<Value> hit =
      n.create<CompareOp>(ComparePredicate::eq, *position, *positions);
  if (failed(hit))
    return failure();

  // off and on as scalars.
  FailureOr<Value> flat = n.reshape(*values, {2});
  if (failed(flat))
    return failure();
  auto pick = [&](int64_t i) -> FailureOr<Value> {
    FailureOr<Value> one =
        n.create<SliceOp>(*flat, ArrayRef<int64_t>{i}, ArrayRef<int64_t>{i + 1},
                          ArrayRef<int64_t>{1});
    return failed(one) ? one : n.reshape(*one, {});
  };
  FailureOr<Value> off = pick(0), on = pick(1);
  if (failed(off) || failed(on))
    return failure();
  FailureOr<Value> r = n.create<SelectOp>(*hit, *on, *off);
  return failed(r) ? failure() : n.setResults({*r});
}

} // namespace

void onnx_import::registerRearrangeImporters(OpImporterTable &table) {
  table["Tile"] = {importTile, {}};
  table["DepthToSpace"] = {
      importDepthToSpace,
      {{"blocksize", AttrType::INT}, {"mode", AttrType::STRING}}};
  table["SpaceToDepth"] = {importSpaceToDepth, {{"blocksize", AttrType::INT}}};
  table["Trilu"] = {importTrilu, {{"upper", AttrType::INT}}};
  table["OneHot"] = {importOneHot, {{"axis", AttrType::INT}}};
}
