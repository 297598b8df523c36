//===- GOptChannelsLast.cpp - Convolutions on channels-last activations ---===//
//
// Exporters write convolution nets in NCHW. The convolutions this CPU runs
// fast (oneDNN's, and a 1x1 convolution as one GEMM) want the channels
// innermost, so on NCHW every convolution reorders its input and output:
// on a mobile net those reorders cost more than the convolutions. This pass
// puts the activations in NHWC once:
//
// 1. every conv2d becomes `transpose(NHWC→NCHW) ∘ conv2d channels_last ∘
//    transpose(NCHW→NHWC)`, its weight permuted to FHWC at compile time;
// 2. pooling and global average pooling whose input comes from such a
//    transpose run channels last too;
// 3. the NHWC→NCHW transposes sink through elementwise ops (their other
//    operands permuted: constants at compile time, small broadcast operands
//    at run time), so that two convolutions in a row meet as
//    `transpose(NCHW→NHWC) ∘ transpose(NHWC→NCHW)`, which cancels;
// 4. the NHWC→NCHW transposes also sink through the data movement
//    exporters put between convolutions: a concat of such views (DenseNet's
//    feature concat, Inception's branches, SqueezeNet's fire modules) is a
//    concat along the NHWC axis, and a slice, split, pad, resize or reduce of
//    one is the same op with its per-dim attributes permuted;
// 5. a transpose of such a view is one transpose of the NHWC value, none
//    when the two cancel (ConvNeXt permutes to channels last around its
//    layer norms);
// 6. a transpose that only moves unit dims (a pooled [N, 1, 1, C]) is a
//    reshape, and a reshape of it (a flatten) reads the NHWC value.
//
// The same holds one rank up: a 3-D convolution is imported as a 2-D one
// over the frames, channels last, its result going back to NCDHW by an
// NDHWC → NCDHW transpose, which sinks and cancels as the NHWC → NCHW ones
// do (steps 3 to 6 on rank 5). Then a second walk moves the reshape that
// folds the frames back out of the batch below the elementwise ops that
// read it, so that they can be the convolution's epilogue.
//
// One forward walk does it (every op's producers are rewritten before the
// op), and the pass folds nothing and removes nothing but what it replaced:
// measured alone, it is the layout change alone, not folding or DCE too.
//
// Convolutions and poolings inside a gopt.fusion (the pass run after
// gopt-fuse) are left as they are: there the transposes would run per call
// inside the kernel. What is left are the transposes where the graph
// enters and leaves the convolutional part, or meets an op this pass does
// not see through (a matmul, a reshape that splits channels, a concat of
// an operand in NCHW, ...): correct everywhere, and measured like any
// other pass.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Dialect/GOpt/IR/ConstantEvaluator.h"
#include "GOpt/Dialect/GOpt/IR/GOptOps.h"
#include "GOpt/Dialect/GOpt/IR/ShapeInference.h"
#include "GOpt/Transforms/Passes.h"

#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir {
namespace gopt {
#define GEN_PASS_DEF_GOPTCHANNELSLAST
#include "GOpt/Transforms/Passes.h.inc"
} // namespace gopt
} // namespace mlir

using namespace mlir;
using namespace mlir::gopt;

