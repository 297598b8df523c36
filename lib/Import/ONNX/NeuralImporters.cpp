//===- NeuralImporters.cpp - Contractions, pooling, normalizations --------===//
//
// MatMul, Gemm, Conv, ConvTranspose, MaxPool, AveragePool, GlobalAveragePool,
// GlobalMaxPool, BatchNormalization (inference), InstanceNormalization and
// LayerNormalization. Convolutions and pools are 2-D (NCHW), as gopt's ops
// are; 1-D ones (NCL) run as 2-D ones of height 1.
//
//===----------------------------------------------------------------------===//

#include "GraphImporter.h"

#include "GOpt/Dialect/GOpt/IR/ShapeInference.h"

#include <cmath>
#include <tuple>

using namespace mlir;
using namespace mlir::gopt;
using namespace mlir::gopt::onnx_import;

using AttrType = onnx::AttributeProto;

namespace {

/// MatMul, with numpy's 1-D promotion: a 1-D lhs is a row, a 1-D rhs a
/// column, and the promoted dim is dropped from the result.
LogicalResult importMatMul(NodeContext &n) {
  FailureOr<Value> a = n.requiredInput(0, "A");
  FailureOr<Value> b = n.requiredInput(1, "B");
  if (failed(a) || failed(b))
    return failure();
  RankedTensorType aType = NodeContext::typeOf(*a);
  RankedTensorType bType = NodeContext::typeOf(*b);
  if (aType.getRank() == 0 || bType.getRank() == 0)
    return n.emitError() << "operands must have rank 1 or more";
  bool rowVector = aType.getRank() == 1, columnVector = bType.getRank() == 1;
  if (rowVector)
    a = n.reshape(*a, {1, aType.getDimSize(0)});
  if (columnVector && succeeded(a))
    b = n.reshape(*b, {bType.getDimSize(0), 1});
  if (failed(a) || failed(b))
    return failure();
  FailureOr<Value> r = n.create<MatmulOp>(*a, *b);
  if (failed(r))
    return failure();
  if (rowVector || columnVector) {
    RankedTensorType rType = NodeContext::typeOf(*r);
    SmallVector<int64_t> shape(rType.getShape());
    if (columnVector)
      shape.pop_back();
    if (rowVector)
      shape.erase(shape.end() - 1 - (columnVector ? 0 : 1));
    r = n.reshape(*r, shape);
    if (failed(r))
      return failure();
  }
  return n.setResults({*r});
}

/// Gemm: alpha·op(A)·op(B) + beta·C as gopt.linear with its bias, plus a
/// scale when alpha or beta is not 1.
LogicalResult importGemm(NodeContext &n) {
  FailureOr<Value> a = n.requiredInput(0, "A");
  FailureOr<Value> b = n.requiredInput(1, "B");
  if (failed(a) || failed(b))
    return failure();
  if (NodeContext::typeOf(*a).getRank() != 2 ||
      NodeContext::typeOf(*b).getRank() != 2)
    return n.emitError() << "A and B must be 2-D";
  double alpha = n.getFloat("alpha", 1.0), beta = n.getFloat("beta", 1.0);
  bool transA = n.getInt("transA", 0) != 0, transB = n.getInt("transB", 0) != 0;
  Value c = beta != 0.0 ? n.input(2) : Value();
  Value bias = (alpha == 1.0 && beta == 1.0) ? c : Value();
  FailureOr<Value> r = n.create<LinearOp>(*a, *b, bias, transA, transB);
  if (failed(r))
    return failure();
  if (alpha != 1.0)
    r = n.create<MulOp>(
        *r, n.splat(RankedTensorType::get(
                        {}, NodeContext::typeOf(*r).getElementType()),
                    alpha));
  if (succeeded(r) && c && !bias) {
    FailureOr<Value> scaled = c;
    if (beta != 1.0)
      scaled = n.create<MulOp>(
          c, n.splat(RankedTensorType::get(
                         {}, NodeContext::typeOf(c).getElementType()),
                     beta));
    if (failed(scaled))
      return failure();
    r = n.create<AddOp>(*r, *scaled);
  }
  return failed(r) ? failure() : n.setResults({*r});
}

/// The `pads` attribute as gopt's [top, left, bottom, right], zeros when
/// absent. A 1-D op (`oneD`) runs as a 2-D one of height 1: its pads
/// [begin, end] are the width's.
FailureOr<SmallVector<int64_t>> readPads(NodeContext &n, bool oneD) {
  size_t entries = oneD ? 2 : 4;
  SmallVector<int64_t> pads =
      n.getInts("pads").value_or(SmallVector<int64_t>(entries, 0));
  if (pads.size() != entries)
    return n.emitError() << "pads must have " << entries << " entries for a "
                         << (oneD ? 1 : 2) << "-D op, got " << pads.size();
  if (oneD)
    return SmallVector<int64_t>{0, pads[0], 0, pads[1]};
  return pads;
}

/// Resolves `auto_pad` and `pads` (readPads) to gopt's [top, left, bottom,
/// right].
FailureOr<SmallVector<int64_t>>
getPadding(NodeContext &n, ArrayRef<int64_t> inputHW, ArrayRef<int64_t> kernel,
           ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations,
           bool oneD = false) {
  std::string autoPad = n.getString("auto_pad", "NOTSET");
  if (autoPad == "NOTSET")
    return readPads(n, oneD);
  if (autoPad == "VALID")
    return SmallVector<int64_t>{0, 0, 0, 0};
  if (autoPad != "SAME_UPPER" && autoPad != "SAME_LOWER")
    return n.emitError() << "unsupported auto_pad '" << autoPad << "'";
  SmallVector<int64_t> pads(4, 0);
  for (int d = 0; d < 2; ++d)
    std::tie(pads[d], pads[d + 2]) =
        samePadding(inputHW[d], kernel[d], strides[d], dilations[d],
                    autoPad == "SAME_UPPER");
  return pads;
}

/// A spatial attribute of 2 entries for a 2-D op, or of 1 for a 1-D op
/// (`oneD`), which gets `fill` for its height; `fill` each when absent.
FailureOr<SmallVector<int64_t>>
readSpatial(NodeContext &n, llvm::StringRef name, bool oneD, int64_t fill) {
  size_t entries = oneD ? 1 : 2;
  SmallVector<int64_t> v =
      n.getInts(name).value_or(SmallVector<int64_t>(entries, fill));
  if (v.size() != entries)
    return n.emitError() << name << " must have " << entries
                         << " entries for a " << entries << "-D op, got "
                         << v.size();
  if (oneD)
    v.insert(v.begin(), fill);
  return v;
}

/// Strides or dilations (readSpatial, 1 by default), each positive.
FailureOr<SmallVector<int64_t>> getSpatial(NodeContext &n, llvm::StringRef name,
                                           bool oneD = false) {
  FailureOr<SmallVector<int64_t>> v = readSpatial(n, name, oneD, 1);
  if (failed(v))
    return failure();
  for (int64_t x : *v)
    if (x < 1)
      return n.emitError() << name << " must be positive, got " << x;
  return v;
}

/// A 1-D op's [N, C, L] operand as [N, C, 1, L]: gopt's 2-D ops compute
/// 1-D convolutions and pools with a height of 1.
FailureOr<Value> withUnitHeight(NodeContext &n, Value v) {
  ArrayRef<int64_t> shape = NodeContext::typeOf(v).getShape();
  return n.reshape(v, {shape[0], shape[1], 1, shape[2]});
}

/// A 2-D op's [N, C, 1, L] result back as [N, C, L].
FailureOr<Value> withoutUnitHeight(NodeContext &n, Value v) {
  ArrayRef<int64_t> shape = NodeContext::typeOf(v).getShape();
  return n.reshape(v, {shape[0], shape[1], shape[3]});
}

/// A convolution's input X and weight W, both 3-D (1-D: `oneD`) or 4-D.
struct ConvOperands {
  Value x, w;
  RankedTensorType xType, wType;
  bool oneD;
};

/// Reads X and W of a Conv or ConvTranspose (`supported` says in the error
/// which ones the importer takes).
FailureOr<ConvOperands> readConvOperands(NodeContext &n,
                                         llvm::StringRef supported) {
  FailureOr<Value> x = n.requiredInput(0, "X");
  FailureOr<Value> w = n.requiredInput(1, "W");
  if (failed(x) || failed(w))
    return failure();
  ConvOperands c{*x, *w, NodeContext::typeOf(*x), NodeContext::typeOf(*w),
                 false};
  c.oneD = c.xType.getRank() == 3 && c.wType.getRank() == 3;
  if (!c.oneD && (c.xType.getRank() != 4 || c.wType.getRank() != 4))
    return n.emitError() << "only " << supported
                         << " are supported; got input rank "
                         << c.xType.getRank() << " and weight rank "
                         << c.wType.getRank();
  return c;
}

LogicalResult importConv(NodeContext &n) {
  Value input = n.input(0), filter = n.input(1);
  if (input && filter && NodeContext::typeOf(input).getRank() == 5 &&
      NodeContext::typeOf(filter).getRank() == 5)
    return importConv3D(n);
  FailureOr<ConvOperands> operands = readConvOperands(
      n, "1-D, 2-D and 3-D convolution (3-D, 4-D or 5-D input and weight)");
  if (failed(operands))
    return failure();
  FailureOr<Value> x = operands->x, w = operands->w;
  RankedTensorType xType = operands->xType, wType = operands->wType;
  bool oneD = operands->oneD;
  SmallVector<int64_t> kernel(wType.getShape().drop_front(2));
  if (auto given = n.getInts("kernel_shape"); given && *given != kernel)
    return n.emitError() << "kernel_shape " << shapeToString(*given)
                         << " does not match the weight's "
                         << shapeToString(kernel);
  if (oneD) {
    kernel.insert(kernel.begin(), 1);
    x = withUnitHeight(n, *x);
    if (succeeded(x))
      w = withUnitHeight(n, *w);
    if (failed(x) || failed(w))
      return failure();
    xType = NodeContext::typeOf(*x);
  }
  FailureOr<SmallVector<int64_t>> strides = getSpatial(n, "strides", oneD);
  FailureOr<SmallVector<int64_t>> dilations = getSpatial(n, "dilations", oneD);
  if (failed(strides) || failed(dilations))
    return failure();
  FailureOr<SmallVector<int64_t>> pads = getPadding(
      n, xType.getShape().drop_front(2), kernel, *strides, *dilations, oneD);
  if (failed(pads))
    return failure();
  FailureOr<Value> r = n.create<Conv2DOp>(
      *x, *w, n.input(2), ArrayRef<int64_t>(*strides), ArrayRef<int64_t>(*pads),
      ArrayRef<int64_t>(*dilations), n.getInt("group", 1));
  if (succeeded(r) && oneD)
    r = withoutUnitHeight(n, *r);
  return failed(r) ? failure() : n.setResults({*r});
}

/// A ConvTranspose's geometry on [H, W] (a 1-D one's H: kernel and
/// strides 1, no padding).
struct TransposedConv {
  SmallVector<int64_t> kernel, strides, dilations, outputPadding;
  /// Cut from the start and the end of the full result: ONNX's pads, or
  /// what output_shape or auto_pad give; padEnd < 0 extends the end.
  SmallVector<int64_t> padBegin{0, 0}, padEnd{0, 0};
  int64_t groups = 1;

