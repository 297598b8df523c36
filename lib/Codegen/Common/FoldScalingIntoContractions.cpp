//===- FoldScalingIntoContractions.cpp - Constant factors as GEMM alpha ---===//
//
// Attention scales Q by a constant before Q·Kᵀ (nn.MultiheadAttention's
// export: `q / sqrt(d)`), or the scores after it (`(q·kᵀ) / sqrt(d)`, as
// most exporters write it). When the scaling sits in the contraction's
// kernel (gopt-split-attention-kernels puts it there), it is an
// elementwise generic writing a scaled copy of Q that the contraction then
// reads, or a scaled copy of the contraction's result. The contraction can
// read Q itself and multiply in its body instead: `out + (q * f) * k`, or
// `out + (q * k) * f` when it starts from zero. On the library path that
// factor is the GEMM's alpha (matchSgemmContraction), so the scaled copy is
// never written and the scaling costs nothing; on the codegen path it is
// one multiplication per term, in the loop that computes the term anyway.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Codegen/Common/LibraryContractions.h"
#include "GOpt/Codegen/Common/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace gopt {
#define GEN_PASS_DEF_GOPTFOLDSCALINGINTOCONTRACTIONS
#include "GOpt/Codegen/Common/Passes.h.inc"
} // namespace gopt
} // namespace mlir

using namespace mlir;

/// The value of `v` in the body of `op` when it is an f32 constant: an
/// `arith.constant`, or a block argument bound to an input that is a splat
/// f32 constant tensor.
static std::optional<double> constantIn(linalg::GenericOp op, Value v) {
  FloatAttr scalar;
  if (matchPattern(v, m_Constant(&scalar)))
    return scalar.getValueAsDouble();
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg || arg.getOwner() != op.getBody() ||
      arg.getArgNumber() >= op.getNumDpsInputs())
    return std::nullopt;
  DenseElementsAttr tensor;
  if (!matchPattern(op.getDpsInputOperand(arg.getArgNumber())->get(),
                    m_Constant(&tensor)) ||
      !tensor.isSplat() || !tensor.getElementType().isF32())
    return std::nullopt;
  return tensor.getSplatValue<APFloat>().convertToDouble();
}

/// What a scaling generic multiplies (an input) and by what.
struct Scaling {
  OpOperand *input;
  double factor;
};

/// The scaling `op` is when it scales one tensor by an f32 constant: all
/// loops parallel, its result written through the identity, a body
/// yielding `x * c`, `c * x` or `x / c` with `x` an input read through a
/// permutation (`x / c` as `x * (1 / c)`).
static std::optional<Scaling> matchScaling(linalg::GenericOp op) {
  if (op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 0 ||
      !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity())
    return std::nullopt;
  Block *body = op.getBody();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  if (yield.getNumOperands() != 1)
    return std::nullopt;
  Operation *def = yield.getOperand(0).getDefiningOp();
  // The scaling and, at most, the constant it uses.
  if (!def || def->getBlock() != body || body->getOperations().size() > 3 ||
      !isa<arith::MulFOp, arith::DivFOp>(def))
    return std::nullopt;
  auto asInput = [&](Value v) -> OpOperand * {
    auto arg = dyn_cast<BlockArgument>(v);
    if (!arg || arg.getOwner() != body ||
        arg.getArgNumber() >= op.getNumDpsInputs())
      return nullptr;
    OpOperand *operand = op.getDpsInputOperand(arg.getArgNumber());
    return op.getMatchingIndexingMap(operand).isPermutation() ? operand
                                                              : nullptr;
  };
  Value lhs = def->getOperand(0), rhs = def->getOperand(1);
  if (isa<arith::DivFOp>(def)) {
    std::optional<double> c = constantIn(op, rhs);
    if (OpOperand *x = asInput(lhs); x && c && *c != 0.0)
      return Scaling{x, 1.0 / *c};
    return std::nullopt;
  }
  for (auto [x, c] : {std::pair(lhs, rhs), std::pair(rhs, lhs)})
    if (std::optional<double> factor = constantIn(op, c))
      if (OpOperand *input = asInput(x))
        return Scaling{input, *factor};
  return std::nullopt;
}

