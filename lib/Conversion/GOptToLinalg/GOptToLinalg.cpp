//===- GOptToLinalg.cpp - Lower gopt ops to linalg/tensor/arith/math ------===//
//
// One conversion pattern per op family. Elementwise ops become one
// all-parallel `linalg.generic` each (numpy broadcasting through indexing
// maps; size-1 broadcast dimensions are collapsed away first so every map is
// a projected permutation, the form upstream fusion and vectorization
// expect). Reductions, softmax and layer_norm are reduction generics plus
// elementwise generics; contractions are contraction generics (or
// `linalg.conv_2d_nchw_fchw`); pooling uses the named pooling ops; data
// movement uses tensor ops. The scalar semantics follow the constant
// evaluator (lib/Dialect/GOpt/IR/ConstantEvaluator.cpp): max/min propagate
// NaN and order −0 < +0, integer division truncates, float compares are
// ordered except `ne`, float→int casts truncate toward zero.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Conversion/GOptToLinalg/GOptToLinalg.h"
#include "GOpt/Dialect/GOpt/IR/GOptOps.h"
#include "GOpt/Dialect/GOpt/IR/ShapeInference.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/Transforms/DialectConversion.h"

#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::gopt;

//===----------------------------------------------------------------------===//
// Builders shared by the patterns
//===----------------------------------------------------------------------===//

static RankedTensorType tensorTypeOf(Value v) {
  return cast<RankedTensorType>(v.getType());
}

static Value emptyTensor(OpBuilder &b, Location loc, RankedTensorType type) {
  return tensor::EmptyOp::create(b, loc, type.getShape(),
                                 type.getElementType());
}

static Value floatConstant(OpBuilder &b, Location loc, Type type, double v) {
  return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, v));
}

static Value intConstant(OpBuilder &b, Location loc, Type type, int64_t v) {
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, v));
}

/// `v` of a numeric element type as a scalar constant of `type`.
static Value scalarConstant(OpBuilder &b, Location loc, Type type, double v) {
  if (isa<FloatType>(type))
    return floatConstant(b, loc, type, v);
  return intConstant(b, loc, type, static_cast<int64_t>(v));
}

/// −∞ (or the smallest integer): the identity of max.
static Value lowestValue(OpBuilder &b, Location loc, Type type) {
  if (auto ft = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(
        b, loc,
        b.getFloatAttr(type, APFloat::getInf(ft.getFloatSemantics(), true)));
  unsigned width = type.getIntOrFloatBitWidth();
  return arith::ConstantOp::create(
      b, loc, b.getIntegerAttr(type, APInt::getSignedMinValue(width)));
}

/// +∞ (or the largest integer): the identity of min.
static Value highestValue(OpBuilder &b, Location loc, Type type) {
  if (auto ft = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(
        b, loc,
        b.getFloatAttr(type, APFloat::getInf(ft.getFloatSemantics(), false)));
  unsigned width = type.getIntOrFloatBitWidth();
  return arith::ConstantOp::create(
      b, loc, b.getIntegerAttr(type, APInt::getSignedMaxValue(width)));
}

/// −0 for floats (the identity of IEEE addition, as the evaluator uses), 0
/// for integers.
static Value sumIdentity(OpBuilder &b, Location loc, Type type) {
  return isa<FloatType>(type) ? floatConstant(b, loc, type, -0.0)
                              : intConstant(b, loc, type, 0);
}

static Value filledTensor(OpBuilder &b, Location loc, RankedTensorType type,
                          Value scalar) {
  Value empty = emptyTensor(b, loc, type);
  return linalg::FillOp::create(b, loc, ValueRange{scalar}, ValueRange{empty})
      .getResult(0);
}

/// Computes `fn` on a float scalar in f32 when its type is narrower (f16,
/// bf16), rounding once at the end, so transcendental functions get a
/// library or intrinsic implementation on every target.
static Value computeInWideFloat(OpBuilder &b, Location loc, Value x,
                                function_ref<Value(Value)> fn) {
  Type type = x.getType();
  if (type.getIntOrFloatBitWidth() >= 32)
    return fn(x);
  Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), x);
  return arith::TruncFOp::create(b, loc, type, fn(wide));
}

/// Collapses away the operand dimensions marked in `drop` (all of size 1);
/// each dropped dimension joins a neighbouring kept one.
static Value collapseUnitDims(OpBuilder &b, Location loc, Value v,
                              ArrayRef<bool> drop) {
  if (llvm::none_of(drop, [](bool d) { return d; }))
    return v;
  RankedTensorType type = tensorTypeOf(v);
  SmallVector<ReassociationIndices> groups;
  ReassociationIndices pending;
  SmallVector<int64_t> shape;
  for (int64_t i = 0, e = type.getRank(); i < e; ++i) {
    pending.push_back(i);
    if (!drop[i]) {
      groups.push_back(pending);
      pending.clear();
      shape.push_back(type.getDimSize(i));
    }
  }
  if (!pending.empty() && !groups.empty())
    groups.back().append(pending.begin(), pending.end());
  auto newType = RankedTensorType::get(shape, type.getElementType());
  return tensor::CollapseShapeOp::create(b, loc, newType, v, groups);
}

/// Prepares `v` to be read, numpy-broadcast, in a loop nest whose trailing
/// dimensions are `loopShape` (aligned to the right, starting at loop
/// dimension `firstDim`): collapses broadcast size-1 dimensions and returns
/// the projected-permutation map of what is left.
static std::pair<Value, AffineMap> broadcastOperand(OpBuilder &b, Location loc,
                                                    Value v,
                                                    ArrayRef<int64_t> loopShape,
                                                    unsigned numLoops,
                                                    unsigned firstDim) {
  RankedTensorType type = tensorTypeOf(v);
  int64_t rank = type.getRank();
  int64_t offset = static_cast<int64_t>(loopShape.size()) - rank;
  SmallVector<bool> drop(rank, false);
  SmallVector<AffineExpr> exprs;
  for (int64_t i = 0; i < rank; ++i) {
    int64_t loopDim = offset + i;
    if (type.getDimSize(i) == 1 && loopShape[loopDim] != 1) {
      drop[i] = true;
      continue;
    }
    exprs.push_back(b.getAffineDimExpr(firstDim + loopDim));
  }
  Value collapsed = collapseUnitDims(b, loc, v, drop);
  return {collapsed, AffineMap::get(numLoops, 0, exprs, b.getContext())};
}

using ScalarFn = function_ref<Value(OpBuilder &, Location, ValueRange)>;

/// An all-parallel generic over `resultType` reading `inputs` through
/// `maps` and computing each element with `fn`.
static Value buildParallelGeneric(OpBuilder &b, Location loc, ValueRange inputs,
                                  ArrayRef<AffineMap> maps,
                                  RankedTensorType resultType, ScalarFn fn) {
  unsigned rank = resultType.getRank();
  SmallVector<AffineMap> allMaps(maps);
  allMaps.push_back(b.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{resultType}, inputs,
      ValueRange{emptyTensor(b, loc, resultType)}, allMaps, iterators,
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value r = fn(nb, nl, args.drop_back());
        linalg::YieldOp::create(nb, nl, r);
      });
  return generic.getResult(0);
}

