//===- ContractionsToLinalg.cpp - Contractions to linalg
//--------------------===//
//
// matmul and linear become contraction generics with their transposes and
// broadcasts in the indexing maps; conv2d a padded `linalg.conv_2d_nchw_fchw`
// or, grouped, a generic described by `gopt.grouped_conv2d`.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Conversion/GOptToLinalg/GOptToLinalg.h"
#include "LinalgBuilders.h"
#include "PopulatePatterns.h"

#include "GOpt/Dialect/GOpt/IR/ShapeInference.h"

#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"

#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::gopt;
using namespace mlir::gopt::detail;

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

namespace {

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

/// gopt.conv2d → zero padding, then `linalg.conv_2d_nchw_fchw` (groups = 1;
/// `linalg.conv_2d_nhwc_fhwc` with channels_last) or a grouped-convolution
/// generic into zeros, then the bias added by an elementwise generic.
struct LowerConv2D : OpConversionPattern<Conv2DOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Conv2DOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType outType = op.getResult().getType();
    Type elem = outType.getElementType();
    MLIRContext *ctx = rewriter.getContext();
    bool channelsLast = op.getChannelsLast();
    unsigned channelDim = channelsLast ? 3 : 1;
    Value input =
        padSpatial(rewriter, loc, adaptor.getInput(), op.getPadding(),
                   floatConstant(rewriter, loc, elem, 0.0), channelsLast);
    // The convolution accumulates into zeros and the bias is added after,
    // as an elementwise op: fused with the epilogue, it costs no pass over
    // the output of its own, and a library call writes its output without
    // reading it (beta = 0) instead of accumulating into a broadcast bias.
    Value init = filledTensor(rewriter, loc, outType,
                              floatConstant(rewriter, loc, elem, 0.0));
    auto addBias = [&](Value conv) -> Value {
      Value bias = adaptor.getBias();
      if (!bias)
        return conv;
      AffineMap identity = rewriter.getMultiDimIdentityMap(4);
      AffineMap biasMap =
          AffineMap::get(4, 0, getAffineDimExpr(channelDim, ctx), ctx);
      return buildParallelGeneric(
          rewriter, loc, ValueRange{conv, bias}, {identity, biasMap}, outType,
          [](OpBuilder &b, Location l, ValueRange args) -> Value {
            return arith::AddFOp::create(b, l, args[0], args[1]);
          });
    };
    ArrayRef<int64_t> s = op.getStrides(), d = op.getDilations();
    int64_t groups = op.getGroups();
    if (groups == 1) {
      SmallVector<Value, 2> ins = {input, adaptor.getWeight()};
      Value conv =
          channelsLast
              ? linalg::Conv2DNhwcFhwcOp::create(
                    rewriter, loc, TypeRange{outType}, ins, ValueRange{init},
                    windowAttr(rewriter, s), windowAttr(rewriter, d))
                    .getResult(0)
              : linalg::Conv2DNchwFchwOp::create(
                    rewriter, loc, TypeRange{outType}, ins, ValueRange{init},
                    windowAttr(rewriter, s), windowAttr(rewriter, d))
                    .getResult(0);
      rewriter.replaceOp(op, addBias(conv));
      return success();
    }
    // Loops (n, f, oh, ow, c, kh, kw), or (n, oh, ow, f, c, kh, kw) with
    // channels_last; c runs over the channels of f's group.
    RankedTensorType wType = op.getWeight().getType();
    int64_t filtersPerGroup = outType.getDimSize(channelDim) / groups;
    int64_t channelsPerGroup = wType.getDimSize(channelDim);
    auto dim = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
    unsigned f = channelsLast ? 3 : 1, oh = channelsLast ? 1 : 2, ow = oh + 1;
    AffineExpr channel =
        dim(f).floorDiv(filtersPerGroup) * channelsPerGroup + dim(4);
    AffineExpr row = dim(oh) * s[0] + dim(5) * d[0];
    AffineExpr column = dim(ow) * s[1] + dim(6) * d[1];
    AffineMap inMap =
        channelsLast
            ? AffineMap::get(7, 0, {dim(0), row, column, channel}, ctx)
            : AffineMap::get(7, 0, {dim(0), channel, row, column}, ctx);
    AffineMap wMap =
        channelsLast
            ? AffineMap::get(7, 0, {dim(f), dim(5), dim(6), dim(4)}, ctx)
            : AffineMap::get(7, 0, {dim(f), dim(4), dim(5), dim(6)}, ctx);
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
    SmallVector<NamedAttribute> info = {
        rewriter.getNamedAttr("groups", rewriter.getI64IntegerAttr(groups)),
        rewriter.getNamedAttr("strides", rewriter.getDenseI64ArrayAttr(s)),
        rewriter.getNamedAttr("dilations", rewriter.getDenseI64ArrayAttr(d)),
    };
    if (channelsLast)
      info.push_back(
          rewriter.getNamedAttr("channels_last", rewriter.getUnitAttr()));
    generic->setAttr(kGroupedConv2DAttrName,
                     rewriter.getDictionaryAttr(info));
    rewriter.replaceOp(op, addBias(generic.getResult(0)));
    return success();
  }
};

} // namespace

void mlir::gopt::detail::populateContractionsToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<LowerMatmul, LowerLinear, LowerConv2D>(patterns.getContext());
}
