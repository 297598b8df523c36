//===- VolumeImporters.cpp - 3-D convolution and pooling over frames ------===//
//
// Conv, MaxPool and AveragePool on [N, C, D, H, W] (a video's frames, a
// volume's slices) as gopt's 2-D ops on the frames, channels last:
//
// - a convolution with a kernel of kd frames sees, at output frame t, the
//   input frames t·s + j·dilation (j < kd, after the frame padding). Those
//   kd frames, side by side along the channels, are one 2-D convolution's
//   input with kd times the channels, and every output frame is one image
//   of that convolution's batch: the input goes to [N, D, H, W, C], each
//   tap j is a strided slice of its frames, the taps are concatenated
//   along C and the frames folded into the batch, [N·D', H, W, kd·C]; the
//   weight [F, C/g, kd, kh, kw] is [F, kh, kw, kd·C/g] (each group's taps
//   side by side, made at import time when it is a constant). It multiplies
//   exactly as often as the 3-D convolution and copies the input kd times;
// - a pooling pools each frame's [H, W] window (a 2-D pooling of the frames
//   folded into the batch), then takes the max, or the mean, over the kd
//   frames of each output frame's window: both are separable, and an
//   average that leaves padding out divides by the valid frames' count
//   after the 2-D pooling divided by the valid pixels'.
//
// The results go back to [N, F, D', H', W'] by a transpose that
// gopt-channels-last cancels against the next such op's (it sinks NDHWC →
// NCDHW transposes as it does NHWC → NCHW ones).
//
//===----------------------------------------------------------------------===//

#include "GraphImporter.h"

#include "GOpt/Dialect/GOpt/IR/ConstantEvaluator.h"
#include "GOpt/Dialect/GOpt/IR/ShapeInference.h"

#include <tuple>

using namespace mlir;
using namespace mlir::gopt;
using namespace mlir::gopt::onnx_import;

namespace {

constexpr int64_t kToFramesLast[] = {0, 2, 3, 4, 1};  // NCDHW → NDHWC
constexpr int64_t kToFramesFirst[] = {0, 4, 1, 2, 3}; // NDHWC → NCDHW

/// A 3-D op's geometry on [D, H, W].
struct VolumeGeometry {
  SmallVector<int64_t> kernel, strides, dilations;
  /// [D, H, W] padding at the start and at the end.
  SmallVector<int64_t> padBegin, padEnd;

  /// The input elements a window spans on dim d.
  int64_t extent(int d) const { return (kernel[d] - 1) * dilations[d] + 1; }
  /// The output size on dim d.
  int64_t outputSize(int64_t in, int d) const {
    return (in + padBegin[d] + padEnd[d] - extent(d)) / strides[d] + 1;
  }
};

/// Reads strides, dilations and the padding (pads or auto_pad) of a 3-D op
/// whose kernel is `kernel` over input dims `in` ([D, H, W]).
FailureOr<VolumeGeometry> readGeometry(NodeContext &n, ArrayRef<int64_t> in,
                                       ArrayRef<int64_t> kernel) {
  VolumeGeometry g;
  g.kernel.assign(kernel.begin(), kernel.end());
  for (auto [name, out] :
       {std::pair<const char *, SmallVector<int64_t> *>{"strides", &g.strides},
        {"dilations", &g.dilations}}) {
    *out = n.getInts(name).value_or(SmallVector<int64_t>(3, 1));
    if (out->size() != 3)
      return n.emitError() << name << " must have 3 entries for a 3-D op, got "
                           << out->size();
    for (int64_t v : *out)
      if (v < 1)
        return n.emitError() << name << " must be positive, got " << v;
  }
  std::string autoPad = n.getString("auto_pad", "NOTSET");
  g.padBegin.assign(3, 0);
  g.padEnd.assign(3, 0);
  if (autoPad == "NOTSET") {
    SmallVector<int64_t> pads =
        n.getInts("pads").value_or(SmallVector<int64_t>(6, 0));
    if (pads.size() != 6)
      return n.emitError() << "pads must have 6 entries for a 3-D op, got "
                           << pads.size();
    for (int64_t p : pads)
      if (p < 0)
        return n.emitError() << "pads must not be negative, got " << p;
    g.padBegin.assign(pads.begin(), pads.begin() + 3);
    g.padEnd.assign(pads.begin() + 3, pads.end());
  } else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    for (int d = 0; d < 3; ++d)
      std::tie(g.padBegin[d], g.padEnd[d]) =
          samePadding(in[d], g.kernel[d], g.strides[d], g.dilations[d],
                      autoPad == "SAME_UPPER");
  } else if (autoPad != "VALID") {
    return n.emitError() << "unsupported auto_pad '" << autoPad << "'";
  }
  for (int d = 0; d < 3; ++d)
    if (in[d] + g.padBegin[d] + g.padEnd[d] < g.extent(d))
      return n.emitError() << "the input's dim " << d + 2 << " (" << in[d]
                           << ", padded by " << g.padBegin[d] << " and "
                           << g.padEnd[d] << ") is smaller than the kernel's "
                           << "extent " << g.extent(d);
  return g;
}

