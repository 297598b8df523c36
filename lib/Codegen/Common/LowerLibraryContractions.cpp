//===- LowerLibraryContractions.cpp - Marked contractions to sgemm calls --===//
//
// The second half of the library path (docs/Lowering.md, docs/GPU.md):
// after bufferization, every contraction marked by
// gopt-select-library-contractions becomes a call of the runtime's
// gopt_sgemm (on the GPU: gopt_cuda_sgemm) on raw pointers and strides.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Codegen/Common/LibraryContractions.h"
#include "GOpt/Codegen/Common/Passes.h"
#include "GOpt/Dialect/GOpt/IR/GOptOps.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace gopt {
#define GEN_PASS_DEF_GOPTLOWERLIBRARYCONTRACTIONS
#include "GOpt/Codegen/Common/Passes.h.inc"
} // namespace gopt
} // namespace mlir

using namespace mlir;

namespace {

/// Replaces marked contractions on memrefs by gopt_sgemm calls, and fails
/// on a marked contraction left on tensors (bufferize first).
struct GOptLowerLibraryContractionsPass
    : gopt::impl::GOptLowerLibraryContractionsBase<
          GOptLowerLibraryContractionsPass> {
  using GOptLowerLibraryContractionsBase::GOptLowerLibraryContractionsBase;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    gopt::populateLowerLibraryContractionsPatterns(patterns, sgemmCallee,
                                                   sgemmEpilogueCallee);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    // A marked convolution or pooling on buffers the runtime does not take
    // (a strided view; for pooling, an output not filled with the identity
    // just before) is computed by the loops, as without the library; so is
    // an epilogue its convolution or GEMM did not take.
    getOperation().walk([](linalg::LinalgOp op) {
      if (gopt::isLibraryConvolution(op) || gopt::isLibraryPooling(op) ||
          gopt::isLibraryConvolutionEpilogue(op) ||
          gopt::isLibrarySgemmEpilogue(op))
        op->removeAttr(gopt::kLibraryCallAttrName);
    });
    WalkResult left = getOperation().walk([](Operation *op) {
      if (isa<gopt::AttentionKernelOp>(op)) {
        op->emitError("gopt-lower-library-contractions: an attention kernel "
                      "is left; it must be on memrefs (bufferize first)");
        return WalkResult::interrupt();
      }
      if (!gopt::isLibrarySgemm(op))
        return WalkResult::advance();
      op->emitError("gopt-lower-library-contractions: a contraction marked "
                    "for a GEMM call is left; it must be on memrefs "
                    "(bufferize first)");
      return WalkResult::interrupt();
    });
    if (left.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
