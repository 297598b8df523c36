//===- GOptFuse.cpp - Group producer/consumer chains into kernels ---------===//

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

    SmallVector<Block *> blocks;
    getOperation()->walk([&](Block *block) {
      if (!isa<FusionOp>(block->getParentOp()))
        blocks.push_back(block);
    });
    IRRewriter rewriter(&getContext());
    bool changed = false;
    for (Block *block : blocks) {
      changed |= hoistConstants(*block);
      for (SmallVector<Operation *> &group : planFusionGroups(*block, options)) {
        materializeFusionGroup(group, rewriter);
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
