//===- GOptFuseGemmLayerNorms.cpp - A layer norm in its GEMM's kernel
//------===//
//
// A transformer layer ends its sublayers with a GEMM, a bias and a
// residual (one gopt.fusion: the GEMM and its epilogue) and a layer norm
// of the sum (a kernel of its own): on the GPU a cuBLAS call and two
// launches, the second reading back what the first wrote. This pass makes
// the layer norm part of the GEMM's kernel: a cuBLAS call and one launch.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Dialect/GOpt/IR/GOptOps.h"
#include "GOpt/Transforms/FusionPlanner.h"
#include "GOpt/Transforms/Passes.h"

#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace gopt {
#define GEN_PASS_DEF_GOPTFUSEGEMMLAYERNORMS
#include "GOpt/Transforms/Passes.h.inc"
} // namespace gopt
} // namespace mlir

using namespace mlir;
using namespace mlir::gopt;

/// Whether `fusion` holds one contraction (`gopt.matmul`, `gopt.linear`),
/// the transposes it reads, and after it elementwise ops only (at least
/// one): a GEMM and its epilogue.
static bool isGemmWithEpilogue(FusionOp fusion) {
  bool contraction = false, epilogue = false;
  for (Operation &op : fusion.getBodyBlock().without_terminator()) {
    auto kind = dyn_cast<FusionKindOpInterface>(op);
    if (isa<MatmulOp, LinearOp>(op) && !contraction) {
      contraction = true;
    } else if (kind && contraction &&
               (kind.getFusionKind() == FusionKind::Elementwise ||
                kind.getFusionKind() == FusionKind::Broadcast)) {
      epilogue = true;
    } else if (!isa<ConstantOp>(op) &&
               !(isa<TransposeOp>(op) && !contraction)) {
      return false;
    }
  }
  return contraction && epilogue;
}

namespace {

struct GOptFuseGemmLayerNormsPass
    : gopt::impl::GOptFuseGemmLayerNormsBase<GOptFuseGemmLayerNormsPass> {
  void runOnOperation() override {
    SmallVector<LayerNormOp> norms;
    getOperation()->walk([&](LayerNormOp norm) {
      if (!isa<FusionOp>(norm->getParentOp()))
        norms.push_back(norm);
    });
    IRRewriter rewriter(&getContext());
    for (LayerNormOp norm : norms) {
      auto fusion = norm.getInput().getDefiningOp<FusionOp>();
      if (!fusion || fusion->getNumResults() != 1 ||
          !fusion->getResult(0).hasOneUse() ||
          fusion->getBlock() != norm->getBlock() || !isGemmWithEpilogue(fusion))
        continue;
      // The norm's scale and shift must be ready where the fusion is.
      DominanceInfo dominance(norm->getParentOp());
      if (llvm::any_of(norm->getOperands().drop_front(), [&](Value v) {
            return !dominance.properlyDominates(v, fusion);
          }))
        continue;
      // The fusion's ops back in the block, then one group with the norm.
      SmallVector<Operation *> group = dissolveFusion(fusion, rewriter);
      if (Operation *next = group.back()->getNextNode(); next != norm)
        rewriter.moveOpBefore(norm, next);
      group.push_back(norm);
      materializeFusionGroup(group, rewriter);
      ++numFused;
    }
  }
};

} // namespace
