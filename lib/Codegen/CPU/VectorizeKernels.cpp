//===- VectorizeKernels.cpp - Vectorize the linalg ops of the tiles -------===//
//
// After gopt-fuse-kernel-loops, the ops inside each tile loop have small
// static shapes: the upstream vectorizer turns each into vector transfers and
// vector arithmetic. Ops it rejects (windowed convolutions and pooling,
// gathers) stay as they are and become scalar loops.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Codegen/CPU/Passes.h"
#include "GOpt/Codegen/Common/LibraryContractions.h"
#include "GOpt/Codegen/Common/TileShapes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace gopt {
#define GEN_PASS_DEF_GOPTVECTORIZEKERNELS
#define GEN_PASS_DEF_GOPTLOWERVECTORS
#include "GOpt/Codegen/CPU/Passes.h.inc"
} // namespace gopt
} // namespace mlir

using namespace mlir;

/// Largest iteration space (in elements) turned into one set of vectors;
/// larger ops are first tiled into pieces of at most this size.
static constexpr int64_t kMaxVectorElements = 1024;
/// Longest innermost loop turned into one vector row; longer ones are tiled
/// too. Wider rows (a squeeze-excite scale of 576 channels as one
/// `<576 x float>`) leave LLVM's instruction scheduler one huge block of
/// split vector ops: a second of code generation for one small kernel.
static constexpr int64_t kMaxVectorRow = 256;

/// gopt::transposedReadDim for an op without reductions (its square vector
/// tiles cover every loop but the two), else -1.
static int64_t transposedRead(linalg::LinalgOp op, int64_t inner) {
  if (op.getNumReductionLoops() != 0)
    return -1;
  return gopt::transposedReadDim(op, inner);
}

/// Whether `op` must be tiled before it is vectorized: too many elements,
/// or too long an innermost loop, for one set of vectors.
static bool needsVectorTiles(linalg::LinalgOp op, int64_t iterations) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (iterations > kMaxVectorElements ||
      (!ranges.empty() && ranges.back() > kMaxVectorRow))
    return true;
  // A transposed read larger than one vector tile.
  int64_t inner = gopt::innermostParallelDim(op);
  int64_t column = transposedRead(op, inner);
  return column >= 0 && (ranges[inner] > gopt::kTransposeVectorTile ||
                         ranges[column] > gopt::kTransposeVectorTile);
}

/// The op's iteration-space size, or 0 when it is dynamic or empty.
static int64_t staticIterations(linalg::LinalgOp op) {
  int64_t elements = 1;
  for (int64_t size : op.getStaticLoopRanges()) {
    if (ShapedType::isDynamic(size))
      return 0;
    elements *= size;
  }
  return elements;
}

/// Whether the op reads or writes a tensor of i1.
static bool hasI1Operand(linalg::LinalgOp op) {
  return llvm::any_of(op->getOperandTypes(), [](Type t) {
    auto shaped = dyn_cast<ShapedType>(t);
    return shaped && shaped.getElementType().isInteger(1);
  });
}

/// Whether `op` is a library contraction, or the fill of its result, maybe
/// reshaped (which gopt-lower-library-contractions turns into `beta = 0`).
static bool isLibraryWork(linalg::LinalgOp op) {
  if (gopt::isLibraryCall(op))
    return true;
  if (!isa<linalg::FillOp>(op))
    return false;
  Operation *user = op;
  while (user->hasOneUse()) {
    user = *user->getUsers().begin();
    if (gopt::isLibraryCall(user))
      return true;
    if (!isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(user))
      return false;
  }
  return false;
}

static bool canVectorize(linalg::LinalgOp op) {
  // Zero-loop ops and empty iteration spaces trip the upstream vectorizer.
  // Ops touching i1 tensors stay scalar: a memref<Nxi1> is stored one byte
  // per element (what scalar loads and stores use), but a vector<Nxi1>
  // transfer becomes an LLVM load of bit-packed <N x i1>, which reads the
  // bits of those bytes (found by gopt-difftest: a select fused with a
  // broadcast_to read wrong conditions; test/Integration/CPU/i1-vector.mlir).
  // Library contractions (and the fill of their result) become a call.
  return op.hasPureTensorSemantics() && op.getNumLoops() > 0 &&
         !isLibraryWork(op) && staticIterations(op) > 0 && !hasI1Operand(op) &&
         succeeded(linalg::vectorizeOpPrecondition(op));
}

