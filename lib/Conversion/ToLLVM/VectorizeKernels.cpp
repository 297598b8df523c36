//===- VectorizeKernels.cpp - Vectorize the linalg ops of the tiles -------===//
//
// After gopt-fuse-kernel-loops, the ops inside each tile loop have small
// static shapes: the upstream vectorizer turns each into vector transfers and
// vector arithmetic. Ops it rejects (windowed convolutions and pooling,
// gathers) stay as they are and become scalar loops.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Conversion/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace gopt {
#define GEN_PASS_DEF_GOPTVECTORIZEKERNELS
#define GEN_PASS_DEF_GOPTLOWERVECTORS
#include "GOpt/Conversion/Passes.h.inc"
} // namespace gopt
} // namespace mlir

using namespace mlir;

/// Largest iteration space (in elements) turned into one set of vectors:
/// larger untiled ops stay loops rather than becoming huge vectors.
static constexpr int64_t kMaxVectorElements = 4096;

static bool isWorthVectorizing(linalg::LinalgOp op) {
  // Zero-loop ops and empty iteration spaces trip the upstream vectorizer.
  if (!op.hasPureTensorSemantics() || op.getNumLoops() == 0)
    return false;
  int64_t elements = 1;
  for (int64_t size : op.getStaticLoopRanges()) {
    if (ShapedType::isDynamic(size))
      return false;
    elements *= size;
  }
  return elements > 0 && elements <= kMaxVectorElements &&
         succeeded(linalg::vectorizeOpPrecondition(op));
}

namespace {

/// Vectorizes every static linalg op the vectorizer accepts.
struct GOptVectorizeKernelsPass
    : gopt::impl::GOptVectorizeKernelsBase<GOptVectorizeKernelsPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> candidates;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (isWorthVectorizing(op))
        candidates.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : candidates) {
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::VectorizationResult> result =
          linalg::vectorize(rewriter, op);
      if (failed(result))
        continue;
      if (op->getNumResults())
        rewriter.replaceOp(op, result->replacements);
      else
        rewriter.eraseOp(op);
    }
    RewritePatternSet patterns(&getContext());
    linalg::populatePadOpVectorizationPatterns(patterns);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    vector::populateVectorReductionToContractPatterns(patterns);
    vector::populateSinkVectorOpsPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

/// Progressive lowering of n-D vector ops towards 1-D ones.
struct GOptLowerVectorsPass
    : gopt::impl::GOptLowerVectorsBase<GOptLowerVectorsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    vector::populateVectorMultiReductionLoweringPatterns(
        patterns, vector::VectorMultiReductionLowering::InnerReduction);
    vector::populateVectorContractLoweringPatterns(
        patterns, vector::VectorContractLowering::OuterProduct);
    vector::populateVectorOuterProductLoweringPatterns(patterns);
    vector::populateVectorBroadcastLoweringPatterns(patterns);
    vector::populateVectorTransposeLoweringPatterns(
        patterns, vector::VectorTransposeLowering::EltWise);
    vector::populateVectorShapeCastLoweringPatterns(patterns);
    vector::populateVectorMaskOpLoweringPatterns(patterns);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    vector::populateVectorTransferLoweringPatterns(patterns,
                                                   /*maxTransferRank=*/1);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
