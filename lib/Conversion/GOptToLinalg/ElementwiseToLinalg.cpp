//===- ElementwiseToLinalg.cpp - Elementwise ops to linalg
//------------------===//
//
// Elementwise ops become one all-parallel `linalg.generic` each (numpy
// broadcasting through indexing maps; size-1 broadcast dimensions are
// collapsed away first so every map is a projected permutation, the form
// upstream fusion and vectorization expect); constants become
// `arith.constant`.
//
//===----------------------------------------------------------------------===//

#include "LinalgBuilders.h"
#include "PopulatePatterns.h"

#include "GOpt/Dialect/GOpt/IR/ShapeInference.h"

#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"

#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::gopt;
using namespace mlir::gopt::detail;

namespace {

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

} // namespace

void mlir::gopt::detail::populateElementwiseToLinalgPatterns(
    RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns
      .add<LowerUnaryElementwise<NegOp>, LowerUnaryElementwise<AbsOp>,
           LowerUnaryElementwise<ReluOp>, LowerUnaryElementwise<ExpOp>,
           LowerUnaryElementwise<LogOp>, LowerUnaryElementwise<SqrtOp>,
           LowerUnaryElementwise<RsqrtOp>, LowerUnaryElementwise<ReciprocalOp>,
           LowerUnaryElementwise<TanhOp>, LowerUnaryElementwise<SigmoidOp>,
           LowerUnaryElementwise<ErfOp>, LowerUnaryElementwise<SiluOp>,
           LowerUnaryElementwise<GeluOp>, LowerUnaryElementwise<ClipOp>,
           LowerUnaryElementwise<SinOp>, LowerUnaryElementwise<CosOp>,
           LowerUnaryElementwise<FloorOp>, LowerUnaryElementwise<CeilOp>,
           LowerUnaryElementwise<RoundOp>, LowerBinaryElementwise<AddOp>,
           LowerBinaryElementwise<SubOp>, LowerBinaryElementwise<MulOp>,
           LowerBinaryElementwise<DivOp>, LowerBinaryElementwise<PowOp>,
           LowerBinaryElementwise<MaxOp>, LowerBinaryElementwise<MinOp>,
           LowerCompare, LowerSelect, LowerCast, LowerConstant,
           LowerBroadcastTo>(ctx);
}
