//===- GOptToLinalg.cpp - Lower gopt ops to linalg/tensor/arith/math ------===//
//
// The conversion's entry points: the patterns of every op family (one file
// each: ElementwiseToLinalg.cpp, ReductionsToLinalg.cpp,
// ContractionsToLinalg.cpp, DataMovementToLinalg.cpp, over the builders of
// LinalgBuilders.h), the inlining of fusion bodies, and the legality of the
// target. The scalar semantics follow the constant evaluator
// (lib/Dialect/GOpt/IR/ConstantEvaluator.cpp).
//
//===----------------------------------------------------------------------===//

#include "GOpt/Conversion/GOptToLinalg/GOptToLinalg.h"
#include "PopulatePatterns.h"

#include "GOpt/Dialect/GOpt/IR/GOptOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::gopt;

namespace {

/// gopt.fusion → its body, inlined in place (kernel boundaries are kept by
/// outlining first, see gopt-outline-kernels).
struct InlineFusionBody : OpConversionPattern<FusionOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(FusionOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Block &body = op.getBodyBlock();
    Operation *yield = body.getTerminator();
    SmallVector<Value> results(yield->getOperands());
    rewriter.inlineBlockBefore(&body, op, adaptor.getOperands());
    rewriter.eraseOp(yield);
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void mlir::gopt::populateGOptToLinalgPatterns(RewritePatternSet &patterns) {
  detail::populateElementwiseToLinalgPatterns(patterns);
  detail::populateReductionsToLinalgPatterns(patterns);
  detail::populateContractionsToLinalgPatterns(patterns);
  detail::populateDataMovementToLinalgPatterns(patterns);
  patterns.add<InlineFusionBody>(patterns.getContext());
}

void mlir::gopt::configureGOptToLinalgTarget(ConversionTarget &target) {
  target.addIllegalDialect<GOptDialect>();
  target.addLegalDialect<arith::ArithDialect, linalg::LinalgDialect,
                         math::MathDialect, tensor::TensorDialect>();
  // The kernel op code generation made stays for its target's lowering.
  target.addLegalOp<AttentionKernelOp>();
}