namespace {

/// Result dim i is input dim perm[i]. The channels (dim 1) go last: NCHW →
/// NHWC for rank 4, NCDHW → NDHWC for rank 5 (the frames a 3-D convolution
/// is imported over, docs/Import.md).
SmallVector<int64_t> toChannelsLast(int64_t rank) {
  SmallVector<int64_t> perm{0};
  for (int64_t d = 2; d < rank; ++d)
    perm.push_back(d);
  perm.push_back(1);
  return perm;
}
/// The inverse of toChannelsLast.
SmallVector<int64_t> toChannelsFirst(int64_t rank) {
  SmallVector<int64_t> perm{0, rank - 1};
  for (int64_t d = 1; d < rank - 1; ++d)
    perm.push_back(d);
  return perm;
}
/// The ranks whose channels-first views the pass follows.
bool hasChannelsDim(int64_t rank) { return rank == 4 || rank == 5; }

RankedTensorType permutedType(RankedTensorType type, ArrayRef<int64_t> perm) {
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(type.getDimSize(p));
  return RankedTensorType::get(shape, type.getElementType());
}

/// Whether transposing a tensor of `shape` by `perm` keeps the order of its
/// non-unit dims: it then moves no element, and is a reshape.
bool movesOnlyUnitDims(ArrayRef<int64_t> shape, ArrayRef<int64_t> perm) {
  int64_t last = -1;
  for (int64_t p : perm) {
    if (shape[p] == 1)
      continue;
    if (p < last)
      return false;
    last = p;
  }
  return true;
}

/// The value `v` is a view of with `v`'s elements in the order `perm`
/// would put them (a transpose, or a reshape moving unit dims, whose input
/// is what `v` transposed by `perm` would be), or null.
Value undoneBy(Value v, ArrayRef<int64_t> perm) {
  RankedTensorType target =
      permutedType(cast<RankedTensorType>(v.getType()), perm);
  if (auto transpose = v.getDefiningOp<TransposeOp>()) {
    ArrayRef<int64_t> inner = transpose.getPerm();
    bool identity = true;
    for (auto [i, p] : llvm::enumerate(perm))
      identity &= inner[p] == static_cast<int64_t>(i);
    if (identity)
      return transpose.getInput();
  }
  if (auto reshape = v.getDefiningOp<ReshapeOp>())
    if (reshape.getInput().getType() == target &&
        movesOnlyUnitDims(cast<RankedTensorType>(v.getType()).getShape(),
                          perm))
      return reshape.getInput();
  return nullptr;
}

/// A constant holding `value`, where `original` is: constants stay at the
/// top of the graph, so gopt-fuse can still put an epilogue that reads one
/// into its producer's group.
Value createConstantAt(PatternRewriter &rewriter, ConstantOp original,
                       ElementsAttr value) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(original);
  return ConstantOp::create(rewriter, original.getLoc(), value);
}

/// `v` transposed by `perm`: `v` itself for the identity, the value a
/// transpose or reshape undid, a new constant when `v` is one (weights are
/// permuted at compile time), a reshape when only unit dims move, else a
/// gopt.transpose.
Value permute(PatternRewriter &rewriter, Location loc, Value v,
              ArrayRef<int64_t> perm) {
  if (isIdentityPermutation(perm))
    return v;
  if (Value source = undoneBy(v, perm))
    return source;
  auto type = cast<RankedTensorType>(v.getType());
  RankedTensorType resultType = permutedType(type, perm);
  if (auto constant = v.getDefiningOp<ConstantOp>())
    if (std::optional<ElementsAttr> moved =
            moveConstant(constant.getValue(), resultType, perm))
      return createConstantAt(rewriter, constant, *moved);
  if (movesOnlyUnitDims(type.getShape(), perm))
    return ReshapeOp::create(rewriter, loc, resultType, v);
  return TransposeOp::create(rewriter, loc, resultType, v,
                             rewriter.getDenseI64ArrayAttr(perm));
}

/// `v` reshaped to `type`: a new constant when `v` is one.
Value reshape(PatternRewriter &rewriter, Location loc, Value v,
              RankedTensorType type) {
  if (auto constant = v.getDefiningOp<ConstantOp>())
    if (std::optional<ElementsAttr> moved =
            moveConstant(constant.getValue(), type, {}))
      return createConstantAt(rewriter, constant, *moved);
  return ReshapeOp::create(rewriter, loc, type, v);
}

/// The NHWC (NDHWC) value `v` is an NCHW (NCDHW) view of (see undoneBy),
/// or null.
Value channelsLastSource(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type || !hasChannelsDim(type.getRank()))
    return nullptr;
  return undoneBy(v, toChannelsLast(type.getRank()));
}

/// Whether the pass moves `op` to channels last: an NCHW convolution whose
/// result is used, outside any gopt.fusion. Convolutions already fused into
/// a kernel keep their layout: inside the kernel the weight and the
/// activations would be transposed at run time on every call (ResNet-18 ran
/// 0.84x as fast as unoptimized with gopt-fuse before this pass).
static bool movesToChannelsLast(Conv2DOp op) {
  return !op.getChannelsLast() && !op->use_empty() &&
         !op->getParentOfType<FusionOp>();
}

/// conv2d (NCHW) → transpose, conv2d channels_last, transpose back.
struct ConvToChannelsLast : OpRewritePattern<Conv2DOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(Conv2DOp op,
                                PatternRewriter &rewriter) const override {
    if (!movesToChannelsLast(op))
      return failure();
    Location loc = op.getLoc();
    Value input = permute(rewriter, loc, op.getInput(), toChannelsLast(4));
    Value weight = permute(rewriter, loc, op.getWeight(), toChannelsLast(4));
    auto conv = Conv2DOp::create(
        rewriter, loc, input, weight, op.getBias(), op.getStridesAttr(),
        op.getPaddingAttr(), op.getDilationsAttr(), op.getGroupsAttr(),
        rewriter.getUnitAttr());
    rewriter.replaceOp(
        op, permute(rewriter, loc, conv.getResult(), toChannelsFirst(4)));
    return success();
  }
};

