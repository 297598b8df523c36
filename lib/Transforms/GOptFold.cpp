//===- GOptFold.cpp - Constant folding and algebraic identities -----------===//
//
// Patterns are applied by MLIR's walk driver, in program order, until nothing
// changes: constants propagate forward in one sweep, and unlike the greedy
// driver the walk driver never erases dead ops, so what gopt-fold buys stays
// separate from what gopt-dce buys when the effect analysis measures them.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Dialect/GOpt/IR/ConstantEvaluator.h"
#include "GOpt/Dialect/GOpt/IR/GOptOps.h"
#include "GOpt/Transforms/Passes.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"
#include "llvm/Support/CommandLine.h"

#include <cmath>
#include <cstring>

namespace mlir {
namespace gopt {
#define GEN_PASS_DEF_GOPTFOLD
#include "GOpt/Transforms/Passes.h.inc"
} // namespace gopt
} // namespace mlir

using namespace mlir;
using namespace mlir::gopt;

/// A deliberately wrong rewrite, for the tests of the tools that must catch
/// one (test/Testing/gopt-difftest-wrong-pass.mlir): unlike
/// --gopt-test-miscompile-sub it breaks a graph pass, not the lowering, so
/// only the configurations that run gopt-fold compute the wrong result.
static llvm::cl::opt<bool> clTestWrongFold(
    "gopt-test-wrong-fold", llvm::cl::Hidden,
    llvm::cl::desc("Testing only: gopt-fold rewrites gopt.sub as gopt.add"),
    llvm::cl::init(false));

namespace {

/// The wrong rewrite of --gopt-test-wrong-fold: x - y becomes x + y.
struct TestWrongFoldSub : OpRewritePattern<SubOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SubOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<AddOp>(op, op.getType(), op.getLhs(),
                                       op.getRhs());
    return success();
  }
};

/// Constant values of `op`'s operands (null where not constant).
static SmallVector<Attribute> constantOperands(Operation *op) {
  SmallVector<Attribute> values;
  for (Value v : op->getOperands()) {
    Attribute attr;
    matchPattern(v, m_Constant(&attr));
    values.push_back(attr);
  }
  return values;
}

static bool isGraphOp(Operation *op) {
  return isa_and_nonnull<GOptDialect>(op->getDialect()) &&
         !op->hasTrait<OpTrait::ConstantLike>() && !isa<YieldOp>(op);
}

/// Replaces an op whose operands are all (possibly dense) constants with the
/// constants it evaluates to, within the max-folded-elements bound.
struct EvaluateConstantOp : RewritePattern {
  EvaluateConstantOp(MLIRContext *context, int64_t maxElements)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/2, context),
        maxElements(maxElements) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isGraphOp(op) || op->getNumOperands() == 0)
      return failure();
    SmallVector<Attribute> operands = constantOperands(op);
    if (llvm::any_of(operands, [](Attribute a) { return !a; }))
      return failure();
    SmallVector<Attribute> results;
    if (failed(evaluateConstantOp(op, operands, maxElements, results)))
      return failure();
    SmallVector<Value> values;
    for (Attribute attr : results)
      values.push_back(
          ConstantOp::create(rewriter, op->getLoc(), cast<ElementsAttr>(attr)));
    rewriter.replaceOp(op, values);
    return success();
  }

  int64_t maxElements;
};

/// Transposes and reshapes of constants, at any size: the weight transforms
/// exporters leave in a graph (a linear layer's weight transposed on every
/// call). They never grow the model, so max-folded-elements (which bounds
/// the evaluator, whose results can be larger than its inputs) does not
/// apply; they move bytes (moveConstant), without converting a value.
struct FoldConstantDataMovement : RewritePattern {
  FoldConstantDataMovement(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/3, context) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isa<TransposeOp, ReshapeOp>(op))
      return failure();
    auto input = dyn_cast_or_null<ConstantOp>(
        op->getOperand(0).getDefiningOp());
    auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!input || !resultType || !resultType.hasStaticShape())
      return failure();
    ElementsAttr value = input.getValue();
    // Splats are the evaluator's and the folders'.
    if (auto dense = dyn_cast<DenseElementsAttr>(value); dense &&
                                                         dense.isSplat())
      return failure();
    ArrayRef<int64_t> perm;
    if (auto transpose = dyn_cast<TransposeOp>(op))
      perm = transpose.getPerm();
    std::optional<ElementsAttr> folded =
        moveConstant(value, resultType, perm);
    if (!folded)
      return failure();
    rewriter.replaceOp(op, ConstantOp::create(rewriter, op->getLoc(), *folded));
    return success();
  }
};