/// `x` ([N, D, H, W, C]) padded along D by `begin` and `end` frames of
/// `value`.
FailureOr<Value> padFrames(NodeContext &n, Value x, int64_t begin, int64_t end,
                           double value) {
  if (begin == 0 && end == 0)
    return x;
  return n.create<PadOp>(x,
                         n.builder().getDenseI64ArrayAttr({0, begin, 0, 0, 0}),
                         n.builder().getDenseI64ArrayAttr({0, end, 0, 0, 0}),
                         n.builder().getF64FloatAttr(value));
}

/// The frames of `x` ([N, Dp, H, W, C], padded) that tap `j` of a window of
/// `g`'s frame geometry reads for the `frames` output frames.
FailureOr<Value> tapFrames(NodeContext &n, Value x, const VolumeGeometry &g,
                           int64_t j, int64_t frames) {
  ArrayRef<int64_t> shape = NodeContext::typeOf(x).getShape();
  int64_t start = j * g.dilations[0], step = g.strides[0];
  int64_t end = start + (frames - 1) * step + 1;
  if (start == 0 && step == 1 && end == shape[1])
    return x;
  return n.create<SliceOp>(
      x, ArrayRef<int64_t>{0, start, 0, 0, 0},
      ArrayRef<int64_t>{shape[0], end, shape[2], shape[3], shape[4]},
      ArrayRef<int64_t>{1, step, 1, 1, 1});
}

/// `[N, D', H', W', C]` from a 2-D op over the frames folded into the
/// batch, back in ONNX's [N, C, D', H', W'].
FailureOr<Value> framesFirst(NodeContext &n, Value frames, int64_t batch) {
  ArrayRef<int64_t> s = NodeContext::typeOf(frames).getShape();
  FailureOr<Value> r =
      n.reshape(frames, {batch, s[0] / batch, s[1], s[2], s[3]});
  if (failed(r))
    return failure();
  return n.create<TransposeOp>(*r, ArrayRef<int64_t>(kToFramesFirst));
}

/// The weight [F, C/g, kd, kh, kw] as the frame convolution's
/// [F, kh, kw, kd·C/g] (channels last, each group's taps side by side): a
/// constant rearranged at import time, a computed weight by ops.
FailureOr<Value> frameWeight(NodeContext &n, Value w) {
  ArrayRef<int64_t> s = NodeContext::typeOf(w).getShape();
  auto elementType = NodeContext::typeOf(w).getElementType();
  SmallVector<int64_t> perm{0, 3, 4, 2, 1};
  auto permuted =
      RankedTensorType::get({s[0], s[3], s[4], s[2], s[1]}, elementType);
  auto result =
      RankedTensorType::get({s[0], s[3], s[4], s[2] * s[1]}, elementType);
  if (auto constant = w.getDefiningOp<ConstantOp>())
    if (auto moved = moveConstant(constant.getValue(), permuted, perm))
      if (auto reshaped = moveConstant(*moved, result, {}))
        return n.constant(*reshaped);
  FailureOr<Value> r = n.create<TransposeOp>(w, ArrayRef<int64_t>(perm));
  if (failed(r))
    return failure();
  return n.reshape(*r, result.getShape());
}

} // namespace