  /// The output size on dim d (0: H, 1: W).
  int64_t outputSize(int64_t in, int d) const {
    return (in - 1) * strides[d] + outputPadding[d] +
           (kernel[d] - 1) * dilations[d] + 1 - padBegin[d] - padEnd[d];
  }
};

/// A strided, ungrouped, undilated ConvTranspose as one convolution of the
/// input itself followed by a depth-to-space shuffle (the sub-pixel form):
/// output row q = m·s + r (before the padding is cut) sums x[m − j] ·
/// w[r + j·s] over j, a correlation of x with the taps of phase r. One
/// convolution computes every phase, its output channels [C_out, sh, sw],
/// with kernels of ceil(k / s) taps (zero where r + j·s ≥ k) over the
/// input padded by ceil(k / s) − 1 on both sides; the phases are then
/// interleaved, [N, C_out, M, sh, M', sw] flattened, and the padding is cut
/// (or zeros added where output_padding or a negative pad reaches past
/// them). It multiplies as often as the transposed convolution itself,
/// where the spread input costs stride² times that.
FailureOr<Value> subPixelConvTranspose(NodeContext &n, Value x,
                                       RankedTensorType wType,
                                       ArrayRef<double> weights,
                                       const TransposedConv &g) {
  RankedTensorType xType = NodeContext::typeOf(x);
  int64_t batch = xType.getDimSize(0), inChannels = xType.getDimSize(1);
  int64_t outChannels = wType.getDimSize(1);
  int64_t sh = g.strides[0], sw = g.strides[1];
  int64_t kh = g.kernel[0], kw = g.kernel[1];
  int64_t jh = (kh + sh - 1) / sh, jw = (kw + sw - 1) / sw;
  ArrayRef<int64_t> in = xType.getShape().drop_front(2);

  // G[(f·sh + rh)·sw + rw, c, th, tw] = W[c, f, rh + (jh−1−th)·sh,
  // rw + (jw−1−tw)·sw], zero past the kernel.
  SmallVector<double> phases(outChannels * sh * sw * inChannels * jh * jw, 0.0);
  for (int64_t f = 0; f < outChannels; ++f)
    for (int64_t rh = 0; rh < sh; ++rh)
      for (int64_t rw = 0; rw < sw; ++rw)
        for (int64_t c = 0; c < inChannels; ++c)
          for (int64_t th = 0; th < jh; ++th)
            for (int64_t tw = 0; tw < jw; ++tw) {
              int64_t y = rh + (jh - 1 - th) * sh, xi = rw + (jw - 1 - tw) * sw;
              if (y >= kh || xi >= kw)
                continue;
              int64_t to =
                  (((((f * sh + rh) * sw + rw) * inChannels + c) * jh + th) *
                   jw) +
                  tw;
              phases[to] = weights[((c * outChannels + f) * kh + y) * kw + xi];
            }
  auto phaseType = RankedTensorType::get(
      {outChannels * sh * sw, inChannels, jh, jw}, wType.getElementType());
  Value phaseWeight = n.constant(
      makeFloatElements(phaseType, phases, n.node.input(1) + "_phases"));
  FailureOr<Value> r =
      n.create<Conv2DOp>(x, phaseWeight, Value(), ArrayRef<int64_t>{1, 1},
                         ArrayRef<int64_t>{jh - 1, jw - 1, jh - 1, jw - 1},
                         ArrayRef<int64_t>{1, 1}, /*groups=*/1);
  int64_t mh = in[0] + jh - 1, mw = in[1] + jw - 1;
  if (succeeded(r))
    r = n.reshape(*r, {batch, outChannels, sh, sw, mh, mw});
  if (succeeded(r))
    r = n.create<TransposeOp>(*r, ArrayRef<int64_t>{0, 1, 4, 2, 5, 3});
  if (succeeded(r))
    r = n.reshape(*r, {batch, outChannels, mh * sh, mw * sw});
  if (failed(r))
    return failure();

  // Output index o reads the interleaved rows at o + pad begin.
  SmallVector<int64_t> full{mh * sh, mw * sw}, low(2), high(2), starts(2),
      sizes(2);
  for (int d = 0; d < 2; ++d) {
    sizes[d] = g.outputSize(in[d], d);
    low[d] = std::max<int64_t>(0, -g.padBegin[d]);
    high[d] = std::max<int64_t>(0, g.padBegin[d] + sizes[d] - full[d]);
    starts[d] = g.padBegin[d] + low[d];
  }
  if (low[0] || low[1] || high[0] || high[1])
    r = n.create<PadOp>(
        *r, n.builder().getDenseI64ArrayAttr({0, 0, low[0], low[1]}),
        n.builder().getDenseI64ArrayAttr({0, 0, high[0], high[1]}),
        n.builder().getF64FloatAttr(0.0));
  if (succeeded(r))
    r = n.create<SliceOp>(*r, ArrayRef<int64_t>{0, 0, starts[0], starts[1]},
                          ArrayRef<int64_t>{batch, outChannels,
                                            starts[0] + sizes[0],
                                            starts[1] + sizes[1]},
                          ArrayRef<int64_t>{1, 1, 1, 1});
  if (Value bias = n.input(2); bias && succeeded(r)) {
    FailureOr<Value> perChannel = n.reshape(bias, {outChannels, 1, 1});
    if (failed(perChannel))
      return failure();
    r = n.create<AddOp>(*r, *perChannel);
  }
  return r;
}

/// Any ConvTranspose as the convolution it is the gradient of: the input
/// with stride − 1 zeros between its elements, padded by dilation·(k − 1) −
/// pad on each side (cropped where that is negative) plus output_padding at
/// the end, convolved at stride 1 with the weight's in and out channels
/// swapped (per group) and its window flipped. The zeros cost stride² times
/// the multiplications.
FailureOr<Value> spreadConvTranspose(NodeContext &n, Value x,
                                     RankedTensorType wType,
                                     ArrayRef<double> weights,
                                     const TransposedConv &g) {
  RankedTensorType xType = NodeContext::typeOf(x);
  int64_t batch = xType.getDimSize(0), inChannels = xType.getDimSize(1);
  ArrayRef<int64_t> in = xType.getShape().drop_front(2);
  // [N, C, H, 1, W, 1] padded to [N, C, H, sh, W, sw] and flattened. Its
  // last stride − 1 rows and columns are zeros past the last element,
  // taken off the end padding.
  Value spread = x;
  if (g.strides[0] > 1 || g.strides[1] > 1) {
    FailureOr<Value> r = n.reshape(x, {batch, inChannels, in[0], 1, in[1], 1});
    if (succeeded(r))
      r = n.create<PadOp>(*r,
                          n.builder().getDenseI64ArrayAttr({0, 0, 0, 0, 0, 0}),
                          n.builder().getDenseI64ArrayAttr(
                              {0, 0, 0, g.strides[0] - 1, 0, g.strides[1] - 1}),
                          n.builder().getF64FloatAttr(0.0));
    if (succeeded(r))
      r = n.reshape(
          *r, {batch, inChannels, in[0] * g.strides[0], in[1] * g.strides[1]});
    if (failed(r))
      return failure();
    spread = *r;
  }
  // Convolution padding; negative padding crops instead.
  SmallVector<int64_t> begin(2), end(2), cropBegin(2), cropEnd(2);
  for (int d = 0; d < 2; ++d) {
    int64_t extent = (g.kernel[d] - 1) * g.dilations[d] + 1;
    int64_t b = extent - 1 - g.padBegin[d];
    int64_t e =
        extent - 1 - g.padEnd[d] + g.outputPadding[d] - (g.strides[d] - 1);
    begin[d] = std::max<int64_t>(0, b);
    cropBegin[d] = std::max<int64_t>(0, -b);
    end[d] = std::max<int64_t>(0, e);
    cropEnd[d] = std::max<int64_t>(0, -e);
  }
  if (llvm::any_of(cropBegin, [](int64_t c) { return c > 0; }) ||
      llvm::any_of(cropEnd, [](int64_t c) { return c > 0; })) {
    ArrayRef<int64_t> shape = NodeContext::typeOf(spread).getShape();
    FailureOr<Value> r = n.create<SliceOp>(
        spread, ArrayRef<int64_t>{0, 0, cropBegin[0], cropBegin[1]},
        ArrayRef<int64_t>{shape[0], shape[1], shape[2] - cropEnd[0],
                          shape[3] - cropEnd[1]},
        ArrayRef<int64_t>{1, 1, 1, 1});
    if (failed(r))
      return failure();
    spread = *r;
  }

  // The weight [C_in, C_out/g, kh, kw] as [C_out, C_in/g, kh, kw], each
  // group's channels swapped and the window flipped.
  int64_t groups = g.groups;
  int64_t outPerGroup = wType.getDimSize(1), inPerGroup = inChannels / groups;
  int64_t kh = g.kernel[0], kw = g.kernel[1];
  SmallVector<double> flipped(weights.size());
  for (int64_t gr = 0; gr < groups; ++gr)
    for (int64_t i = 0; i < inPerGroup; ++i)
      for (int64_t o = 0; o < outPerGroup; ++o)
        for (int64_t y = 0; y < kh; ++y)
          for (int64_t xi = 0; xi < kw; ++xi) {
            int64_t from =
                (((gr * inPerGroup + i) * outPerGroup + o) * kh + y) * kw + xi;
            int64_t to = (((gr * outPerGroup + o) * inPerGroup + i) * kh +
                          (kh - 1 - y)) *
                             kw +
                         (kw - 1 - xi);
            flipped[to] = weights[from];
          }
  auto flippedType = RankedTensorType::get(
      {groups * outPerGroup, inPerGroup, kh, kw}, wType.getElementType());
  Value weight = n.constant(
      makeFloatElements(flippedType, flipped, n.node.input(1) + "_flipped"));
  return n.create<Conv2DOp>(
      spread, weight, n.input(2), ArrayRef<int64_t>{1, 1},
      ArrayRef<int64_t>{begin[0], begin[1], end[0], end[1]},
      ArrayRef<int64_t>(g.dilations), groups);
}

/// ConvTranspose: strided, ungrouped and undilated ones in the sub-pixel
/// form (subPixelConvTranspose), the others in the spread one
/// (spreadConvTranspose). The weight must be known at import time; the
/// rearranged copy each form convolves with is made here.
LogicalResult importConvTranspose(NodeContext &n) {
  FailureOr<ConvOperands> operands = readConvOperands(
      n, "1-D and 2-D transposed convolution (3-D or 4-D input and weight)");
  if (failed(operands))
    return failure();
  Value x = operands->x;
  RankedTensorType xType = operands->xType, wType = operands->wType;
  bool oneD = operands->oneD;
  if (!isa<Float32Type>(wType.getElementType()))
    return n.emitError() << "the weight must be f32, got "
                         << wType.getElementType();
  FailureOr<SmallVector<double>> weights = n.knownFloats(1, "W");
  if (failed(weights))
    return failure();
  TransposedConv g;
  g.groups = n.getInt("group", 1);
  int64_t inChannels = wType.getDimSize(0);
  if (g.groups < 1 || inChannels % g.groups != 0 ||
      xType.getDimSize(1) != inChannels)
    return n.emitError() << "the input's " << xType.getDimSize(1)
                         << " channels, the weight's " << inChannels
                         << " input channels and group " << g.groups
                         << " do not fit";
  if (oneD) {
    FailureOr<Value> tall = withUnitHeight(n, x);
    if (failed(tall))
      return failure();
    x = *tall;
    xType = NodeContext::typeOf(x);
  }
  g.kernel.assign(wType.getShape().drop_front(2).begin(),
                  wType.getShape().drop_front(2).end());
  if (oneD)
    g.kernel.insert(g.kernel.begin(), 1);
  FailureOr<SmallVector<int64_t>> strides = getSpatial(n, "strides", oneD);
  FailureOr<SmallVector<int64_t>> dilations = getSpatial(n, "dilations", oneD);
  FailureOr<SmallVector<int64_t>> outputPadding =
      readSpatial(n, "output_padding", oneD, 0);
  if (failed(strides) || failed(dilations) || failed(outputPadding))
    return failure();
  g.strides = *strides;
  g.dilations = *dilations;
  g.outputPadding = *outputPadding;
  // The spread input and the output must be sizes a tensor can have.
  constexpr int64_t kMaxSize = int64_t{1} << 31;
  for (int d = 0; d < 2; ++d) {
    int64_t in = std::max<int64_t>(xType.getDimSize(2 + d), 1);
    if (g.outputPadding[d] < 0 || g.outputPadding[d] >= kMaxSize ||
        g.strides[d] >= kMaxSize / in ||
        g.dilations[d] >= kMaxSize / std::max<int64_t>(g.kernel[d], 1))
      return n.emitError() << "strides " << g.strides[d] << ", dilations "
                           << g.dilations[d] << " and output_padding "
                           << g.outputPadding[d]
                           << " give no size a tensor can have";
  }

  // Padding [begin, end] per spatial dim, from output_shape or auto_pad
  // (ONNX's total padding rule) or pads.
  ArrayRef<int64_t> in = xType.getShape().drop_front(2);
  std::string autoPad = n.getString("auto_pad", "NOTSET");
  std::optional<SmallVector<int64_t>> outputShape;
  if (n.getInts("output_shape")) {
    FailureOr<SmallVector<int64_t>> shape =
        readSpatial(n, "output_shape", oneD, 1);
    if (failed(shape))
      return failure();
    outputShape = *shape;
  } else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    outputShape =
        SmallVector<int64_t>{in[0] * g.strides[0], in[1] * g.strides[1]};
  }
  if (outputShape) {
    for (int d = 0; d < 2; ++d) {
      // The size with no padding, less the size asked for.
      int64_t total = g.outputSize(in[d], d) - (*outputShape)[d];
      int64_t small = total / 2, large = total - small;
      g.padBegin[d] = autoPad == "SAME_UPPER" ? small : large;
      g.padEnd[d] = total - g.padBegin[d];
      // An output_shape past the natural size adds rows at the end only
      // (ONNX Runtime clamps the total padding at 0): nothing reaches them
      // but the bias.
      if (total < 0) {
        g.padBegin[d] = 0;
        g.padEnd[d] = total;
      }
    }
  } else if (autoPad == "NOTSET") {
    FailureOr<SmallVector<int64_t>> pads = readPads(n, oneD);
    if (failed(pads))
      return failure();
    g.padBegin = {(*pads)[0], (*pads)[1]};
    g.padEnd = {(*pads)[2], (*pads)[3]};
  } else if (autoPad != "VALID") {
    return n.emitError() << "unsupported auto_pad '" << autoPad << "'";
  }