/// A linear's constant weight in the [N, K] layout (`transpose_weight`:
/// torch.nn.Linear's, ONNX Gemm's transB) is transposed to [K, N] at
/// compile time, when every user of the constant is such a linear reading
/// it as its weight, directly or as an input of a `gopt.fusion` (after
/// gopt-fuse) whose block argument only such linears read: the GEMM then
/// reads the weight's rows along the output. oneDNN's sgemm takes
/// 0.21-0.30 ms instead of 0.46 for 8 rows × 1024×1024 (one thread,
/// Sapphire Rapids), and is as fast or faster at every shape measured
/// (docs/Passes.md). It moves bytes (moveConstant) and replaces the
/// constant, which only these linears read: the graph neither grows nor
/// loses an op.
struct PackLinearWeights : OpRewritePattern<ConstantOp> {
  PackLinearWeights(MLIRContext *context)
      : OpRewritePattern(context, /*benefit=*/2) {}

  /// Whether `use` reads its value only as the weight of a
  /// `transpose_weight` linear.
  static bool isTransposedWeightUse(OpOperand &use) {
    auto linear = dyn_cast<LinearOp>(use.getOwner());
    return linear && linear.getTransposeWeight() &&
           use.getOperandNumber() ==
               linear.getWeightMutable().getOperandNumber() &&
           linear.getInput() != use.get() &&
           !(linear.getBias() && linear.getBias() == use.get());
  }

  LogicalResult matchAndRewrite(ConstantOp weight,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(weight.getType());
    if (!type || type.getRank() != 2 || !type.hasStaticShape() ||
        weight->use_empty())
      return failure();
    // The linears that read it, directly or through a fusion's block
    // argument (each such argument read by nothing else).
    SmallVector<LinearOp> linears;
    SmallVector<BlockArgument> arguments;
    for (OpOperand &use : weight->getUses()) {
      if (isTransposedWeightUse(use)) {
        linears.push_back(cast<LinearOp>(use.getOwner()));
        continue;
      }
      auto fusion = dyn_cast<FusionOp>(use.getOwner());
      if (!fusion)
        return failure();
      BlockArgument argument =
          fusion.getBody().getArgument(use.getOperandNumber());
      if (argument.use_empty())
        return failure();
      for (OpOperand &inner : argument.getUses()) {
        if (!isTransposedWeightUse(inner))
          return failure();
        linears.push_back(cast<LinearOp>(inner.getOwner()));
      }
      arguments.push_back(argument);
    }
    auto packedType = RankedTensorType::get(
        {type.getDimSize(1), type.getDimSize(0)}, type.getElementType());
    std::optional<ElementsAttr> packed =
        moveConstant(weight.getValue(), packedType, {1, 0});
    if (!packed)
      return failure();
    rewriter.setInsertionPointAfter(weight);
    auto constant = ConstantOp::create(rewriter, weight.getLoc(), *packed);
    for (BlockArgument argument : arguments)
      rewriter.modifyOpInPlace(argument.getOwner()->getParentOp(),
                               [&] { argument.setType(packedType); });
    for (LinearOp linear : linears)
      rewriter.modifyOpInPlace(linear,
                               [&] { linear.setTransposeWeight(false); });
    rewriter.replaceOp(weight, constant);
    return success();
  }
};

