//===- FoldPermutationsIntoContractions.cpp - Strided contraction reads ---===//
//
// A kernel that gopt-fuse gave a transpose and the matmul reading it
// (FusionPlanner's absorbable transposes) holds, once in linalg, a
// permuting copy generic feeding a contraction generic. The contraction can
// read the copy's input directly through the composed indexing map: on the
// library path the GEMM call then takes the permutation as strides
// (lib/Runtime/Blas.cpp picks the transpose flag and leading dimension), on
// the codegen path the loops read it strided; either way the transposed
// tensor is never written. Likewise a contraction whose result only a
// permuting copy reads writes the copy's result through the composed map
// (the heads of attention merged back after P·V: the GEMM writes them
// where the transpose would have put them).
//
//===----------------------------------------------------------------------===//

#include "GOpt/Codegen/Common/LibraryContractions.h"
#include "GOpt/Codegen/Common/Passes.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace gopt {
#define GEN_PASS_DEF_GOPTFOLDPERMUTATIONSINTOCONTRACTIONS
#include "GOpt/Codegen/Common/Passes.h.inc"
} // namespace gopt
} // namespace mlir

using namespace mlir;

/// Whether `op` only permutes its one input: all loops parallel, the input
/// read through a permutation, the result written through the identity,
/// and a body that yields the input element unchanged (what
/// convert-gopt-to-linalg makes of gopt.transpose).
static bool isPermutingCopy(linalg::GenericOp op) {
  if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() != 0)
    return false;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (!maps[0].isPermutation() || !maps[1].isIdentity())
    return false;
  Block *body = op.getBody();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  return body->getOperations().size() == 1 && yield.getNumOperands() == 1 &&
         yield.getOperand(0) == body->getArgument(0);
}

/// Whether `op` is a contraction: linalg's (a multiply-accumulate body) or
/// one a GEMM library computes (whose body may also scale the product).
static bool isContraction(linalg::GenericOp op) {
  return linalg::isaContractionOpInterface(op) ||
         gopt::matchSgemmContraction(op).has_value();
}

namespace {

/// A contraction reading a permuting copy read by nothing else reads the
/// copy's input instead. When the contraction was one a GEMM library takes
/// (matchSgemmContraction, hasGemmLayouts), it must still be afterwards,
/// or the permutation stays: a contraction falling off the library path
/// would cost far more than the copy.
struct FoldPermutingCopyIntoContraction : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!isContraction(op) || !op.hasPureTensorSemantics())
      return failure();
    std::optional<gopt::SgemmLoops> loops = gopt::matchSgemmContraction(op);
    bool library =
        loops && gopt::hasGemmLayouts(op.getIndexingMapsArray(), *loops);
    for (OpOperand *operand : op.getDpsInputOperands()) {
      auto copy = operand->get().getDefiningOp<linalg::GenericOp>();
      if (!copy || !copy->hasOneUse() || !isPermutingCopy(copy))
        continue;
      SmallVector<AffineMap> maps = op.getIndexingMapsArray();
      unsigned index = operand->getOperandNumber();
      maps[index] = copy.getIndexingMapsArray()[0].compose(maps[index]);
      if (library && !gopt::hasGemmLayouts(maps, *loops))
        continue;
      rewriter.modifyOpInPlace(op, [&] {
        operand->set(copy.getDpsInputOperand(0)->get());
        op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
      });
      rewriter.eraseOp(copy);
      return success();
    }
    return failure();
  }
};

/// A contraction whose result only a permuting copy reads, starting from a
/// `linalg.fill`, writes the copy's result instead: the same fill of a
/// tensor of the copy's shape, written through the output map composed with
/// the inverse permutation. A contraction a GEMM library could take keeps
/// its n innermost (it still can), or the copy stays.
struct FoldContractionIntoPermutingCopy : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!isContraction(op) || !op.hasPureTensorSemantics() ||
        op->getNumResults() != 1 || !op->getResult(0).hasOneUse())
      return failure();
    auto copy = dyn_cast<linalg::GenericOp>(*op->getUsers().begin());
    if (!copy || !isPermutingCopy(copy) ||
        copy.getDpsInputOperand(0)->get() != op->getResult(0))
      return failure();
    OpOperand *init = op.getDpsInitOperand(0);
    auto fill = init->get().getDefiningOp<linalg::FillOp>();
    auto type = dyn_cast<RankedTensorType>(copy->getResult(0).getType());
    if (!fill || !type || !type.hasStaticShape())
      return failure();
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    AffineMap output = maps.back();
    // copy[d] = C[perm(d)], so C[e] goes to copy[perm⁻¹(e)].
    AffineMap perm = copy.getIndexingMapsArray()[0];
    maps.back() = inversePermutation(perm).compose(output);
    std::optional<gopt::SgemmLoops> loops = gopt::matchSgemmContraction(op);
    if (loops && gopt::hasGemmLayouts(op.getIndexingMapsArray(), *loops) &&
        maps.back().getResults().back() != output.getResults().back())
      return failure();

    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                          type.getElementType());
    Value filled =
        linalg::FillOp::create(rewriter, loc, fill.getInputs()[0], empty)
            .getResult(0);
    auto permuted = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, op.getDpsInputs(), ValueRange{filled},
        maps, op.getIteratorTypesArray());
    rewriter.inlineRegionBefore(op.getRegion(), permuted.getRegion(),
                                permuted.getRegion().end());
    for (NamedAttribute attr : op->getDiscardableAttrs())
      permuted->setAttr(attr.getName(), attr.getValue());
    rewriter.replaceOp(copy, permuted->getResults());
    rewriter.eraseOp(op);
    return success();
  }
};

/// Applies both patterns until no copy is left to fold.
struct GOptFoldPermutationsIntoContractionsPass
    : gopt::impl::GOptFoldPermutationsIntoContractionsBase<
          GOptFoldPermutationsIntoContractionsPass> {
  /// Frozen once per pass, not once per kernel.
  FrozenRewritePatternSet frozenPatterns;

  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet patterns(context);
    patterns.add<FoldPermutingCopyIntoContraction,
                 FoldContractionIntoPermutingCopy>(context);
    frozenPatterns = std::move(patterns);
    return success();
  }

  void runOnOperation() override {
    if (failed(applyPatternsGreedily(getOperation(), frozenPatterns)))
      signalPassFailure();
  }
};

} // namespace
