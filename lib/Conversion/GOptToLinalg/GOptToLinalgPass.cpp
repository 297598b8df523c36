//===- GOptToLinalgPass.cpp - The convert-gopt-to-linalg pass -------------===//
//
// Applies populateGOptToLinalgPatterns as a partial conversion: every gopt op
// must go, ops of other dialects stay.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Conversion/GOptToLinalg/GOptToLinalg.h"
#include "GOpt/Conversion/Passes.h"
#include "GOpt/Dialect/GOpt/IR/GOptDialect.h"

#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace gopt {
#define GEN_PASS_DEF_CONVERTGOPTTOLINALG
#include "GOpt/Conversion/Passes.h.inc"
} // namespace gopt
} // namespace mlir

using namespace mlir;
using namespace mlir::gopt;

namespace {

/// Lowers every gopt op under the anchor to linalg, tensor, arith and math.
struct ConvertGOptToLinalgPass
    : gopt::impl::ConvertGOptToLinalgBase<ConvertGOptToLinalgPass> {
  using ConvertGOptToLinalgBase::ConvertGOptToLinalgBase;

  /// Frozen once per pass, not once per function.
  FrozenRewritePatternSet frozenPatterns;

  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet patterns(context);
    populateGOptToLinalgPatterns(patterns);
    frozenPatterns = std::move(patterns);
    return success();
  }

  void runOnOperation() override {
    ConversionTarget target(getContext());
    configureGOptToLinalgTarget(target);
    if (failed(applyPartialConversion(getOperation(), target, frozenPatterns)))
      signalPassFailure();
  }
};

} // namespace