/// pool2d / global_avg_pool on an NCHW view of NHWC data → the same op
/// channels last, transposed back.
struct PoolToChannelsLast : RewritePattern {
  PoolToChannelsLast(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isa<Pool2DOp, GlobalAvgPoolOp>(op) || op->hasAttr("channels_last") ||
        op->use_empty() || op->getParentOfType<FusionOp>())
      return failure();
    Value source = channelsLastSource(op->getOperand(0));
    if (!source)
      return failure();
    Location loc = op->getLoc();
    Value result;
    if (auto pool = dyn_cast<Pool2DOp>(op))
      result = Pool2DOp::create(
          rewriter, loc, pool.getKindAttr(), source, pool.getKernelAttr(),
          pool.getStridesAttr(), pool.getPaddingAttr(),
          pool.getCountIncludePadAttr(), rewriter.getUnitAttr());
    else
      result = GlobalAvgPoolOp::create(rewriter, loc, source,
                                       rewriter.getUnitAttr());
    rewriter.replaceOp(op, permute(rewriter, loc, result, toChannelsFirst(4)));
    return success();
  }
};

/// Whether `op` is an elementwise op the layout rewrites may move: one
/// result, no region, used.
static bool isMovableElementwise(Operation *op) {
  auto kind = dyn_cast<FusionKindOpInterface>(op);
  return kind && kind.getFusionKind() == FusionKind::Elementwise &&
         op->getNumResults() == 1 && op->getNumRegions() == 0 &&
         !op->use_empty();
}

/// An elementwise op of rank 4 (or 5) reading an NHWC→NCHW transpose → the op
/// on NHWC, transposed after. Its other operands follow: those that broadcast
/// the same in either layout stay, constants are permuted at compile time,
/// and other small operands (a squeeze-excite scale) are permuted at run
/// time; a large operand not in NHWC stops the sinking.
struct SinkThroughElementwise : RewritePattern {
  /// Largest operand, in elements, permuted at run time to let a transpose
  /// sink: small next to the feature maps the transpose would move.
  static constexpr int64_t kMaxPermutedElements = 4096;

  SinkThroughElementwise(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isMovableElementwise(op))
      return failure();
    auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!resultType || !hasChannelsDim(resultType.getRank()))
      return failure();
    int64_t rank = resultType.getRank();
    if (llvm::none_of(op->getOperands(),
                      [](Value v) { return channelsLastSource(v); }))
      return failure();
    // Check every operand before changing anything.
    for (Value operand : op->getOperands()) {
      if (channelsLastSource(operand))
        continue;
      auto type = dyn_cast<RankedTensorType>(operand.getType());
      if (!type || type.getRank() > rank)
        return failure();
      if (!isUnitShape(type.getShape()) &&
          !operand.getDefiningOp<ConstantOp>() &&
          type.getNumElements() > kMaxPermutedElements)
        return failure();
    }
    Location loc = op->getLoc();
    SmallVector<Value> operands;
    for (Value operand : op->getOperands()) {
      auto type = cast<RankedTensorType>(operand.getType());
      if (Value source = channelsLastSource(operand)) {
        operands.push_back(source);
        continue;
      }
      if (isUnitShape(type.getShape())) {
        operands.push_back(operand);
        continue;
      }
      // A lower rank first gets the leading unit dims broadcasting implies.
      Value v = operand;
      if (type.getRank() < rank) {
        SmallVector<int64_t> shape(rank - type.getRank(), 1);
        llvm::append_range(shape, type.getShape());
        v = reshape(rewriter, loc, v,
                    RankedTensorType::get(shape, type.getElementType()));
      }
      operands.push_back(permute(rewriter, loc, v, toChannelsLast(rank)));
    }
    Operation *moved = rewriter.clone(*op);
    rewriter.modifyOpInPlace(moved, [&] {
      moved->setOperands(operands);
      moved->getResult(0).setType(
          permutedType(resultType, toChannelsLast(rank)));
    });
    rewriter.replaceOp(
        op, permute(rewriter, loc, moved->getResult(0), toChannelsFirst(rank)));
    return success();
  }
};

