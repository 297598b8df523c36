//===- LinalgBuilders.cpp - Shared builders of gopt-to-linalg ------------===//

#include "LinalgBuilders.h"

#include "GOpt/Dialect/GOpt/IR/ShapeInference.h"

#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"

#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/CommandLine.h"

#include <cmath>

using namespace mlir;
using namespace mlir::gopt;

/// A deliberate miscompile, for the differential tester's own test only
/// (test/Testing/gopt-difftest-miscompile.mlir): every configuration then
/// shares it, and only the independent reference (the constant evaluator)
/// can show it.
static llvm::cl::opt<bool> clTestMiscompileSub(
    "gopt-test-miscompile-sub", llvm::cl::Hidden,
    llvm::cl::desc("Testing only: lower gopt.sub as an addition"),
    llvm::cl::init(false));

namespace mlir {
namespace gopt {
namespace detail {

RankedTensorType tensorTypeOf(Value v) {
  return cast<RankedTensorType>(v.getType());
}

Value emptyTensor(OpBuilder &b, Location loc, RankedTensorType type) {
  return tensor::EmptyOp::create(b, loc, type.getShape(),
                                 type.getElementType());
}

Value floatConstant(OpBuilder &b, Location loc, Type type, double v) {
  return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, v));
}

Value intConstant(OpBuilder &b, Location loc, Type type, int64_t v) {
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, v));
}

/// `v` of a numeric element type as a scalar constant of `type`.
Value scalarConstant(OpBuilder &b, Location loc, Type type, double v) {
  if (isa<FloatType>(type))
    return floatConstant(b, loc, type, v);
  return intConstant(b, loc, type, static_cast<int64_t>(v));
}

/// −∞ (or the smallest integer): the identity of max.
Value lowestValue(OpBuilder &b, Location loc, Type type) {
  if (auto ft = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(
        b, loc,
        b.getFloatAttr(type, APFloat::getInf(ft.getFloatSemantics(), true)));
  unsigned width = type.getIntOrFloatBitWidth();
  return arith::ConstantOp::create(
      b, loc, b.getIntegerAttr(type, APInt::getSignedMinValue(width)));
}

/// +∞ (or the largest integer): the identity of min.
Value highestValue(OpBuilder &b, Location loc, Type type) {
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
Value sumIdentity(OpBuilder &b, Location loc, Type type) {
  return isa<FloatType>(type) ? floatConstant(b, loc, type, -0.0)
                              : intConstant(b, loc, type, 0);
}

Value filledTensor(OpBuilder &b, Location loc, RankedTensorType type,
                   Value scalar) {
  Value empty = emptyTensor(b, loc, type);
  return linalg::FillOp::create(b, loc, ValueRange{scalar}, ValueRange{empty})
      .getResult(0);
}

/// Computes `fn` on a float scalar in f32 when its type is narrower (f16,
/// bf16), rounding once at the end, so transcendental functions get a
/// library or intrinsic implementation on every target.
Value computeInWideFloat(OpBuilder &b, Location loc, Value x,
                         function_ref<Value(Value)> fn) {
  Type type = x.getType();
  if (type.getIntOrFloatBitWidth() >= 32)
    return fn(x);
  Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), x);
  return arith::TruncFOp::create(b, loc, type, fn(wide));
}