/// Elementwise op on `inputs` broadcast numpy-style to `resultType`.
static Value buildElementwise(OpBuilder &b, Location loc, ValueRange inputs,
                              RankedTensorType resultType, ScalarFn fn) {
  unsigned rank = resultType.getRank();
  SmallVector<Value> operands;
  SmallVector<AffineMap> maps;
  for (Value in : inputs) {
    auto [operand, map] =
        broadcastOperand(b, loc, in, resultType.getShape(), rank, 0);
    operands.push_back(operand);
    maps.push_back(map);
  }
  return buildParallelGeneric(b, loc, operands, maps, resultType, fn);
}

/// Map from loop dimensions to the dimensions not marked in `reduced`.
static AffineMap keptDimsMap(MLIRContext *ctx, ArrayRef<bool> reduced) {
  SmallVector<AffineExpr> exprs;
  for (auto [d, r] : llvm::enumerate(reduced))
    if (!r)
      exprs.push_back(getAffineDimExpr(d, ctx));
  return AffineMap::get(reduced.size(), 0, exprs, ctx);
}

/// A generic over `loopShape` that reduces the dimensions marked in
/// `reduced`: the result holds the kept dimensions, starts as `init` and
/// accumulates `combine(inputs..., acc)`.
static Value buildReduction(
    OpBuilder &b, Location loc, ArrayRef<int64_t> loopShape,
    ArrayRef<bool> reduced, ValueRange inputs, ArrayRef<AffineMap> inputMaps,
    Value init,
    function_ref<Value(OpBuilder &, Location, ValueRange, Value)> combine) {
  SmallVector<int64_t> keptShape;
  SmallVector<utils::IteratorType> iterators;
  for (auto [size, r] : llvm::zip_equal(loopShape, reduced)) {
    if (!r)
      keptShape.push_back(size);
    iterators.push_back(r ? utils::IteratorType::reduction
                          : utils::IteratorType::parallel);
  }
  auto outType = RankedTensorType::get(keptShape, init.getType());
  Value out = filledTensor(b, loc, outType, init);
  SmallVector<AffineMap> maps(inputMaps);
  maps.push_back(keptDimsMap(b.getContext(), reduced));
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{outType}, inputs, ValueRange{out}, maps, iterators,
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value r = combine(nb, nl, args.drop_back(), args.back());
        linalg::YieldOp::create(nb, nl, r);
      });
  return generic.getResult(0);
}

/// Sums `input` over the dimensions marked in `reduced`.
static Value buildSum(OpBuilder &b, Location loc, Value input,
                      ArrayRef<bool> reduced) {
  RankedTensorType type = tensorTypeOf(input);
  Type elem = type.getElementType();
  return buildReduction(
      b, loc, type.getShape(), reduced, input,
      b.getMultiDimIdentityMap(type.getRank()), sumIdentity(b, loc, elem),
      [&](OpBuilder &nb, Location nl, ValueRange in, Value acc) -> Value {
        if (isa<FloatType>(elem))
          return arith::AddFOp::create(nb, nl, in[0], acc);
        return arith::AddIOp::create(nb, nl, in[0], acc);
      });
}

/// Reshapes `v` to `target` (same elements, row-major): one collapse or
/// expand when a reassociation exists, otherwise collapse to 1-D and expand.
static Value reshapeTo(OpBuilder &b, Location loc, Value v,
                       RankedTensorType target) {
  RankedTensorType src = tensorTypeOf(v);
  if (src == target)
    return v;
  auto allInOne = [](int64_t rank) {
    ReassociationIndices group;
    for (int64_t i = 0; i < rank; ++i)
      group.push_back(i);
    return SmallVector<ReassociationIndices>{group};
  };
  if (src.getRank() > target.getRank()) {
    if (target.getRank() == 0)
      return tensor::CollapseShapeOp::create(b, loc, target, v,
                                             ArrayRef<ReassociationIndices>{});
    if (auto re = getReassociationIndicesForCollapse(src.getShape(),
                                                     target.getShape()))
      return tensor::CollapseShapeOp::create(b, loc, target, v, *re);
  } else if (src.getRank() < target.getRank()) {
    if (src.getRank() == 0)
      return tensor::ExpandShapeOp::create(b, loc, target, v,
                                           ArrayRef<ReassociationIndices>{});
    if (auto re = getReassociationIndicesForCollapse(target.getShape(),
                                                     src.getShape()))
      return tensor::ExpandShapeOp::create(b, loc, target, v, *re);
  }
  auto flatType =
      RankedTensorType::get({src.getNumElements()}, src.getElementType());
  Value flat = v;
  if (src.getRank() == 0)
    flat = tensor::ExpandShapeOp::create(b, loc, flatType, v,
                                         ArrayRef<ReassociationIndices>{});
  else if (src.getRank() > 1)
    flat = tensor::CollapseShapeOp::create(b, loc, flatType, v,
                                           allInOne(src.getRank()));
  if (target.getRank() == 1)
    return flat;
  if (target.getRank() == 0)
    return tensor::CollapseShapeOp::create(b, loc, target, flat,
                                           ArrayRef<ReassociationIndices>{});
  return tensor::ExpandShapeOp::create(b, loc, target, flat,
                                       allInOne(target.getRank()));
}

/// `reduced` flags of the normalized `axes` of a rank-`rank` tensor.
static SmallVector<bool> reducedFlags(ArrayRef<int64_t> axes, int64_t rank) {
  SmallVector<bool> reduced(rank, false);
  for (int64_t axis : axes)
    reduced[*normalizeAxis(axis, rank)] = true;
  return reduced;
}

//===----------------------------------------------------------------------===//
// Scalar semantics of elementwise ops
//===----------------------------------------------------------------------===//

/// NaN-propagating max/min with −0 < +0 for floats, signed for integers.
static Value scalarMax(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<FloatType>(x.getType()))
    return arith::MaximumFOp::create(b, loc, x, y);
  return arith::MaxSIOp::create(b, loc, x, y);
}

static Value scalarMin(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<FloatType>(x.getType()))
    return arith::MinimumFOp::create(b, loc, x, y);
  return arith::MinSIOp::create(b, loc, x, y);
}

