//===- SelectLibraryContractions.cpp - Contractions for sgemm calls -------===//
//
// The first half of the library path (docs/Lowering.md, docs/GPU.md): marks
// the f32 contraction generics a GEMM library computes, on tensors, before
// gopt-fuse-kernel-loops decides what to tile.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Codegen/Common/LibraryContractions.h"
#include "GOpt/Codegen/Common/Passes.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace gopt {
#define GEN_PASS_DEF_GOPTSELECTLIBRARYCONTRACTIONS
#include "GOpt/Codegen/Common/Passes.h.inc"
} // namespace gopt
} // namespace mlir

using namespace mlir;

namespace {

/// Marks every contraction sgemm computes with `library_call = "gopt_sgemm"`.
struct GOptSelectLibraryContractionsPass
    : gopt::impl::GOptSelectLibraryContractionsBase<
          GOptSelectLibraryContractionsPass> {
  using GOptSelectLibraryContractionsBase::GOptSelectLibraryContractionsBase;
  /// Frozen once per pass, not once per kernel.
  FrozenRewritePatternSet frozenPatterns;

  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet patterns(context);
    gopt::populateSelectLibraryContractionsPatterns(patterns, windowedOps,
                                                    minFlops);
    frozenPatterns = std::move(patterns);
    return success();
  }

  void runOnOperation() override {
    if (failed(applyPatternsGreedily(getOperation(), frozenPatterns)))
      signalPassFailure();
  }
};

} // namespace
