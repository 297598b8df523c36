//===- GOptOps.cpp - GOpt op verification, type inference, cost -----------===//
//
// Folders live in GOptFolders.cpp; constant evaluation in
// ConstantEvaluator.cpp.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Dialect/GOpt/IR/GOptOps.h"
#include "GOpt/Dialect/GOpt/IR/ResizeCoordinates.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"

#include <cmath>

using namespace mlir;
using namespace mlir::gopt;

#include "GOpt/Dialect/GOpt/IR/GOptEnums.cpp.inc"
#include "GOpt/Dialect/GOpt/IR/GOptInterfaces.cpp.inc"

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

/// Ranked tensors take a fast path: ShapedType and FloatType are type
/// interfaces, whose casts cost a lookup, and statistics call these for every
/// value.
static std::optional<std::pair<int64_t, int64_t>>
staticElementsAndBits(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    int64_t n = 1;
    for (int64_t d : tensor.getShape()) {
      if (ShapedType::isDynamic(d))
        return std::nullopt;
      n *= d;
    }
    // The common element types by TypeID; FloatType is a type interface too.
    Type element = tensor.getElementType();
    if (auto integer = dyn_cast<IntegerType>(element))
      return std::make_pair(n, static_cast<int64_t>(integer.getWidth()));
    if (isa<Float32Type>(element))
      return std::make_pair(n, int64_t{32});
    if (isa<Float16Type, BFloat16Type>(element))
      return std::make_pair(n, int64_t{16});
    if (isa<Float64Type>(element))
      return std::make_pair(n, int64_t{64});
    if (auto floating = dyn_cast<FloatType>(element))
      return std::make_pair(n, static_cast<int64_t>(floating.getWidth()));
    return std::nullopt;
  }
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasStaticShape() ||
      !shaped.getElementType().isIntOrFloat())
    return std::nullopt;
  return std::make_pair(shaped.getNumElements(),
                        static_cast<int64_t>(shaped.getElementTypeBitWidth()));
}

int64_t mlir::gopt::getNumElements(Type type) {
  auto info = staticElementsAndBits(type);
  return info ? info->first : 1;
}

int64_t mlir::gopt::getTensorBytes(Type type) {
  auto info = staticElementsAndBits(type);
  if (!info)
    return 0;
  return info->first * std::max<int64_t>(1, (info->second + 7) / 8);
}

static RankedTensorType tensorType(Value v) {
  return cast<RankedTensorType>(v.getType());
}

/// Prints or parses `T` when lhs, rhs and result types agree, else
/// `L, R -> Res`.
static ParseResult parseBroadcastTypes(OpAsmParser &parser, Type &lhs,
                                       Type &rhs, Type &result) {
  if (parser.parseType(lhs))
    return failure();
  if (succeeded(parser.parseOptionalComma())) {
    if (parser.parseType(rhs) || parser.parseArrow() ||
        parser.parseType(result))
      return failure();
    return success();
  }
  rhs = lhs;
  result = lhs;
  return success();
}

static void printBroadcastTypes(OpAsmPrinter &printer, Operation *, Type lhs,
                                Type rhs, Type result) {
  if (lhs == rhs && rhs == result) {
    printer << lhs;
    return;
  }
  printer << lhs << ", " << rhs << " -> " << result;
}

/// Prints or parses a list of doubles as `[a, b, ...]`, each printed so that
/// it parses back to the same double (DenseF64ArrayAttr's own short form
/// keeps six digits).
static ParseResult parseExactF64List(OpAsmParser &parser,
                                     DenseF64ArrayAttr &values) {
  SmallVector<double> parsed;
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square,
                                     [&]() -> ParseResult {
                                       double v;
                                       if (parser.parseFloat(v))
                                         return failure();
                                       parsed.push_back(v);
                                       return success();
                                     }))
    return failure();
  values = DenseF64ArrayAttr::get(parser.getContext(), parsed);
  return success();
}

static void printExactF64List(OpAsmPrinter &printer, Operation *,
                              DenseF64ArrayAttr values) {
  printer << '[';
  llvm::interleaveComma(values.asArrayRef(), printer,
                        [&](double v) { printer.printFloat(APFloat(v)); });
  printer << ']';
}