/// A pad of H and W only that one convolution or pooling reads becomes that
/// op's own padding: a zero pad before a convolution, before an average
/// pooling that counts padding (or has none of its own), and a −inf pad
/// before a max pooling. torch.onnx writes avg_pool2d(padding,
/// count_include_pad=True) as Pad then AveragePool (Inception-v3: four
/// such pads, 2.3 ms of 123 on one thread), and TensorFlow exports put
/// explicit pads before convolutions. The op then pads as it reads: one
/// kernel and no padded copy.
struct AbsorbPadIntoWindow : RewritePattern {
  AbsorbPadIntoWindow(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isa<Conv2DOp, Pool2DOp>(op))
      return failure();
    Value input = op->getOperand(0);
    auto pad = input.getDefiningOp<PadOp>();
    if (!pad || !input.hasOneUse())
      return failure();
    int64_t h = op->hasAttr("channels_last") ? 1 : 2, w = h + 1;
    ArrayRef<int64_t> low = pad.getLow(), high = pad.getHigh();
    for (int64_t d = 0; d < 4; ++d)
      if (d != h && d != w && (low[d] != 0 || high[d] != 0))
        return failure();
    double value = pad.getValue().convertToDouble();
    auto pool = dyn_cast<Pool2DOp>(op);
    ArrayRef<int64_t> padding =
        pool ? pool.getPadding() : cast<Conv2DOp>(op).getPadding();
    // +0 only: the op pads with +0, and a window of −0 pads could sum to −0.
    bool positiveZero = value == 0.0 && !std::signbit(value);
    bool absorbs;
    if (!pool)
      absorbs = positiveZero;
    else if (pool.getKind() == PoolKind::max)
      absorbs = std::isinf(value) && value < 0;
    else
      absorbs = positiveZero &&
                (pool.getCountIncludePad() ||
                 llvm::all_of(padding, [](int64_t p) { return p == 0; }));
    if (!absorbs)
      return failure();
    SmallVector<int64_t> merged = {padding[0] + low[h], padding[1] + low[w],
                                   padding[2] + high[h], padding[3] + high[w]};
    rewriter.modifyOpInPlace(op, [&] {
      op->setOperand(0, pad.getInput());
      op->setAttr("padding", rewriter.getDenseI64ArrayAttr(merged));
      if (pool && pool.getKind() == PoolKind::avg)
        pool.setCountIncludePad(true);
    });
    return success();
  }
};

/// `values` with every operand that is a concat along `axis` replaced by
/// its own inputs, recursively: what a concat joins, piece by piece.
static void appendConcatPieces(ValueRange values, uint64_t axis,
                               SmallVectorImpl<Value> &pieces) {
  for (Value value : values) {
    auto concat = value.getDefiningOp<ConcatOp>();
    if (concat && concat.getAxis() == axis)
      appendConcatPieces(concat.getInputs(), axis, pieces);
    else
      pieces.push_back(value);
  }
}

/// A concat whose leading inputs another concat earlier in the block
/// already joined (along the same axis) reads that concat instead:
/// concat(x0..xk) after y = concat(x0..xj) becomes concat(y, xj+1..xk).
/// DenseNet's layers each concatenate every earlier layer's features, so
/// its concats of up to 25 inputs become concats of two: the same bytes
/// copied, in longer runs, from fewer buffers, and the earlier features
/// free once joined; the kernels' code is a copy per input, which made
/// these concats most of DenseNet-121's machine code.
struct ReuseConcatPrefix : OpRewritePattern<ConcatOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConcatOp op,
                                PatternRewriter &rewriter) const override {
    SmallVector<Value> inputs(op.getInputs());
    if (inputs.size() < 3)
      return failure();
    uint64_t axis = op.getAxis();
    // The longest prefix first: a concat joining x0..xj reads xj.
    for (int64_t last = static_cast<int64_t>(inputs.size()) - 2; last >= 1;
         --last) {
      ArrayRef<Value> prefix = ArrayRef<Value>(inputs).take_front(last + 1);
      for (Operation *user : inputs[last].getUsers()) {
        auto earlier = dyn_cast<ConcatOp>(user);
        if (!earlier || earlier == op || earlier.getAxis() != axis ||
            earlier->getBlock() != op->getBlock() ||
            !earlier->isBeforeInBlock(op))
          continue;
        SmallVector<Value> pieces;
        appendConcatPieces(earlier.getInputs(), axis, pieces);
        if (ArrayRef<Value>(pieces) != prefix)
          continue;
        SmallVector<Value> reused = {earlier.getResult()};
        llvm::append_range(reused,
                           ArrayRef<Value>(inputs).drop_front(last + 1));
        rewriter.modifyOpInPlace(op,
                                 [&] { op.getInputsMutable().assign(reused); });
        return success();
      }
    }
    return failure();
  }
};

