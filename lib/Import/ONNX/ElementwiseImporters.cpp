//===- ElementwiseImporters.cpp - Elementwise ONNX ops and constants ------===//
//
// Unary and binary math, comparisons, Where, Cast, Clip, Constant,
// ConstantOfShape, the inference no-ops Identity and Dropout; the
// activations gopt has no op for (HardSigmoid, HardSwish, LeakyRelu, PRelu,
// Elu, Selu, Celu, ThresholdedRelu, Softplus, Softsign, Shrink), Sign,
// IsNaN, IsInf, the logical And, Or and Xor, and the variadic Sum and Mean
// as elementwise ops. An exporter's GELU decomposition, x * 0.5 * (1 + Erf(x /
// sqrt 2)), arrives as these ops and imports as the matching gopt ops.
//
//===----------------------------------------------------------------------===//

#include "GraphImporter.h"

#include "GOpt/Dialect/GOpt/IR/ShapeInference.h"

#include <limits>
#include <tuple>

using namespace mlir;
using namespace mlir::gopt;
using namespace mlir::gopt::onnx_import;

using AttrType = onnx::AttributeProto;

namespace {

/// Unary ops whose result type is the operand's.
template <typename OpTy> LogicalResult importUnary(NodeContext &n) {
  FailureOr<Value> x = n.requiredInput(0, "X");
  if (failed(x))
    return failure();
  FailureOr<Value> r = n.createTyped<OpTy>(NodeContext::typeOf(*x), *x);
  return failed(r) ? failure() : n.setResults({*r});
}

/// The node's inputs, at least `minimum` of them, combined left to right
/// by `OpTy` (numpy broadcasting).
template <typename OpTy>
FailureOr<Value> chainInputs(NodeContext &n, int minimum) {
  FailureOr<Value> acc = n.requiredInput(0, "A");
  int numInputs = std::max(minimum, n.node.input_size());
  for (int i = 1; succeeded(acc) && i < numInputs; ++i) {
    FailureOr<Value> rhs = n.requiredInput(i, "B");
    acc = failed(rhs) ? rhs : n.create<OpTy>(*acc, *rhs);
  }
  return acc;
}

/// Broadcasting binary ops. Variadic Max/Min/Sum chain their inputs.
template <typename OpTy> LogicalResult importBinary(NodeContext &n) {
  FailureOr<Value> r = chainInputs<OpTy>(n, 2);
  return failed(r) ? failure() : n.setResults({*r});
}

/// Pow allows an exponent of another type; gopt.pow wants one type.
LogicalResult importPow(NodeContext &n) {
  FailureOr<Value> x = n.requiredInput(0, "X");
  FailureOr<Value> y = n.requiredInput(1, "Y");
  if (failed(x) || failed(y))
    return failure();
  RankedTensorType xType = NodeContext::typeOf(*x);
  RankedTensorType yType = NodeContext::typeOf(*y);
  if (xType.getElementType() != yType.getElementType()) {
    y = n.createTyped<CastOp>(yType.clone(xType.getElementType()), *y);
    if (failed(y))
      return failure();
  }
  FailureOr<Value> r = n.create<PowOp>(*x, *y);
  return failed(r) ? failure() : n.setResults({*r});
}

template <ComparePredicate predicate>
LogicalResult importCompare(NodeContext &n) {
  FailureOr<Value> a = n.requiredInput(0, "A");
  FailureOr<Value> b = n.requiredInput(1, "B");
  if (failed(a) || failed(b))
    return failure();
  FailureOr<Value> r = n.create<CompareOp>(predicate, *a, *b);
  return failed(r) ? failure() : n.setResults({*r});
}

LogicalResult importWhere(NodeContext &n) {
  FailureOr<Value> c = n.requiredInput(0, "condition");
  FailureOr<Value> x = n.requiredInput(1, "X");
  FailureOr<Value> y = n.requiredInput(2, "Y");
  if (failed(c) || failed(x) || failed(y))
    return failure();
  FailureOr<Value> r = n.create<SelectOp>(*c, *x, *y);
  return failed(r) ? failure() : n.setResults({*r});
}

/// Not: select(x, false, true), its scalars broadcast to x's shape.
LogicalResult importNot(NodeContext &n) {
  FailureOr<Value> x = n.requiredInput(0, "X");
  if (failed(x))
    return failure();
  if (!NodeContext::typeOf(*x).getElementType().isInteger(1))
    return n.emitError() << "X must be a bool tensor";
  FailureOr<Value> r =
      n.create<SelectOp>(*x, n.boolScalar(false), n.boolScalar(true));
  return failed(r) ? failure() : n.setResults({*r});
}

LogicalResult importCast(NodeContext &n) {
  FailureOr<Value> x = n.requiredInput(0, "input");
  if (failed(x))
    return failure();
  if (!n.attr("to"))
    return n.emitError() << "missing attribute 'to'";
  int64_t to = n.getInt("to", 0);
  Type element = convertDataType(n.getContext(), to);
  if (!element)
    return n.emitError() << "cast to unsupported element type "
                         << dataTypeName(to);
  RankedTensorType type = NodeContext::typeOf(*x);
  if (type.getElementType() == element)
    return n.setResults({*x});
  FailureOr<Value> r = n.createTyped<CastOp>(type.clone(element), *x);
  return failed(r) ? failure() : n.setResults({*r});
}

/// Clip's bounds are optional inputs (opset 11+). Known bounds become one
/// `clip`; a bound computed in the graph (torch's clamp with a tensor
/// bound) a `max` and/or `min` with x, NaN propagating as Clip's does.
LogicalResult importClip(NodeContext &n) {
  FailureOr<Value> x = n.requiredInput(0, "input");
  if (failed(x))
    return failure();
  RankedTensorType type = NodeContext::typeOf(*x);
  double lo = lowestValue(type.getElementType());
  double hi = highestValue(type.getElementType());
  Value computedLo, computedHi;
  for (auto [index, bound, computed] :
       {std::tuple<unsigned, double *, Value *>{1, &lo, &computedLo},
        {2, &hi, &computedHi}}) {
    Value v = n.input(index);
    if (!v)
      continue;
    const char *what = index == 1 ? "min" : "max";
    if (NodeContext::typeOf(v).getNumElements() != 1)
      return n.emitError() << what << " must be a single value";
    if (!n.graph.getKnown(v)) {
      if (NodeContext::typeOf(v).getElementType() != type.getElementType())
        return n.emitError() << what << " must have the input's element type";
      *computed = v;
      continue;
    }
    FailureOr<SmallVector<double>> known = n.knownFloats(index, what);
    if (failed(known))
      return failure();
    *bound = known->front();
  }
  FailureOr<Value> r =
      n.createTyped<ClipOp>(type, *x, n.builder().getF64FloatAttr(lo),
                            n.builder().getF64FloatAttr(hi));
  // A single-element bound of any rank broadcasts; a bound of higher rank
  // than x would widen the result, which Clip does not allow.
  auto bounded = [&](Value acc, Value bound, bool isLower) -> FailureOr<Value> {
    if (NodeContext::typeOf(bound).getRank() > type.getRank()) {
      FailureOr<Value> flat = n.reshape(bound, {});
      if (failed(flat))
        return failure();
      bound = *flat;
    }
    return isLower ? n.create<MaxOp>(acc, bound) : n.create<MinOp>(acc, bound);
  };
  if (succeeded(r) && computedLo)
    r = bounded(*r, computedLo, /*isLower=*/true);
  if (succeeded(r) && computedHi)
    r = bounded(*r, computedHi, /*isLower=*/false);
  return failed(r) ? failure() : n.setResults({*r});
}

/// x·alpha + beta clipped to [0, 1]: HardSigmoid, and HardSwish's gate.
FailureOr<Value> hardSigmoid(NodeContext &n, Value x, double alpha,
                             double beta) {
  FailureOr<Value> v = n.create<MulOp>(x, n.scalarLike(x, alpha));
  if (succeeded(v))
    v = n.create<AddOp>(*v, n.scalarLike(x, beta));
  if (succeeded(v))
    v = n.createTyped<ClipOp>(NodeContext::typeOf(x), *v,
                              n.builder().getF64FloatAttr(0.0),
                              n.builder().getF64FloatAttr(1.0));
  return v;
}

/// The float activations gopt has no op for, as elementwise ops.
FailureOr<Value> requiredFloatInput(NodeContext &n) {
  FailureOr<Value> x = n.requiredInput(0, "X");
  if (succeeded(x) && !isa<FloatType>(NodeContext::typeOf(*x).getElementType()))
    return n.emitError() << "input must be a float tensor";
  return x;
}

LogicalResult importHardSigmoid(NodeContext &n) {
  FailureOr<Value> x = requiredFloatInput(n);
  if (failed(x))
    return failure();
  FailureOr<Value> r =
      hardSigmoid(n, *x, n.getFloat("alpha", 0.2), n.getFloat("beta", 0.5));
  return failed(r) ? failure() : n.setResults({*r});
}

/// HardSwish(x) = x · HardSigmoid(x) with alpha = 1/6, beta = 1/2.
LogicalResult importHardSwish(NodeContext &n) {
  FailureOr<Value> x = requiredFloatInput(n);
  if (failed(x))
    return failure();
  FailureOr<Value> gate = hardSigmoid(n, *x, 1.0 / 6.0, 0.5);
  if (failed(gate))
    return failure();
  FailureOr<Value> r = n.create<MulOp>(*x, *gate);
  return failed(r) ? failure() : n.setResults({*r});
}

/// LeakyRelu(x) = x < 0 ? alpha·x : x.
LogicalResult importLeakyRelu(NodeContext &n) {
  FailureOr<Value> x = requiredFloatInput(n);
  if (failed(x))
    return failure();
  FailureOr<Value> negative =
      n.create<CompareOp>(ComparePredicate::lt, *x, n.scalarLike(*x, 0.0));
  FailureOr<Value> scaled =
      n.create<MulOp>(*x, n.scalarLike(*x, n.getFloat("alpha", 0.01)));
  if (failed(negative) || failed(scaled))
    return failure();
  FailureOr<Value> r = n.create<SelectOp>(*negative, *scaled, *x);
  return failed(r) ? failure() : n.setResults({*r});
}

/// x < 0 ? negative : x.
FailureOr<Value> selectNegative(NodeContext &n, Value x, Value negative) {
  FailureOr<Value> isNegative =
      n.create<CompareOp>(ComparePredicate::lt, x, n.scalarLike(x, 0.0));
  if (failed(isNegative))
    return failure();
  return n.create<SelectOp>(*isNegative, negative, x);
}

/// PRelu(x, slope) = x < 0 ? slope·x : x, the slope broadcast to x (torch
/// exports a per-channel slope as [C, 1, 1]).
LogicalResult importPRelu(NodeContext &n) {
  FailureOr<Value> x = requiredFloatInput(n);
  FailureOr<Value> slope = n.requiredInput(1, "slope");
  if (failed(x) || failed(slope))
    return failure();
  FailureOr<Value> scaled = n.create<MulOp>(*x, *slope);
  if (failed(scaled))
    return failure();
  if (NodeContext::typeOf(*scaled) != NodeContext::typeOf(*x))
    return n.emitError() << "slope of shape "
                         << shapeToString(
                                NodeContext::typeOf(*slope).getShape())
                         << " does not broadcast to the input's "
                         << shapeToString(NodeContext::typeOf(*x).getShape());
  FailureOr<Value> r = selectNegative(n, *x, *scaled);
  return failed(r) ? failure() : n.setResults({*r});
}

/// x < 0 ? alpha·(exp(x) − 1) : x (at 0 both sides are 0).
FailureOr<Value> elu(NodeContext &n, Value x, double alpha) {
  FailureOr<Value> e = n.create<ExpOp>(x);
  if (succeeded(e))
    e = n.create<SubOp>(*e, n.scalarLike(x, 1.0));
  if (succeeded(e))
    e = n.create<MulOp>(*e, n.scalarLike(x, alpha));
  return failed(e) ? e : selectNegative(n, x, *e);
}

/// Elu(x) = x < 0 ? alpha·(exp(x) − 1) : x.
LogicalResult importElu(NodeContext &n) {
  FailureOr<Value> x = requiredFloatInput(n);
  FailureOr<Value> r = failed(x) ? x : elu(n, *x, n.getFloat("alpha", 1.0));
  return failed(r) ? failure() : n.setResults({*r});
}

/// Softplus(x) = log(exp(x) + 1), computed as max(x, 0) + log(1 +
/// exp(−|x|)), which neither overflows for large x nor loses small ones.
LogicalResult importSoftplus(NodeContext &n) {
  FailureOr<Value> x = requiredFloatInput(n);
  if (failed(x))
    return failure();
  FailureOr<Value> t = n.create<AbsOp>(*x);
  if (succeeded(t))
    t = n.create<NegOp>(*t);
  if (succeeded(t))
    t = n.create<ExpOp>(*t);
  if (succeeded(t))
    t = n.create<AddOp>(*t, n.scalarLike(*x, 1.0));
  if (succeeded(t))
    t = n.create<LogOp>(*t);
  FailureOr<Value> positive = n.create<ReluOp>(*x);
  if (failed(t) || failed(positive))
    return failure();
  FailureOr<Value> r = n.create<AddOp>(*positive, *t);
  return failed(r) ? failure() : n.setResults({*r});
}

/// Selu(x) = gamma·(x <= 0 ? alpha·(exp(x) − 1) : x).
LogicalResult importSelu(NodeContext &n) {
  FailureOr<Value> x = requiredFloatInput(n);
  FailureOr<Value> r =
      failed(x) ? x : elu(n, *x, n.getFloat("alpha", 1.67326319));
  if (succeeded(r))
    r = n.create<MulOp>(*r, n.scalarLike(*x, n.getFloat("gamma", 1.05070102)));
  return failed(r) ? failure() : n.setResults({*r});
}

/// Celu(x) = max(0, x) + min(0, alpha·(exp(x / alpha) − 1)).
LogicalResult importCelu(NodeContext &n) {
  FailureOr<Value> x = requiredFloatInput(n);
  if (failed(x))
    return failure();
  double alpha = n.getFloat("alpha", 1.0);
  if (alpha == 0.0)
    return n.emitError() << "alpha must not be 0";
  FailureOr<Value> e = n.create<MulOp>(*x, n.scalarLike(*x, 1.0 / alpha));
  if (succeeded(e))
    e = n.create<ExpOp>(*e);
  if (succeeded(e))
    e = n.create<SubOp>(*e, n.scalarLike(*x, 1.0));
  if (succeeded(e))
    e = n.create<MulOp>(*e, n.scalarLike(*x, alpha));
  if (succeeded(e))
    e = n.create<MinOp>(*e, n.scalarLike(*x, 0.0));
  FailureOr<Value> positive = n.create<ReluOp>(*x);
  if (failed(e) || failed(positive))
    return failure();
  FailureOr<Value> r = n.create<AddOp>(*positive, *e);
  return failed(r) ? failure() : n.setResults({*r});
}

/// ThresholdedRelu(x) = x > alpha ? x : 0.
LogicalResult importThresholdedRelu(NodeContext &n) {
  FailureOr<Value> x = requiredFloatInput(n);
  if (failed(x))
    return failure();
  FailureOr<Value> above = n.create<CompareOp>(
      ComparePredicate::gt, *x, n.scalarLike(*x, n.getFloat("alpha", 1.0)));
  if (failed(above))
    return failure();
  FailureOr<Value> r = n.create<SelectOp>(*above, *x, n.scalarLike(*x, 0.0));
  return failed(r) ? failure() : n.setResults({*r});
}

/// Softsign(x) = x / (1 + |x|).
LogicalResult importSoftsign(NodeContext &n) {
  FailureOr<Value> x = requiredFloatInput(n);
  if (failed(x))
    return failure();
  FailureOr<Value> d = n.create<AbsOp>(*x);
  if (succeeded(d))
    d = n.create<AddOp>(*d, n.scalarLike(*x, 1.0));
  FailureOr<Value> r = failed(d) ? d : n.create<DivOp>(*x, *d);
  return failed(r) ? failure() : n.setResults({*r});
}

/// Shrink(x) = x < −lambd ? x + bias : (x > lambd ? x − bias : 0).
LogicalResult importShrink(NodeContext &n) {
  FailureOr<Value> x = n.requiredInput(0, "input");
  if (failed(x))
    return failure();
  double lambd = n.getFloat("lambd", 0.5), bias = n.getFloat("bias", 0.0);
  FailureOr<Value> below =
      n.create<CompareOp>(ComparePredicate::lt, *x, n.scalarLike(*x, -lambd));
  FailureOr<Value> above =
      n.create<CompareOp>(ComparePredicate::gt, *x, n.scalarLike(*x, lambd));
  FailureOr<Value> up = n.create<AddOp>(*x, n.scalarLike(*x, bias));
  FailureOr<Value> down = n.create<SubOp>(*x, n.scalarLike(*x, bias));
  if (failed(below) || failed(above) || failed(up) || failed(down))
    return failure();
  FailureOr<Value> r = n.create<SelectOp>(*above, *down, n.scalarLike(*x, 0.0));
  if (succeeded(r))
    r = n.create<SelectOp>(*below, *up, *r);
  return failed(r) ? failure() : n.setResults({*r});
}

/// Sign(x) = x > 0 ? 1 : (x < 0 ? −1 : 0); a float NaN stays NaN.
LogicalResult importSign(NodeContext &n) {
  FailureOr<Value> x = n.requiredInput(0, "input");
  if (failed(x))
    return failure();
  FailureOr<Value> negative =
      n.create<CompareOp>(ComparePredicate::lt, *x, n.scalarLike(*x, 0.0));
  FailureOr<Value> positive =
      n.create<CompareOp>(ComparePredicate::gt, *x, n.scalarLike(*x, 0.0));
  if (failed(negative) || failed(positive))
    return failure();
  FailureOr<Value> r = n.create<SelectOp>(*negative, n.scalarLike(*x, -1.0),
                                          n.scalarLike(*x, 0.0));
  if (succeeded(r))
    r = n.create<SelectOp>(*positive, n.scalarLike(*x, 1.0), *r);
  if (succeeded(r) &&
      isa<FloatType>(NodeContext::typeOf(*x).getElementType())) {
    FailureOr<Value> isNaN = n.create<CompareOp>(ComparePredicate::ne, *x, *x);
    r = failed(isNaN) ? isNaN : n.create<SelectOp>(*isNaN, *x, *r);
  }
  return failed(r) ? failure() : n.setResults({*r});
}

/// IsNaN(x) = x != x (the one comparison NaN makes true).
LogicalResult importIsNaN(NodeContext &n) {
  FailureOr<Value> x = requiredFloatInput(n);
  if (failed(x))
    return failure();
  FailureOr<Value> r = n.create<CompareOp>(ComparePredicate::ne, *x, *x);
  return failed(r) ? failure() : n.setResults({*r});
}

/// IsInf(x): x == +inf and/or x == −inf, as detect_positive and
/// detect_negative ask.
LogicalResult importIsInf(NodeContext &n) {
  FailureOr<Value> x = requiredFloatInput(n);
  if (failed(x))
    return failure();
  bool positive = n.getInt("detect_positive", 1) != 0;
  bool negative = n.getInt("detect_negative", 1) != 0;
  double inf = std::numeric_limits<double>::infinity();
  FailureOr<Value> r;
  if (positive && negative) {
    r = n.create<AbsOp>(*x);
    if (succeeded(r))
      r = n.create<CompareOp>(ComparePredicate::eq, *r, n.scalarLike(*x, inf));
  } else if (positive || negative) {
    r = n.create<CompareOp>(ComparePredicate::eq, *x,
                            n.scalarLike(*x, positive ? inf : -inf));
  } else {
    RankedTensorType type = NodeContext::typeOf(*x);
    r = n.splat(type.clone(n.builder().getI1Type()), 0.0);
  }
  return failed(r) ? failure() : n.setResults({*r});
}

/// The two bool inputs of And, Or and Xor.
FailureOr<std::pair<Value, Value>> boolOperands(NodeContext &n) {
  FailureOr<Value> a = n.requiredInput(0, "A");
  FailureOr<Value> b = n.requiredInput(1, "B");
  if (failed(a) || failed(b))
    return failure();
  for (Value v : {*a, *b})
    if (!NodeContext::typeOf(v).getElementType().isInteger(1))
      return n.emitError() << "A and B must be bool tensors";
  return std::make_pair(*a, *b);
}

/// And(a, b) = select(a, b, false); Or(a, b) = select(a, true, b);
/// Xor(a, b) = select(a, !b, b).
enum class Logic { And, Or, Xor };
template <Logic logic> LogicalResult importLogic(NodeContext &n) {
  FailureOr<std::pair<Value, Value>> ab = boolOperands(n);
  if (failed(ab))
    return failure();
  auto [a, b] = *ab;
  FailureOr<Value> r;
  if (logic == Logic::And) {
    r = n.create<SelectOp>(a, b, n.boolScalar(false));
  } else if (logic == Logic::Or) {
    r = n.create<SelectOp>(a, n.boolScalar(true), b);
  } else {
    FailureOr<Value> notB =
        n.create<SelectOp>(b, n.boolScalar(false), n.boolScalar(true));
    r = failed(notB) ? notB : n.create<SelectOp>(a, *notB, b);
  }
  return failed(r) ? failure() : n.setResults({*r});
}

/// Mean of any number of inputs: their sum (numpy broadcasting) divided by
/// the count.
LogicalResult importMean(NodeContext &n) {
  if (n.node.input_size() == 0)
    return n.emitError() << "expected at least one input";
  FailureOr<Value> acc = chainInputs<AddOp>(n, 1);
  if (failed(acc))
    return failure();
  if (!isa<FloatType>(NodeContext::typeOf(*acc).getElementType()))
    return n.emitError() << "inputs must be float tensors";
  FailureOr<Value> r = *acc;
  if (n.node.input_size() > 1)
    r = n.create<DivOp>(*acc, n.scalarLike(*acc, n.node.input_size()));
  return failed(r) ? failure() : n.setResults({*r});
}

LogicalResult importConstant(NodeContext &n) {
  if (n.node.attribute_size() != 1)
    return n.emitError() << "expected exactly one value attribute, got "
                         << n.node.attribute_size();
  const onnx::AttributeProto &a = n.node.attribute(0);
  Builder &b = n.builder();
  ElementsAttr value;
  if (a.name() == "value") {
    onnx::TensorProto tensor = a.t();
    if (tensor.name().empty() && n.node.output_size() > 0)
      tensor.set_name(n.node.output(0));
    FailureOr<ElementsAttr> converted =
        convertTensor(tensor, n.loc, n.graph.modelDir);
    if (failed(converted))
      return failure();
    value = *converted;
  } else if (a.name() == "value_float") {
    value = DenseElementsAttr::get(RankedTensorType::get({}, b.getF32Type()),
                                   a.f());
  } else if (a.name() == "value_int") {
    value = DenseElementsAttr::get(RankedTensorType::get({}, b.getI64Type()),
                                   a.i());
  } else if (a.name() == "value_floats") {
    SmallVector<float> v(a.floats().begin(), a.floats().end());
    value = DenseElementsAttr::get(
        RankedTensorType::get({int64_t(v.size())}, b.getF32Type()),
        ArrayRef<float>(v));
  } else {
    SmallVector<int64_t> v(a.ints().begin(), a.ints().end());
    value = DenseElementsAttr::get(
        RankedTensorType::get({int64_t(v.size())}, b.getI64Type()),
        ArrayRef<int64_t>(v));
  }
  return n.setResults({n.constant(value)});
}

LogicalResult importConstantOfShape(NodeContext &n) {
  FailureOr<SmallVector<int64_t>> shape = n.knownInts(0, "shape");
  if (failed(shape))
    return failure();
  for (int64_t d : *shape)
    if (d < 0)
      return n.emitError() << "negative dimension " << d << " in shape";
  Type element = n.builder().getF32Type();
  double value = 0.0;
  if (const onnx::AttributeProto *a = n.attr("value")) {
    FailureOr<ElementsAttr> v = convertTensor(a->t(), n.loc, "");
    if (failed(v))
      return failure();
    auto values = getFloatValues(*v);
    if (!values || values->size() != 1)
      return n.emitError() << "'value' must hold exactly one element";
    element = v->getElementType();
    value = values->front();
  }
  return n.setResults({n.splat(RankedTensorType::get(*shape, element), value)});
}

LogicalResult importIdentity(NodeContext &n) {
  FailureOr<Value> x = n.requiredInput(0, "input");
  return failed(x) ? failure() : n.setResults({*x});
}

/// Inference-mode Dropout: the output is the input, the mask all true.
LogicalResult importDropout(NodeContext &n) {
  FailureOr<Value> x = n.requiredInput(0, "data");
  if (failed(x))
    return failure();
  if (n.input(2)) {
    FailureOr<SmallVector<int64_t>> training = n.knownInts(2, "training_mode");
    if (failed(training))
      return failure();
    // Training mode drops nothing at ratio 0 (torchvision 0.14's Swin
    // exports its attention dropout so).
    bool dropsNothing = false;
    if (n.input(1))
      if (auto ratio = getFloatValues(n.graph.getKnown(n.input(1))))
        dropsNothing = ratio->size() == 1 && ratio->front() == 0.0;
    if (!training->empty() && training->front() != 0 && !dropsNothing)
      return n.emitError() << "training_mode = true is not supported (GOpt "
                              "imports inference graphs) unless the ratio is "
                              "a constant 0";
  }
  RankedTensorType type = NodeContext::typeOf(*x);
  SmallVector<Value, 2> results = {*x};
  if (n.node.output_size() > 1 && !n.node.output(1).empty())
    results.push_back(
        n.splat(type.clone(n.builder().getI1Type()), /*value=*/1.0));
  return n.setResults(results);
}

} // namespace

