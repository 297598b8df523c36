//===- ConvolutionsToGemm.cpp - Convolutions as im2col and a GEMM ---------===//
//
// A GPU has no convolution library here (cuDNN is not part of the CUDA
// toolkit), and a convolution lowered as loops is one dot product per output
// element. Written as an im2col copy and a contraction (upstream's
// linalg::rewriteInIm2Col), the contraction is a GEMM that cuBLAS computes
// and the copy one memory-bound launch. The copy of a padded input reads
// the input itself, the padding value where an index falls outside it, so
// the padded input is never built (on the GPU, a fill and a copy launch and
// a buffer less per convolution).
//
//===----------------------------------------------------------------------===//

#include "GOpt/Codegen/Common/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
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

/// Rewrites the im2col copy `copy` (a generic yielding the one element it
/// reads) of a tensor.pad with static sizes and a constant padding value to
/// read the pad's source: each index the copy's map computes is shifted by
/// the low padding and clamped into the source, and where it was outside,
/// the padding value is selected instead of the element read. Returns
/// whether it rewrote.
static bool readThroughPadding(RewriterBase &rewriter, linalg::GenericOp copy) {
  if (copy.getNumDpsInputs() != 1 || copy.getNumDpsInits() != 1)
    return false;
  auto pad = copy.getDpsInputs()[0].getDefiningOp<tensor::PadOp>();
  if (!pad || !pad->hasOneUse() || !pad.getLow().empty() ||
      !pad.getHigh().empty())
    return false;
  Attribute padAttr;
  Value padValue = pad.getConstantPaddingValue();
  if (!padValue || !matchPattern(padValue, m_Constant(&padAttr)))
    return false;
  Block *body = copy.getBody();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  if (body->getOperations().size() != 1 ||
      yield.getOperand(0) != body->getArgument(0))
    return false;
  Value source = pad.getSource();
  auto sourceType = cast<RankedTensorType>(source.getType());
  if (!sourceType.hasStaticShape())
    return false;
  ArrayRef<int64_t> low = pad.getStaticLow(), high = pad.getStaticHigh();
  AffineMap read = copy.getIndexingMapsArray()[0];
  AffineMap write = copy.getIndexingMapsArray()[1];
  unsigned numLoops = copy.getNumLoops();

  rewriter.setInsertionPoint(copy);
  auto reading = linalg::GenericOp::create(
      rewriter, copy.getLoc(), copy->getResultTypes(), ValueRange{},
      copy.getDpsInits(), ArrayRef<AffineMap>{write},
      copy.getIteratorTypesArray(),
      [&](OpBuilder &b, Location loc, ValueRange) {
        SmallVector<Value> loops;
        for (unsigned d = 0; d < numLoops; ++d)
          loops.push_back(linalg::IndexOp::create(b, loc, d));
        Value zero = arith::ConstantIndexOp::create(b, loc, 0);
        Value inside;
        SmallVector<Value> indices;
        for (auto [r, expr] : llvm::enumerate(read.getResults())) {
          AffineMap shifted = AffineMap::get(numLoops, 0, expr - low[r]);
          Value index = affine::AffineApplyOp::create(b, loc, shifted, loops);
          if (low[r] == 0 && high[r] == 0) {
            indices.push_back(index);
            continue;
          }
          Value last = arith::ConstantIndexOp::create(
              b, loc, sourceType.getDimSize(r) - 1);
          Value atLeastZero = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::sge, index, zero);
          Value atMostLast = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::sle, index, last);
          Value here = arith::AndIOp::create(b, loc, atLeastZero, atMostLast);
          inside = inside ? arith::AndIOp::create(b, loc, inside, here) : here;
          Value clamped = arith::MaxSIOp::create(b, loc, index, zero);
          indices.push_back(arith::MinSIOp::create(b, loc, clamped, last));
        }
        Value element = tensor::ExtractOp::create(b, loc, source, indices);
        if (inside) {
          Value padding =
              arith::ConstantOp::create(b, loc, cast<TypedAttr>(padAttr));
          element = arith::SelectOp::create(b, loc, inside, element, padding);
        }
        linalg::YieldOp::create(b, loc, element);
      });
  rewriter.replaceOp(copy, reading->getResults());
  rewriter.eraseOp(pad);
  return true;
}

/// Whether `conv` is 1x1 with unit strides and dilations on an input that
/// is not padded: its im2col tensor is its input with the spatial dims
/// collapsed, a view. `nchw`: an FCHW filter, else FHWC.
static bool isPointwise(linalg::LinalgOp conv, bool nchw) {
  auto strides = conv->getAttrOfType<DenseIntElementsAttr>("strides");
  auto dilations = conv->getAttrOfType<DenseIntElementsAttr>("dilations");
  auto ones = [](DenseIntElementsAttr attr) {
    return attr && llvm::all_of(attr.getValues<int64_t>(),
                                [](int64_t v) { return v == 1; });
  };
  if (!ones(strides) || !ones(dilations))
    return false;
  auto filter = cast<RankedTensorType>(conv.getDpsInputs()[1].getType());
  // FCHW: [F, C, KH, KW]; FHWC: [F, KH, KW, C].
  int64_t kh = filter.getDimSize(nchw ? 2 : 1);
  int64_t kw = filter.getDimSize(nchw ? 3 : 2);
  return kh == 1 && kw == 1 &&
         !conv.getDpsInputs()[0].getDefiningOp<tensor::PadOp>();
}

/// Replaces the im2col copy `copy` of a pointwise convolution's `input`
/// by the input's spatial dims collapsed (NCHW: [N, C, H·W]; NHWC:
/// [N, H·W, C]), when that is the copy's type: no copy, the GEMM reads the
/// input itself. Returns whether it replaced.
static bool collapseInsteadOfCopy(RewriterBase &rewriter, Operation *copy,
                                  Value input, bool nchw) {
  SmallVector<ReassociationIndices> groups =
      nchw ? SmallVector<ReassociationIndices>{{0}, {1}, {2, 3}}
           : SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}};
  RankedTensorType collapsedType = tensor::CollapseShapeOp::inferCollapsedType(
      cast<RankedTensorType>(input.getType()), groups);
  if (copy->getResultTypes() != TypeRange(collapsedType))
    return false;
  rewriter.setInsertionPoint(copy);
  auto collapsed = tensor::CollapseShapeOp::create(
      rewriter, copy->getLoc(), collapsedType, input, groups);
  rewriter.replaceOp(copy, collapsed.getResult());
  return true;
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
      bool nchw = isa<linalg::Conv2DNchwFchwOp>(conv);
      bool pointwise = isPointwise(conv, nchw);
      Value input = conv.getDpsInputs()[0];
      rewriter.setInsertionPoint(conv);
      FailureOr<std::pair<Operation *, Operation *>> rewritten =
          nchw ? linalg::rewriteInIm2Col(rewriter,
                                         cast<linalg::Conv2DNchwFchwOp>(conv))
               : linalg::rewriteInIm2Col(rewriter,
                                         cast<linalg::Conv2DNhwcFhwcOp>(conv));
      if (failed(rewritten))
        continue;
      ++numRewritten;
      if (pointwise &&
          collapseInsteadOfCopy(rewriter, rewritten->first, input, nchw)) {
        ++numPointwise;
        continue;
      }
      if (auto copy = dyn_cast<linalg::GenericOp>(rewritten->first))
        if (readThroughPadding(rewriter, copy))
          ++numPaddingsRead;
    }
  }
};

} // namespace