/// Normalizes `axes` against `rank` into `out`; emits a diagnostic naming the
/// attribute on a bad or repeated axis.
static LogicalResult normalizeAxes(std::optional<Location> loc,
                                   ArrayRef<int64_t> axes, int64_t rank,
                                   StringRef what,
                                   SmallVectorImpl<int64_t> &out) {
  llvm::SmallSet<int64_t, 8> seen;
  for (int64_t axis : axes) {
    auto normalized = normalizeAxis(axis, rank);
    if (!normalized)
      return emitOptionalError(loc, what, " axis ", axis,
                               " is out of range for rank ", rank);
    if (!seen.insert(*normalized).second)
      return emitOptionalError(loc, what, " axis ", axis, " is repeated");
    out.push_back(*normalized);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Constant
//===----------------------------------------------------------------------===//

void ConstantOp::getAsmResultNames(
    function_ref<void(Value, StringRef)> setNameFn) {
  setNameFn(getResult(), "cst");
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

LogicalResult ClipOp::verify() {
  if (getMin().isNaN() || getMax().isNaN())
    return emitOpError("min and max must not be NaN");
  if (getMin().convertToDouble() > getMax().convertToDouble())
    return emitOpError("min ") << getMin().convertToDouble()
                               << " is greater than max "
                               << getMax().convertToDouble();
  return success();
}

LogicalResult CastOp::verify() {
  if (getInput().getType().getShape() != getResult().getType().getShape())
    return emitOpError("result shape ")
           << shapeToString(getResult().getType().getShape())
           << " differs from input shape "
           << shapeToString(getInput().getType().getShape());
  return success();
}

LogicalResult CompareOp::inferReturnTypes(MLIRContext *context,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  return inferBroadcastBinaryType(loc, adaptor.getLhs(), adaptor.getRhs(),
                                  IntegerType::get(context, 1), types);
}

LogicalResult SelectOp::inferReturnTypes(MLIRContext *context,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  auto cond = tensorType(adaptor.getCondition());
  auto onTrue = tensorType(adaptor.getOnTrue());
  auto onFalse = tensorType(adaptor.getOnFalse());
  if (onTrue.getElementType() != onFalse.getElementType())
    return emitOptionalError(loc, "operand 'on_false' has element type ",
                             onFalse.getElementType(), " but 'on_true' has ",
                             onTrue.getElementType(),
                             "; expected the same element type");
  auto values = broadcastShapes(onTrue.getShape(), onFalse.getShape());
  if (!values)
    return emitOptionalError(
        loc, "operand 'on_false' of shape ", shapeToString(onFalse.getShape()),
        " does not broadcast with operand 'on_true' of shape ",
        shapeToString(onTrue.getShape()));
  auto shape = broadcastShapes(cond.getShape(), *values);
  if (!shape)
    return emitOptionalError(
        loc, "operand 'condition' of shape ", shapeToString(cond.getShape()),
        " does not broadcast with the values' shape ", shapeToString(*values));
  types.push_back(RankedTensorType::get(*shape, onTrue.getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// Reductions and normalizations
//===----------------------------------------------------------------------===//

LogicalResult ReduceOp::inferReturnTypes(MLIRContext *context,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  auto input = tensorType(adaptor.getInput());
  SmallVector<int64_t> axes;
  if (failed(normalizeAxes(loc, adaptor.getAxes(), input.getRank(), "reduce",
                           axes)))
    return failure();
  if (axes.empty())
    return emitOptionalError(loc, "reduce needs at least one axis");
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < input.getRank(); ++d) {
    if (!llvm::is_contained(axes, d))
      shape.push_back(input.getDimSize(d));
    else if (adaptor.getKeepdims())
      shape.push_back(1);
  }
  types.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

int64_t ReduceOp::getFlops() { return getNumElements(getInput().getType()); }

LogicalResult SoftmaxOp::verify() {
  if (!normalizeAxis(getAxis(), getInput().getType().getRank()))
    return emitOpError("axis ") << static_cast<int64_t>(getAxis())
                                << " is out of range for rank "
                                << getInput().getType().getRank();
  return success();
}

LogicalResult LayerNormOp::verify() {
  RankedTensorType input = getInput().getType();
  SmallVector<int64_t> axes;
  if (failed(normalizeAxes(getLoc(), getAxes(), input.getRank(), "layer_norm",
                           axes)))
    return failure();
  if (axes.empty())
    return emitOpError("needs at least one normalized axis");
  llvm::sort(axes);
  for (auto [i, axis] : llvm::enumerate(axes))
    if (axis != input.getRank() - static_cast<int64_t>(axes.size()) +
                    static_cast<int64_t>(i))
      return emitOpError("axes must be the trailing dimensions of the input");
  ArrayRef<int64_t> normalized = input.getShape().take_back(axes.size());
  auto checkParam = [&](Value param, StringRef name) -> LogicalResult {
    if (!param)
      return success();
    auto type = tensorType(param);
    if (type.getElementType() != input.getElementType())
      return emitOpError("operand '")
             << name << "' has element type " << type.getElementType()
             << ", expected " << input.getElementType();
    if (type.getShape() != normalized)
      return emitOpError("operand '")
             << name << "' has shape " << shapeToString(type.getShape())
             << ", expected the normalized shape "
             << shapeToString(normalized);
    return success();
  };
  if (failed(checkParam(getScale(), "scale")) ||
      failed(checkParam(getBias(), "bias")))
    return failure();
  if (getEpsilon().convertToDouble() < 0)
    return emitOpError("eps must be non-negative");
  return success();
}

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

LogicalResult MatmulOp::inferReturnTypes(MLIRContext *context,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  auto lhs = tensorType(adaptor.getLhs());
  auto rhs = tensorType(adaptor.getRhs());
  if (lhs.getRank() < 2 || rhs.getRank() < 2)
    return emitOptionalError(loc, "operands 'lhs' and 'rhs' need rank >= 2, "
                                  "got ",
                             lhs.getRank(), " and ", rhs.getRank());
  if (lhs.getElementType() != rhs.getElementType())
    return emitOptionalError(loc, "operand 'rhs' has element type ",
                             rhs.getElementType(), " but 'lhs' has ",
                             lhs.getElementType());
  int64_t k = lhs.getShape().back();
  if (rhs.getDimSize(rhs.getRank() - 2) != k)
    return emitOptionalError(
        loc, "contraction size mismatch: 'lhs' ",
        shapeToString(lhs.getShape()), " has K = ", k, " but 'rhs' ",
        shapeToString(rhs.getShape()), " has K = ",
        rhs.getDimSize(rhs.getRank() - 2));
  auto batch = broadcastShapes(lhs.getShape().drop_back(2),
                               rhs.getShape().drop_back(2));
  if (!batch)
    return emitOptionalError(loc, "batch dimensions of 'lhs' ",
                             shapeToString(lhs.getShape()), " and 'rhs' ",
                             shapeToString(rhs.getShape()),
                             " do not broadcast");
  SmallVector<int64_t> shape = *batch;
  shape.push_back(lhs.getDimSize(lhs.getRank() - 2));
  shape.push_back(rhs.getShape().back());
  types.push_back(RankedTensorType::get(shape, lhs.getElementType()));
  return success();
}

int64_t MatmulOp::getFlops() {
  return 2 * getNumElements(getResult().getType()) *
         getLhs().getType().getShape().back();
}

LogicalResult LinearOp::inferReturnTypes(MLIRContext *context,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  auto input = tensorType(adaptor.getInput());
  auto weight = tensorType(adaptor.getWeight());
  if (input.getRank() < 2)
    return emitOptionalError(loc, "operand 'input' needs rank >= 2, got ",
                             input.getRank());
  if (weight.getRank() != 2)
    return emitOptionalError(loc, "operand 'weight' needs rank 2, got ",
                             weight.getRank());
  if (input.getElementType() != weight.getElementType())
    return emitOptionalError(loc, "operand 'weight' has element type ",
                             weight.getElementType(), " but 'input' has ",
                             input.getElementType());
  int64_t rank = input.getRank();
  bool tIn = adaptor.getTransposeInput(), tW = adaptor.getTransposeWeight();
  int64_t m = input.getDimSize(tIn ? rank - 1 : rank - 2);
  int64_t k = input.getDimSize(tIn ? rank - 2 : rank - 1);
  int64_t wk = weight.getDimSize(tW ? 1 : 0);
  int64_t n = weight.getDimSize(tW ? 0 : 1);
  if (k != wk)
    return emitOptionalError(
        loc, "contraction size mismatch: 'input' ",
        shapeToString(input.getShape()), " has K = ", k, " but 'weight' ",
        shapeToString(weight.getShape()), " has K = ", wk,
        tW ? " (transpose_weight)" : "");
  SmallVector<int64_t> shape(input.getShape().drop_back(2));
  shape.push_back(m);
  shape.push_back(n);
  if (Value bias = adaptor.getBias()) {
    auto biasType = tensorType(bias);
    if (biasType.getElementType() != input.getElementType())
      return emitOptionalError(loc, "operand 'bias' has element type ",
                               biasType.getElementType(), ", expected ",
                               input.getElementType());
    auto broadcast = broadcastShapes(shape, biasType.getShape());
    if (!broadcast || ArrayRef<int64_t>(*broadcast) != ArrayRef(shape))
      return emitOptionalError(loc, "operand 'bias' of shape ",
                               shapeToString(biasType.getShape()),
                               " does not broadcast to the result shape ",
                               shapeToString(shape));
  }
  types.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

int64_t LinearOp::getFlops() {
  RankedTensorType input = getInput().getType();
  int64_t k = input.getDimSize(getTransposeInput() ? input.getRank() - 2
                                                   : input.getRank() - 1);
  int64_t out = getNumElements(getResult().getType());
  return 2 * out * k + (getBias() ? out : 0);
}

/// Output size of one windowed spatial dimension, or a non-positive value.
static int64_t windowOutputSize(int64_t in, int64_t kernel, int64_t stride,
                                int64_t padBefore, int64_t padAfter,
                                int64_t dilation) {
  int64_t effective = dilation * (kernel - 1) + 1;
  int64_t span = in + padBefore + padAfter - effective;
  if (span < 0)
    return 0;
  return span / stride + 1;
}

/// Checks the lengths and values of window attributes.
static LogicalResult verifyWindowAttrs(std::optional<Location> loc,
                                       ArrayRef<int64_t> strides,
                                       ArrayRef<int64_t> padding,
                                       ArrayRef<int64_t> dilations) {
  if (strides.size() != 2 || llvm::any_of(strides, [](int64_t s) {
        return s <= 0;
      }))
    return emitOptionalError(loc, "strides must be 2 positive values, got ",
                             shapeToString(strides));
  if (padding.size() != 4 || llvm::any_of(padding, [](int64_t p) {
        return p < 0;
      }))
    return emitOptionalError(
        loc, "padding must be 4 non-negative values [top, left, bottom, "
             "right], got ",
        shapeToString(padding));
  if (dilations.size() != 2 || llvm::any_of(dilations, [](int64_t d) {
        return d <= 0;
      }))
    return emitOptionalError(loc, "dilations must be 2 positive values, got ",
                             shapeToString(dilations));
  return success();
}

/// Where the channel and the two spatial dims of an image tensor are: NCHW,
/// or NHWC for ops marked `channels_last`.
struct ImageDims {
  unsigned c, h, w;
  static ImageDims of(bool channelsLast) {
    return channelsLast ? ImageDims{3, 1, 2} : ImageDims{1, 2, 3};
  }
};

LogicalResult Conv2DOp::inferReturnTypes(MLIRContext *context,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  auto input = tensorType(adaptor.getInput());
  auto weight = tensorType(adaptor.getWeight());
  bool channelsLast = adaptor.getChannelsLast();
  if (input.getRank() != 4)
    return emitOptionalError(loc, "operand 'input' must be ",
                             channelsLast ? "NHWC" : "NCHW",
                             " (rank 4), got rank ", input.getRank());
  if (weight.getRank() != 4)
    return emitOptionalError(loc, "operand 'weight' must be ",
                             channelsLast ? "FHWC" : "FCHW",
                             " (rank 4), got rank ", weight.getRank());
  if (input.getElementType() != weight.getElementType())
    return emitOptionalError(loc, "operand 'weight' has element type ",
                             weight.getElementType(), " but 'input' has ",
                             input.getElementType());
  if (failed(verifyWindowAttrs(loc, adaptor.getStrides(), adaptor.getPadding(),
                               adaptor.getDilations())))
    return failure();
  // The weight, [F, C/groups, KH, KW] or [F, KH, KW, C/groups], has its
  // channel and window dims where the input has its channel and spatial ones.
  ImageDims dims = ImageDims::of(channelsLast), wDims = dims;
  int64_t groups = adaptor.getGroups();
  int64_t c = input.getDimSize(dims.c), f = weight.getDimSize(0);
  if (groups <= 0 || c % groups != 0 || f % groups != 0)
    return emitOptionalError(loc, "groups = ", groups,
                             " must be positive and divide input channels (",
                             c, ") and filters (", f, ")");
  if (weight.getDimSize(wDims.c) != c / groups)
    return emitOptionalError(loc, "operand 'weight' has ",
                             weight.getDimSize(wDims.c),
                             " channels per group, expected C/groups = ",
                             c / groups);
  if (Value bias = adaptor.getBias()) {
    auto biasType = tensorType(bias);
    if (biasType.getRank() != 1 || biasType.getDimSize(0) != f ||
        biasType.getElementType() != input.getElementType())
      return emitOptionalError(
          loc, "operand 'bias' has type ", biasType, ", expected ",
          RankedTensorType::get({f}, input.getElementType()));
  }
  ArrayRef<int64_t> s = adaptor.getStrides(), p = adaptor.getPadding(),
                    d = adaptor.getDilations();
  int64_t oh = windowOutputSize(input.getDimSize(dims.h),
                                weight.getDimSize(wDims.h), s[0], p[0], p[2],
                                d[0]);
  int64_t ow = windowOutputSize(input.getDimSize(dims.w),
                                weight.getDimSize(wDims.w), s[1], p[1], p[3],
                                d[1]);
  if (oh <= 0 || ow <= 0)
    return emitOptionalError(loc, "the kernel does not fit the padded input");
  int64_t n = input.getDimSize(0);
  SmallVector<int64_t, 4> shape =
      channelsLast ? SmallVector<int64_t, 4>{n, oh, ow, f}
                   : SmallVector<int64_t, 4>{n, f, oh, ow};
  types.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

int64_t Conv2DOp::getFlops() {
  RankedTensorType weight = getWeight().getType();
  int64_t out = getNumElements(getResult().getType());
  int64_t perOutput =
      weight.getDimSize(1) * weight.getDimSize(2) * weight.getDimSize(3);
  return 2 * out * perOutput + (getBias() ? out : 0);
}

LogicalResult Pool2DOp::inferReturnTypes(MLIRContext *context,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  auto input = tensorType(adaptor.getInput());
  bool channelsLast = adaptor.getChannelsLast();
  if (input.getRank() != 4)
    return emitOptionalError(loc, "operand 'input' must be ",
                             channelsLast ? "NHWC" : "NCHW",
                             " (rank 4), got rank ", input.getRank());
  ArrayRef<int64_t> k = adaptor.getKernel();
  if (k.size() != 2 || k[0] <= 0 || k[1] <= 0)
    return emitOptionalError(loc, "kernel must be 2 positive values, got ",
                             shapeToString(k));
  int64_t ones[] = {1, 1};
  if (failed(verifyWindowAttrs(loc, adaptor.getStrides(), adaptor.getPadding(),
                               ones)))
    return failure();
  ArrayRef<int64_t> s = adaptor.getStrides(), p = adaptor.getPadding();
  if (p[0] >= k[0] || p[2] >= k[0] || p[1] >= k[1] || p[3] >= k[1])
    return emitOptionalError(loc, "padding ", shapeToString(p),
                             " must be smaller than the kernel ",
                             shapeToString(k));
  ImageDims dims = ImageDims::of(channelsLast);
  int64_t oh = windowOutputSize(input.getDimSize(dims.h), k[0], s[0], p[0],
                                p[2], 1);
  int64_t ow = windowOutputSize(input.getDimSize(dims.w), k[1], s[1], p[1],
                                p[3], 1);
  if (oh <= 0 || ow <= 0)
    return emitOptionalError(loc, "the kernel does not fit the padded input");
  SmallVector<int64_t, 4> shape(input.getShape());
  shape[dims.h] = oh;
  shape[dims.w] = ow;
  types.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

int64_t Pool2DOp::getFlops() {
  ArrayRef<int64_t> k = getKernel();
  return getNumElements(getResult().getType()) * k[0] * k[1];
}

LogicalResult GlobalAvgPoolOp::inferReturnTypes(MLIRContext *context,
                                                std::optional<Location> loc,
                                                Adaptor adaptor,
                                                SmallVectorImpl<Type> &types) {
  auto input = tensorType(adaptor.getInput());
  bool channelsLast = adaptor.getChannelsLast();
  if (input.getRank() != 4)
    return emitOptionalError(loc, "operand 'input' must be ",
                             channelsLast ? "NHWC" : "NCHW",
                             " (rank 4), got rank ", input.getRank());
  ImageDims dims = ImageDims::of(channelsLast);
  SmallVector<int64_t, 4> shape(input.getShape());
  shape[dims.h] = shape[dims.w] = 1;
  types.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

int64_t GlobalAvgPoolOp::getFlops() {
  return getNumElements(getInput().getType());
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *context,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  auto input = tensorType(adaptor.getInput());
  ArrayRef<int64_t> perm = adaptor.getPerm();
  if (static_cast<int64_t>(perm.size()) != input.getRank())
    return emitOptionalError(loc, "perm ", shapeToString(perm), " has ",
                             perm.size(), " entries, expected the input rank ",
                             input.getRank());
  SmallVector<bool> used(perm.size(), false);
  SmallVector<int64_t> shape;
  for (int64_t p : perm) {
    if (p < 0 || p >= input.getRank() || used[p])
      return emitOptionalError(loc, "perm ", shapeToString(perm),
                               " is not a permutation of [0, ",
                               input.getRank(), ")");
    used[p] = true;
    shape.push_back(input.getDimSize(p));
  }
  types.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

LogicalResult ReshapeOp::verify() {
  RankedTensorType in = getInput().getType(), out = getResult().getType();
  if (in.getElementType() != out.getElementType())
    return emitOpError("result element type ")
           << out.getElementType() << " differs from input element type "
           << in.getElementType();
  if (in.getNumElements() != out.getNumElements())
    return emitOpError("result shape ")
           << shapeToString(out.getShape()) << " has " << out.getNumElements()
           << " elements, but input shape " << shapeToString(in.getShape())
           << " has " << in.getNumElements();
  return success();
}

LogicalResult BroadcastToOp::verify() {
  RankedTensorType in = getInput().getType(), out = getResult().getType();
  if (in.getElementType() != out.getElementType())
    return emitOpError("result element type ")
           << out.getElementType() << " differs from input element type "
           << in.getElementType();
  auto shape = broadcastShapes(in.getShape(), out.getShape());
  if (in.getRank() > out.getRank() || !shape ||
      ArrayRef<int64_t>(*shape) != out.getShape())
    return emitOpError("input shape ")
           << shapeToString(in.getShape())
           << " does not broadcast to result shape "
           << shapeToString(out.getShape());
  return success();
}

LogicalResult ConcatOp::inferReturnTypes(MLIRContext *context,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  if (adaptor.getInputs().empty())
    return emitOptionalError(loc, "concat needs at least one input");
  auto first = tensorType(adaptor.getInputs().front());
  auto axis = normalizeAxis(adaptor.getAxis(), first.getRank());
  if (!axis)
    return emitOptionalError(loc, "axis ",
                             static_cast<int64_t>(adaptor.getAxis()),
                             " is out of range for rank ", first.getRank());
  SmallVector<int64_t> shape(first.getShape());
  shape[*axis] = 0;
  for (auto [i, v] : llvm::enumerate(adaptor.getInputs())) {
    auto type = tensorType(v);
    if (type.getElementType() != first.getElementType() ||
        type.getRank() != first.getRank())
      return emitOptionalError(loc, "input #", i, " has type ", type,
                               ", expected rank ", first.getRank(), " and ",
                               first.getElementType(), " elements");
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (d != *axis && type.getDimSize(d) != first.getDimSize(d))
        return emitOptionalError(loc, "input #", i, " has shape ",
                                 shapeToString(type.getShape()),
                                 ", expected ",
                                 shapeToString(first.getShape()),
                                 " outside axis ", *axis);
    shape[*axis] += type.getDimSize(*axis);
  }
  types.push_back(RankedTensorType::get(shape, first.getElementType()));
  return success();
}

LogicalResult SliceOp::inferReturnTypes(MLIRContext *context,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  auto input = tensorType(adaptor.getInput());
  ArrayRef<int64_t> starts = adaptor.getStarts(), ends = adaptor.getEnds(),
                    steps = adaptor.getSteps();
  size_t rank = input.getRank();
  if (starts.size() != rank || ends.size() != rank || steps.size() != rank)
    return emitOptionalError(loc, "starts, ends and steps need one entry per "
                                  "dimension (",
                             rank, "), got ", starts.size(), ", ",
                             ends.size(), " and ", steps.size());
  SmallVector<int64_t> shape;
  for (size_t d = 0; d < rank; ++d) {
    auto bounds =
        normalizeSlice(input.getDimSize(d), starts[d], ends[d], steps[d]);
    if (!bounds)
      return emitOptionalError(loc, "step ", steps[d], " of dimension ", d,
                               " must be positive");
    shape.push_back(bounds->size);
  }
  types.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

LogicalResult SplitOp::inferReturnTypes(MLIRContext *context,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  auto input = tensorType(adaptor.getInput());
  auto axis = normalizeAxis(adaptor.getAxis(), input.getRank());
  if (!axis)
    return emitOptionalError(loc, "axis ",
                             static_cast<int64_t>(adaptor.getAxis()),
                             " is out of range for rank ", input.getRank());
  ArrayRef<int64_t> sizes = adaptor.getSizes();
  int64_t total = 0;
  for (int64_t size : sizes) {
    if (size < 0)
      return emitOptionalError(loc, "split sizes must be non-negative, got ",
                               shapeToString(sizes));
    total += size;
  }
  if (sizes.empty() || total != input.getDimSize(*axis))
    return emitOptionalError(loc, "split sizes ", shapeToString(sizes),
                             " must add up to dimension ", *axis, " (",
                             input.getDimSize(*axis), ")");
  for (int64_t size : sizes) {
    SmallVector<int64_t> shape(input.getShape());
    shape[*axis] = size;
    types.push_back(RankedTensorType::get(shape, input.getElementType()));
  }
  return success();
}

LogicalResult GatherOp::inferReturnTypes(MLIRContext *context,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  auto input = tensorType(adaptor.getInput());
  auto indices = tensorType(adaptor.getIndices());
  auto axis = normalizeAxis(adaptor.getAxis(), input.getRank());
  if (!axis)
    return emitOptionalError(loc, "axis ",
                             static_cast<int64_t>(adaptor.getAxis()),
                             " is out of range for rank ", input.getRank());
  SmallVector<int64_t> shape(input.getShape().take_front(*axis));
  llvm::append_range(shape, indices.getShape());
  llvm::append_range(shape, input.getShape().drop_front(*axis + 1));
  types.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

LogicalResult GatherElementsOp::inferReturnTypes(MLIRContext *context,
                                                 std::optional<Location> loc,
                                                 Adaptor adaptor,
                                                 SmallVectorImpl<Type> &types) {
  auto input = tensorType(adaptor.getInput());
  auto indices = tensorType(adaptor.getIndices());
  int64_t rank = input.getRank();
  auto axis = normalizeAxis(adaptor.getAxis(), rank);
  if (!axis)
    return emitOptionalError(loc, "axis ",
                             static_cast<int64_t>(adaptor.getAxis()),
                             " is out of range for rank ", rank);
  if (indices.getRank() != rank)
    return emitOptionalError(loc, "indices of rank ", indices.getRank(),
                             " for an input of rank ", rank,
                             ": they must have one rank");
  for (int64_t d = 0; d < rank; ++d)
    if (d != *axis && indices.getDimSize(d) > input.getDimSize(d))
      return emitOptionalError(
          loc, "indices of shape ", shapeToString(indices.getShape()),
          " exceed the input's ", shapeToString(input.getShape()), " on dim ",
          d, ", which is not the axis");
  types.push_back(
      RankedTensorType::get(indices.getShape(), input.getElementType()));
  return success();
}

LogicalResult ResizeOp::verify() {
  RankedTensorType input = getInput().getType(), result = getType();
  if (input.getElementType() != result.getElementType())
    return emitOpError("result element type ")
           << result.getElementType() << " differs from the input's "
           << input.getElementType();
  if (input.getRank() != result.getRank())
    return emitOpError("result rank ")
           << result.getRank() << " differs from the input's "
           << input.getRank();
  if (static_cast<int64_t>(getScale().size()) != input.getRank() ||
      static_cast<int64_t>(getOffset().size()) != input.getRank())
    return emitOpError("scale and offset need one entry per dimension (")
           << input.getRank() << "), got " << getScale().size() << " and "
           << getOffset().size();
  if (getMode() == ResizeMode::linear &&
      !isa<FloatType>(input.getElementType()))
    return emitOpError("linear interpolation needs a float element type, got ")
           << input.getElementType();
  for (int64_t d = 0; d < input.getRank(); ++d) {
    if (!std::isfinite(getScale()[d]) || !std::isfinite(getOffset()[d]))
      return emitOpError("scale and offset must be finite, got ")
             << getScale()[d] << " and " << getOffset()[d] << " on dim " << d;
    if (input.getDimSize(d) == 0 && result.getDimSize(d) != 0)
      return emitOpError("dim ")
             << d << " is empty in the input and has " << result.getDimSize(d)
             << " elements in the result";
  }
  return success();
}

int64_t ResizeOp::getFlops() {
  if (getMode() != ResizeMode::linear)
    return 0;
  // 2^k − 1 interpolations over k resized dims, each a subtraction, a
  // multiplication and an addition.
  int64_t interpolations = (int64_t(1) << getResizedDims(*this).size()) - 1;
  return 3 * interpolations * getNumElements(getType());
}

LogicalResult PadOp::verify() {
  Type element = getInput().getType().getElementType();
  double value = getValue().convertToDouble();
  if (auto integer = dyn_cast<IntegerType>(element)) {
    unsigned width = integer.getWidth();
    double lo = width == 1 ? 0 : -std::ldexp(1.0, width - 1);
    double hi = width == 1 ? 1 : std::ldexp(1.0, width - 1) - 1;
    if (std::isnan(value) || value != std::trunc(value) || value < lo ||
        value > hi)
      return emitOpError("pad value ")
             << value << " is not representable in " << element;
  }
  return success();
}

LogicalResult PadOp::inferReturnTypes(MLIRContext *context,
                                      std::optional<Location> loc,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &types) {
  auto input = tensorType(adaptor.getInput());
  ArrayRef<int64_t> low = adaptor.getLow(), high = adaptor.getHigh();
  if (static_cast<int64_t>(low.size()) != input.getRank() ||
      static_cast<int64_t>(high.size()) != input.getRank())
    return emitOptionalError(loc, "low and high need one entry per "
                                  "dimension (",
                             input.getRank(), "), got ", low.size(), " and ",
                             high.size());
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < input.getRank(); ++d) {
    if (low[d] < 0 || high[d] < 0)
      return emitOptionalError(loc, "padding must be non-negative, got low = ",
                               shapeToString(low), ", high = ",
                               shapeToString(high));
    shape.push_back(input.getDimSize(d) + low[d] + high[d]);
  }
  types.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

LogicalResult ShapeOp::inferReturnTypes(MLIRContext *context,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  auto input = tensorType(adaptor.getInput());
  types.push_back(RankedTensorType::get({input.getRank()},
                                        IntegerType::get(context, 64)));
  return success();
}

//===----------------------------------------------------------------------===//
// Fusion groups
//===----------------------------------------------------------------------===//

LogicalResult FusionOp::verify() {
  Block &body = getBodyBlock();
  if (getNumResults() == 0)
    return emitOpError("must expose at least one value (a group nobody "
                       "reads is dead code)");
  if (body.getNumArguments() != getInputs().size())
    return emitOpError("body has ")
           << body.getNumArguments() << " arguments, expected one per input ("
           << getInputs().size() << ")";
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip(body.getArgumentTypes(), getInputs()))) {
    auto [argType, input] = pair;
    if (argType != input.getType())
      return emitOpError("body argument #")
             << i << " has type " << argType << ", expected the type of input #"
             << i << " " << input.getType();
  }
  auto yield = body.mightHaveTerminator()
                   ? dyn_cast<YieldOp>(body.getTerminator())
                   : YieldOp();
  if (!yield)
    return emitOpError("body must end with gopt.yield");
  if (yield.getValues().size() != getResults().size())
    return emitOpError("yields ")
           << yield.getValues().size() << " values, expected one per result ("
           << getResults().size() << ")";
  for (auto [i, pair] : llvm::enumerate(
           llvm::zip(yield.getValues().getTypes(), getResultTypes()))) {
    auto [yielded, result] = pair;
    if (yielded != result)
      return emitOpError("yielded value #")
             << i << " has type " << yielded << ", expected result type "
             << result;
  }
  return success();
}

FusionKind FusionOp::getFusionKind() {
  FusionKind kind = FusionKind::Elementwise;
  for (Operation &op : getBodyBlock().without_terminator()) {
    auto iface = dyn_cast<FusionKindOpInterface>(op);
    if (!iface)
      continue;
    FusionKind k = iface.getFusionKind();
    if (k == FusionKind::Contraction)
      return k;
    if (k == FusionKind::Reduction)
      kind = k;
  }
  return kind;
}

int64_t FusionOp::getFlops() {
  int64_t flops = 0;
  for (Operation &op : getBodyBlock().without_terminator())
    if (auto cost = dyn_cast<CostOpInterface>(op))
      flops += cost.getFlops();
  return flops;
}

#define GET_OP_CLASSES
#include "GOpt/Dialect/GOpt/IR/GOptOps.cpp.inc"
