//===- ResizeImporter.cpp - ONNX Resize as gopt.resize --------------------===//
//
// Resize (opsets 13 to 17) with mode nearest or linear. The output size
// comes from `scales` (floor(in · scale)) or `sizes`, known at import time;
// each dim's coordinate_transformation_mode becomes gopt.resize's affine
// map from result index to input coordinate, with the scale ONNX uses in
// it: the given one, or out/in when sizes are given.
//
//===----------------------------------------------------------------------===//

#include "GraphImporter.h"

#include "GOpt/Dialect/GOpt/IR/ShapeInference.h"

#include <cmath>

using namespace mlir;
using namespace mlir::gopt;
using namespace mlir::gopt::onnx_import;

using AttrType = onnx::AttributeProto;

namespace {

/// The number of elements of optional input `i`, or 0 when it is absent.
int64_t optionalInputSize(NodeContext &n, unsigned i) {
  Value v = n.input(i);
  return v ? NodeContext::typeOf(v).getNumElements() : 0;
}

FailureOr<ResizeMode> resizeMode(NodeContext &n) {
  std::string mode = n.getString("mode", "nearest");
  if (mode == "linear")
    return ResizeMode::linear;
  if (mode != "nearest")
    return n.emitError() << "mode '" << mode
                         << "' is not supported (nearest and linear are)";
  std::string rounding = n.getString("nearest_mode", "round_prefer_floor");
  if (rounding == "round_prefer_floor")
    return ResizeMode::nearest_round_prefer_floor;
  if (rounding == "round_prefer_ceil")
    return ResizeMode::nearest_round_prefer_ceil;
  if (rounding == "floor")
    return ResizeMode::nearest_floor;
  if (rounding == "ceil")
    return ResizeMode::nearest_ceil;
  return n.emitError() << "unknown nearest_mode '" << rounding << "'";
}

LogicalResult importResize(NodeContext &n) {
  FailureOr<Value> x = n.requiredInput(0, "X");
  if (failed(x))
    return failure();
  FailureOr<ResizeMode> mode = resizeMode(n);
  if (failed(mode))
    return failure();
  RankedTensorType type = NodeContext::typeOf(*x);
  int64_t rank = type.getRank();
  if (*mode == ResizeMode::linear && !isa<FloatType>(type.getElementType()))
    return n.emitError() << "linear mode needs a float input, got "
                         << type.getElementType();

  // Output sizes and the scale of each dim.
  bool hasScales = optionalInputSize(n, 2) > 0;
  bool hasSizes = optionalInputSize(n, 3) > 0;
  if (hasScales == hasSizes)
    return n.emitError() << "exactly one of 'scales' and 'sizes' must be "
                            "given, got "
                         << (hasScales ? "both" : "neither");
  SmallVector<int64_t> outShape(rank);
  SmallVector<double> scales(rank);
  if (hasScales) {
    FailureOr<SmallVector<double>> given = n.knownFloats(2, "scales");
    if (failed(given))
      return failure();
    if (static_cast<int64_t>(given->size()) != rank)
      return n.emitError() << "scales has " << given->size()
                           << " entries for an input of rank " << rank;
    for (int64_t d = 0; d < rank; ++d) {
      double s = (*given)[d];
      if (!(s > 0) || !std::isfinite(s))
        return n.emitError()
               << "scales must be positive, got " << s << " for dim " << d;
      scales[d] = s;
      outShape[d] = static_cast<int64_t>(
          std::floor(static_cast<double>(type.getDimSize(d)) * s));
    }
  } else {
    FailureOr<SmallVector<int64_t>> sizes = n.knownInts(3, "sizes");
    if (failed(sizes))
      return failure();
    if (static_cast<int64_t>(sizes->size()) != rank)
      return n.emitError() << "sizes has " << sizes->size()
                           << " entries for an input of rank " << rank;
    for (int64_t d = 0; d < rank; ++d) {
      if ((*sizes)[d] < 0)
        return n.emitError()
               << "sizes must not be negative, got " << shapeToString(*sizes);
      outShape[d] = (*sizes)[d];
      scales[d] = type.getDimSize(d) == 0
                      ? 1.0
                      : static_cast<double>(outShape[d]) / type.getDimSize(d);
    }
  }

  // Result index → input coordinate, `o · scale + offset`, per dim.
  std::string transform =
      n.getString("coordinate_transformation_mode", "half_pixel");
  SmallVector<double> scale(rank), offset(rank);
  for (int64_t d = 0; d < rank; ++d) {
    double s = scales[d];
    int64_t in = type.getDimSize(d), out = outShape[d];
    if (in == out && s == 1.0) {
      scale[d] = 1.0; // Every mode maps a dim it does not resize to itself.
      offset[d] = 0.0;
    } else if (transform == "half_pixel") {
      scale[d] = 1.0 / s;
      offset[d] = 0.5 / s - 0.5;
    } else if (transform == "pytorch_half_pixel") {
      scale[d] = out > 1 ? 1.0 / s : 0.0;
      offset[d] = out > 1 ? 0.5 / s - 0.5 : 0.0;
    } else if (transform == "align_corners") {
      scale[d] = out > 1 ? static_cast<double>(in - 1) / (out - 1) : 0.0;
      offset[d] = 0.0;
    } else if (transform == "asymmetric") {
      scale[d] = 1.0 / s;
      offset[d] = 0.0;
    } else if (transform == "tf_half_pixel_for_nn") {
      scale[d] = 1.0 / s;
      offset[d] = 0.5 / s;
    } else {
      return n.emitError() << "coordinate_transformation_mode '" << transform
                           << "' is not supported (half_pixel, "
                              "pytorch_half_pixel, align_corners, asymmetric "
                              "and tf_half_pixel_for_nn are)";
    }
  }
  FailureOr<Value> r = n.createTyped<ResizeOp>(type.clone(outShape), *x, *mode,
                                               ArrayRef<double>(scale),
                                               ArrayRef<double>(offset));
  return failed(r) ? failure() : n.setResults({*r});
}

} // namespace

void onnx_import::registerResizeImporter(OpImporterTable &table) {
  // cubic_coeff_a, exclude_outside and extrapolation_value only matter for
  // the cubic mode and tf_crop_and_resize, which are rejected.
  table["Resize"] = {importResize,
                     {{"mode", AttrType::STRING},
                      {"nearest_mode", AttrType::STRING},
                      {"coordinate_transformation_mode", AttrType::STRING},
                      {"cubic_coeff_a", AttrType::FLOAT},
                      {"exclude_outside", AttrType::INT},
                      {"extrapolation_value", AttrType::FLOAT}}};
}