/// The NHWC position of NCHW dim `axis` (negative: counted from the back)
/// of a tensor of `rank`.
int64_t channelsLastAxis(int64_t axis, int64_t rank) {
  return toChannelsFirst(rank)[*normalizeAxis(axis, rank)];
}

/// Per-dim values of an NCHW op (slice bounds, padding) in NHWC order.
DenseI64ArrayAttr permuteDims(Builder &builder, ArrayRef<int64_t> values) {
  SmallVector<int64_t> out;
  for (int64_t p : toChannelsLast(values.size()))
    out.push_back(values[p]);
  return builder.getDenseI64ArrayAttr(out);
}
DenseF64ArrayAttr permuteDims(Builder &builder, ArrayRef<double> values) {
  SmallVector<double> out;
  for (int64_t p : toChannelsLast(values.size()))
    out.push_back(values[p]);
  return builder.getDenseF64ArrayAttr(out);
}

/// Whether `op` is data movement the pass runs on NHWC data when it reads
/// NCHW views of it (DataMovementToChannelsLast).
static bool isMovableDataMovement(Operation *op) {
  return isa<ConcatOp, SliceOp, SplitOp, PadOp, ResizeOp, ReduceOp>(op);
}

/// A concat, slice, split, pad, resize or reduce of NCHW views of NHWC data →
/// the same op on the NHWC data, its axis or per-dim attributes permuted, the
/// results transposed back. A concat's other operands may be constants
/// (permuted at compile time); any other operand not in NHWC stops it. A
/// reduce that drops dims is moved only when the dims it keeps are in the
/// same order in both layouts (a mean over H and W: [N, C] either way), so
/// its result needs no transpose.
struct DataMovementToChannelsLast : RewritePattern {
  DataMovementToChannelsLast(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isMovableDataMovement(op) || op->use_empty() ||
        op->getParentOfType<FusionOp>())
      return failure();
    auto inputType = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
    if (!inputType || !hasChannelsDim(inputType.getRank()))
      return failure();
    int64_t rank = inputType.getRank();
    bool anyView = false;
    for (Value operand : op->getOperands()) {
      if (channelsLastSource(operand)) {
        anyView = true;
        continue;
      }
      auto type = dyn_cast<RankedTensorType>(operand.getType());
      if (!isa<ConcatOp>(op) || !operand.getDefiningOp<ConstantOp>() || !type ||
          type.getRank() != rank)
        return failure();
    }
    if (!anyView)
      return failure();
    if (auto resize = dyn_cast<ResizeOp>(op);
        resize && !upsamplesIntoChannelsLastUsers(resize))
      return failure();
    auto reduce = dyn_cast<ReduceOp>(op);
    bool resultStaysNCHW = reduce && !reduce.getKeepdims();
    SmallVector<int64_t> reducedAxes;
    if (reduce) {
      SmallVector<int64_t> axes;
      for (int64_t axis : reduce.getAxes())
        axes.push_back(*normalizeAxis(axis, rank));
      if (resultStaysNCHW && !keepsDimOrder(axes, rank))
        return failure();
      for (int64_t axis : axes)
        reducedAxes.push_back(toChannelsFirst(rank)[axis]);
      llvm::sort(reducedAxes);
    }

    Location loc = op->getLoc();
    SmallVector<Value> operands;
    for (Value operand : op->getOperands()) {
      Value source = channelsLastSource(operand);
      operands.push_back(
          source ? source
                 : permute(rewriter, loc, operand, toChannelsLast(rank)));
    }
    Operation *moved = rewriter.clone(*op);
    rewriter.modifyOpInPlace(moved, [&] {
      moved->setOperands(operands);
      if (auto concat = dyn_cast<ConcatOp>(moved))
        concat.setAxis(channelsLastAxis(concat.getAxis(), rank));
      else if (auto split = dyn_cast<SplitOp>(moved))
        split.setAxis(channelsLastAxis(split.getAxis(), rank));
      else if (auto slice = dyn_cast<SliceOp>(moved)) {
        slice.setStartsAttr(permuteDims(rewriter, slice.getStarts()));
        slice.setEndsAttr(permuteDims(rewriter, slice.getEnds()));
        slice.setStepsAttr(permuteDims(rewriter, slice.getSteps()));
      } else if (auto pad = dyn_cast<PadOp>(moved)) {
        pad.setLowAttr(permuteDims(rewriter, pad.getLow()));
        pad.setHighAttr(permuteDims(rewriter, pad.getHigh()));
      } else if (auto resize = dyn_cast<ResizeOp>(moved)) {
        resize.setScaleAttr(permuteDims(rewriter, resize.getScale()));
        resize.setOffsetAttr(permuteDims(rewriter, resize.getOffset()));
      } else {
        cast<ReduceOp>(moved).setAxes(reducedAxes);
      }
      if (!resultStaysNCHW)
        for (OpResult result : moved->getResults())
          result.setType(permutedType(cast<RankedTensorType>(result.getType()),
                                      toChannelsLast(rank)));
    });
    SmallVector<Value> results;
    for (Value result : moved->getResults())
      results.push_back(resultStaysNCHW ? result
                                        : permute(rewriter, loc, result,
                                                  toChannelsFirst(rank)));
    rewriter.replaceOp(op, results);
    return success();
  }