/// Register-sized tiles: up to 32 along the innermost parallel dim, up to
/// 16 along the innermost reduction dim, 1 elsewhere; divisors only, so the
/// tiles keep static shapes.
static SmallVector<int64_t> vectorTileSizes(linalg::LinalgOp op) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  auto iterators = op.getIteratorTypesArray();
  SmallVector<int64_t> sizes(ranges.size(), 1);
  int64_t inner = gopt::innermostParallelDim(op);
  int64_t column = transposedRead(op, inner);
  if (column >= 0) {
    sizes[inner] =
        gopt::largestDivisorUpTo(ranges[inner], gopt::kTransposeVectorTile);
    sizes[column] =
        gopt::largestDivisorUpTo(ranges[column], gopt::kTransposeVectorTile);
    return sizes;
  }
  bool parallelDone = false, reductionDone = false;
  for (int64_t d = static_cast<int64_t>(ranges.size()) - 1; d >= 0; --d) {
    bool parallel = iterators[d] == utils::IteratorType::parallel;
    if (parallel && !parallelDone) {
      sizes[d] = gopt::largestDivisorUpTo(ranges[d], 32);
      parallelDone = true;
    } else if (!parallel && !reductionDone) {
      sizes[d] = gopt::largestDivisorUpTo(ranges[d], 16);
      reductionDone = true;
    }
  }
  return sizes;
}

/// Tile sizes that leave a named 2-D convolution or pooling op one output
/// row of one channel with a one-row window, the shape
/// populateDecomposeConvolutionPatterns turns into a vectorizable 1-D op.
static std::optional<SmallVector<int64_t>>
convolutionRowTileSizes(linalg::LinalgOp op) {
  FailureOr<linalg::ConvolutionDimensions> dims =
      linalg::inferConvolutionDims(op);
  if (failed(dims) || dims->outputImage.size() != 2 ||
      dims->filterLoop.size() != 2)
    return std::nullopt;
  SmallVector<int64_t> sizes(op.getNumLoops(), 0);
  for (unsigned d : dims->batch)
    sizes[d] = 1;
  for (unsigned d : dims->outputChannel)
    sizes[d] = 1;
  sizes[dims->outputImage[0]] = 1;
  sizes[dims->filterLoop[0]] = 1;
  return sizes;
}

namespace {

/// Vectorizes every static linalg op the vectorizer accepts, tiling large
/// ones into register-sized pieces first.
struct GOptVectorizeKernelsPass
    : gopt::impl::GOptVectorizeKernelsBase<GOptVectorizeKernelsPass> {
  /// The pattern sets, frozen once per pass rather than once per kernel:
  /// freezing a set whose patterns match an interface walks every
  /// registered op, and the tools register every dialect they can lower
  /// to (a quarter of a second on DenseNet-121's 243 kernels).
  FrozenRewritePatternSet decomposeConvolutionPatterns;
  FrozenRewritePatternSet unitDimPatterns;
  FrozenRewritePatternSet cleanupPatterns;

  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet decompose(context);
    linalg::populateDecomposeConvolutionPatterns(decompose);
    decomposeConvolutionPatterns = std::move(decompose);

    linalg::ControlDropUnitDims control;
    // Rank-reducing slices, not reshapes: a reshape of a strided tile would
    // be a copy once bufferized.
    control.rankReductionStrategy =
        linalg::ControlDropUnitDims::RankReductionStrategy::ExtractInsertSlice;
    control.controlFn = [](Operation *op) -> SmallVector<unsigned> {
      auto generic = dyn_cast<linalg::GenericOp>(op);
      if (!generic || gopt::isLibraryCall(op) ||
          !generic.hasPureTensorSemantics() || generic.getNumLoops() < 2 ||
          generic.getStaticLoopRanges().back() != 1)
        return {};
      return llvm::to_vector(llvm::seq<unsigned>(0, generic.getNumLoops()));
    };
    RewritePatternSet unitDims(context);
    linalg::populateFoldUnitExtentDimsPatterns(unitDims, control);
    unitDimPatterns = std::move(unitDims);

    RewritePatternSet cleanup(context);
    linalg::populatePadOpVectorizationPatterns(cleanup);
    vector::populateVectorTransferPermutationMapLoweringPatterns(cleanup);
    vector::populateVectorReductionToContractPatterns(cleanup);
    vector::populateSinkVectorOpsPatterns(cleanup);
    cleanupPatterns = std::move(cleanup);
    return success();
  }