/// Collapses away the operand dimensions marked in `drop` (all of size 1);
/// each dropped dimension joins a neighbouring kept one.
Value collapseUnitDims(OpBuilder &b, Location loc, Value v,
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
std::pair<Value, AffineMap> broadcastOperand(OpBuilder &b, Location loc,
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

/// An all-parallel generic over `resultType` reading `inputs` through
/// `maps` and computing each element with `fn`.
Value buildParallelGeneric(OpBuilder &b, Location loc, ValueRange inputs,
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
Value buildElementwise(OpBuilder &b, Location loc, ValueRange inputs,
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
AffineMap keptDimsMap(MLIRContext *ctx, ArrayRef<bool> reduced) {
  SmallVector<AffineExpr> exprs;
  for (auto [d, r] : llvm::enumerate(reduced))
    if (!r)
      exprs.push_back(getAffineDimExpr(d, ctx));
  return AffineMap::get(reduced.size(), 0, exprs, ctx);
}

/// A generic over `loopShape` that reduces the dimensions marked in
/// `reduced`: the result holds the kept dimensions, starts as `init` and
/// accumulates `combine(inputs..., acc)`.
Value buildReduction(
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
Value buildSum(OpBuilder &b, Location loc, Value input,
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
Value reshapeTo(OpBuilder &b, Location loc, Value v, RankedTensorType target) {
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
  // Both ranks at least 1, neither shape a coarsening of the other: through
  // the coarsest shape both refine (runs of dims whose products match,
  // [16, 1, 64] → [16, 64] → [16, 4, 16]) rather than through one flat dim,
  // so a strided view (a slice) stays a view: collapsing only dims that are
  // contiguous together.
  if (src.getRank() > 0 && target.getRank() > 0) {
    SmallVector<ReassociationIndices> srcGroups, targetGroups;
    SmallVector<int64_t> coarse;
    ArrayRef<int64_t> s = src.getShape(), t = target.getShape();
    size_t i = 0, j = 0;
    while (i < s.size() && j < t.size()) {
      ReassociationIndices sg{static_cast<int64_t>(i)},
          tg{static_cast<int64_t>(j)};
      int64_t sp = s[i++], tp = t[j++];
      while (sp != tp) {
        if (sp < tp && i < s.size()) {
          sg.push_back(i);
          sp *= s[i++];
        } else if (tp < sp && j < t.size()) {
          tg.push_back(j);
          tp *= t[j++];
        } else {
          break;
        }
      }
      if (sp != tp)
        break;
      srcGroups.push_back(sg);
      targetGroups.push_back(tg);
      coarse.push_back(sp);
    }
    // Trailing unit dims join the last group.
    for (; i < s.size() && !srcGroups.empty() && s[i] == 1; ++i)
      srcGroups.back().push_back(i);
    for (; j < t.size() && !targetGroups.empty() && t[j] == 1; ++j)
      targetGroups.back().push_back(j);
    if (i == s.size() && j == t.size() && !coarse.empty()) {
      auto coarseType = RankedTensorType::get(coarse, src.getElementType());
      Value c = v;
      if (coarseType != src)
        c = tensor::CollapseShapeOp::create(b, loc, coarseType, v, srcGroups);
      if (coarseType == target)
        return c;
      return tensor::ExpandShapeOp::create(b, loc, target, c, targetGroups);
    }
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
SmallVector<bool> reducedFlags(ArrayRef<int64_t> axes, int64_t rank) {
  SmallVector<bool> reduced(rank, false);
  for (int64_t axis : axes)
    reduced[*normalizeAxis(axis, rank)] = true;
  return reduced;
}

/// Reports, on the op, why it cannot be lowered.
LogicalResult cannotLower(Operation *op, const Twine &reason) {
  op->emitOpError("cannot be lowered to linalg: ") << reason;
  return failure();
}

/// Pads the two spatial dims of an NCHW tensor with `value`.
Value padSpatial(OpBuilder &b, Location loc, Value input,
                 ArrayRef<int64_t> padding, Value value, bool channelsLast) {
  if (llvm::all_of(padding, [](int64_t p) { return p == 0; }))
    return input;
  RankedTensorType type = tensorTypeOf(input);
  unsigned h = channelsLast ? 1 : 2, w = h + 1;
  SmallVector<int64_t> shape(type.getShape());
  shape[h] += padding[0] + padding[2];
  shape[w] += padding[1] + padding[3];
  SmallVector<OpFoldResult> low(4, b.getIndexAttr(0)),
      high(4, b.getIndexAttr(0));
  low[h] = b.getIndexAttr(padding[0]);
  low[w] = b.getIndexAttr(padding[1]);
  high[h] = b.getIndexAttr(padding[2]);
  high[w] = b.getIndexAttr(padding[3]);
  return tensor::PadOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), input, low,
      high, value);
}

DenseIntElementsAttr windowAttr(OpBuilder &b, ArrayRef<int64_t> v) {
  return DenseIntElementsAttr::get(
      RankedTensorType::get({static_cast<int64_t>(v.size())}, b.getI64Type()),
      v);
}

//===----------------------------------------------------------------------===//
// Scalar semantics of elementwise ops
//===----------------------------------------------------------------------===//

/// NaN-propagating max/min with −0 < +0 for floats, signed for integers.
Value scalarMax(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<FloatType>(x.getType()))
    return arith::MaximumFOp::create(b, loc, x, y);
  return arith::MaxSIOp::create(b, loc, x, y);
}

Value scalarMin(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<FloatType>(x.getType()))
    return arith::MinimumFOp::create(b, loc, x, y);
  return arith::MinSIOp::create(b, loc, x, y);
}

/// Float ops of one operand, written with arith and math.
Value scalarFloatUnary(Operation *op, OpBuilder &b, Location loc, Value x) {
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
      .Case([&](SinOp) { return math::SinOp::create(b, loc, x); })
      .Case([&](CosOp) { return math::CosOp::create(b, loc, x); })
      .Case([&](FloorOp) { return math::FloorOp::create(b, loc, x); })
      .Case([&](CeilOp) { return math::CeilOp::create(b, loc, x); })
      .Case([&](RoundOp) { return math::RoundEvenOp::create(b, loc, x); })
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
Value scalarIntUnary(Operation *op, OpBuilder &b, Location loc, Value x) {
  Type t = x.getType();
  unsigned width = t.getIntOrFloatBitWidth();
  auto zero = [&] { return intConstant(b, loc, t, 0); };
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case([&](NegOp) { return arith::SubIOp::create(b, loc, zero(), x); })
      .Case([&](AbsOp) { return math::AbsIOp::create(b, loc, x); })
      .Case([&](ReluOp) { return arith::MaxSIOp::create(b, loc, x, zero()); })
      .Case([&](ClipOp clip) -> Value {
        // Bounds rounded inward, then clamped to the element type's range
        // as integers: 2^63 - 1 is no double, and casting 2^63 to int64_t
        // would wrap to the minimum (an i64 Clip with no max).
        double limit = std::ldexp(1.0, width - 1);
        auto bound = [&](double v) {
          if (v <= -limit)
            return APInt::getSignedMinValue(width);
          if (v >= limit)
            return APInt::getSignedMaxValue(width);
          return APInt(width, static_cast<int64_t>(v), /*isSigned=*/true);
        };
        double lo = std::ceil(clip.getMin().convertToDouble());
        double hi = std::floor(clip.getMax().convertToDouble());
        Value loV =
            arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, bound(lo)));
        Value hiV =
            arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, bound(hi)));
        return arith::MinSIOp::create(
            b, loc, arith::MaxSIOp::create(b, loc, x, loV), hiV);
      })
      .Default([](Operation *) { return Value(); });
}

/// Binary ops; integer division truncates toward zero, integer pow is
/// `math.ipowi`.
Value scalarBinary(Operation *op, OpBuilder &b, Location loc, Value x,
                   Value y) {
  bool isFloat = isa<FloatType>(x.getType());
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case([&](AddOp) -> Value {
        if (isFloat)
          return arith::AddFOp::create(b, loc, x, y);
        return arith::AddIOp::create(b, loc, x, y);
      })
      .Case([&](SubOp) -> Value {
        if (clTestMiscompileSub)
          return isFloat ? arith::AddFOp::create(b, loc, x, y).getResult()
                         : arith::AddIOp::create(b, loc, x, y).getResult();
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

Value scalarCompare(ComparePredicate predicate, OpBuilder &b, Location loc,
                    Value x, Value y) {
  if (isa<FloatType>(x.getType())) {
    arith::CmpFPredicate p = arith::CmpFPredicate::OEQ; // every case sets it
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
  arith::CmpIPredicate p = arith::CmpIPredicate::eq; // every case sets it
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
Value scalarCast(OpBuilder &b, Location loc, Value x, Type to) {
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

} // namespace detail
} // namespace gopt
} // namespace mlir
