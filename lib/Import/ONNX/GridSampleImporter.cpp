//===- GridSampleImporter.cpp - ONNX GridSample as gathers ----------------===//
//
// GridSample (opset 16) on [N, C, H, W] at the grid's [N, Ho, Wo, 2]
// coordinates (x, y in [-1, 1]), modes bilinear and nearest, padding zeros
// and border, both align_corners: each grid point's coordinate is
// unnormalized by elementwise ops, and every corner it reads (four for
// bilinear, one for nearest) is a gopt.gather_elements of the input
// flattened to [N, C, H·W] at y·W + x, weighted and masked (zeros padding:
// a corner outside reads nothing); the corners are summed.
//
//===----------------------------------------------------------------------===//

#include "GraphImporter.h"

#include "GOpt/Dialect/GOpt/IR/ShapeInference.h"

using namespace mlir;
using namespace mlir::gopt;
using namespace mlir::gopt::onnx_import;

using AttrType = onnx::AttributeProto;

namespace {

/// What GridSample builds its corners from: the grid coordinates (already
/// unnormalized to input pixels, [N, P]) and the input's geometry.
struct Sampler {
  NodeContext &n;
  Value flat; // the input as [N, C, H·W]
  int64_t N, C, H, W, P;
  bool zeros; // zeros padding: a corner outside contributes nothing

  /// A scalar of the input's float type.
  Value scalar(double v) { return n.scalarLike(flat, v); }

