//===- FuseKernelLoops.cpp - One loop nest per outlined kernel ------------===//
//
// A kernel function (`gopt.kernel`) holds the linalg ops of one gopt op or
// one gopt.fusion. Elementwise chains are fused into one generic first; the
// op computing the kernel's result is then tiled along the parallel
// dimensions that every in-kernel producer also iterates, and all producers
// are fused into the tile loops, so the kernel is one loop nest and no
// reduction is recomputed per tile.
//
// A contraction marked for the library (gopt-select-library-contractions)
// stays whole: nothing is fused into it or it into the tiles, and an
// epilogue that reads it where it writes is made to write in place into its
// result, so the kernel is the library call and then one loop nest over the
// output.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Codegen/Common/LibraryCalls.h"
#include "GOpt/Codegen/Common/Passes.h"
#include "GOpt/Codegen/Common/TileShapes.h"
#include "GOpt/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir {
namespace gopt {
#define GEN_PASS_DEF_GOPTFUSEKERNELLOOPS
#include "GOpt/Codegen/Common/Passes.h.inc"
} // namespace gopt
} // namespace mlir

using namespace mlir;
using namespace mlir::gopt;

/// Side of the square blocks a kernel that reads an input transposed is
/// tiled into (chooseTileSizes); gopt-vectorize-kernels cuts them into
/// kTransposeVectorTile squares.
static constexpr int64_t kTransposeBlock = 64;

/// The single-result linalg op on tensors that computes `v` (looking through
/// reshapes, which are views), or null.
static linalg::LinalgOp linalgProducer(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(def)) {
      v = def->getOperand(0);
      continue;
    }
    auto linalgOp = dyn_cast<linalg::LinalgOp>(def);
    if (linalgOp && linalgOp.hasPureTensorSemantics() &&
        isa<TilingInterface>(def) && def->getNumResults() == 1)
      return linalgOp;
    return nullptr;
  }
  return nullptr;
}

/// The ops computing the kernel's results, or an empty list when one of them
/// is not a linalg op. Library contractions are left out: they are calls
/// made before the loops, whose results the kernel can return as they are.
static SmallVector<linalg::LinalgOp> findResultOps(func::FuncOp func) {
  auto ret = dyn_cast<func::ReturnOp>(func.getBody().front().getTerminator());
  SmallVector<linalg::LinalgOp> ops;
  if (!ret || ret.getNumOperands() == 0)
    return {};
  for (Value v : ret.getOperands()) {
    linalg::LinalgOp op = linalgProducer(v);
    if (!op)
      return {};
    if (isLibraryCall(op))
      continue;
    if (!llvm::is_contained(ops, op))
      ops.push_back(op);
  }
  return ops;
}

/// Marks in `tileable` the root loop dimensions along which tiling recomputes
/// nothing: a dimension is dropped when some linalg producer in the kernel
/// is read through a map that does not depend on it (a reduction result
/// broadcast back, a matmul operand along the other output dimension).
/// Library contractions are computed whole before the loops: they restrict
/// nothing, and their own producers are not looked at.
static void restrictToShareableDims(linalg::LinalgOp op,
                                    ArrayRef<int64_t> dimToRoot,
                                    SmallVectorImpl<bool> &tileable,
                                    SmallPtrSetImpl<Operation *> &visited) {
  if (!visited.insert(op).second)
    return;
  for (OpOperand &operand : op->getOpOperands()) {
    auto producer = operand.get().getDefiningOp<linalg::LinalgOp>();
    if (!producer || producer->getNumResults() != 1 || isLibraryCall(producer))
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    SmallVector<bool> present(tileable.size(), false);
    SmallVector<int64_t> producerToRoot(producer.getNumLoops(), -1);
    AffineMap producerOut =
        producer.getIndexingMapMatchingResult(producer->getResult(0));
    for (auto [pos, expr] : llvm::enumerate(map.getResults())) {
      auto dimExpr = dyn_cast<AffineDimExpr>(expr);
      if (!dimExpr)
        continue;
      int64_t root = dimToRoot[dimExpr.getPosition()];
      if (root < 0)
        continue;
      present[root] = true;
      if (auto outDim = dyn_cast<AffineDimExpr>(producerOut.getResult(pos)))
        producerToRoot[outDim.getPosition()] = root;
    }
    for (auto [d, p] : llvm::enumerate(present))
      if (!p)
        tileable[d] = false;
    restrictToShareableDims(producer, producerToRoot, tileable, visited);
  }
}