LogicalResult onnx_import::importConv3D(NodeContext &n) {
  FailureOr<Value> x = n.requiredInput(0, "X");
  FailureOr<Value> w = n.requiredInput(1, "W");
  if (failed(x) || failed(w))
    return failure();
  ArrayRef<int64_t> xs = NodeContext::typeOf(*x).getShape();
  ArrayRef<int64_t> ws = NodeContext::typeOf(*w).getShape();
  int64_t batch = xs[0], channels = xs[1], filters = ws[0];
  int64_t groups = n.getInt("group", 1);
  if (groups < 1 || channels % groups != 0 || ws[1] * groups != channels ||
      filters % groups != 0)
    return n.emitError() << "the input's " << channels
                         << " channels, the weight's shape "
                         << shapeToString(ws) << " and group " << groups
                         << " do not fit";
  SmallVector<int64_t> kernel(ws.drop_front(2));
  if (auto given = n.getInts("kernel_shape"); given && *given != kernel)
    return n.emitError() << "kernel_shape " << shapeToString(*given)
                         << " does not match the weight's "
                         << shapeToString(kernel);
  FailureOr<VolumeGeometry> g = readGeometry(n, xs.drop_front(2), kernel);
  if (failed(g))
    return failure();
  int64_t taps = kernel[0], perGroup = channels / groups;
  int64_t frames = g->outputSize(xs[2], 0);

  // [N, Dp, H, W, C]: the frames, padded, channels last.
  FailureOr<Value> v =
      n.create<TransposeOp>(*x, ArrayRef<int64_t>(kToFramesLast));
  if (succeeded(v))
    v = padFrames(n, *v, g->padBegin[0], g->padEnd[0], 0.0);
  if (failed(v))
    return failure();
  // Each tap's frames, [N, D', H, W, C], side by side along the channels
  // (each group's taps together: [N, D', H, W, g, kd, C/g]).
  SmallVector<Value> tapValues;
  for (int64_t j = 0; j < taps; ++j) {
    FailureOr<Value> tap = tapFrames(n, *v, *g, j, frames);
    if (succeeded(tap) && groups > 1 && taps > 1)
      tap = n.reshape(*tap, {batch, frames, xs[3], xs[4], groups, 1, perGroup});
    if (failed(tap))
      return failure();
    tapValues.push_back(*tap);
  }
  FailureOr<Value> stacked =
      taps > 1 ? n.create<ConcatOp>(tapValues, groups > 1 ? 5 : 4)
               : FailureOr<Value>(tapValues.front());
  if (succeeded(stacked))
    stacked =
        n.reshape(*stacked, {batch * frames, xs[3], xs[4], taps * channels});
  FailureOr<Value> weight = frameWeight(n, *w);
  if (failed(stacked) || failed(weight))
    return failure();
  FailureOr<Value> r = n.create<Conv2DOp>(
      *stacked, *weight, n.input(2), ArrayRef<int64_t>(g->strides).drop_front(),
      ArrayRef<int64_t>{g->padBegin[1], g->padBegin[2], g->padEnd[1],
                        g->padEnd[2]},
      ArrayRef<int64_t>(g->dilations).drop_front(), groups,
      /*channels_last=*/true);
  if (succeeded(r))
    r = framesFirst(n, *r, batch);
  return failed(r) ? failure() : n.setResults({*r});
}