  /// Tiles `op` along the dims where `sizes` is non-zero, with an
  /// scf.forall (parallel dims only) or scf.for loops, and returns the op
  /// inside the loops (`op` itself when no size is set).
  static FailureOr<linalg::LinalgOp> tileDims(IRRewriter &rewriter,
                                              linalg::LinalgOp op,
                                              ArrayRef<int64_t> sizes,
                                              bool forall) {
    if (llvm::all_of(sizes, [](int64_t s) { return s == 0; }))
      return op;
    rewriter.setInsertionPoint(op);
    SmallVector<OpFoldResult> sizeAttrs;
    for (int64_t s : sizes)
      sizeAttrs.push_back(rewriter.getIndexAttr(s));
    scf::SCFTilingOptions options;
    options.setTileSizes(sizeAttrs);
    if (forall)
      options.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
    FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
        rewriter, cast<TilingInterface>(op.getOperation()), options);
    if (failed(tiled) || tiled->tiledOps.size() != 1)
      return failure();
    rewriter.replaceOp(op, tiled->replacements);
    auto inner = dyn_cast<linalg::LinalgOp>(tiled->tiledOps.front());
    if (!inner)
      return failure();
    return inner;
  }

  /// Tiles `op` with vectorTileSizes and returns the op inside the loops:
  /// the parallel dims by an scf.forall (its iterations are independent:
  /// gopt-parallelize-kernel-loops may run them on several threads), the
  /// reduction dims by scf.for loops inside it.
  static FailureOr<linalg::LinalgOp> tileForVectors(IRRewriter &rewriter,
                                                    linalg::LinalgOp op) {
    SmallVector<int64_t> sizes = vectorTileSizes(op);
    auto iterators = op.getIteratorTypesArray();
    SmallVector<int64_t> parallelSizes(sizes.size(), 0);
    SmallVector<int64_t> reductionSizes(sizes.size(), 0);
    for (auto [d, size] : llvm::enumerate(sizes)) {
      if (iterators[d] == utils::IteratorType::parallel)
        parallelSizes[d] = size;
      else
        reductionSizes[d] = size;
    }
    FailureOr<linalg::LinalgOp> tile =
        tileDims(rewriter, op, parallelSizes, /*forall=*/true);
    if (failed(tile))
      return failure();
    return tileDims(rewriter, *tile, reductionSizes, /*forall=*/false);
  }

  static void vectorizeOne(IRRewriter &rewriter, linalg::LinalgOp op) {
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::VectorizationResult> result =
        linalg::vectorize(rewriter, op);
    if (failed(result))
      return;
    if (op->getNumResults())
      rewriter.replaceOp(op, result->replacements);
    else
      rewriter.eraseOp(op);
  }

  /// Tiles named 2-D convolutions and poolings to single rows and
  /// decomposes them into 1-D ops the vectorizer handles.
  LogicalResult decomposeConvolutions() {
    SmallVector<linalg::LinalgOp> convs;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (isa<linalg::ConvolutionOpInterface>(op.getOperation()) &&
          op.hasPureTensorSemantics() && staticIterations(op) > 0 &&
          !gopt::isLibraryCall(op))
        convs.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : convs) {
      std::optional<SmallVector<int64_t>> sizes = convolutionRowTileSizes(op);
      if (!sizes)
        continue;
      rewriter.setInsertionPoint(op);
      SmallVector<OpFoldResult> sizeAttrs;
      for (int64_t s : *sizes)
        sizeAttrs.push_back(rewriter.getIndexAttr(s));
      scf::SCFTilingOptions options;
      options.setTileSizes(sizeAttrs);
      FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
          rewriter, cast<TilingInterface>(op.getOperation()), options);
      if (succeeded(tiled))
        rewriter.replaceOp(op, tiled->replacements);
    }
    // Only the convolutions and poolings the loops compute: the patterns
    // would also rewrite a marked library convolution with a size-one
    // window (a 1x1 convolution on a 1x1 image) into a 1-D op without its
    // mark.
    SmallVector<Operation *> windowed;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (isa<linalg::ConvolutionOpInterface>(op.getOperation()) &&
          !gopt::isLibraryCall(op))
        windowed.push_back(op);
    });
    return applyOpPatternsGreedily(windowed, decomposeConvolutionPatterns);
  }

  /// Drops unit dims from the generics the loops compute (not from library
  /// calls) whose innermost loop has size 1: a vector<1x576x1x1xf32> would
  /// be unrolled into 576 one-element vectors (and its transposes into 576
  /// element moves); vector<576xf32> stays a few full-width registers.
  /// Generics with a wider innermost loop keep their shape (their vectors
  /// are rows already, and their reads may be strided).
  LogicalResult dropUnitDims() {
    return applyPatternsGreedily(getOperation(), unitDimPatterns);
  }

  void runOnOperation() override {
    if (failed(decomposeConvolutions()) || failed(dropUnitDims()))
      return signalPassFailure();
    SmallVector<linalg::LinalgOp> candidates;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (canVectorize(op))
        candidates.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : candidates) {
      if (needsVectorTiles(op, staticIterations(op))) {
        FailureOr<linalg::LinalgOp> tile = tileForVectors(rewriter, op);
        if (failed(tile))
          continue;
        op = *tile;
      }
      if (staticIterations(op) == 0 ||
          staticIterations(op) > kMaxVectorElements)
        continue;
      vectorizeOne(rewriter, op);
    }
    if (failed(applyPatternsGreedily(getOperation(), cleanupPatterns)))
      return signalPassFailure();
  }
};