  /// One corner at integer-valued float coordinates (x, y), [N, P], with
  /// its weight: the input there times the weight (0 where the corner is
  /// outside with zeros padding), [N, C, P].
  FailureOr<Value> corner(Value x, Value y, Value weight) {
    auto inside = [&](Value c, int64_t size) -> FailureOr<Value> {
      FailureOr<Value> lo =
          n.create<CompareOp>(ComparePredicate::ge, c, scalar(0.0));
      FailureOr<Value> hi =
          n.create<CompareOp>(ComparePredicate::le, c, scalar(size - 1));
      if (failed(lo) || failed(hi))
        return failure();
      return n.create<SelectOp>(*lo, *hi, n.boolScalar(false));
    };
    // Indices clamped into the input (a corner outside is masked below).
    auto index = [&](Value c, int64_t size) -> FailureOr<Value> {
      auto type = NodeContext::typeOf(c);
      FailureOr<Value> clamped =
          n.createTyped<ClipOp>(type, c, n.builder().getF64FloatAttr(0.0),
                                n.builder().getF64FloatAttr(double(size - 1)));
      if (failed(clamped))
        return failure();
      return n.createTyped<CastOp>(type.clone(n.builder().getI64Type()),
                                   *clamped);
    };
    FailureOr<Value> xi = index(x, W), yi = index(y, H);
    if (failed(xi) || failed(yi))
      return failure();
    FailureOr<Value> at = n.create<MulOp>(*yi, n.scalarLike(*yi, double(W)));
    if (succeeded(at))
      at = n.create<AddOp>(*at, *xi);
    if (succeeded(at))
      at = n.reshape(*at, {N, 1, P});
    if (failed(at))
      return failure();
    auto indexType = RankedTensorType::get({N, C, P}, n.builder().getI64Type());
    FailureOr<Value> indices = n.createTyped<BroadcastToOp>(indexType, *at);
    FailureOr<Value> values =
        failed(indices) ? indices
                        : n.create<GatherElementsOp>(flat, *indices, 2);
    if (failed(values))
      return failure();
    if (zeros) {
      FailureOr<Value> inX = inside(x, W), inY = inside(y, H);
      if (failed(inX) || failed(inY))
        return failure();
      FailureOr<Value> in = n.create<SelectOp>(*inX, *inY, n.boolScalar(false));
      FailureOr<Value> masked =
          failed(in) ? in : n.create<SelectOp>(*in, weight, scalar(0.0));
      if (failed(masked))
        return failure();
      weight = *masked;
    }
    FailureOr<Value> w = n.reshape(weight, {N, 1, P});
    return failed(w) ? w : n.create<MulOp>(*values, *w);
  }
};

LogicalResult importGridSample(NodeContext &n) {
  FailureOr<Value> x = n.requiredInput(0, "X");
  FailureOr<Value> grid = n.requiredInput(1, "grid");
  if (failed(x) || failed(grid))
    return failure();
  RankedTensorType xType = NodeContext::typeOf(*x);
  RankedTensorType gType = NodeContext::typeOf(*grid);
  if (xType.getRank() != 4 || gType.getRank() != 4 ||
      gType.getDimSize(3) != 2 || gType.getDimSize(0) != xType.getDimSize(0))
    return n.emitError() << "X must be [N, C, H, W] and grid [N, Ho, Wo, 2], "
                            "got "
                         << shapeToString(xType.getShape()) << " and "
                         << shapeToString(gType.getShape());
  Type element = xType.getElementType();
  if (!isa<FloatType>(element) || gType.getElementType() != element)
    return n.emitError() << "X and grid must be float tensors of one type";
  std::string mode = n.getString("mode", "bilinear");
  if (mode != "bilinear" && mode != "nearest")
    return n.emitError() << "mode '" << mode
                         << "' is not supported (bilinear and nearest are)";
  std::string padding = n.getString("padding_mode", "zeros");
  if (padding != "zeros" && padding != "border")
    return n.emitError() << "padding_mode '" << padding
                         << "' is not supported (zeros and border are)";
  bool alignCorners = n.getInt("align_corners", 0) != 0;

  int64_t N = xType.getDimSize(0), C = xType.getDimSize(1),
          H = xType.getDimSize(2), W = xType.getDimSize(3);
  int64_t Ho = gType.getDimSize(1), Wo = gType.getDimSize(2), P = Ho * Wo;
  if (H == 0 || W == 0)
    return n.emitError() << "X has no pixels to sample";
  FailureOr<Value> flat = n.reshape(*x, {N, C, H * W});
  if (failed(flat))
    return failure();
  Sampler s{n, *flat, N, C, H, W, P, padding == "zeros"};

  // The grid's x (last index 0) and y as [N, P], unnormalized to pixels:
  // align_corners maps -1 and 1 to the corner pixels' centres, else to the
  // image's edges: g·a + b.
  auto coordinate = [&](int64_t i, int64_t size) -> FailureOr<Value> {
    FailureOr<Value> g = n.create<SliceOp>(*grid, ArrayRef<int64_t>{0, 0, 0, i},
                                           ArrayRef<int64_t>{N, Ho, Wo, i + 1},
                                           ArrayRef<int64_t>{1, 1, 1, 1});
    if (succeeded(g))
      g = n.reshape(*g, {N, P});
    double a = alignCorners ? (size - 1) / 2.0 : size / 2.0;
    if (succeeded(g))
      g = n.create<MulOp>(*g, s.scalar(a));
    if (succeeded(g))
      g = n.create<AddOp>(*g, s.scalar((size - 1) / 2.0));
    if (succeeded(g) && !s.zeros)
      g = n.createTyped<ClipOp>(NodeContext::typeOf(*g), *g,
                                n.builder().getF64FloatAttr(0.0),
                                n.builder().getF64FloatAttr(double(size - 1)));
    return g;
  };
  FailureOr<Value> ix = coordinate(0, W), iy = coordinate(1, H);
  if (failed(ix) || failed(iy))
    return failure();

  FailureOr<Value> r;
  if (mode == "nearest") {
    FailureOr<Value> x0 = n.create<RoundOp>(*ix), y0 = n.create<RoundOp>(*iy);
    if (failed(x0) || failed(y0))
      return failure();
    r = s.corner(*x0, *y0, n.splat(NodeContext::typeOf(*x0), /*value=*/1.0));
  } else {
    FailureOr<Value> x0 = n.create<FloorOp>(*ix), y0 = n.create<FloorOp>(*iy);
    if (failed(x0) || failed(y0))
      return failure();
    FailureOr<Value> x1 = n.create<AddOp>(*x0, s.scalar(1.0));
    FailureOr<Value> y1 = n.create<AddOp>(*y0, s.scalar(1.0));
    // The weights of the far corners, and of the near ones.
    FailureOr<Value> wx1 = n.create<SubOp>(*ix, *x0);
    FailureOr<Value> wy1 = n.create<SubOp>(*iy, *y0);
    if (failed(x1) || failed(y1) || failed(wx1) || failed(wy1))
      return failure();
    FailureOr<Value> wx0 = n.create<SubOp>(s.scalar(1.0), *wx1);
    FailureOr<Value> wy0 = n.create<SubOp>(s.scalar(1.0), *wy1);
    if (failed(wx0) || failed(wy0))
      return failure();
    Value xs[2] = {*x0, *x1}, ys[2] = {*y0, *y1};
    Value wxs[2] = {*wx0, *wx1}, wys[2] = {*wy0, *wy1};
    for (int cy = 0; cy < 2; ++cy)
      for (int cx = 0; cx < 2; ++cx) {
        FailureOr<Value> w = n.create<MulOp>(wxs[cx], wys[cy]);
        FailureOr<Value> c = failed(w) ? w : s.corner(xs[cx], ys[cy], *w);
        if (failed(c))
          return failure();
        r = (cx == 0 && cy == 0) ? c : n.create<AddOp>(*r, *c);
        if (failed(r))
          return failure();
      }
  }
  if (succeeded(r))
    r = n.reshape(*r, {N, C, Ho, Wo});
  return failed(r) ? failure() : n.setResults({*r});
}

} // namespace

void onnx_import::registerGridSampleImporter(OpImporterTable &table) {
  table["GridSample"] = {importGridSample,
                         {{"align_corners", AttrType::INT},
                          {"mode", AttrType::STRING},
                          {"padding_mode", AttrType::STRING}}};
}
