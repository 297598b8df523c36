//===- DataMovementToLinalg.cpp - Data movement to linalg
//-------------------===//
//
// Transposes are generics; reshapes, slices, concatenation and padding are
// tensor ops; gather and resize read through tensor.extract.
//
//===----------------------------------------------------------------------===//

#include "LinalgBuilders.h"
#include "PopulatePatterns.h"

#include "GOpt/Dialect/GOpt/IR/ResizeCoordinates.h"
#include "GOpt/Dialect/GOpt/IR/ShapeInference.h"

#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"

#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::gopt;
using namespace mlir::gopt::detail;

/// A strided tensor.extract_slice of `input` with the result's sizes; an
/// empty tensor for an empty result (its offset may be the dim's extent,
/// which tensor.extract_slice rejects).
static Value extractSlice(OpBuilder &b, Location loc, Value input,
                          RankedTensorType resultType,
                          ArrayRef<int64_t> offsets,
                          ArrayRef<int64_t> strides) {
  if (resultType.getNumElements() == 0)
    return emptyTensor(b, loc, resultType);
  SmallVector<OpFoldResult> o, sz, st;
  for (int64_t d = 0, e = resultType.getRank(); d < e; ++d) {
    o.push_back(b.getIndexAttr(offsets[d]));
    sz.push_back(b.getIndexAttr(resultType.getDimSize(d)));
    st.push_back(b.getIndexAttr(strides[d]));
  }
  return tensor::ExtractSliceOp::create(b, loc, resultType, input, o, sz, st);
}