  bool subPixel = g.groups == 1 && g.dilations[0] == 1 && g.dilations[1] == 1 &&
                  (g.strides[0] > 1 || g.strides[1] > 1);
  FailureOr<Value> r = subPixel
                           ? subPixelConvTranspose(n, x, wType, *weights, g)
                           : spreadConvTranspose(n, x, wType, *weights, g);
  if (succeeded(r) && oneD)
    r = withoutUnitHeight(n, *r);
  return failed(r) ? failure() : n.setResults({*r});
}

} // namespace

std::pair<int64_t, int64_t> onnx_import::samePadding(int64_t in, int64_t kernel,
                                                     int64_t stride,
                                                     int64_t dilation,
                                                     bool upper) {
  int64_t out = (in + stride - 1) / stride;
  int64_t extent = (kernel - 1) * dilation + 1;
  int64_t total = std::max<int64_t>(0, (out - 1) * stride + extent - in);
  int64_t small = total / 2, large = total - small;
  int64_t begin = upper ? small : large;
  return {begin, total - begin};
}

int64_t onnx_import::ceilModeEndPadding(int64_t in, int64_t kernel,
                                        int64_t stride, int64_t begin,
                                        int64_t end) {
  int64_t span = in + begin + end - kernel;
  if (span < 0)
    return 0; // The op's verifier reports the too-small input.
  int64_t out = (span + stride - 1) / stride + 1;
  // The last window must start inside the input or the begin padding.
  if ((out - 1) * stride >= in + begin)
    --out;
  return std::max<int64_t>(0, (out - 1) * stride - span);
}

