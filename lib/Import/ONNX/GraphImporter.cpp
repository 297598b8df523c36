//===- GraphImporter.cpp - Values, constants and node helpers -------------===//

#include "GraphImporter.h"

#include "GOpt/Dialect/GOpt/IR/ConstantEvaluator.h"
#include "GOpt/Dialect/GOpt/IR/ShapeInference.h"

#include "mlir/IR/Verifier.h"

#include <limits>

using namespace mlir;
using namespace mlir::gopt;
using namespace mlir::gopt::onnx_import;

//===----------------------------------------------------------------------===//
// GraphImporter
//===----------------------------------------------------------------------===//

void GraphImporter::evaluate(Operation *op) {
  if (auto constant = dyn_cast<ConstantOp>(op)) {
    setKnown(constant.getResult(), constant.getValue());
    return;
  }
  if (auto shape = dyn_cast<ShapeOp>(op)) {
    auto type = cast<RankedTensorType>(shape.getResult().getType());
    ArrayRef<int64_t> dims =
        cast<RankedTensorType>(shape.getInput().getType()).getShape();
    setKnown(shape.getResult(), DenseElementsAttr::get(type, dims));
    return;
  }
  // An empty result is known whatever the operands: it has no element.
  if (llvm::all_of(op->getResultTypes(), [](Type t) {
        return cast<ShapedType>(t).getNumElements() == 0;
      })) {
    for (Value result : op->getResults())
      setKnown(result,
               DenseElementsAttr::get(cast<ShapedType>(result.getType()),
                                      ArrayRef<Attribute>()));
    return;
  }
  // Only small values (shapes, indices, scalars) and splats are evaluated:
  // reading a weight blob would copy it into the context.
  SmallVector<Attribute> operands;
  for (Value operand : op->getOperands()) {
    Attribute attr = getKnown(operand);
    if (!attr)
      return;
    auto dense = dyn_cast<DenseElementsAttr>(attr);
    if (cast<ShapedType>(operand.getType()).getNumElements() >
            kMaxKnownElements &&
        !(dense && dense.isSplat()))
      return;
    operands.push_back(attr);
  }
  SmallVector<Attribute> results;
  if (failed(evaluateConstantOp(op, operands, kMaxKnownElements, results)))
    return;
  for (auto [result, attr] : llvm::zip(op->getResults(), results))
    setKnown(result, attr);
}

//===----------------------------------------------------------------------===//
// NodeContext
//===----------------------------------------------------------------------===//

InFlightDiagnostic NodeContext::emitError() {
  return mlir::emitError(loc) << node.op_type() << ": ";
}

Value NodeContext::input(unsigned i) {
  if (static_cast<int>(i) >= node.input_size() || node.input(i).empty())
    return {};
  return graph.values.lookup(node.input(i));
}

FailureOr<Value> NodeContext::requiredInput(unsigned i, llvm::StringRef what) {
  if (Value v = input(i))
    return v;
  return emitError() << "missing input " << i << " (" << what << ")";
}

FailureOr<SmallVector<int64_t>> NodeContext::knownInts(unsigned i,
                                                       llvm::StringRef what) {
  FailureOr<Value> v = requiredInput(i, what);
  if (failed(v))
    return failure();
  if (!isa<IntegerType>(typeOf(*v).getElementType()))
    return emitError() << "input " << i << " (" << what
                       << ") must be an integer tensor";
  if (auto values = getIntValues(graph.getKnown(*v)))
    return *values;
  return emitError() << "input " << i << " (" << what << ", '" << node.input(i)
                     << "') is not known at import time; gopt needs it to "
                        "give the result a static shape";
}

FailureOr<SmallVector<double>> NodeContext::knownFloats(unsigned i,
                                                        llvm::StringRef what) {
  FailureOr<Value> v = requiredInput(i, what);
  if (failed(v))
    return failure();
  if (auto values = getFloatValues(graph.getKnown(*v)))
    return *values;
  return emitError() << "input " << i << " (" << what << ", '" << node.input(i)
                     << "') must be a constant";
}

const onnx::AttributeProto *NodeContext::attr(llvm::StringRef name) const {
  for (const onnx::AttributeProto &a : node.attribute())
    if (a.name() == name)
      return &a;
  return nullptr;
}

int64_t NodeContext::getInt(llvm::StringRef name, int64_t defaultValue) const {
  const onnx::AttributeProto *a = attr(name);
  return a ? a->i() : defaultValue;
}

double NodeContext::getFloat(llvm::StringRef name, double defaultValue) const {
  const onnx::AttributeProto *a = attr(name);
  return a ? a->f() : defaultValue;
}

std::string NodeContext::getString(llvm::StringRef name,
                                   llvm::StringRef defaultValue) const {
  const onnx::AttributeProto *a = attr(name);
  return a ? a->s() : defaultValue.str();
}

std::optional<SmallVector<int64_t>>
NodeContext::getInts(llvm::StringRef name) const {
  const onnx::AttributeProto *a = attr(name);
  if (!a)
    return std::nullopt;
  return SmallVector<int64_t>(a->ints().begin(), a->ints().end());
}

