//===- GOptSplitAttentionKernels.cpp - Attention kernels back to parts ----===//

#include "GOpt/Transforms/AttentionChain.h"
#include "GOpt/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace gopt {
#define GEN_PASS_DEF_GOPTSPLITATTENTIONKERNELS
#include "GOpt/Transforms/Passes.h.inc"
} // namespace gopt
} // namespace mlir

using namespace mlir;
using namespace mlir::gopt;

namespace {

struct GOptSplitAttentionKernelsPass
    : gopt::impl::GOptSplitAttentionKernelsBase<GOptSplitAttentionKernelsPass> {
  void runOnOperation() override {
    SmallVector<FusionOp> attention;
    getOperation()->walk([&](FusionOp fusion) {
      if (isAttentionFusion(fusion))
        attention.push_back(fusion);
    });
    if (attention.empty())
      return markAllAnalysesPreserved();
    IRRewriter rewriter(&getContext());
    for (FusionOp fusion : attention) {
      splitAttentionFusion(fusion, rewriter);
      ++numSplit;
    }
  }
};

} // namespace