LogicalResult onnx_import::importPool3D(NodeContext &n, PoolKind kind) {
  FailureOr<Value> x = n.requiredInput(0, "X");
  if (failed(x))
    return failure();
  ArrayRef<int64_t> xs = NodeContext::typeOf(*x).getShape();
  int64_t batch = xs[0];
  SmallVector<int64_t> kernel = *n.getInts("kernel_shape");
  if (n.getInt("storage_order", 0) != 0)
    return n.emitError() << "storage_order = 1 is not supported";
  FailureOr<VolumeGeometry> g = readGeometry(n, xs.drop_front(2), kernel);
  if (failed(g))
    return failure();
  if (llvm::any_of(g->dilations, [](int64_t d) { return d != 1; }))
    return n.emitError() << "dilated pooling is not supported";
  bool countIncludePad = n.getInt("count_include_pad", 0) != 0;
  if (n.getInt("ceil_mode", 0) != 0) {
    // As for 2-D pooling: the windows that overhang the end are end
    // padding, exact unless an average counts it.
    if (kind == PoolKind::avg && countIncludePad)
      return n.emitError() << "ceil_mode = 1 with count_include_pad = 1 is "
                              "not supported";
    for (int d = 0; d < 3; ++d)
      g->padEnd[d] += ceilModeEndPadding(xs[2 + d], kernel[d], g->strides[d],
                                         g->padBegin[d], g->padEnd[d]);
  }
  int64_t frames = g->outputSize(xs[2], 0);

  // Each frame's [H, W] windows: a 2-D pooling of [N·D, H, W, C].
  FailureOr<Value> v =
      n.create<TransposeOp>(*x, ArrayRef<int64_t>(kToFramesLast));
  if (succeeded(v))
    v = n.reshape(*v, {batch * xs[2], xs[3], xs[4], xs[1]});
  if (succeeded(v))
    v = n.create<Pool2DOp>(kind, *v, ArrayRef<int64_t>(kernel).drop_front(),
                           ArrayRef<int64_t>(g->strides).drop_front(),
                           ArrayRef<int64_t>{g->padBegin[1], g->padBegin[2],
                                             g->padEnd[1], g->padEnd[2]},
                           countIncludePad, /*channels_last=*/true);
  if (failed(v))
    return failure();
  ArrayRef<int64_t> pooled = NodeContext::typeOf(*v).getShape();
  v = n.reshape(*v, {batch, xs[2], pooled[1], pooled[2], pooled[3]});
  // Then the kd frames of each window: padding that never wins a max, or
  // zeros an average leaves out of its count.
  double fill = kind == PoolKind::max
                    ? lowestValue(NodeContext::typeOf(*v).getElementType())
                    : 0.0;
  if (succeeded(v))
    v = padFrames(n, *v, g->padBegin[0], g->padEnd[0], fill);
  if (failed(v))
    return failure();
  FailureOr<Value> r = failure();
  for (int64_t j = 0; j < kernel[0]; ++j) {
    FailureOr<Value> tap = tapFrames(n, *v, *g, j, frames);
    if (failed(tap))
      return failure();
    if (j == 0)
      r = tap;
    else if (kind == PoolKind::max)
      r = n.create<MaxOp>(*r, *tap);
    else
      r = n.create<AddOp>(*r, *tap);
    if (failed(r))
      return failure();
  }
  if (kind == PoolKind::avg) {
    // Divide by the frames each window counts: all kd with
    // count_include_pad (or no padding), else those inside the input.
    auto elementType = NodeContext::typeOf(*r).getElementType();
    SmallVector<double> scale(frames, 1.0 / static_cast<double>(kernel[0]));
    if (!countIncludePad)
      for (int64_t t = 0; t < frames; ++t) {
        int64_t first = t * g->strides[0] - g->padBegin[0];
        int64_t begin = std::max<int64_t>(0, first);
        int64_t end = std::min<int64_t>(xs[2], first + kernel[0]);
        scale[t] = 1.0 / static_cast<double>(end - begin);
      }
    Value divisor;
    if (llvm::all_equal(scale))
      divisor = n.splat(RankedTensorType::get({}, elementType), scale[0]);
    else
      divisor = n.constant(makeFloatElements(
          RankedTensorType::get({frames, 1, 1, 1}, elementType), scale,
          n.node.output(0) + "_frame_counts"));
    r = n.create<MulOp>(*r, divisor);
  }
  if (succeeded(r))
    r = n.create<TransposeOp>(*r, ArrayRef<int64_t>(kToFramesFirst));
  return failed(r) ? failure() : n.setResults({*r});
}