FailureOr<Value> NodeContext::finish(Operation *op) {
  // Shapes from a model's numbers: a negative dim or an element count past
  // int64 (an Expand to -2, a Tile by 2^40) would be a type no later step
  // can use.
  for (Type type : op->getResultTypes()) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !tensor.hasStaticShape())
      continue;
    int64_t elements = 1;
    for (int64_t d : tensor.getShape()) {
      if (d < 0) {
        emitError() << "result shape " << shapeToString(tensor.getShape())
                    << " has a negative dim";
        op->erase();
        return failure();
      }
      if (d > 0 && elements > std::numeric_limits<int64_t>::max() / d) {
        emitError() << "result shape " << shapeToString(tensor.getShape())
                    << " has more elements than int64 holds";
        op->erase();
        return failure();
      }
      elements *= d;
    }
  }
  if (failed(mlir::verify(op, /*verifyRecursively=*/false))) {
    op->erase();
    return failure();
  }
  graph.evaluate(op);
  return op->getResult(0);
}

LogicalResult NodeContext::checkTableSize(int64_t elements,
                                          llvm::StringRef what) {
  if (elements <= kMaxBuiltTableElements)
    return success();
  return emitError() << what << " would have " << elements
                     << " elements; GOpt builds such tables of at most "
                     << kMaxBuiltTableElements;
}

FailureOr<Value> NodeContext::positionsAlong(int64_t rank, int64_t axis,
                                             int64_t extent) {
  if (failed(checkTableSize(extent, "the positions along the axis")))
    return failure();
  SmallVector<int64_t> shape(rank, 1);
  shape[axis] = extent;
  SmallVector<int64_t> positions(extent);
  for (int64_t i = 0; i < extent; ++i)
    positions[i] = i;
  return constant(DenseElementsAttr::get(
      RankedTensorType::get(shape, builder().getI64Type()),
      ArrayRef<int64_t>(positions)));
}

Value NodeContext::constant(ElementsAttr attr) {
  auto op = ConstantOp::create(builder(), loc, attr);
  graph.evaluate(op);
  return op.getResult();
}

Value NodeContext::scalarLike(Value like, double value) {
  return splat(RankedTensorType::get({}, typeOf(like).getElementType()), value);
}

Value NodeContext::boolScalar(bool value) {
  return splat(RankedTensorType::get({}, builder().getI1Type()),
               value ? 1.0 : 0.0);
}

FailureOr<int64_t> NodeContext::normalizedAxis(int64_t axis, int64_t rank) {
  std::optional<int64_t> a = normalizeAxis(axis, rank);
  if (!a)
    return emitError() << "axis " << axis << " is out of range for rank "
                       << rank;
  return *a;
}

FailureOr<SmallVector<int64_t>>
onnx_import::normalizeAxes(NodeContext &n, ArrayRef<int64_t> axes,
                           int64_t rank) {
  SmallVector<int64_t> out;
  for (int64_t axis : axes) {
    FailureOr<int64_t> a = n.normalizedAxis(axis, rank);
    if (failed(a))
      return failure();
    if (llvm::is_contained(out, *a))
      return n.emitError() << "axis " << axis << " is repeated";
    out.push_back(*a);
  }
  llvm::sort(out);
  return out;
}

double onnx_import::lowestValue(Type element) {
  if (auto intType = dyn_cast<IntegerType>(element))
    return static_cast<double>(
        APInt::getSignedMinValue(intType.getWidth()).getSExtValue());
  return -std::numeric_limits<double>::infinity();
}

double onnx_import::highestValue(Type element) {
  if (auto intType = dyn_cast<IntegerType>(element))
    return static_cast<double>(
        APInt::getSignedMaxValue(intType.getWidth()).getSExtValue());
  return std::numeric_limits<double>::infinity();
}

Value NodeContext::splat(RankedTensorType type, double value) {
  Type element = type.getElementType();
  Attribute scalar = isa<FloatType>(element)
                         ? Attribute(builder().getFloatAttr(element, value))
                         : Attribute(builder().getIntegerAttr(
                               element, static_cast<int64_t>(value)));
  return constant(cast<ElementsAttr>(DenseElementsAttr::get(type, scalar)));
}

FailureOr<Value> NodeContext::reshape(Value v, ArrayRef<int64_t> shape) {
  RankedTensorType type = typeOf(v);
  if (type.getShape() == shape)
    return v;
  return createTyped<ReshapeOp>(type.clone(shape), v);
}

LogicalResult NodeContext::setResults(ArrayRef<Value> results) {
  for (int i = 0; i < node.output_size(); ++i) {
    const std::string &name = node.output(i);
    if (name.empty())
      continue;
    if (i >= static_cast<int>(results.size()))
      return emitError() << "output " << i << " ('" << name
                         << "') is not supported; only the first "
                         << results.size() << " output(s) can be used";
    graph.values[name] = results[i];
  }
  return success();
}