/// Float ops of one operand, written with arith and math.
static Value scalarFloatUnary(Operation *op, OpBuilder &b, Location loc,
                              Value x) {
  Type t = x.getType();
  auto one = [&] { return floatConstant(b, loc, t, 1.0); };
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case([&](NegOp) { return arith::NegFOp::create(b, loc, x); })
      .Case([&](AbsOp) { return math::AbsFOp::create(b, loc, x); })
      .Case([&](ReluOp) {
        // NaN stays NaN, −0 becomes +0, as in the evaluator.
        Value zero = floatConstant(b, loc, t, 0.0);
        Value keep =
            arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UGT, x, zero);
        return arith::SelectOp::create(b, loc, keep, x, zero);
      })
      .Case([&](ExpOp) { return math::ExpOp::create(b, loc, x); })
      .Case([&](LogOp) { return math::LogOp::create(b, loc, x); })
      .Case([&](SqrtOp) { return math::SqrtOp::create(b, loc, x); })
      .Case([&](RsqrtOp) { return math::RsqrtOp::create(b, loc, x); })
      .Case(
          [&](ReciprocalOp) { return arith::DivFOp::create(b, loc, one(), x); })
      .Case([&](TanhOp) { return math::TanhOp::create(b, loc, x); })
      .Case([&](ErfOp) { return math::ErfOp::create(b, loc, x); })
      .Case([&](SigmoidOp) {
        Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x));
        return arith::DivFOp::create(b, loc, one(),
                                     arith::AddFOp::create(b, loc, one(), e));
      })
      .Case([&](SiluOp) {
        Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x));
        return arith::DivFOp::create(b, loc, x,
                                     arith::AddFOp::create(b, loc, one(), e));
      })
      .Case([&](GeluOp gelu) -> Value {
        Value half = floatConstant(b, loc, t, 0.5);
        Value inner;
        if (gelu.getTanhApproximation()) {
          // 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))
          Value x3 = arith::MulFOp::create(b, loc, x,
                                           arith::MulFOp::create(b, loc, x, x));
          Value poly = arith::AddFOp::create(
              b, loc, x,
              arith::MulFOp::create(b, loc, floatConstant(b, loc, t, 0.044715),
                                    x3));
          Value scaled = arith::MulFOp::create(
              b, loc, floatConstant(b, loc, t, std::sqrt(2.0 / M_PI)), poly);
          inner = math::TanhOp::create(b, loc, scaled);
        } else {
          // 0.5·x·(1 + erf(x/√2))
          Value scaled = arith::MulFOp::create(
              b, loc, x, floatConstant(b, loc, t, M_SQRT1_2));
          inner = math::ErfOp::create(b, loc, scaled);
        }
        Value onePlus = arith::AddFOp::create(b, loc, one(), inner);
        return arith::MulFOp::create(
            b, loc, arith::MulFOp::create(b, loc, half, x), onePlus);
      })
      .Case([&](ClipOp clip) -> Value {
        Value lo = floatConstant(b, loc, t, clip.getMin().convertToDouble());
        Value hi = floatConstant(b, loc, t, clip.getMax().convertToDouble());
        return arith::MinimumFOp::create(
            b, loc, arith::MaximumFOp::create(b, loc, x, lo), hi);
      })
      .Default([](Operation *) { return Value(); });
}

/// Integer ops of one operand (neg, abs, relu, clip wrap as the evaluator
/// does).
static Value scalarIntUnary(Operation *op, OpBuilder &b, Location loc,
                            Value x) {
  Type t = x.getType();
  unsigned width = t.getIntOrFloatBitWidth();
  auto zero = [&] { return intConstant(b, loc, t, 0); };
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case([&](NegOp) { return arith::SubIOp::create(b, loc, zero(), x); })
      .Case([&](AbsOp) { return math::AbsIOp::create(b, loc, x); })
      .Case([&](ReluOp) { return arith::MaxSIOp::create(b, loc, x, zero()); })
      .Case([&](ClipOp clip) -> Value {
        // Bounds rounded inward, then clamped to the element type's range.
        double minValue = std::ldexp(-1.0, width - 1);
        double maxValue = std::ldexp(1.0, width - 1) - 1;
        double lo = std::ceil(clip.getMin().convertToDouble());
        double hi = std::floor(clip.getMax().convertToDouble());
        lo = std::min(std::max(lo, minValue), maxValue);
        hi = std::min(std::max(hi, minValue), maxValue);
        Value loV = arith::ConstantOp::create(
            b, loc,
            b.getIntegerAttr(t, APInt(width, static_cast<int64_t>(lo), true)));
        Value hiV = arith::ConstantOp::create(
            b, loc,
            b.getIntegerAttr(t, APInt(width, static_cast<int64_t>(hi), true)));
        return arith::MinSIOp::create(
            b, loc, arith::MaxSIOp::create(b, loc, x, loV), hiV);
      })
      .Default([](Operation *) { return Value(); });
}

/// Binary ops; integer division truncates toward zero, integer pow is
/// `math.ipowi`.
static Value scalarBinary(Operation *op, OpBuilder &b, Location loc, Value x,
                          Value y) {
  bool isFloat = isa<FloatType>(x.getType());
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case([&](AddOp) -> Value {
        if (isFloat)
          return arith::AddFOp::create(b, loc, x, y);
        return arith::AddIOp::create(b, loc, x, y);
      })
      .Case([&](SubOp) -> Value {
        if (isFloat)
          return arith::SubFOp::create(b, loc, x, y);
        return arith::SubIOp::create(b, loc, x, y);
      })
      .Case([&](MulOp) -> Value {
        if (isFloat)
          return arith::MulFOp::create(b, loc, x, y);
        return arith::MulIOp::create(b, loc, x, y);
      })
      .Case([&](DivOp) -> Value {
        if (isFloat)
          return arith::DivFOp::create(b, loc, x, y);
        return arith::DivSIOp::create(b, loc, x, y);
      })
      .Case([&](PowOp) -> Value {
        if (!isFloat)
          return math::IPowIOp::create(b, loc, x, y);
        Type t = x.getType();
        if (t.getIntOrFloatBitWidth() >= 32)
          return math::PowFOp::create(b, loc, x, y);
        Value wx = arith::ExtFOp::create(b, loc, b.getF32Type(), x);
        Value wy = arith::ExtFOp::create(b, loc, b.getF32Type(), y);
        return arith::TruncFOp::create(b, loc, t,
                                       math::PowFOp::create(b, loc, wx, wy));
      })
      .Case([&](MaxOp) { return scalarMax(b, loc, x, y); })
      .Case([&](MinOp) { return scalarMin(b, loc, x, y); })
      .Default([](Operation *) { return Value(); });
}

static Value scalarCompare(ComparePredicate predicate, OpBuilder &b,
                           Location loc, Value x, Value y) {
  if (isa<FloatType>(x.getType())) {
    arith::CmpFPredicate p;
    switch (predicate) {
    case ComparePredicate::eq:
      p = arith::CmpFPredicate::OEQ;
      break;
    case ComparePredicate::ne:
      p = arith::CmpFPredicate::UNE;
      break;
    case ComparePredicate::lt:
      p = arith::CmpFPredicate::OLT;
      break;
    case ComparePredicate::le:
      p = arith::CmpFPredicate::OLE;
      break;
    case ComparePredicate::gt:
      p = arith::CmpFPredicate::OGT;
      break;
    case ComparePredicate::ge:
      p = arith::CmpFPredicate::OGE;
      break;
    }
    return arith::CmpFOp::create(b, loc, p, x, y);
  }
  arith::CmpIPredicate p;
  switch (predicate) {
  case ComparePredicate::eq:
    p = arith::CmpIPredicate::eq;
    break;
  case ComparePredicate::ne:
    p = arith::CmpIPredicate::ne;
    break;
  case ComparePredicate::lt:
    p = arith::CmpIPredicate::slt;
    break;
  case ComparePredicate::le:
    p = arith::CmpIPredicate::sle;
    break;
  case ComparePredicate::gt:
    p = arith::CmpIPredicate::sgt;
    break;
  case ComparePredicate::ge:
    p = arith::CmpIPredicate::sge;
    break;
  }
  return arith::CmpIOp::create(b, loc, p, x, y);
}

