//===- GOptCanonicalization.cpp - Canonicalization patterns of gopt ops ---===//
//
// Rewrites that replace an op by a different, cheaper op computing the same
// tensor (a folder can only return an existing value). gopt-fold applies
// them with the folders; so does upstream `canonicalize`.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Dialect/GOpt/IR/GOptOps.h"

#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::gopt;

namespace {

/// A transpose that moves only dims of extent 1 keeps every element at its
/// row-major position: it is a reshape (`[1, S, D] → [S, 1, D]`, what a
/// sequence-first exporter's transposes are at batch 1). A reshape is a
/// view in the lowering; a transpose is a copy kernel.
struct TransposeOfUnitDimsIsReshape : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto inputType = cast<ShapedType>(op.getInput().getType());
    ArrayRef<int64_t> shape = inputType.getShape();
    // The input dims of extent > 1 must keep their order in the result.
    int64_t last = -1;
    for (int64_t dim : op.getPerm()) {
      if (shape[dim] == 1)
        continue;
      if (dim < last)
        return failure();
      last = dim;
    }
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getType(), op.getInput());
    return success();
  }
};

} // namespace

void TransposeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *context) {
  results.add<TransposeOfUnitDimsIsReshape>(context);
}