/// Tile sizes for the root: the user's sizes on tileable dims, or by default
/// 1 on every tileable dim except the innermost parallel one, which stays
/// whole (contiguous rows for the vectorizer) unless nothing else is
/// tileable and the kernel has producers to fuse. A root that reads an input
/// transposed gets square blocks of up to kTransposeBlock on a side over its
/// innermost dim and the input's (transposedReadDim): one output row at a
/// time would read a column of the input, a cache line per element, at a
/// stride that maps every line to the same cache set (a transpose copied at
/// 3.5 GB/s instead of 26); gopt-vectorize-kernels cuts a block into 8 x 8
/// vector tiles.
static SmallVector<int64_t> chooseTileSizes(linalg::LinalgOp root,
                                            ArrayRef<bool> tileable,
                                            ArrayRef<int64_t> userSizes,
                                            bool fusesSeveralOps) {
  unsigned numLoops = root.getNumLoops();
  SmallVector<int64_t> sizes(numLoops, 0);
  SmallVector<int64_t> bounds = root.getStaticLoopRanges();
  if (!userSizes.empty()) {
    for (unsigned d = 0; d < numLoops; ++d)
      if (tileable[d])
        sizes[d] = userSizes[std::min<size_t>(d, userSizes.size() - 1)];
    return sizes;
  }
  int64_t inner = innermostParallelDim(root);
  bool any = false;
  for (unsigned d = 0; d < numLoops; ++d)
    if (tileable[d] && static_cast<int64_t>(d) != inner && bounds[d] > 1) {
      sizes[d] = 1;
      any = true;
    }
  if (inner >= 0 && tileable[inner] && bounds[inner] > 1) {
    int64_t column = transposedReadDim(root, inner);
    if (column >= 0 && tileable[column]) {
      // A short innermost dim (an image's 3 channels) makes a block one
      // vector tile wide: the column side stays a vector tile too.
      int64_t side = bounds[inner] <= kTransposeVectorTile
                         ? kTransposeVectorTile
                         : kTransposeBlock;
      sizes[column] = largestDivisorUpTo(bounds[column], side);
      sizes[inner] = largestDivisorUpTo(bounds[inner], side);
      return sizes;
    }
  }
  // Nothing else to tile and more than one op to fuse: tile the innermost
  // parallel dim by its largest divisor below 8.
  if (!any && inner >= 0 && tileable[inner] && bounds[inner] > 1 &&
      fusesSeveralOps)
    sizes[inner] = largestDivisorUpTo(bounds[inner],
                                      std::min<int64_t>(8, bounds[inner] - 1));
  return sizes;
}

namespace {

/// Whether a value the kernel returns from a producer of the loop nest also
/// reaches the nest another way (through a reshape, say): the loops compute
/// it tile by tile, so nothing can have it whole before them. Such a kernel
/// stays untiled (one loop nest per op).
bool returnedValueFeedsLoop(ArrayRef<linalg::LinalgOp> resultOps,
                            const SmallPtrSetImpl<Operation *> &fused) {
  SmallVector<Operation *> worklist;
  SmallPtrSet<Operation *, 16> seen;
  for (linalg::LinalgOp op : resultOps)
    for (Operation *user : op->getUsers())
      if (!fused.contains(user) && seen.insert(user).second)
        worklist.push_back(user);
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (fused.contains(op))
      return true;
    for (Operation *user : op->getUsers())
      if (seen.insert(user).second)
        worklist.push_back(user);
  }
  return false;
}

