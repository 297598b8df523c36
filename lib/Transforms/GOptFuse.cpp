//===- GOptFuse.cpp - Group producer/consumer chains into kernels ---------===//

#include "GOpt/Transforms/AttentionChain.h"
#include "GOpt/Transforms/FusionPlanner.h"
#include "GOpt/Transforms/Passes.h"

namespace mlir {
namespace gopt {
#define GEN_PASS_DEF_GOPTFUSE
#include "GOpt/Transforms/Passes.h.inc"
} // namespace gopt
} // namespace mlir

using namespace mlir;
using namespace mlir::gopt;

namespace {

/// Moves the constants of `block` (constant-like ops without operands) to
/// its start, in their order: a group is placed at its first op, so a
/// constant that gopt-fold left after that op (the 1/6 of a hardswish
/// after the convolution it follows) would otherwise keep its consumer out
/// of the group. Returns whether any moved.
static bool hoistConstants(Block &block) {
  SmallVector<Operation *> constants;
  bool seenOther = false, moved = false;
  for (Operation &op : block) {
    if (op.hasTrait<OpTrait::ConstantLike>() && op.getNumOperands() == 0 &&
        op.getNumRegions() == 0) {
      constants.push_back(&op);
      moved |= seenOther;
    } else {
      seenOther = true;
    }
  }
  if (!moved)
    return false;
  Operation *insertAfter = nullptr;
  for (Operation *op : constants) {
    if (insertAfter)
      op->moveAfter(insertAfter);
    else
      op->moveBefore(&block.front());
    insertAfter = op;
  }
  return true;
}

/// An elementwise op read only by `operand` of a matmul, whose one operand
/// that is not unit-shaped is a transpose read by it alone (the attention
/// scale `div(transpose(q), 8)`), is applied before the transpose instead,
/// when the matmul can then read the transpose in place. Returns whether
/// it rewrote.
static bool sinkTransposeThroughScaling(OpOperand &operand,
                                        RewriterBase &rewriter) {
  auto matmul = cast<MatmulOp>(operand.getOwner());
  Operation *op = operand.get().getDefiningOp();
  auto kind = dyn_cast_or_null<FusionKindOpInterface>(op);
  if (!kind || kind.getFusionKind() != FusionKind::Elementwise ||
      !op->hasOneUse() || op->getNumResults() != 1 || op->getNumRegions())
    return false;
  TransposeOp transpose;
  for (Value v : op->getOperands()) {
    if (auto type = dyn_cast<RankedTensorType>(v.getType());
        type && isUnitShape(type.getShape()))
      continue;
    auto t = v.getDefiningOp<TransposeOp>();
    if (transpose || !t || !t->hasOneUse() ||
        t.getType().getShape() !=
            cast<RankedTensorType>(op->getResult(0).getType()).getShape())
      return false;
    transpose = t;
  }
  if (!transpose || !readsPermutedInPlace(matmul, operand.getOperandNumber(),
                                          transpose.getPerm()))
    return false;
  rewriter.setInsertionPoint(op);
  Operation *moved = rewriter.clone(*op);
  // The op's own element type (a cast or a compare changes it) on the
  // transpose's input shape.
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  auto inputType = cast<RankedTensorType>(transpose.getInput().getType());
  rewriter.modifyOpInPlace(moved, [&] {
    moved->replaceUsesOfWith(transpose.getResult(), transpose.getInput());
    moved->getResult(0).setType(inputType.clone(resultType.getElementType()));
  });
  auto sunk = TransposeOp::create(rewriter, op->getLoc(), resultType,
                                  moved->getResult(0), transpose.getPermAttr());
  rewriter.replaceOp(op, sunk.getResult());
  rewriter.eraseOp(transpose);
  return true;
}

/// Moves each transpose a matmul of `block` can absorb (isAbsorbableTranspose)
/// to just before the matmul, sinking it first through a scaling between
/// them: a group is placed at its first op, so a transpose computed before
/// the matmul's other operand could not join the matmul's group where it
/// was. Returns whether anything changed.
static bool placeAbsorbableTransposes(Block &block, RewriterBase &rewriter) {
  bool changed = false;
  SmallVector<MatmulOp> matmuls;
  for (Operation &op : block)
    if (auto matmul = dyn_cast<MatmulOp>(op))
      matmuls.push_back(matmul);
  for (MatmulOp matmul : matmuls)
    for (OpOperand &operand : matmul->getOpOperands()) {
      changed |= sinkTransposeThroughScaling(operand, rewriter);
      if (!isAbsorbableTranspose(operand))
        continue;
      Operation *transpose = operand.get().getDefiningOp();
      if (transpose->getBlock() != &block ||
          transpose->getNextNode() == matmul.getOperation())
        continue;
      transpose->moveBefore(matmul);
      changed = true;
    }
  return changed;
}

/// Plans the fusion groups of every block that holds graph ops (never inside
/// an existing gopt.fusion) and materializes each as one gopt.fusion.
struct GOptFusePass : gopt::impl::GOptFuseBase<GOptFusePass> {
  using GOptFuseBase::GOptFuseBase;

  void runOnOperation() override {
    if (maxGroupSize < 2) {
      mlir::emitError(getOperation()->getLoc())
          << "gopt-fuse: max-group-size must be at least 2, got "
          << static_cast<int64_t>(maxGroupSize);
      return signalPassFailure();
    }
    FusionPlannerOptions options;
    options.maxGroupSize = maxGroupSize;
    options.fuseContractionEpilogues = fuseContractionEpilogues;
    options.fuseReductions = fuseReductions;
    options.absorbTransposes = absorbTransposes;
    options.fuseAttention = fuseAttention;
    options.absorbSliceViews = absorbSliceViews;

    SmallVector<Block *> blocks;
    getOperation()->walk([&](Block *block) {
      if (!isa<FusionOp>(block->getParentOp()))
        blocks.push_back(block);
    });
    IRRewriter rewriter(&getContext());
    bool changed = false;
    for (Block *block : blocks) {
      // The masks it makes are constants for hoistConstants to place.
      if (fuseAttention)
        changed |= maskAttentionScoresAdditively(*block, rewriter);
      changed |= hoistConstants(*block);
      if (absorbTransposes)
        changed |= placeAbsorbableTransposes(*block, rewriter);
      for (SmallVector<Operation *> &group : planFusionGroups(*block, options)) {
        FusionOp fusion = materializeFusionGroup(group, rewriter);
        if (fuseAttention && isAttentionFusion(fusion))
          ++numAttentionGroups;
        ++numGroups;
        numFusedOps += group.size();
        changed = true;
      }
    }
    if (!changed)
      markAllAnalysesPreserved();
  }
};

} // namespace