/// Element conversion with the cast op's semantics: float→float rounds to
/// nearest even, float→int truncates toward zero, int→float rounds (i1 is 0
/// or 1), int→int sign-extends (i1 zero-extends) or truncates, any→i1 is
/// `x != 0` (true for NaN).
static Value scalarCast(OpBuilder &b, Location loc, Value x, Type to) {
  Type from = x.getType();
  if (from == to)
    return x;
  bool fromFloat = isa<FloatType>(from), toFloat = isa<FloatType>(to);
  unsigned fromWidth = from.getIntOrFloatBitWidth();
  unsigned toWidth = to.getIntOrFloatBitWidth();
  if (to.isInteger(1)) {
    if (fromFloat)
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, x,
                                   floatConstant(b, loc, from, 0.0));
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, x,
                                 intConstant(b, loc, from, 0));
  }
  if (fromFloat && toFloat) {
    if (fromWidth < toWidth)
      return arith::ExtFOp::create(b, loc, to, x);
    if (fromWidth > toWidth)
      return arith::TruncFOp::create(b, loc, to, x);
    // f16 <-> bf16: through f32.
    Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), x);
    return arith::TruncFOp::create(b, loc, to, wide);
  }
  if (fromFloat)
    return arith::FPToSIOp::create(b, loc, to, x);
  if (toFloat) {
    if (from.isInteger(1))
      return arith::UIToFPOp::create(b, loc, to, x);
    return arith::SIToFPOp::create(b, loc, to, x);
  }
  if (fromWidth < toWidth) {
    if (from.isInteger(1))
      return arith::ExtUIOp::create(b, loc, to, x);
    return arith::ExtSIOp::create(b, loc, to, x);
  }
  return arith::TruncIOp::create(b, loc, to, x);
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

namespace {

/// Reports, on the op, why it cannot be lowered.
static LogicalResult cannotLower(Operation *op, const Twine &reason) {
  op->emitOpError("cannot be lowered to linalg: ") << reason;
  return failure();
}

/// gopt.constant → arith.constant with the same dense or dense_resource
/// attribute (resources stay resources).
struct LowerConstant : OpConversionPattern<ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto value = dyn_cast<TypedAttr>(Attribute(op.getValue()));
    if (!value)
      return cannotLower(op, "its value is not a typed elements attribute");
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, value);
    return success();
  }
};