namespace {

/// The most taps a dilated max pooling's window may have: each is a slice.
constexpr int64_t kMaxDilatedPoolTaps = 1024;

/// Max pooling with dilated windows, which gopt.pool2d does not have: the
/// input padded with the lowest value, then the maximum of one slice per
/// window tap (kh·kw of them) at every position, which gopt-fuse makes one
/// kernel (unit-step slices are views of its input), and a strided slice of
/// that for strides above 1.
FailureOr<Value> dilatedMaxPool(NodeContext &n, Value x,
                                ArrayRef<int64_t> kernel,
                                ArrayRef<int64_t> strides,
                                ArrayRef<int64_t> dilations,
                                ArrayRef<int64_t> pads) {
  double lowest = lowestValue(NodeContext::typeOf(x).getElementType());
  Builder &b = n.builder();
  FailureOr<Value> padded = x;
  if (llvm::any_of(pads, [](int64_t p) { return p != 0; }))
    padded =
        n.create<PadOp>(x, b.getDenseI64ArrayAttr({0, 0, pads[0], pads[1]}),
                        b.getDenseI64ArrayAttr({0, 0, pads[2], pads[3]}),
                        b.getF64FloatAttr(lowest));
  if (failed(padded))
    return failure();
  ArrayRef<int64_t> shape = NodeContext::typeOf(*padded).getShape();
  // Window positions at stride 1.
  int64_t dense[2];
  for (int d = 0; d < 2; ++d) {
    // (kernel - 1) · dilation + 1 ≤ size, without overflowing.
    if (kernel[d] < 1 || kernel[d] - 1 > (shape[2 + d] - 1) / dilations[d])
      return n.emitError() << "the dilated window (kernel " << kernel[d]
                           << ", dilation " << dilations[d]
                           << ") does not fit the padded input ("
                           << shape[2 + d] << ")";
    dense[d] = shape[2 + d] - (kernel[d] - 1) * dilations[d];
  }
  if (kernel[0] * kernel[1] > kMaxDilatedPoolTaps)
    return n.emitError() << "a dilated window of " << kernel[0] << " x "
                         << kernel[1] << " taps; GOpt takes at most "
                         << kMaxDilatedPoolTaps << " (a slice each)";
  Value acc;
  for (int64_t th = 0; th < kernel[0]; ++th)
    for (int64_t tw = 0; tw < kernel[1]; ++tw) {
      int64_t h0 = th * dilations[0], w0 = tw * dilations[1];
      FailureOr<Value> tap = n.create<SliceOp>(
          *padded, ArrayRef<int64_t>{0, 0, h0, w0},
          ArrayRef<int64_t>{shape[0], shape[1], h0 + dense[0], w0 + dense[1]},
          ArrayRef<int64_t>{1, 1, 1, 1});
      if (failed(tap))
        return failure();
      FailureOr<Value> next = acc ? n.create<MaxOp>(acc, *tap) : tap;
      if (failed(next))
        return failure();
      acc = *next;
    }
  if (strides[0] == 1 && strides[1] == 1)
    return acc;
  return n.create<SliceOp>(
      acc, ArrayRef<int64_t>{0, 0, 0, 0},
      ArrayRef<int64_t>{shape[0], shape[1], dense[0], dense[1]},
      ArrayRef<int64_t>{1, 1, strides[0], strides[1]});
}

template <PoolKind kind> LogicalResult importPool(NodeContext &n) {
  FailureOr<Value> x = n.requiredInput(0, "X");
  if (failed(x))
    return failure();
  RankedTensorType type = NodeContext::typeOf(*x);
  auto kernel = n.getInts("kernel_shape");
  if (type.getRank() == 5 && kernel && kernel->size() == 3)
    return importPool3D(n, kind);
  bool oneD = type.getRank() == 3 && kernel && kernel->size() == 1;
  if (!oneD && (type.getRank() != 4 || !kernel || kernel->size() != 2))
    return n.emitError() << "only 1-D, 2-D and 3-D pooling (3-D, 4-D or 5-D "
                            "input, kernel_shape of 1, 2 or 3 entries) are "
                            "supported";
  if (n.getInt("storage_order", 0) != 0)
    return n.emitError() << "storage_order = 1 is not supported";
  FailureOr<SmallVector<int64_t>> strides = getSpatial(n, "strides", oneD);
  FailureOr<SmallVector<int64_t>> dilations = getSpatial(n, "dilations", oneD);
  if (failed(strides) || failed(dilations))
    return failure();
  bool dilated = (*dilations)[0] != 1 || (*dilations)[1] != 1;
  if (dilated && kind == PoolKind::avg)
    return n.emitError() << "dilated average pooling is not supported";
  if (oneD) {
    kernel->insert(kernel->begin(), 1);
    x = withUnitHeight(n, *x);
    if (failed(x))
      return failure();
    type = NodeContext::typeOf(*x);
  }
  FailureOr<SmallVector<int64_t>> pads = getPadding(
      n, type.getShape().drop_front(2), *kernel, *strides, *dilations, oneD);
  if (failed(pads))
    return failure();
  bool countIncludePad = n.getInt("count_include_pad", 0) != 0;
  if (n.getInt("ceil_mode", 0) != 0) {
    // Rounding the output size up adds windows that overhang the end. Extra
    // end padding gives the same windows; max pooling ignores padding and
    // average pooling without count_include_pad does not count it, so only
    // that combination is exact.
    if (kind == PoolKind::avg && countIncludePad)
      return n.emitError() << "ceil_mode = 1 with count_include_pad = 1 is "
                              "not supported";
    for (int d = 0; d < 2; ++d)
      (*pads)[d + 2] += ceilModeEndPadding(
          type.getDimSize(2 + d), ((*kernel)[d] - 1) * (*dilations)[d] + 1,
          (*strides)[d], (*pads)[d], (*pads)[d + 2]);
  }
  FailureOr<Value> r =
      dilated ? dilatedMaxPool(n, *x, *kernel, *strides, *dilations, *pads)
              : n.create<Pool2DOp>(kind, *x, ArrayRef<int64_t>(*kernel),
                                   ArrayRef<int64_t>(*strides),
                                   ArrayRef<int64_t>(*pads), countIncludePad);
  if (succeeded(r) && oneD)
    r = withoutUnitHeight(n, *r);
  return failed(r) ? failure() : n.setResults({*r});
}

/// The spatial dims of a global pooling's input [N, C, spatial...].
FailureOr<SmallVector<int64_t>> spatialDims(NodeContext &n, Value x) {
  int64_t rank = NodeContext::typeOf(x).getRank();
  if (rank < 3)
    return n.emitError() << "the input must have a batch, a channel and at "
                            "least one spatial dim, got rank "
                         << rank;
  SmallVector<int64_t> spatial;
  for (int64_t d = 2; d < rank; ++d)
    spatial.push_back(d);
  return spatial;
}

LogicalResult importGlobalAveragePool(NodeContext &n) {
  FailureOr<Value> x = n.requiredInput(0, "X");
  if (failed(x))
    return failure();
  FailureOr<SmallVector<int64_t>> spatial = spatialDims(n, *x);
  if (failed(spatial))
    return failure();
  int64_t rank = NodeContext::typeOf(*x).getRank();
  if (rank > 4) {
    // [N, C, D, H, W] and up: a mean over every spatial dim, kept as 1.
    FailureOr<Value> r = n.create<ReduceOp>(
        ReduceKind::mean, *x, ArrayRef<int64_t>(*spatial), /*keepdims=*/true);
    return failed(r) ? failure() : n.setResults({*r});
  }
  if (rank == 3)
    x = withUnitHeight(n, *x);
  if (failed(x))
    return failure();
  FailureOr<Value> r = n.create<GlobalAvgPoolOp>(*x);
  if (succeeded(r) && rank == 3)
    r = withoutUnitHeight(n, *r);
  return failed(r) ? failure() : n.setResults({*r});
}

/// GlobalMaxPool: the maximum over every spatial dim, kept as 1.
LogicalResult importGlobalMaxPool(NodeContext &n) {
  FailureOr<Value> x = n.requiredInput(0, "X");
  if (failed(x))
    return failure();
  FailureOr<SmallVector<int64_t>> spatial = spatialDims(n, *x);
  if (failed(spatial))
    return failure();
  FailureOr<Value> r = n.create<ReduceOp>(
      ReduceKind::max, *x, ArrayRef<int64_t>(*spatial), /*keepdims=*/true);
  return failed(r) ? failure() : n.setResults({*r});
}

/// InstanceNormalization: each (n, c) slice normalized over the other dims,
/// then scaled and shifted per channel. A layer_norm over the flattened
/// spatial dims of [N, C, S] (scale 1, no bias), then x·scale + B with
/// [C, 1] constants, reshaped back. torch exports GroupNorm as this on
/// [N, groups, ...] followed by its affine transform.
LogicalResult importInstanceNormalization(NodeContext &n) {
  FailureOr<Value> x = n.requiredInput(0, "input");
  FailureOr<Value> scale = n.requiredInput(1, "scale");
  FailureOr<Value> bias = n.requiredInput(2, "B");
  if (failed(x) || failed(scale) || failed(bias))
    return failure();
  RankedTensorType type = NodeContext::typeOf(*x);
  if (type.getRank() < 3 || !isa<FloatType>(type.getElementType()))
    return n.emitError() << "input must be a float tensor of rank 3 or more";
  int64_t channels = type.getDimSize(1);
  for (auto [name, v] : {std::pair{"scale", *scale}, {"B", *bias}})
    if (NodeContext::typeOf(v).getShape() != ArrayRef<int64_t>{channels})
      return n.emitError() << name << " must have shape [" << channels
                           << "], got "
                           << shapeToString(NodeContext::typeOf(v).getShape());
  int64_t spatial = 1;
  for (int64_t d : type.getShape().drop_front(2))
    spatial *= d;
  FailureOr<Value> flat =
      n.reshape(*x, {type.getDimSize(0), channels, spatial});
  if (failed(flat))
    return failure();
  auto flatType = NodeContext::typeOf(*flat);
  Value ones = n.splat(flatType.clone({spatial}), 1.0);
  FailureOr<Value> r = n.createTyped<LayerNormOp>(
      flatType, *flat, ones, Value(), n.builder().getDenseI64ArrayAttr({2}),
      n.builder().getF64FloatAttr(n.getFloat("epsilon", 1e-5)));
  FailureOr<Value> perChannelScale = n.reshape(*scale, {channels, 1});
  FailureOr<Value> perChannelBias = n.reshape(*bias, {channels, 1});
  if (failed(r) || failed(perChannelScale) || failed(perChannelBias))
    return failure();
  r = n.create<MulOp>(*r, *perChannelScale);
  if (succeeded(r))
    r = n.create<AddOp>(*r, *perChannelBias);
  if (succeeded(r))
    r = n.reshape(*r, type.getShape());
  return failed(r) ? failure() : n.setResults({*r});
}

/// Inference BatchNormalization as y = x·a + b with per-channel a, b. With
/// constant statistics a and b are folded here; otherwise they are computed
/// by elementwise ops.
LogicalResult importBatchNormalization(NodeContext &n) {
  FailureOr<Value> x = n.requiredInput(0, "X");
  if (failed(x))
    return failure();
  if (n.getInt("training_mode", 0) != 0)
    return n.emitError() << "training_mode = 1 is not supported (GOpt "
                            "imports inference graphs)";
  RankedTensorType type = NodeContext::typeOf(*x);
  if (type.getRank() < 2 || !isa<FloatType>(type.getElementType()))
    return n.emitError() << "input must be a float tensor of rank 2 or more";
  int64_t channels = type.getDimSize(1);
  SmallVector<int64_t> paramShape(type.getRank() - 1, 1);
  paramShape[0] = channels;
  auto paramType = type.clone(paramShape);
  double eps = n.getFloat("epsilon", 1e-5);
  const char *names[] = {"scale", "B", "input_mean", "input_var"};
  Value params[4];
  for (int i = 0; i < 4; ++i) {
    FailureOr<Value> p = n.requiredInput(i + 1, names[i]);
    if (failed(p))
      return failure();
    if (NodeContext::typeOf(*p).getShape() != ArrayRef<int64_t>{channels})
      return n.emitError() << names[i] << " must have shape [" << channels
                           << "], got "
                           << shapeToString(NodeContext::typeOf(*p).getShape());
    params[i] = *p;
  }

  auto known = [&](Value v) { return getFloatValues(n.graph.getKnown(v)); };
  auto scale = known(params[0]), bias = known(params[1]),
       mean = known(params[2]), var = known(params[3]);
  Value a, b;
  if (scale && bias && mean && var) {
    SmallVector<double> av(channels), bv(channels);
    for (int64_t c = 0; c < channels; ++c) {
      av[c] = (*scale)[c] / std::sqrt((*var)[c] + eps);
      bv[c] = (*bias)[c] - (*mean)[c] * av[c];
    }
    std::string name = n.node.output(0);
    a = n.constant(makeFloatElements(paramType, av, name + ".bn_scale"));
    b = n.constant(makeFloatElements(paramType, bv, name + ".bn_shift"));
  } else {
    // a = scale / sqrt(var + eps), b = B - mean * a, on [C, 1, ...] shapes.
    Value reshaped[4];
    for (int i = 0; i < 4; ++i) {
      FailureOr<Value> r = n.reshape(params[i], paramShape);
      if (failed(r))
        return failure();
      reshaped[i] = *r;
    }
    Value epsValue =
        n.splat(RankedTensorType::get({}, type.getElementType()), eps);
    FailureOr<Value> v = n.create<AddOp>(reshaped[3], epsValue);
    if (succeeded(v))
      v = n.createTyped<SqrtOp>(paramType, *v);
    if (succeeded(v))
      v = n.create<DivOp>(reshaped[0], *v);
    if (failed(v))
      return failure();
    a = *v;
    v = n.create<MulOp>(reshaped[2], a);
    if (succeeded(v))
      v = n.create<SubOp>(reshaped[1], *v);
    if (failed(v))
      return failure();
    b = *v;
  }
  FailureOr<Value> r = n.create<MulOp>(*x, a);
  if (succeeded(r))
    r = n.create<AddOp>(*r, b);
  return failed(r) ? failure() : n.setResults({*r});
}

LogicalResult importLayerNormalization(NodeContext &n) {
  FailureOr<Value> x = n.requiredInput(0, "X");
  FailureOr<Value> scale = n.requiredInput(1, "Scale");
  if (failed(x) || failed(scale))
    return failure();
  RankedTensorType type = NodeContext::typeOf(*x);
  FailureOr<int64_t> axis =
      n.normalizedAxis(n.getInt("axis", -1), type.getRank());
  if (failed(axis))
    return failure();
  SmallVector<int64_t> axes;
  for (int64_t d = *axis; d < type.getRank(); ++d)
    axes.push_back(d);
  // gopt.layer_norm wants scale and bias of exactly the normalized shape.
  ArrayRef<int64_t> normalized = type.getShape().drop_front(*axis);
  auto fit = [&](Value v) -> FailureOr<Value> {
    RankedTensorType t = NodeContext::typeOf(v);
    if (t.getShape() == normalized)
      return v;
    auto shape = broadcastShapes(t.getShape(), normalized);
    if (!shape || ArrayRef<int64_t>(*shape) != normalized)
      return n.emitError() << "scale/bias of shape "
                           << shapeToString(t.getShape())
                           << " does not broadcast to the normalized shape "
                           << shapeToString(normalized);
    return n.createTyped<BroadcastToOp>(t.clone(normalized), v);
  };
  scale = fit(*scale);
  if (failed(scale))
    return failure();
  Value bias;
  if (Value b = n.input(2)) {
    FailureOr<Value> fitted = fit(b);
    if (failed(fitted))
      return failure();
    bias = *fitted;
  }
  FailureOr<Value> r = n.createTyped<LayerNormOp>(
      type, *x, *scale, bias, n.builder().getDenseI64ArrayAttr(axes),
      n.builder().getF64FloatAttr(n.getFloat("epsilon", 1e-5)));
  return failed(r) ? failure() : n.setResults({*r});
}

} // namespace