/// The loops now yield values of producers the kernel also returns, and
/// those values' users were moved onto the yielded ones; users that came
/// before the loops in program order (a reshape of a returned reduction)
/// must move after them, with whatever depends on them there. Fails when
/// one of them feeds the loops themselves.
LogicalResult moveUsersAfterLoop(Operation *loop,
                                 const llvm::SmallPtrSetImpl<Value> &values) {
  llvm::SmallPtrSet<Operation *, 8> moving;
  SmallVector<Operation *> order;
  for (Operation &op :
       llvm::make_range(loop->getBlock()->begin(), loop->getIterator())) {
    bool depends = llvm::any_of(op.getOperands(), [&](Value v) {
      if (values.contains(v))
        return true;
      Operation *def = v.getDefiningOp();
      return def && moving.contains(def);
    });
    if (!depends)
      continue;
    moving.insert(&op);
    order.push_back(&op);
  }
  for (Operation *op : order)
    for (Operation *user : op->getUsers())
      if (loop->isAncestor(user))
        return failure();
  Operation *after = loop;
  for (Operation *op : order) {
    op->moveAfter(after);
    after = op;
  }
  return success();
}

/// Fuses elementwise chains, then tiles each kernel's result op and fuses its
/// producers into the tile loops.
struct GOptFuseKernelLoopsPass
    : gopt::impl::GOptFuseKernelLoopsBase<GOptFuseKernelLoopsPass> {
  using GOptFuseKernelLoopsBase::GOptFuseKernelLoopsBase;

  void runOnOperation() override {
    if (llvm::any_of(tileSizes, [](int64_t s) { return s < 0; })) {
      emitError(getOperation().getLoc())
          << "gopt-fuse-kernel-loops: tile sizes must be non-negative";
      return signalPassFailure();
    }
    SmallVector<func::FuncOp> kernels;
    getOperation().walk([&](func::FuncOp func) {
      if (func->hasAttr(gopt::kKernelAttrName) && !func.isExternal())
        kernels.push_back(func);
    });
    for (func::FuncOp kernel : kernels) {
      if (failed(fuseElementwiseChains(kernel)))
        return signalPassFailure();
      if (failed(tileAndFuseKernel(kernel)))
        return signalPassFailure();
    }
  }

  /// Upstream elementwise-op fusion of producers that have one use (so no
  /// work is duplicated), never into a library contraction (sgemm reads
  /// its operands from memory); then an epilogue reading a library
  /// contraction is made to write into its result.
  ///
  /// Library contractions are not handed to the driver at all: upstream's
  /// splat-constant folding (part of the fusion patterns, and blind to the
  /// control function) would inline a splat weight into the contraction's
  /// body and rebuild it without its `library_call`, so a GEMM with a
  /// uniform weight fell off the library path into generated loops, 5x
  /// slower at 256x512x512.
  LogicalResult fuseElementwiseChains(func::FuncOp kernel) {
    // With gemm-epilogues, a linear's bias moves from the GEMM's initial
    // value to a generic after it, which the fusion below merges with what
    // follows: one epilogue the GEMM's call may apply.
    if (gemmEpilogues) {
      SmallVector<Operation *> gemms;
      kernel.walk([&](linalg::GenericOp op) {
        if (isLibrarySgemm(op))
          gemms.push_back(op);
      });
      RewritePatternSet moveBias(&getContext());
      populateMoveBiasInitPatterns(moveBias);
      if (failed(applyOpPatternsGreedily(gemms, std::move(moveBias))))
        return failure();
    }
    RewritePatternSet patterns(&getContext());
    linalg::populateElementwiseOpsFusionPatterns(
        patterns, [](OpOperand *fused) {
          Operation *producer = fused->get().getDefiningOp();
          return producer && producer->hasOneUse() &&
                 !isLibraryCall(fused->getOwner());
        });
    linalg::GenericOp::getCanonicalizationPatterns(patterns, &getContext());
    FrozenRewritePatternSet frozen(std::move(patterns));
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    // One driver run over a fixed op list does not revisit what a fusion
    // made fusable (the producer it leaves dead still counts as a use), so
    // the list is collected afresh until nothing changes, as the
    // whole-function driver iterates.
    for (int iteration = 0; iteration < 16; ++iteration) {
      SmallVector<Operation *> roots;
      kernel.walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (isLibraryCall(op))
          return WalkResult::skip();
        if (op != kernel.getOperation())
          roots.push_back(op);
        return WalkResult::advance();
      });
      bool changed = false;
      if (failed(applyOpPatternsGreedily(roots, frozen, config, &changed)))
        return failure();
      if (!changed)
        break;
    }
    RewritePatternSet inPlace(&getContext());
    populateEpilogueInPlacePatterns(inPlace, convolutionEpilogues,
                                    gemmEpilogues);
    return applyPatternsGreedily(kernel, std::move(inPlace));
  }

  LogicalResult tileAndFuseKernel(func::FuncOp kernel) {
    // The root is the last result op; the kernel's other results must be
    // computed by its producers, which then also yield their values.
    SmallVector<linalg::LinalgOp> resultOps = findResultOps(kernel);
    if (resultOps.empty()) {
      ++numUntiledKernels;
      return success();
    }
    linalg::LinalgOp root = resultOps.front();
    for (linalg::LinalgOp op : resultOps)
      if (root->isBeforeInBlock(op))
        root = op;
    unsigned numLoops = root.getNumLoops();
    SmallVector<bool> tileable;
    for (utils::IteratorType it : root.getIteratorTypesArray())
      tileable.push_back(it == utils::IteratorType::parallel);
    SmallVector<int64_t> identity;
    for (unsigned d = 0; d < numLoops; ++d)
      identity.push_back(d);
    SmallPtrSet<Operation *, 16> visited;
    restrictToShareableDims(root, identity, tileable, visited);
    bool reachesAll = llvm::all_of(resultOps, [&](linalg::LinalgOp op) {
      return visited.contains(op.getOperation());
    });
    // Empty tensors: nothing to compute per tile (and upstream tiling does
    // not expect zero-extent loops).
    bool empty = llvm::any_of(visited, [](Operation *op) {
      return llvm::is_contained(
          cast<linalg::LinalgOp>(op).getStaticLoopRanges(), 0);
    });
    if (!reachesAll || empty || returnedValueFeedsLoop(resultOps, visited)) {
      ++numUntiledKernels;
      return success();
    }
    SmallVector<int64_t> sizes =
        chooseTileSizes(root, tileable, tileSizes, visited.size() > 1);
    if (llvm::all_of(sizes, [](int64_t s) { return s == 0; })) {
      ++numUntiledKernels;
      return success();
    }

    IRRewriter rewriter(&getContext());
    rewriter.setInsertionPoint(root);
    scf::SCFTilingOptions tiling;
    SmallVector<OpFoldResult> sizeAttrs;
    for (int64_t s : sizes)
      sizeAttrs.push_back(rewriter.getIndexAttr(s));
    tiling.setTileSizes(sizeAttrs);
    if (parallelTileLoops)
      tiling.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
    scf::SCFTileAndFuseOptions options;
    options.setTilingOptions(tiling);
    // Producers whose values the kernel returns are yielded by the loops;
    // library contractions stay outside them.
    options.setFusionControlFn(
        [&](tensor::ExtractSliceOp, OpResult producer, bool)
            -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
          if (isLibraryCall(producer.getOwner()))
            return std::nullopt;
          scf::SCFTileAndFuseOptions::ControlFnResult control;
          control.yieldProducerReplacement =
              llvm::is_contained(resultOps, producer.getOwner());
          return control;
        });
    FailureOr<scf::SCFTileAndFuseResult> result =
        scf::tileConsumerAndFuseProducersUsingSCF(
            rewriter, cast<TilingInterface>(root.getOperation()), options);
    if (failed(result))
      return root->emitOpError("gopt-fuse-kernel-loops: tiling failed");
    Operation *outer = result->loops.front().getOperation();
    llvm::SmallPtrSet<Value, 4> replacements;
    for (linalg::LinalgOp op : resultOps)
      for (OpResult res : op->getResults())
        if (Value replacement = result->replacements.lookup(res)) {
          // The original fused ops are dead once their results are
          // replaced: only other users move onto the loops' values.
          rewriter.replaceUsesWithIf(res, replacement, [&](OpOperand &use) {
            return !outer->isAncestor(use.getOwner()) &&
                   !visited.contains(use.getOwner());
          });
          replacements.insert(replacement);
        }
    if (failed(moveUsersAfterLoop(outer, replacements)))
      return root->emitOpError("gopt-fuse-kernel-loops: a value the kernel "
                               "returns is also needed inside its loop nest");
    // Producers fused into the loops are dead outside them now.
    RewritePatternSet none(&getContext());
    if (failed(applyPatternsGreedily(kernel, std::move(none))))
      return failure();
    ++numTiledKernels;
    return success();
  }
};

} // namespace