/// Elementwise op of one operand → one linalg.generic.
template <typename OpTy>
struct LowerUnaryElementwise : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getResult().getType());
    bool isFloat = isa<FloatType>(type.getElementType());
    Operation *raw = op.getOperation();
    Value result = buildElementwise(
        rewriter, op.getLoc(), adaptor.getInput(), type,
        [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
          if (!isFloat)
            return scalarIntUnary(raw, b, loc, args[0]);
          return computeInWideFloat(b, loc, args[0], [&](Value x) {
            return scalarFloatUnary(raw, b, loc, x);
          });
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Elementwise op of two broadcast operands → one linalg.generic.
template <typename OpTy>
struct LowerBinaryElementwise : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getResult().getType());
    Operation *raw = op.getOperation();
    Value result = buildElementwise(
        rewriter, op.getLoc(), ValueRange{adaptor.getLhs(), adaptor.getRhs()},
        type, [&](OpBuilder &b, Location loc, ValueRange args) {
          return scalarBinary(raw, b, loc, args[0], args[1]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// gopt.compare → generic of arith.cmpf (ordered, `ne` unordered) / cmpi.
struct LowerCompare : OpConversionPattern<CompareOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CompareOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ComparePredicate predicate = op.getPredicate();
    Value result = buildElementwise(
        rewriter, op.getLoc(), ValueRange{adaptor.getLhs(), adaptor.getRhs()},
        op.getResult().getType(),
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return scalarCompare(predicate, b, loc, args[0], args[1]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// gopt.select → generic of arith.select over three broadcast operands.
struct LowerSelect : OpConversionPattern<SelectOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SelectOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value result = buildElementwise(
        rewriter, op.getLoc(),
        ValueRange{adaptor.getCondition(), adaptor.getOnTrue(),
                   adaptor.getOnFalse()},
        op.getResult().getType(),
        [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
          return arith::SelectOp::create(b, loc, args[0], args[1], args[2]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// gopt.cast → generic of the matching arith conversion.
struct LowerCast : OpConversionPattern<CastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = op.getResult().getType();
    Type to = type.getElementType();
    Value result =
        buildElementwise(rewriter, op.getLoc(), adaptor.getInput(), type,
                         [&](OpBuilder &b, Location loc, ValueRange args) {
                           return scalarCast(b, loc, args[0], to);
                         });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// gopt.reduce → reduction generic (−0 / ∓∞ / integer extremes as
/// identities), a division for `mean`, an expand_shape for `keepdims`.
struct LowerReduce : OpConversionPattern<ReduceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    RankedTensorType inType = tensorTypeOf(input);
    Type elem = inType.getElementType();
    bool isFloat = isa<FloatType>(elem);
    SmallVector<bool> reduced = reducedFlags(op.getAxes(), inType.getRank());
    ReduceKind kind = op.getKind();
    Value init;
    switch (kind) {
    case ReduceKind::sum:
    case ReduceKind::mean:
      init = sumIdentity(rewriter, loc, elem);
      break;
    case ReduceKind::max:
      init = lowestValue(rewriter, loc, elem);
      break;
    case ReduceKind::min:
      init = highestValue(rewriter, loc, elem);
      break;
    }
    Value result = buildReduction(
        rewriter, loc, inType.getShape(), reduced, input,
        rewriter.getMultiDimIdentityMap(inType.getRank()), init,
        [&](OpBuilder &b, Location l, ValueRange in, Value acc) -> Value {
          switch (kind) {
          case ReduceKind::max:
            return scalarMax(b, l, in[0], acc);
          case ReduceKind::min:
            return scalarMin(b, l, in[0], acc);
          default:
            if (isFloat)
              return arith::AddFOp::create(b, l, in[0], acc);
            return arith::AddIOp::create(b, l, in[0], acc);
          }
        });
    // An empty integer mean stays 0 (its sum) instead of dividing by zero;
    // an empty float mean is 0/0 = NaN, as in numpy.
    int64_t count = 1;
    for (auto [size, r] : llvm::zip_equal(inType.getShape(), reduced))
      if (r)
        count *= size;
    if (kind == ReduceKind::mean && (isFloat || count > 0)) {
      result = buildElementwise(
          rewriter, loc, result, tensorTypeOf(result),
          [&](OpBuilder &b, Location l, ValueRange args) -> Value {
            Value n = scalarConstant(b, l, elem, static_cast<double>(count));
            if (isFloat)
              return arith::DivFOp::create(b, l, args[0], n);
            return arith::DivSIOp::create(b, l, args[0], n);
          });
    }
    result = reshapeTo(rewriter, loc, result, op.getResult().getType());
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// gopt.softmax → numerically stable exp(x − max) / Σ exp(x − max): a max
/// reduction, an exp generic, a sum reduction and a division generic.
struct LowerSoftmax : OpConversionPattern<SoftmaxOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SoftmaxOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    RankedTensorType type = tensorTypeOf(input);
    Type elem = type.getElementType();
    int64_t rank = type.getRank();
    int64_t axis = op.getAxis();
    SmallVector<bool> reduced = reducedFlags(axis, rank);
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    AffineMap kept = keptDimsMap(rewriter.getContext(), reduced);

    Value max =
        buildReduction(rewriter, loc, type.getShape(), reduced, input, identity,
                       lowestValue(rewriter, loc, elem),
                       [&](OpBuilder &b, Location l, ValueRange in, Value acc) {
                         return scalarMax(b, l, in[0], acc);
                       });
    Value exp = buildParallelGeneric(
        rewriter, loc, ValueRange{input, max}, {identity, kept}, type,
        [&](OpBuilder &b, Location l, ValueRange args) {
          return computeInWideFloat(b, l, args[0], [&](Value x) -> Value {
            Value m = args[1];
            if (m.getType() != x.getType())
              m = arith::ExtFOp::create(b, l, x.getType(), m);
            return math::ExpOp::create(b, l, arith::SubFOp::create(b, l, x, m));
          });
        });
    Value sum = buildSum(rewriter, loc, exp, reduced);
    Value result = buildParallelGeneric(
        rewriter, loc, ValueRange{exp, sum}, {identity, kept}, type,
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          return arith::DivFOp::create(b, l, args[0], args[1]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// gopt.layer_norm → Σx, Σ(x − mean)² (two-pass variance, biased) and one
/// normalization generic computing (x − mean) · rsqrt(var + eps) · scale
/// (+ bias).
struct LowerLayerNorm : OpConversionPattern<LayerNormOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LayerNormOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    RankedTensorType type = tensorTypeOf(input);
    Type elem = type.getElementType();
    int64_t rank = type.getRank();
    int64_t numAxes = op.getAxes().size();
    SmallVector<bool> reduced(rank, false);
    int64_t count = 1;
    for (int64_t d = rank - numAxes; d < rank; ++d) {
      reduced[d] = true;
      count *= type.getDimSize(d);
    }
    MLIRContext *ctx = rewriter.getContext();
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    AffineMap kept = keptDimsMap(ctx, reduced);
    SmallVector<AffineExpr> trailing;
    for (int64_t d = rank - numAxes; d < rank; ++d)
      trailing.push_back(getAffineDimExpr(d, ctx));
    AffineMap param = AffineMap::get(rank, 0, trailing, ctx);
    double invCount = 1.0 / static_cast<double>(count);
    double eps = op.getEpsilon().convertToDouble();

    Value sum = buildSum(rewriter, loc, input, reduced);
    Value sq = buildReduction(
        rewriter, loc, type.getShape(), reduced, ValueRange{input, sum},
        {identity, kept}, sumIdentity(rewriter, loc, elem),
        [&](OpBuilder &b, Location l, ValueRange in, Value acc) -> Value {
          Value mean = arith::MulFOp::create(
              b, l, in[1], floatConstant(b, l, elem, invCount));
          Value d = arith::SubFOp::create(b, l, in[0], mean);
          return arith::AddFOp::create(b, l, acc,
                                       arith::MulFOp::create(b, l, d, d));
        });
    SmallVector<Value> inputs = {input, sum, sq, adaptor.getScale()};
    SmallVector<AffineMap> maps = {identity, kept, kept, param};
    if (Value bias = adaptor.getBias()) {
      inputs.push_back(bias);
      maps.push_back(param);
    }
    Value result = buildParallelGeneric(
        rewriter, loc, inputs, maps, type,
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          Value inv = floatConstant(b, l, elem, invCount);
          Value mean = arith::MulFOp::create(b, l, args[1], inv);
          Value var = arith::MulFOp::create(b, l, args[2], inv);
          Value denom = computeInWideFloat(b, l, var, [&](Value v) -> Value {
            Value e = floatConstant(b, l, v.getType(), eps);
            return math::RsqrtOp::create(b, l,
                                         arith::AddFOp::create(b, l, v, e));
          });
          Value norm = arith::MulFOp::create(
              b, l, arith::SubFOp::create(b, l, args[0], mean), denom);
          Value scaled = arith::MulFOp::create(b, l, norm, args[3]);
          if (args.size() > 4)
            return arith::AddFOp::create(b, l, scaled, args[4]);
          return scaled;
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Multiply-accumulate body of contraction generics.
static Value multiplyAccumulate(OpBuilder &b, Location loc, Value x, Value y,
                                Value acc) {
  if (isa<FloatType>(acc.getType()))
    return arith::AddFOp::create(b, loc, acc,
                                 arith::MulFOp::create(b, loc, x, y));
  return arith::AddIOp::create(b, loc, acc,
                               arith::MulIOp::create(b, loc, x, y));
}

/// A contraction generic: loops `[batch..., m, n, k]`, reading `lhs` and
/// `rhs` through `lhsMap`/`rhsMap`, accumulating into `init` (result
/// `[batch..., m, n]`).
static Value buildContraction(OpBuilder &b, Location loc, Value lhs,
                              AffineMap lhsMap, Value rhs, AffineMap rhsMap,
                              Value init) {
  RankedTensorType outType = tensorTypeOf(init);
  unsigned numLoops = outType.getRank() + 1;
  SmallVector<utils::IteratorType> iterators(numLoops,
                                             utils::IteratorType::parallel);
  iterators.back() = utils::IteratorType::reduction;
  AffineMap outMap = AffineMap::getMultiDimIdentityMap(numLoops, b.getContext())
                         .getMajorSubMap(outType.getRank());
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{outType}, ValueRange{lhs, rhs}, ValueRange{init},
      {lhsMap, rhsMap, outMap}, iterators,
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        linalg::YieldOp::create(
            nb, nl, multiplyAccumulate(nb, nl, args[0], args[1], args[2]));
      });
  return generic.getResult(0);
}

/// Reads the two trailing dims of a contraction operand as loop dims `a`,
/// `b`, with its batch dims broadcast against `batchShape`.
static std::pair<Value, AffineMap>
contractionOperand(OpBuilder &b, Location loc, Value v,
                   ArrayRef<int64_t> batchShape, unsigned numLoops, unsigned a,
                   unsigned c) {
  RankedTensorType type = tensorTypeOf(v);
  int64_t batchRank = type.getRank() - 2;
  int64_t offset = static_cast<int64_t>(batchShape.size()) - batchRank;
  SmallVector<bool> drop(type.getRank(), false);
  SmallVector<AffineExpr> exprs;
  for (int64_t i = 0; i < batchRank; ++i) {
    if (type.getDimSize(i) == 1 && batchShape[offset + i] != 1) {
      drop[i] = true;
      continue;
    }
    exprs.push_back(b.getAffineDimExpr(offset + i));
  }
  exprs.push_back(b.getAffineDimExpr(a));
  exprs.push_back(b.getAffineDimExpr(c));
  return {collapseUnitDims(b, loc, v, drop),
          AffineMap::get(numLoops, 0, exprs, b.getContext())};
}

/// gopt.matmul → contraction generic over `[batch..., m, n, k]` with
/// broadcast batch dims, accumulating into zeros.
struct LowerMatmul : OpConversionPattern<MatmulOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType outType = op.getResult().getType();
    unsigned nb = outType.getRank() - 2, numLoops = outType.getRank() + 1;
    ArrayRef<int64_t> batch = outType.getShape().drop_back(2);
    auto [lhs, lhsMap] = contractionOperand(rewriter, loc, adaptor.getLhs(),
                                            batch, numLoops, nb, nb + 2);
    auto [rhs, rhsMap] = contractionOperand(rewriter, loc, adaptor.getRhs(),
                                            batch, numLoops, nb + 2, nb + 1);
    Value init = filledTensor(
        rewriter, loc, outType,
        scalarConstant(rewriter, loc, outType.getElementType(), 0.0));
    rewriter.replaceOp(
        op, buildContraction(rewriter, loc, lhs, lhsMap, rhs, rhsMap, init));
    return success();
  }
};

/// gopt.linear → contraction generic with the transposes folded into the
/// indexing maps, accumulating into the broadcast bias (or zeros).
struct LowerLinear : OpConversionPattern<LinearOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LinearOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType outType = op.getResult().getType();
    unsigned nb = outType.getRank() - 2, numLoops = outType.getRank() + 1;
    unsigned m = nb, n = nb + 1, k = nb + 2;
    SmallVector<AffineExpr> inExprs;
    for (unsigned d = 0; d < nb; ++d)
      inExprs.push_back(rewriter.getAffineDimExpr(d));
    bool tIn = op.getTransposeInput(), tW = op.getTransposeWeight();
    inExprs.push_back(rewriter.getAffineDimExpr(tIn ? k : m));
    inExprs.push_back(rewriter.getAffineDimExpr(tIn ? m : k));
    AffineMap inMap =
        AffineMap::get(numLoops, 0, inExprs, rewriter.getContext());
    AffineMap wMap = AffineMap::get(numLoops, 0,
                                    {rewriter.getAffineDimExpr(tW ? n : k),
                                     rewriter.getAffineDimExpr(tW ? k : n)},
                                    rewriter.getContext());
    Value init;
    if (Value bias = adaptor.getBias())
      init = buildElementwise(
          rewriter, loc, bias, outType,
          [](OpBuilder &, Location, ValueRange args) { return args[0]; });
    else
      init = filledTensor(
          rewriter, loc, outType,
          scalarConstant(rewriter, loc, outType.getElementType(), 0.0));
    rewriter.replaceOp(op, buildContraction(rewriter, loc, adaptor.getInput(),
                                            inMap, adaptor.getWeight(), wMap,
                                            init));
    return success();
  }
};

/// Pads the two spatial dims of an NCHW tensor with `value`.
static Value padSpatial(OpBuilder &b, Location loc, Value input,
                        ArrayRef<int64_t> padding, Value value) {
  if (llvm::all_of(padding, [](int64_t p) { return p == 0; }))
    return input;
  RankedTensorType type = tensorTypeOf(input);
  SmallVector<int64_t> shape(type.getShape());
  shape[2] += padding[0] + padding[2];
  shape[3] += padding[1] + padding[3];
  SmallVector<OpFoldResult> low = {b.getIndexAttr(0), b.getIndexAttr(0),
                                   b.getIndexAttr(padding[0]),
                                   b.getIndexAttr(padding[1])};
  SmallVector<OpFoldResult> high = {b.getIndexAttr(0), b.getIndexAttr(0),
                                    b.getIndexAttr(padding[2]),
                                    b.getIndexAttr(padding[3])};
  return tensor::PadOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), input, low,
      high, value);
}

static DenseIntElementsAttr windowAttr(OpBuilder &b, ArrayRef<int64_t> v) {
  return DenseIntElementsAttr::get(
      RankedTensorType::get({static_cast<int64_t>(v.size())}, b.getI64Type()),
      v);
}

/// gopt.conv2d → zero padding, then `linalg.conv_2d_nchw_fchw` (groups = 1)
/// or a grouped-convolution generic, accumulating into the broadcast bias
/// (or zeros).
struct LowerConv2D : OpConversionPattern<Conv2DOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Conv2DOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType outType = op.getResult().getType();
    Type elem = outType.getElementType();
    MLIRContext *ctx = rewriter.getContext();
    Value input = padSpatial(rewriter, loc, adaptor.getInput(), op.getPadding(),
                             floatConstant(rewriter, loc, elem, 0.0));
    Value init;
    if (Value bias = adaptor.getBias()) {
      AffineMap biasMap = AffineMap::get(4, 0, getAffineDimExpr(1, ctx), ctx);
      init = buildParallelGeneric(
          rewriter, loc, bias, biasMap, outType,
          [](OpBuilder &, Location, ValueRange args) { return args[0]; });
    } else {
      init = filledTensor(rewriter, loc, outType,
                          floatConstant(rewriter, loc, elem, 0.0));
    }
    ArrayRef<int64_t> s = op.getStrides(), d = op.getDilations();
    int64_t groups = op.getGroups();
    if (groups == 1) {
      auto conv = linalg::Conv2DNchwFchwOp::create(
          rewriter, loc, TypeRange{outType},
          ValueRange{input, adaptor.getWeight()}, ValueRange{init},
          windowAttr(rewriter, s), windowAttr(rewriter, d));
      rewriter.replaceOp(op, conv.getResult(0));
      return success();
    }
    // Loops (n, f, oh, ow, c, kh, kw); c runs over the channels of f's group.
    RankedTensorType wType = op.getWeight().getType();
    int64_t filtersPerGroup = outType.getDimSize(1) / groups;
    int64_t channelsPerGroup = wType.getDimSize(1);
    auto dim = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
    AffineExpr channel =
        dim(1).floorDiv(filtersPerGroup) * channelsPerGroup + dim(4);
    AffineMap inMap =
        AffineMap::get(7, 0,
                       {dim(0), channel, dim(2) * s[0] + dim(5) * d[0],
                        dim(3) * s[1] + dim(6) * d[1]},
                       ctx);
    AffineMap wMap =
        AffineMap::get(7, 0, {dim(1), dim(4), dim(5), dim(6)}, ctx);
    AffineMap outMap =
        AffineMap::get(7, 0, {dim(0), dim(1), dim(2), dim(3)}, ctx);
    SmallVector<utils::IteratorType> iterators(4,
                                               utils::IteratorType::parallel);
    iterators.append(3, utils::IteratorType::reduction);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{outType},
        ValueRange{input, adaptor.getWeight()}, ValueRange{init},
        {inMap, wMap, outMap}, iterators,
        [&](OpBuilder &b, Location l, ValueRange args) {
          linalg::YieldOp::create(
              b, l, multiplyAccumulate(b, l, args[0], args[1], args[2]));
        });
    // What the generic computes, for code generation that hands grouped
    // convolutions to a library (the maps alone say it only in floordivs).
    generic->setAttr(
        kGroupedConv2DAttrName,
        rewriter.getDictionaryAttr({
            rewriter.getNamedAttr("groups", rewriter.getI64IntegerAttr(groups)),
            rewriter.getNamedAttr("strides", rewriter.getDenseI64ArrayAttr(s)),
            rewriter.getNamedAttr("dilations",
                                  rewriter.getDenseI64ArrayAttr(d)),
        }));
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// gopt.pool2d → padding (−∞ for max, 0 for avg) and
/// `linalg.pooling_nchw_max` / `linalg.pooling_nchw_sum`; avg then divides
/// by the window area, or by each window's count of non-padding elements
/// (a constant computed here) without `count_include_pad`.
struct LowerPool2D : OpConversionPattern<Pool2DOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Pool2DOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType outType = op.getResult().getType();
    RankedTensorType inType = op.getInput().getType();
    Type elem = outType.getElementType();
    bool isMax = op.getKind() == PoolKind::max;
    ArrayRef<int64_t> k = op.getKernel(), s = op.getStrides(),
                      p = op.getPadding();
    Value padValue = isMax ? lowestValue(rewriter, loc, elem)
                           : floatConstant(rewriter, loc, elem, 0.0);
    Value input = padSpatial(rewriter, loc, adaptor.getInput(), p, padValue);
    Value window = tensor::EmptyOp::create(rewriter, loc, k, elem);
    Value init = filledTensor(rewriter, loc, outType,
                              isMax ? lowestValue(rewriter, loc, elem)
                                    : floatConstant(rewriter, loc, elem, 0.0));
    int64_t ones[] = {1, 1};
    Value result;
    if (isMax)
      result = linalg::PoolingNchwMaxOp::create(
                   rewriter, loc, TypeRange{outType}, ValueRange{input, window},
                   ValueRange{init}, windowAttr(rewriter, s),
                   windowAttr(rewriter, ones))
                   .getResult(0);
    else
      result = linalg::PoolingNchwSumOp::create(
                   rewriter, loc, TypeRange{outType}, ValueRange{input, window},
                   ValueRange{init}, windowAttr(rewriter, s),
                   windowAttr(rewriter, ones))
                   .getResult(0);
    if (!isMax) {
      int64_t oh = outType.getDimSize(2), ow = outType.getDimSize(3);
      int64_t h = inType.getDimSize(2), w = inType.getDimSize(3);
      SmallVector<double> counts;
      for (int64_t i = 0; i < oh; ++i)
        for (int64_t j = 0; j < ow; ++j) {
          if (op.getCountIncludePad()) {
            counts.push_back(static_cast<double>(k[0] * k[1]));
            continue;
          }
          int64_t h0 = i * s[0] - p[0], w0 = j * s[1] - p[1];
          int64_t rows = std::min(h0 + k[0], h) - std::max<int64_t>(h0, 0);
          int64_t cols = std::min(w0 + k[1], w) - std::max<int64_t>(w0, 0);
          counts.push_back(static_cast<double>(rows * cols));
        }
      auto countType = RankedTensorType::get({oh, ow}, elem);
      SmallVector<APFloat> values;
      for (double c : counts) {
        APFloat v(c);
        bool lost;
        v.convert(cast<FloatType>(elem).getFloatSemantics(),
                  APFloat::rmNearestTiesToEven, &lost);
        values.push_back(v);
      }
      Value divisor = arith::ConstantOp::create(
          rewriter, loc, DenseElementsAttr::get(countType, values));
      result = buildElementwise(
          rewriter, loc, ValueRange{result, divisor}, outType,
          [](OpBuilder &b, Location l, ValueRange args) -> Value {
            return arith::DivFOp::create(b, l, args[0], args[1]);
          });
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// gopt.global_avg_pool → sum over H and W, divide by H·W, expand to
/// `[N, C, 1, 1]`.
struct LowerGlobalAvgPool : OpConversionPattern<GlobalAvgPoolOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GlobalAvgPoolOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType inType = op.getInput().getType();
    Type elem = inType.getElementType();
    bool reduced[] = {false, false, true, true};
    Value sum = buildSum(rewriter, loc, adaptor.getInput(), reduced);
    double area =
        static_cast<double>(inType.getDimSize(2) * inType.getDimSize(3));
    Value mean = buildElementwise(
        rewriter, loc, sum, tensorTypeOf(sum),
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          return arith::DivFOp::create(b, l, args[0],
                                       floatConstant(b, l, elem, area));
        });
    rewriter.replaceOp(
        op, reshapeTo(rewriter, loc, mean, op.getResult().getType()));
    return success();
  }
};

/// gopt.transpose → a permuting copy generic.
struct LowerTranspose : OpConversionPattern<TransposeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ArrayRef<int64_t> perm = op.getPerm();
    // Result dim i is input dim perm[i]: input dim perm[i] reads loop dim i.
    SmallVector<AffineExpr> exprs(perm.size());
    for (auto [i, p] : llvm::enumerate(perm))
      exprs[p] = rewriter.getAffineDimExpr(i);
    AffineMap map =
        AffineMap::get(perm.size(), 0, exprs, rewriter.getContext());
    rewriter.replaceOp(
        op, buildParallelGeneric(rewriter, op.getLoc(), adaptor.getInput(), map,
                                 op.getResult().getType(),
                                 [](OpBuilder &, Location, ValueRange args) {
                                   return args[0];
                                 }));
    return success();
  }
};