private:
  /// Moving the transpose after a resize that enlarges the tensor moves
  /// more bytes: worth it only when the transpose goes on to cancel, that
  /// is when every user is an op this pass takes to NHWC (a segmentation
  /// head's last upsampling, returned in NCHW, stays NCHW: its small input
  /// is transposed instead of its large result).
  static bool upsamplesIntoChannelsLastUsers(ResizeOp resize) {
    if (getNumElements(resize.getType()) <=
        getNumElements(resize.getInput().getType()))
      return true;
    return llvm::all_of(resize->getUsers(), [](Operation *user) {
      if (isa<Conv2DOp, Pool2DOp, GlobalAvgPoolOp, TransposeOp>(user) ||
          isMovableDataMovement(user))
        return true;
      auto kind = dyn_cast<FusionKindOpInterface>(user);
      return kind && kind.getFusionKind() == FusionKind::Elementwise;
    });
  }

  /// Whether the NCHW dims a reduce over `axes` (normalized) keeps are in
  /// the same order when their NHWC positions are sorted.
  static bool keepsDimOrder(ArrayRef<int64_t> axes, int64_t rank) {
    SmallVector<int64_t> kept;
    for (int64_t p : toChannelsLast(rank))
      if (!llvm::is_contained(axes, p))
        kept.push_back(p);
    return llvm::is_sorted(kept);
  }
};

/// A transpose of an NCHW view of NHWC data → one transpose of the NHWC
/// data (none when the two cancel).
struct TransposeOfView : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    Value source = channelsLastSource(op.getInput());
    if (!source || op->use_empty() || op->getParentOfType<FusionOp>())
      return failure();
    // Result dim j is the view's dim perm[j], which is the source's dim
    // toChannelsFirst(rank)[perm[j]].
    SmallVector<int64_t> toSource = toChannelsFirst(op.getPerm().size());
    SmallVector<int64_t> composed;
    for (int64_t p : op.getPerm())
      composed.push_back(toSource[p]);
    rewriter.replaceOp(op, permute(rewriter, op.getLoc(), source, composed));
    return success();
  }
};

