//===- ConvolutionsToGemm.cpp - Convolutions as im2col and a GEMM ---------===//
//
// A GPU has no convolution library here (cuDNN is not part of the CUDA
// toolkit), and a convolution lowered as loops is one dot product per output
// element. Written as an im2col copy and a contraction (upstream's
// linalg::rewriteInIm2Col), the contraction is a GEMM that cuBLAS computes
// and the copy one memory-bound launch.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Codegen/Common/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace gopt {
#define GEN_PASS_DEF_GOPTCONVOLUTIONSTOGEMM
#include "GOpt/Codegen/Common/Passes.h.inc"
} // namespace gopt
} // namespace mlir

using namespace mlir;

/// Whether every operand of `conv` is an f32 tensor of static shape.
static bool isStaticF32(linalg::LinalgOp conv) {
  if (!conv.hasPureTensorSemantics())
    return false;
  return llvm::all_of(conv->getOperandTypes(), [](Type type) {
    auto shaped = dyn_cast<RankedTensorType>(type);
    return shaped && shaped.hasStaticShape() && shaped.getElementType().isF32();
  });
}

namespace {

struct GOptConvolutionsToGemmPass
    : gopt::impl::GOptConvolutionsToGemmBase<GOptConvolutionsToGemmPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> convolutions;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (isa<linalg::Conv2DNchwFchwOp, linalg::Conv2DNhwcFhwcOp>(op) &&
          isStaticF32(op))
        convolutions.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp conv : convolutions) {
      rewriter.setInsertionPoint(conv);
      FailureOr<std::pair<Operation *, Operation *>> rewritten =
          isa<linalg::Conv2DNchwFchwOp>(conv)
              ? linalg::rewriteInIm2Col(rewriter,
                                        cast<linalg::Conv2DNchwFchwOp>(conv))
              : linalg::rewriteInIm2Col(rewriter,
                                        cast<linalg::Conv2DNhwcFhwcOp>(conv));
      if (succeeded(rewritten))
        ++numRewritten;
    }
  }
};

} // namespace