/// gopt.reshape → tensor.collapse_shape / expand_shape (through 1-D when no
/// single reassociation exists).
struct LowerReshape : OpConversionPattern<ReshapeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, reshapeTo(rewriter, op.getLoc(), adaptor.getInput(),
                                     op.getResult().getType()));
    return success();
  }
};

/// gopt.broadcast_to → a broadcasting copy generic.
struct LowerBroadcastTo : OpConversionPattern<BroadcastToOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BroadcastToOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op,
        buildElementwise(
            rewriter, op.getLoc(), adaptor.getInput(), op.getResult().getType(),
            [](OpBuilder &, Location, ValueRange args) { return args[0]; }));
    return success();
  }
};

/// gopt.concat → tensor.empty and one tensor.insert_slice per input.
struct LowerConcat : OpConversionPattern<ConcatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConcatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType outType = op.getResult().getType();
    int64_t rank = outType.getRank();
    int64_t axis = *normalizeAxis(op.getAxis(), rank);
    Value result = emptyTensor(rewriter, loc, outType);
    int64_t offset = 0;
    for (Value in : adaptor.getInputs()) {
      RankedTensorType type = tensorTypeOf(in);
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
      offsets[axis] = rewriter.getIndexAttr(offset);
      SmallVector<OpFoldResult> sizes, strides(rank, rewriter.getIndexAttr(1));
      for (int64_t size : type.getShape())
        sizes.push_back(rewriter.getIndexAttr(size));
      result = tensor::InsertSliceOp::create(rewriter, loc, in, result, offsets,
                                             sizes, strides);
      offset += type.getDimSize(axis);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// A strided tensor.extract_slice of `input` with the result's sizes.
static Value extractSlice(OpBuilder &b, Location loc, Value input,
                          RankedTensorType resultType,
                          ArrayRef<int64_t> offsets,
                          ArrayRef<int64_t> strides) {
  SmallVector<OpFoldResult> o, sz, st;
  for (int64_t d = 0, e = resultType.getRank(); d < e; ++d) {
    o.push_back(b.getIndexAttr(offsets[d]));
    sz.push_back(b.getIndexAttr(resultType.getDimSize(d)));
    st.push_back(b.getIndexAttr(strides[d]));
  }
  return tensor::ExtractSliceOp::create(b, loc, resultType, input, o, sz, st);
}

/// gopt.slice → tensor.extract_slice with the clamped starts and the steps.
struct LowerSlice : OpConversionPattern<SliceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType inType = op.getInput().getType();
    SmallVector<int64_t> offsets;
    for (int64_t d = 0, e = inType.getRank(); d < e; ++d) {
      auto bounds = normalizeSlice(inType.getDimSize(d), op.getStarts()[d],
                                   op.getEnds()[d], op.getSteps()[d]);
      if (!bounds)
        return cannotLower(op, "its bounds do not normalize");
      offsets.push_back(bounds->start);
    }
    rewriter.replaceOp(
        op, extractSlice(rewriter, op.getLoc(), adaptor.getInput(),
                         op.getResult().getType(), offsets, op.getSteps()));
    return success();
  }
};