/// An elementwise op reading reshapes of values of one shape, at least one
/// of them computed by a convolution, a pooling or an elementwise op → the
/// op on those values, reshaped after. Its other operands must broadcast
/// against the values as they did against the reshapes (their non-unit
/// dims are trailing dims both shapes share: a per-channel constant). The
/// reshapes that fold the frames of a 3-D convolution back out of the
/// batch ([N·D', H, W, F] → [N, D', H, W, F]) and the unit height of a 1-D
/// one otherwise sit between the convolution and its activation, which
/// then cannot be its epilogue.
struct SinkReshapeThroughElementwise : RewritePattern {
  /// `moved` counts the ops moved above their reshapes.
  SinkReshapeThroughElementwise(MLIRContext *context, int64_t &moved)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context),
        moved(moved) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isMovableElementwise(op) || op->getParentOfType<FusionOp>())
      return failure();
    auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!resultType)
      return failure();
    // The reshape `operand` is that the op moves above: one only the op
    // reads, to the op's shape.
    auto movedReshape = [&](Value operand) {
      auto reshape = operand.getDefiningOp<ReshapeOp>();
      return reshape && reshape->hasOneUse() &&
                     reshape.getType().getShape() == resultType.getShape()
                 ? reshape
                 : ReshapeOp();
    };
    RankedTensorType sourceType;
    bool computed = false;
    for (Value operand : op->getOperands()) {
      ReshapeOp reshape = movedReshape(operand);
      if (!reshape)
        continue;
      auto type = cast<RankedTensorType>(reshape.getInput().getType());
      if (sourceType && type != sourceType)
        return failure();
      sourceType = type;
      Operation *def = reshape.getInput().getDefiningOp();
      computed |=
          def && (isa<Conv2DOp, Pool2DOp>(def) || isMovableElementwise(def));
    }
    if (!sourceType || !computed ||
        sourceType.getShape() == resultType.getShape())
      return failure();
    // Every other operand broadcasts the same against the source.
    for (Value operand : op->getOperands()) {
      if (movedReshape(operand))
        continue;
      ArrayRef<int64_t> shape =
          cast<RankedTensorType>(operand.getType()).getShape();
      ArrayRef<int64_t> trailing =
          shape.drop_while([](int64_t d) { return d == 1; });
      int64_t k = trailing.size();
      if (k > sourceType.getRank() || resultType.getShape().take_back(k) !=
                                          sourceType.getShape().take_back(k))
        return failure();
    }

    Location loc = op->getLoc();
    SmallVector<Value> operands;
    for (Value operand : op->getOperands()) {
      if (ReshapeOp reshape = movedReshape(operand)) {
        operands.push_back(reshape.getInput());
        continue;
      }
      auto type = cast<RankedTensorType>(operand.getType());
      if (type.getRank() <= sourceType.getRank()) {
        operands.push_back(operand);
        continue;
      }
      // Too many leading unit dims for the source's rank: drop them.
      SmallVector<int64_t> shape(
          type.getShape().take_back(sourceType.getRank()));
      operands.push_back(
          ::reshape(rewriter, loc, operand,
                    RankedTensorType::get(shape, type.getElementType())));
    }
    Operation *clone = rewriter.clone(*op);
    rewriter.modifyOpInPlace(clone, [&] {
      clone->setOperands(operands);
      clone->getResult(0).setType(RankedTensorType::get(
          sourceType.getShape(), resultType.getElementType()));
    });
    rewriter.replaceOp(
        op, ReshapeOp::create(rewriter, loc, resultType, clone->getResult(0)));
    ++moved;
    return success();
  }

private:
  int64_t &moved;
};

/// A reshape of the NCHW view of an NHWC [N, 1, 1, C] (the flatten before
/// a classifier) → one reshape of the NHWC value.
struct ReshapeOfView : OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    Value source = channelsLastSource(op.getInput());
    if (!source || !op.getInput().getDefiningOp<ReshapeOp>() ||
        op->use_empty())
      return failure();
    rewriter.modifyOpInPlace(op,
                             [&] { op.getInputMutable().assign(source); });
    return success();
  }
};

struct GOptChannelsLastPass
    : gopt::impl::GOptChannelsLastBase<GOptChannelsLastPass> {
  void runOnOperation() override {
    Operation *root = getOperation();
    // Dead ops stay dead and in place: removing them is DCE's job.
    llvm::DenseSet<Operation *> deadBefore;
    root->walk([&](Operation *op) {
      if (op != root && isOpTriviallyDead(op))
        deadBefore.insert(op);
    });
    root->walk([&](Conv2DOp op) {
      if (movesToChannelsLast(op))
        ++numConvolutions;
    });
    // What the rewrites left without users: the NCHW views and the
    // original weights (ops without regions), until none is left.
    auto eraseLeftovers = [&] {
      bool erased = true;
      while (erased) {
        erased = false;
        SmallVector<Operation *> dead;
        root->walk([&](Operation *op) {
          if (op != root && op->getNumRegions() == 0 &&
              !deadBefore.contains(op) && isOpTriviallyDead(op))
            dead.push_back(op);
        });
        for (Operation *op : dead)
          if (isOpTriviallyDead(op)) {
            op->erase();
            erased = true;
          }
      }
    };
    RewritePatternSet patterns(&getContext());
    patterns.add<ConvToChannelsLast, PoolToChannelsLast, SinkThroughElementwise,
                 DataMovementToChannelsLast, TransposeOfView, ReshapeOfView>(
        &getContext());
    walkAndApplyPatterns(root, std::move(patterns));
    eraseLeftovers();
    // Then the reshapes between convolutions and their activations, which
    // the transposes hid until they cancelled (a second walk, once the
    // views are gone: the walk does not visit the ops its rewrites create,
    // and a reshape the walk moves must have no other user).
    RewritePatternSet reshapes(&getContext());
    int64_t moved = 0;
    reshapes.add<SinkReshapeThroughElementwise>(&getContext(), moved);
    walkAndApplyPatterns(root, std::move(reshapes));
    numBelowReshapes += moved;
    eraseLeftovers();
    root->walk([&](TransposeOp) { ++numTransposesLeft; });
  }
};

} // namespace