/// A float sum or product along a vector may be taken in any order: LLVM
/// then combines the lanes pairwise in registers (a few shuffles and adds
/// per vector) instead of one lane after another, a chain of dependent
/// scalar adds as long as the vector (a softmax or layer norm row of 128
/// floats: 128 adds of 4 cycles' latency each). Pairwise sums are at least
/// as accurate as the sequential ones.
struct ReassociateFloatReductions : OpRewritePattern<vector::ReductionOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::ReductionOp op,
                                PatternRewriter &rewriter) const override {
    vector::CombiningKind kind = op.getKind();
    if (!isa<FloatType>(op.getType()) || (kind != vector::CombiningKind::ADD &&
                                          kind != vector::CombiningKind::MUL))
      return failure();
    arith::FastMathFlags flags = op.getFastmath();
    if (arith::bitEnumContainsAll(flags, arith::FastMathFlags::reassoc))
      return failure();
    rewriter.modifyOpInPlace(
        op, [&] { op.setFastmath(flags | arith::FastMathFlags::reassoc); });
    return success();
  }
};

/// Progressive lowering of n-D vector ops towards 1-D ones.
struct GOptLowerVectorsPass
    : gopt::impl::GOptLowerVectorsBase<GOptLowerVectorsPass> {
  /// Frozen once per pass, not once per kernel.
  FrozenRewritePatternSet frozenPatterns;

  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet patterns(context);
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
    patterns.add<ReassociateFloatReductions>(context);
    frozenPatterns = std::move(patterns);
    return success();
  }

  void runOnOperation() override {
    if (failed(applyPatternsGreedily(getOperation(), frozenPatterns)))
      return signalPassFailure();
  }
};

} // namespace