/// gopt.split → one tensor.extract_slice per piece.
struct LowerSplit : OpConversionPattern<SplitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SplitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType inType = op.getInput().getType();
    int64_t rank = inType.getRank();
    int64_t axis = *normalizeAxis(op.getAxis(), rank);
    SmallVector<Value> pieces;
    int64_t offset = 0;
    SmallVector<int64_t> strides(rank, 1);
    for (Value result : op.getResults()) {
      auto type = cast<RankedTensorType>(result.getType());
      SmallVector<int64_t> offsets(rank, 0);
      offsets[axis] = offset;
      pieces.push_back(extractSlice(rewriter, op.getLoc(), adaptor.getInput(),
                                    type, offsets, strides));
      offset += type.getDimSize(axis);
    }
    rewriter.replaceOp(op, pieces);
    return success();
  }
};

/// gopt.gather → generic over the result reading the index and extracting
/// from the input; negative indices count from the back, and indices are
/// clamped into range so a bad index never reads out of bounds.
struct LowerGather : OpConversionPattern<GatherOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType inType = op.getInput().getType();
    RankedTensorType idxType = op.getIndices().getType();
    RankedTensorType outType = op.getResult().getType();
    int64_t axis = *normalizeAxis(op.getAxis(), inType.getRank());
    int64_t idxRank = idxType.getRank();
    int64_t dimSize = inType.getDimSize(axis);
    SmallVector<AffineExpr> idxExprs;
    for (int64_t d = 0; d < idxRank; ++d)
      idxExprs.push_back(rewriter.getAffineDimExpr(axis + d));
    AffineMap idxMap =
        AffineMap::get(outType.getRank(), 0, idxExprs, rewriter.getContext());
    Value input = adaptor.getInput();
    Value result = buildParallelGeneric(
        rewriter, loc, adaptor.getIndices(), idxMap, outType,
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          Value idx =
              arith::IndexCastOp::create(b, l, b.getIndexType(), args[0]);
          Value zero = arith::ConstantIndexOp::create(b, l, 0);
          Value size = arith::ConstantIndexOp::create(b, l, dimSize);
          Value last = arith::ConstantIndexOp::create(b, l, dimSize - 1);
          Value negative =
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, idx, zero);
          idx = arith::SelectOp::create(
              b, l, negative, arith::AddIOp::create(b, l, idx, size), idx);
          idx = arith::MaxSIOp::create(b, l, idx, zero);
          idx = arith::MinSIOp::create(b, l, idx, last);
          SmallVector<Value> indices;
          for (int64_t d = 0; d < axis; ++d)
            indices.push_back(linalg::IndexOp::create(b, l, d));
          indices.push_back(idx);
          for (int64_t d = axis + 1; d < inType.getRank(); ++d)
            indices.push_back(linalg::IndexOp::create(b, l, d - 1 + idxRank));
          return tensor::ExtractOp::create(b, l, input, indices);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// gopt.pad → tensor.pad with the constant value.