namespace {

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

/// gopt.concat → tensor.concat of the non-empty inputs; one input, a
/// tensor.insert_slice into tensor.empty (a kernel returns a buffer of its
/// own, not its argument); none, tensor.empty. tensor.concat bufferizes to
/// one allocation and a copy per input, like a chain of insert_slice ops,
/// but One-Shot Bufferize analyzes it in constant time where a chain of n
/// insert_slice ops takes it O(n²) walks back through the chain (an
/// unrolled LSTM's output sequence, 64 inputs: 210 ms).
struct LowerConcat : OpConversionPattern<ConcatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConcatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType outType = op.getResult().getType();
    int64_t rank = outType.getRank();
    int64_t axis = *normalizeAxis(op.getAxis(), rank);
    // An empty input adds nothing (and its offset may be the extent).
    SmallVector<Value> inputs;
    for (Value in : adaptor.getInputs())
      if (tensorTypeOf(in).getNumElements() != 0)
        inputs.push_back(in);
    if (inputs.size() > 1) {
      rewriter.replaceOpWithNewOp<tensor::ConcatOp>(op, outType, axis, inputs);
      return success();
    }
    Value result = emptyTensor(rewriter, loc, outType);
    if (inputs.size() == 1) {
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
      SmallVector<OpFoldResult> sizes, strides(rank, rewriter.getIndexAttr(1));
      for (int64_t size : tensorTypeOf(inputs.front()).getShape())
        sizes.push_back(rewriter.getIndexAttr(size));
      result = tensor::InsertSliceOp::create(rewriter, loc, inputs.front(),
                                             result, offsets, sizes, strides);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

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

/// A gather's index (an integer of any width) as an index into a dim of
/// `dimSize`: a negative one counted from the back, then clamped into
/// range, so a bad index never reads out of bounds.
static Value gatheredIndex(OpBuilder &b, Location l, Value raw,
                           int64_t dimSize) {
  Value idx = arith::IndexCastOp::create(b, l, b.getIndexType(), raw);
  Value zero = arith::ConstantIndexOp::create(b, l, 0);
  Value size = arith::ConstantIndexOp::create(b, l, dimSize);
  Value last = arith::ConstantIndexOp::create(b, l, dimSize - 1);
  Value negative =
      arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, idx, zero);
  idx = arith::SelectOp::create(b, l, negative,
                                arith::AddIOp::create(b, l, idx, size), idx);
  idx = arith::MaxSIOp::create(b, l, idx, zero);
  return arith::MinSIOp::create(b, l, idx, last);
}

/// gopt.gather → generic over the result reading the index and extracting
/// from the input there (gatheredIndex).
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
          Value idx = gatheredIndex(b, l, args[0], dimSize);
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

/// gopt.gather_elements → generic over the result reading the index at the
/// same position and extracting from the input there, the axis' coordinate
/// replaced (gatheredIndex).
struct LowerGatherElements : OpConversionPattern<GatherElementsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GatherElementsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType inType = op.getInput().getType();
    RankedTensorType outType = op.getResult().getType();
    int64_t rank = inType.getRank();
    int64_t axis = *normalizeAxis(op.getAxis(), rank);
    int64_t dimSize = inType.getDimSize(axis);
    AffineMap identity =
        AffineMap::getMultiDimIdentityMap(rank, rewriter.getContext());
    Value input = adaptor.getInput();
    Value result = buildParallelGeneric(
        rewriter, loc, adaptor.getIndices(), identity, outType,
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          Value idx = gatheredIndex(b, l, args[0], dimSize);
          SmallVector<Value> indices;
          for (int64_t d = 0; d < rank; ++d)
            indices.push_back(d == axis ? idx
                                        : linalg::IndexOp::create(b, l, d));
          return tensor::ExtractOp::create(b, l, input, indices);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// One generic of a gopt.resize lowering: `input` resized on `dims` (the
/// others read as they are) to `resultType`. Where each index reads on a
/// resized dim is computed here (computeResizeTaps) into small constant
/// tables, which the generic reads through a map of that dim alone: the
/// lower and upper input index (i32) and, for linear, the weight. The body
/// extracts the input at every corner and interpolates one dim after
/// another, `a + w * (b - a)`, in `wide` (f32, or f64 for f64), rounding to
/// the result's element type at the end.
static Value buildResizePass(OpBuilder &b, Location loc, ResizeOp op,
                             Value input, ArrayRef<int64_t> dims,
                             RankedTensorType resultType, Type wide) {
  RankedTensorType inType = cast<RankedTensorType>(input.getType());
  bool linear = op.getMode() == ResizeMode::linear;
  Type elem = resultType.getElementType();
  int64_t rank = resultType.getRank();
  MLIRContext *ctx = b.getContext();

  struct ResizedDim {
    int64_t dim;
    unsigned lowerArg, upperArg, weightArg;
  };
  SmallVector<ResizedDim> resized;
  SmallVector<Value> tables;
  SmallVector<AffineMap> maps;
  for (int64_t d : dims) {
    SmallVector<ResizeTap> taps =
        computeResizeTaps(op.getMode(), op.getScale()[d], op.getOffset()[d],
                          inType.getDimSize(d), resultType.getDimSize(d));
    SmallVector<int32_t> lower, upper;
    SmallVector<Attribute> weights;
    for (const ResizeTap &tap : taps) {
      lower.push_back(static_cast<int32_t>(tap.lower));
      upper.push_back(static_cast<int32_t>(tap.upper));
      weights.push_back(FloatAttr::get(wide, tap.weight));
    }
    int64_t size = resultType.getDimSize(d);
    auto indexType = RankedTensorType::get({size}, b.getI32Type());
    AffineMap map = AffineMap::get(rank, 0, b.getAffineDimExpr(d), ctx);
    auto table = [&](ElementsAttr values) {
      tables.push_back(arith::ConstantOp::create(b, loc, values));
      maps.push_back(map);
      return static_cast<unsigned>(tables.size() - 1);
    };
    ResizedDim r{d, 0, 0, 0};
    r.lowerArg = table(DenseElementsAttr::get(indexType, ArrayRef(lower)));
    r.upperArg = r.lowerArg;
    if (linear) {
      r.upperArg = table(DenseElementsAttr::get(indexType, ArrayRef(upper)));
      r.weightArg = table(
          DenseElementsAttr::get(RankedTensorType::get({size}, wide), weights));
    }
    resized.push_back(r);
  }

  return buildParallelGeneric(
      b, loc, tables, maps, resultType,
      [&](OpBuilder &b, Location l, ValueRange args) -> Value {
        SmallVector<Value> indices;
        for (int64_t d = 0; d < rank; ++d)
          indices.push_back(linalg::IndexOp::create(b, l, d));
        auto toIndex = [&](Value v) -> Value {
          return arith::IndexCastOp::create(b, l, b.getIndexType(), v);
        };
        if (!linear) {
          for (const ResizedDim &r : resized)
            indices[r.dim] = toIndex(args[r.lowerArg]);
          return tensor::ExtractOp::create(b, l, input, indices);
        }
        Type inElem = inType.getElementType();
        // Interpolates resized dims level.. at the corner `indices`.
        std::function<Value(size_t)> interpolate = [&](size_t level) {
          if (level == resized.size()) {
            Value x = tensor::ExtractOp::create(b, l, input, indices);
            return inElem == wide ? x : arith::ExtFOp::create(b, l, wide, x);
          }
          const ResizedDim &r = resized[level];
          indices[r.dim] = toIndex(args[r.lowerArg]);
          Value lower = interpolate(level + 1);
          indices[r.dim] = toIndex(args[r.upperArg]);
          Value upper = interpolate(level + 1);
          Value diff = arith::SubFOp::create(b, l, upper, lower);
          Value step = arith::MulFOp::create(b, l, args[r.weightArg], diff);
          return arith::AddFOp::create(b, l, lower, step).getResult();
        };
        Value v = interpolate(0);
        return elem == wide ? v : arith::TruncFOp::create(b, l, elem, v);
      });
}

/// gopt.resize → one generic over the result (buildResizePass), or two
/// when it interpolates linearly along the innermost dim and others: a
/// read along the innermost dim at computed indices is a gather, which
/// stays scalar, while every other dim reads whole contiguous rows, which
/// vectorize. So the innermost dim is resized in a pass of its own, first
/// when the other dims grow (a segmentation head's 28×28 → 224×224 gathers
/// 28 rows of 224, not 224) and last when they shrink, into an
/// intermediate of the wide type (no rounding in between); the other dims
/// in the other pass. Interpolating the innermost dim first is the order
/// one pass uses too.
struct LowerResize : OpConversionPattern<ResizeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ResizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType inType = op.getInput().getType();
    RankedTensorType outType = op.getType();
    if (outType.getNumElements() == 0) {
      rewriter.replaceOp(op, emptyTensor(rewriter, loc, outType));
      return success();
    }
    Type elem = outType.getElementType();
    Type wide = elem.isF64() ? elem : rewriter.getF32Type();
    int64_t rank = outType.getRank();
    SmallVector<int64_t> dims = getResizedDims(op);

    Value input = adaptor.getInput();
    bool splitInnermost = op.getMode() == ResizeMode::linear &&
                          dims.size() > 1 && dims.back() == rank - 1;
    if (!splitInnermost) {
      rewriter.replaceOp(
          op, buildResizePass(rewriter, loc, op, input, dims, outType, wide));
      return success();
    }
    ArrayRef<int64_t> others = ArrayRef(dims).drop_back();
    int64_t othersIn = 1, othersOut = 1;
    for (int64_t d : others) {
      othersIn *= inType.getDimSize(d);
      othersOut *= outType.getDimSize(d);
    }
    SmallVector<int64_t> middle(inType.getShape());
    if (othersOut > othersIn) {
      middle[rank - 1] = outType.getDimSize(rank - 1);
      Value rows = buildResizePass(rewriter, loc, op, input, {rank - 1},
                                   RankedTensorType::get(middle, wide), wide);
      rewriter.replaceOp(
          op, buildResizePass(rewriter, loc, op, rows, others, outType, wide));
      return success();
    }
    for (int64_t d : others)
      middle[d] = outType.getDimSize(d);
    Value rows = buildResizePass(rewriter, loc, op, input, others,
                                 RankedTensorType::get(middle, wide), wide);
    rewriter.replaceOp(op, buildResizePass(rewriter, loc, op, rows, {rank - 1},
                                           outType, wide));
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

} // namespace

void mlir::gopt::detail::populateDataMovementToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns
      .add<LowerTranspose, LowerReshape, LowerConcat, LowerSlice, LowerSplit,
           LowerGather, LowerGatherElements, LowerResize, LowerPad, LowerShape>(
          patterns.getContext());
}