/// Applies an op's ODS folder (identities and splat constants) as a pattern.
struct ApplyOpFolder : RewritePattern {
  ApplyOpFolder(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isGraphOp(op))
      return failure();
    SmallVector<OpFoldResult> folded;
    if (failed(op->fold(constantOperands(op), folded)))
      return failure();
    if (folded.empty()) {
      // Folded in place (e.g. transpose∘transpose, constants moved right).
      rewriter.modifyOpInPlace(op, [] {});
      return success();
    }
    SmallVector<Value> values;
    for (auto [result, value] : llvm::zip(op->getResults(), folded)) {
      if (auto v = dyn_cast<Value>(value)) {
        values.push_back(v);
        continue;
      }
      Operation *constant = op->getDialect()->materializeConstant(
          rewriter, cast<Attribute>(value), result.getType(), op->getLoc());
      if (!constant)
        return failure();
      values.push_back(constant->getResult(0));
    }
    rewriter.replaceOp(op, values);
    return success();
  }
};

/// Records whether a rewrite happened, to iterate the walk to a fixed point.
/// Counts rewrites: an op replaced only by new constants was evaluated, any
/// other replacement or in-place update was folded.
struct ChangeListener : RewriterBase::Listener {
  void notifyOperationInserted(Operation *, OpBuilder::InsertPoint) override {
    changed = true;
  }
  void notifyOperationModified(Operation *) override {
    changed = true;
    ++folded;
  }
  void notifyOperationReplaced(Operation *, ValueRange values) override {
    changed = true;
    bool allConstants = llvm::all_of(values, [](Value v) {
      return v.getDefiningOp<ConstantOp>() != nullptr;
    });
    ++(allConstants ? evaluated : folded);
  }
  void notifyOperationErased(Operation *) override { changed = true; }
  bool changed = false;
  int64_t evaluated = 0;
  int64_t folded = 0;
};

struct GOptFoldPass : gopt::impl::GOptFoldBase<GOptFoldPass> {
  using GOptFoldBase::GOptFoldBase;

  LogicalResult initialize(MLIRContext *context) override {
    if (maxFoldedElements < 0)
      return emitError(UnknownLoc::get(context))
             << "gopt-fold: max-folded-elements must be non-negative, got "
             << static_cast<int64_t>(maxFoldedElements);
    RewritePatternSet set(context);
    populateGOptFoldPatterns(set, maxFoldedElements);
    patterns = std::move(set);
    return success();
  }

  void runOnOperation() override {
    // A walk visits each op once; a rewrite can enable another upstream of a
    // later op only through in-place updates, so a few sweeps reach the fixed
    // point.
    constexpr int kMaxSweeps = 8;
    bool changedAny = false;
    for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
      ChangeListener listener;
      walkAndApplyPatterns(getOperation(), patterns, &listener);
      numEvaluated += listener.evaluated;
      numFolded += listener.folded;
      if (!listener.changed)
        break;
      changedAny = true;
    }
    if (!changedAny)
      markAllAnalysesPreserved();
  }

  FrozenRewritePatternSet patterns;
};

} // namespace

void mlir::gopt::populateGOptFoldPatterns(RewritePatternSet &patterns,
                                          int64_t maxFoldedElements) {
  MLIRContext *context = patterns.getContext();
  patterns.add<EvaluateConstantOp>(context, maxFoldedElements);
  patterns.add<FoldConstantDataMovement>(context);
  patterns.add<PackLinearWeights>(context);
  patterns.add<AbsorbPadIntoWindow>(context);
  patterns.add<ReuseConcatPrefix>(context);
  patterns.add<ApplyOpFolder>(context);
  if (clTestWrongFold)
    patterns.add<TestWrongFoldSub>(context);
  auto *dialect = context->getOrLoadDialect<GOptDialect>();
  dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName name : context->getRegisteredOperations())
    if (&name.getDialect() == dialect)
      name.getCanonicalizationPatterns(patterns, context);
}