void onnx_import::registerNeuralImporters(OpImporterTable &table) {
  std::vector<AttrSpec> convAttrs = {
      {"auto_pad", AttrType::STRING}, {"dilations", AttrType::INTS},
      {"group", AttrType::INT},       {"kernel_shape", AttrType::INTS},
      {"pads", AttrType::INTS},       {"strides", AttrType::INTS}};
  std::vector<AttrSpec> poolAttrs = {
      {"auto_pad", AttrType::STRING}, {"ceil_mode", AttrType::INT},
      {"dilations", AttrType::INTS},  {"kernel_shape", AttrType::INTS},
      {"pads", AttrType::INTS},       {"strides", AttrType::INTS}};
  std::vector<AttrSpec> maxPoolAttrs = poolAttrs;
  maxPoolAttrs.push_back({"storage_order", AttrType::INT});
  std::vector<AttrSpec> avgPoolAttrs = poolAttrs;
  avgPoolAttrs.push_back({"count_include_pad", AttrType::INT});

  table["MatMul"] = {importMatMul, {}};
  table["Gemm"] = {importGemm,
                   {{"alpha", AttrType::FLOAT},
                    {"beta", AttrType::FLOAT},
                    {"transA", AttrType::INT},
                    {"transB", AttrType::INT}}};
  table["Conv"] = {importConv, convAttrs};
  std::vector<AttrSpec> convTransposeAttrs = convAttrs;
  convTransposeAttrs.push_back({"output_padding", AttrType::INTS});
  convTransposeAttrs.push_back({"output_shape", AttrType::INTS});
  table["ConvTranspose"] = {importConvTranspose, convTransposeAttrs};
  table["MaxPool"] = {importPool<PoolKind::max>, maxPoolAttrs};
  table["AveragePool"] = {importPool<PoolKind::avg>, avgPoolAttrs};
  table["GlobalAveragePool"] = {importGlobalAveragePool, {}};
  table["GlobalMaxPool"] = {importGlobalMaxPool, {}};
  table["InstanceNormalization"] = {importInstanceNormalization,
                                    {{"epsilon", AttrType::FLOAT}}};
  table["BatchNormalization"] = {importBatchNormalization,
                                 {{"epsilon", AttrType::FLOAT},
                                  {"momentum", AttrType::FLOAT},
                                  {"training_mode", AttrType::INT}}};
  table["LayerNormalization"] = {importLayerNormalization,
                                 {{"axis", AttrType::INT},
                                  {"epsilon", AttrType::FLOAT},
                                  {"stash_type", AttrType::INT}}};
}