/// `v * factor` (an f32 constant), built at the rewriter's insertion point.
static Value multiplyByConstant(RewriterBase &rewriter, Location loc, Value v,
                                double factor) {
  Value constant = arith::ConstantOp::create(
      rewriter, loc, rewriter.getF32FloatAttr(static_cast<float>(factor)));
  return arith::MulFOp::create(rewriter, loc, v, constant);
}

namespace {

/// A contraction gopt_sgemm computes (matchSgemmContraction) reading a
/// scaling generic read by nothing else reads the scaled tensor through the
/// composed map and multiplies the element by the factor in its body.
struct FoldScalingIntoContraction : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || !gopt::matchSgemmContraction(op))
      return failure();
    for (OpOperand *operand : op.getDpsInputOperands()) {
      auto producer = operand->get().getDefiningOp<linalg::GenericOp>();
      if (!producer || !producer->hasOneUse())
        continue;
      std::optional<Scaling> scaling = matchScaling(producer);
      if (!scaling)
        continue;
      unsigned index = operand->getOperandNumber();
      SmallVector<AffineMap> maps = op.getIndexingMapsArray();
      maps[index] =
          producer.getMatchingIndexingMap(scaling->input).compose(maps[index]);
      Value scaled = scaling->input->get();
      rewriter.modifyOpInPlace(op, [&] {
        operand->set(scaled);
        op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
        Block *body = op.getBody();
        BlockArgument element = body->getArgument(index);
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointToStart(body);
        Value product = multiplyByConstant(rewriter, producer.getLoc(), element,
                                           scaling->factor);
        element.replaceAllUsesExcept(product, product.getDefiningOp());
      });
      rewriter.eraseOp(producer);
      return success();
    }
    return failure();
  }
};

/// A scaling generic whose scaled tensor is, read through the identity,
/// the result of a contraction gopt_sgemm computes that starts from a zero
/// fill and is read by nothing else: the contraction multiplies each term
/// by the factor, and its result replaces the scaling's.
struct FoldScalingOfContraction : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<Scaling> scaling;
    if (!op.hasPureTensorSemantics() || !(scaling = matchScaling(op)) ||
        !op.getMatchingIndexingMap(scaling->input).isIdentity())
      return failure();
    auto contraction = scaling->input->get().getDefiningOp<linalg::GenericOp>();
    if (!contraction || !contraction->hasOneUse() ||
        contraction->getNumResults() != 1 ||
        contraction->getResult(0).getType() != op->getResult(0).getType() ||
        !contraction.hasPureTensorSemantics() ||
        !gopt::matchSgemmContraction(contraction))
      return failure();
    auto fill =
        contraction.getDpsInitOperand(0)->get().getDefiningOp<linalg::FillOp>();
    if (!fill || !matchPattern(fill.getInputs()[0], m_AnyZeroFloat()))
      return failure();
    // out + term becomes out + term * factor.
    Block *body = contraction.getBody();
    auto add = cast<linalg::YieldOp>(body->getTerminator())
                   .getOperand(0)
                   .getDefiningOp<arith::AddFOp>();
    Value acc = body->getArgument(body->getNumArguments() - 1);
    OpOperand &term =
        add.getLhs() == acc ? add.getRhsMutable() : add.getLhsMutable();
    rewriter.modifyOpInPlace(contraction, [&] {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(add);
      term.set(multiplyByConstant(rewriter, op.getLoc(), term.get(),
                                  scaling->factor));
    });
    rewriter.replaceOp(op, contraction->getResults());
    return success();
  }
};

struct GOptFoldScalingIntoContractionsPass
    : gopt::impl::GOptFoldScalingIntoContractionsBase<
          GOptFoldScalingIntoContractionsPass> {
  /// Frozen once per pass, not once per kernel.
  FrozenRewritePatternSet frozenPatterns;

  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet patterns(context);
    patterns.add<FoldScalingIntoContraction, FoldScalingOfContraction>(context);
    frozenPatterns = std::move(patterns);
    return success();
  }

  void runOnOperation() override {
    if (failed(applyPatternsGreedily(getOperation(), frozenPatterns)))
      signalPassFailure();
  }
};

} // namespace