void onnx_import::registerElementwiseImporters(OpImporterTable &table) {
  table["Sqrt"] = {importUnary<SqrtOp>, {}};
  table["Reciprocal"] = {importUnary<ReciprocalOp>, {}};
  table["Erf"] = {importUnary<ErfOp>, {}};
  table["Exp"] = {importUnary<ExpOp>, {}};
  table["Log"] = {importUnary<LogOp>, {}};
  table["Tanh"] = {importUnary<TanhOp>, {}};
  table["Sigmoid"] = {importUnary<SigmoidOp>, {}};
  table["Relu"] = {importUnary<ReluOp>, {}};
  table["Neg"] = {importUnary<NegOp>, {}};
  table["Abs"] = {importUnary<AbsOp>, {}};
  table["Sin"] = {importUnary<SinOp>, {}};
  table["Cos"] = {importUnary<CosOp>, {}};
  table["Floor"] = {importUnary<FloorOp>, {}};
  table["Ceil"] = {importUnary<CeilOp>, {}};
  table["Round"] = {importUnary<RoundOp>, {}};
  table["Sign"] = {importSign, {}};
  table["Shrink"] = {importShrink,
                     {{"bias", AttrType::FLOAT}, {"lambd", AttrType::FLOAT}}};
  table["Add"] = {importBinary<AddOp>, {}};
  table["Sub"] = {importBinary<SubOp>, {}};
  table["Mul"] = {importBinary<MulOp>, {}};
  table["Div"] = {importBinary<DivOp>, {}};
  table["Max"] = {importBinary<MaxOp>, {}};
  table["Min"] = {importBinary<MinOp>, {}};
  table["Sum"] = {importBinary<AddOp>, {}};
  table["Mean"] = {importMean, {}};
  table["Pow"] = {importPow, {}};
  table["Equal"] = {importCompare<ComparePredicate::eq>, {}};
  table["Less"] = {importCompare<ComparePredicate::lt>, {}};
  table["LessOrEqual"] = {importCompare<ComparePredicate::le>, {}};
  table["Greater"] = {importCompare<ComparePredicate::gt>, {}};
  table["GreaterOrEqual"] = {importCompare<ComparePredicate::ge>, {}};
  table["Where"] = {importWhere, {}};
  table["Not"] = {importNot, {}};
  table["And"] = {importLogic<Logic::And>, {}};
  table["Or"] = {importLogic<Logic::Or>, {}};
  table["Xor"] = {importLogic<Logic::Xor>, {}};
  table["IsNaN"] = {importIsNaN, {}};
  table["IsInf"] = {
      importIsInf,
      {{"detect_negative", AttrType::INT}, {"detect_positive", AttrType::INT}}};
  table["HardSigmoid"] = {
      importHardSigmoid,
      {{"alpha", AttrType::FLOAT}, {"beta", AttrType::FLOAT}}};
  table["HardSwish"] = {importHardSwish, {}};
  table["LeakyRelu"] = {importLeakyRelu, {{"alpha", AttrType::FLOAT}}};
  table["PRelu"] = {importPRelu, {}};
  table["Elu"] = {importElu, {{"alpha", AttrType::FLOAT}}};
  table["Softplus"] = {importSoftplus, {}};
  table["Selu"] = {importSelu,
                   {{"alpha", AttrType::FLOAT}, {"gamma", AttrType::FLOAT}}};
  table["Celu"] = {importCelu, {{"alpha", AttrType::FLOAT}}};
  table["ThresholdedRelu"] = {importThresholdedRelu,
                              {{"alpha", AttrType::FLOAT}}};
  table["Softsign"] = {importSoftsign, {}};
  table["Cast"] = {importCast, {{"to", AttrType::INT}}};
  table["Clip"] = {importClip, {}};
  table["Constant"] = {importConstant,
                       {{"value", AttrType::TENSOR},
                        {"value_float", AttrType::FLOAT},
                        {"value_floats", AttrType::FLOATS},
                        {"value_int", AttrType::INT},
                        {"value_ints", AttrType::INTS}}};
  table["ConstantOfShape"] = {importConstantOfShape,
                              {{"value", AttrType::TENSOR}}};
  table["Identity"] = {importIdentity, {}};
  table["Dropout"] = {importDropout, {{"seed", AttrType::INT}}};
}