struct LowerPad : OpConversionPattern<PadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType outType = op.getResult().getType();
    Type elem = outType.getElementType();
    double v = op.getValue().convertToDouble();
    Value value;
    if (isa<FloatType>(elem))
      value = floatConstant(rewriter, loc, elem, v);
    else if (elem.isInteger(1))
      value = intConstant(rewriter, loc, elem, v != 0 ? 1 : 0);
    else
      value = intConstant(rewriter, loc, elem, static_cast<int64_t>(v));
    SmallVector<OpFoldResult> low, high;
    for (int64_t l : op.getLow())
      low.push_back(rewriter.getIndexAttr(l));
    for (int64_t h : op.getHigh())
      high.push_back(rewriter.getIndexAttr(h));
    rewriter.replaceOp(op, tensor::PadOp::create(rewriter, loc, outType,
                                                 adaptor.getInput(), low, high,
                                                 value));
    return success();
  }
};

/// gopt.shape → an i64 constant of the static shape.
struct LowerShape : OpConversionPattern<ShapeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ShapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = op.getResult().getType();
    auto value =
        DenseIntElementsAttr::get(type, op.getInput().getType().getShape());
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, value);
    return success();
  }
};

/// gopt.fusion → its body, inlined in place (kernel boundaries are kept by
/// outlining first, see gopt-outline-kernels).
struct InlineFusionBody : OpConversionPattern<FusionOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(FusionOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Block &body = op.getBodyBlock();
    Operation *yield = body.getTerminator();
    SmallVector<Value> results(yield->getOperands());
    rewriter.inlineBlockBefore(&body, op, adaptor.getOperands());
    rewriter.eraseOp(yield);
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void mlir::gopt::populateGOptToLinalgPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<
      LowerUnaryElementwise<NegOp>, LowerUnaryElementwise<AbsOp>,
      LowerUnaryElementwise<ReluOp>, LowerUnaryElementwise<ExpOp>,
      LowerUnaryElementwise<LogOp>, LowerUnaryElementwise<SqrtOp>,
      LowerUnaryElementwise<RsqrtOp>, LowerUnaryElementwise<ReciprocalOp>,
      LowerUnaryElementwise<TanhOp>, LowerUnaryElementwise<SigmoidOp>,
      LowerUnaryElementwise<ErfOp>, LowerUnaryElementwise<SiluOp>,
      LowerUnaryElementwise<GeluOp>, LowerUnaryElementwise<ClipOp>,
      LowerBinaryElementwise<AddOp>, LowerBinaryElementwise<SubOp>,
      LowerBinaryElementwise<MulOp>, LowerBinaryElementwise<DivOp>,
      LowerBinaryElementwise<PowOp>, LowerBinaryElementwise<MaxOp>,
      LowerBinaryElementwise<MinOp>, LowerCompare, LowerSelect, LowerCast,
      LowerConstant, LowerReduce, LowerSoftmax, LowerLayerNorm, LowerMatmul,
      LowerLinear, LowerConv2D, LowerPool2D, LowerGlobalAvgPool, LowerTranspose,
      LowerReshape, LowerBroadcastTo, LowerConcat, LowerSlice, LowerSplit,
      LowerGather, LowerPad, LowerShape, InlineFusionBody>(ctx);
}

void mlir::gopt::configureGOptToLinalgTarget(ConversionTarget &target) {
  target.addIllegalDialect<GOptDialect>();
  target.addLegalDialect<arith::ArithDialect, linalg::LinalgDialect,
                         math::MathDialect, tensor::TensorDialect>();
}
