//===- ReductionsToLinalg.cpp - Reductions and normalizations to linalg
//-----===//
//
// reduce, softmax and layer_norm become reduction generics plus elementwise
// generics; pooling uses the named pooling ops on a padded input.
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

/// gopt.pool2d → padding (−∞ for max, 0 for avg) and
/// `linalg.pooling_nchw_max` / `linalg.pooling_nchw_sum` (the `nhwc` ones
/// with channels_last); avg then divides by the window area, or by each
/// window's count of non-padding elements (a constant computed here)
/// without `count_include_pad`.
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
    bool channelsLast = op.getChannelsLast();
    unsigned hDim = channelsLast ? 1 : 2, wDim = hDim + 1;
    ArrayRef<int64_t> k = op.getKernel(), s = op.getStrides(),
                      p = op.getPadding();
    Value padValue = isMax ? lowestValue(rewriter, loc, elem)
                           : floatConstant(rewriter, loc, elem, 0.0);
    Value input = padSpatial(rewriter, loc, adaptor.getInput(), p, padValue,
                             channelsLast);
    Value window = tensor::EmptyOp::create(rewriter, loc, k, elem);
    Value init = filledTensor(rewriter, loc, outType,
                              isMax ? lowestValue(rewriter, loc, elem)
                                    : floatConstant(rewriter, loc, elem, 0.0));
    int64_t ones[] = {1, 1};
    SmallVector<Type, 1> types = {outType};
    SmallVector<Value, 2> ins = {input, window};
    SmallVector<Value, 1> outs = {init};
    DenseIntElementsAttr strides = windowAttr(rewriter, s),
                         dilations = windowAttr(rewriter, ones);
    Value result;
    if (isMax && channelsLast)
      result = linalg::PoolingNhwcMaxOp::create(rewriter, loc, types, ins, outs,
                                                strides, dilations)
                   .getResult(0);
    else if (isMax)
      result = linalg::PoolingNchwMaxOp::create(rewriter, loc, types, ins, outs,
                                                strides, dilations)
                   .getResult(0);
    else if (channelsLast)
      result = linalg::PoolingNhwcSumOp::create(rewriter, loc, types, ins, outs,
                                                strides, dilations)
                   .getResult(0);
    else
      result = linalg::PoolingNchwSumOp::create(rewriter, loc, types, ins, outs,
                                                strides, dilations)
                   .getResult(0);
    if (!isMax) {
      int64_t oh = outType.getDimSize(hDim), ow = outType.getDimSize(wDim);
      int64_t h = inType.getDimSize(hDim), w = inType.getDimSize(wDim);
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
      // [OH, OW] broadcasts over NCHW; [OH, OW, 1] over NHWC.
      SmallVector<int64_t> countShape = {oh, ow};
      if (channelsLast)
        countShape.push_back(1);
      auto countType = RankedTensorType::get(countShape, elem);
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
/// `[N, C, 1, 1]`; with channels_last, a `linalg.pooling_nhwc_sum` over the
/// whole image (`[N, 1, 1, C]`), divided by H·W.
struct LowerGlobalAvgPool : OpConversionPattern<GlobalAvgPoolOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GlobalAvgPoolOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType inType = op.getInput().getType();
    Type elem = inType.getElementType();
    RankedTensorType outType = op.getResult().getType();
    bool channelsLast = op.getChannelsLast();
    unsigned hDim = channelsLast ? 1 : 2, wDim = hDim + 1;
    int64_t h = inType.getDimSize(hDim), w = inType.getDimSize(wDim);
    double area = static_cast<double>(h * w);
    Value sum;
    if (channelsLast) {
      // One window over the whole image: a sum pooling, whose loops read
      // the channels contiguously (and which the library path takes).
      Value window = tensor::EmptyOp::create(rewriter, loc, {h, w}, elem);
      Value init = filledTensor(rewriter, loc, outType,
                                floatConstant(rewriter, loc, elem, 0.0));
      int64_t ones[] = {1, 1};
      SmallVector<Value, 2> ins = {adaptor.getInput(), window};
      sum = linalg::PoolingNhwcSumOp::create(
                rewriter, loc, TypeRange{outType}, ins, ValueRange{init},
                windowAttr(rewriter, ones), windowAttr(rewriter, ones))
                .getResult(0);
    } else {
      bool reduced[] = {false, false, true, true};
      sum = buildSum(rewriter, loc, adaptor.getInput(), reduced);
    }
    Value mean = buildElementwise(
        rewriter, loc, sum, tensorTypeOf(sum),
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          return arith::DivFOp::create(b, l, args[0],
                                       floatConstant(b, l, elem, area));
        });
    rewriter.replaceOp(op, reshapeTo(rewriter, loc, mean, outType));
    return success();
  }
};

} // namespace

void mlir::gopt::detail::populateReductionsToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<LowerReduce, LowerSoftmax, LowerLayerNorm, LowerPool2D,
               LowerGlobalAvgPool>(patterns.getContext());
}
