//===- MapKernels.cpp - One gpu.launch per kernel loop nest ---------------===//
//
// After bufferization a kernel function holds its tile loop nest as one
// scf.parallel (gopt-fuse-kernel-loops made it an scf.forall over the
// parallel dims no producer reduces, scf-forall-to-parallel made that a
// parallel loop). Each such loop becomes one gpu.launch over a flattened,
// one-dimensional grid: thread t of block b runs iteration b * blockSize + t,
// the innermost dimension varying fastest, so neighbouring threads read and
// write neighbouring elements (coalesced) on the usual row-major layouts.
//
//===----------------------------------------------------------------------===//

#include "BlockTiles.h"
#include "LoopSpace.h"

#include "GOpt/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace gopt {
#define GEN_PASS_DEF_GOPTGPUMAPKERNELS
#include "GOpt/Codegen/GPU/Passes.h.inc"
} // namespace gopt
} // namespace mlir

using namespace mlir;
using namespace mlir::gopt;

bool mlir::gopt::isHostCode(Operation *op) {
  return !op->getParentOfType<gpu::GPUModuleOp>() &&
         !op->getParentOfType<gpu::LaunchOp>();
}

namespace {

/// Moves every static `memref.alloc` inside `launch` to the top of its body
/// as a `memref.alloca` (thread-private memory, a static frame slot) and
/// erases the deallocations; a dynamic one is an error. Copies inside
/// become `linalg.copy` (loops in the thread, not a runtime call).
LogicalResult privatizeAllocations(gpu::LaunchOp launch) {
  SmallVector<memref::AllocOp> allocs;
  SmallVector<memref::DeallocOp> deallocs;
  SmallVector<memref::CopyOp> copies;
  launch.getBody().walk([&](Operation *op) {
    if (auto alloc = dyn_cast<memref::AllocOp>(op))
      allocs.push_back(alloc);
    else if (auto dealloc = dyn_cast<memref::DeallocOp>(op))
      deallocs.push_back(dealloc);
    else if (auto copy = dyn_cast<memref::CopyOp>(op))
      copies.push_back(copy);
  });
  for (memref::DeallocOp dealloc : deallocs)
    dealloc.erase();
  for (memref::CopyOp copy : copies) {
    OpBuilder builder(copy);
    linalg::CopyOp::create(builder, copy.getLoc(), copy.getSource(),
                           copy.getTarget());
    copy.erase();
  }
  Block &entry = launch.getBody().front();
  OpBuilder builder(&entry, entry.begin());
  for (memref::AllocOp alloc : allocs) {
    if (!alloc.getType().hasStaticShape())
      return alloc.emitOpError(
          "gopt-gpu-map-kernels: a kernel tile allocates a buffer of dynamic "
          "shape; GPU kernels need static shapes");
    auto alloca = memref::AllocaOp::create(builder, alloc.getLoc(),
                                           alloc.getType(),
                                           alloc.getAlignmentAttr());
    alloc.replaceAllUsesWith(alloca.getResult());
    alloc.erase();
  }
  return success();
}

/// The static trip count of `loop` (the product of its extents), or none.
std::optional<int64_t> staticTripCount(scf::ParallelOp loop) {
  int64_t count = 1;
  for (auto [lb, ub, step] : llvm::zip(
           loop.getLowerBound(), loop.getUpperBound(), loop.getStep())) {
    std::optional<int64_t> l = getConstantIntValue(lb),
                           u = getConstantIntValue(ub),
                           s = getConstantIntValue(step);
    if (!l || !u || !s || *s <= 0)
      return std::nullopt;
    count *= (*u - *l + *s - 1) / *s;
  }
  return count;
}

/// Replaces `loop` by a gpu.launch of blocks of blockSize threads, each
/// thread running the body for `perThread` iterations: iteration
/// (b * perThread + j) * blockSize + t for j < perThread (neighbouring
/// threads, neighbouring iterations, in each of the thread's copies of the
/// body). With perThread = 1, ceil(N / blockSize) blocks and a guard
/// `index < N`; with more, N is a multiple of perThread * blockSize and no
/// guard is needed, so the copies are straight-line code whose loads
/// gopt-gpu-hoist-loads can issue together.
FailureOr<gpu::LaunchOp> launchParallelLoop(scf::ParallelOp loop,
                                            int64_t blockSize,
                                            int64_t perThread) {
  if (loop.getNumResults() != 0)
    return loop.emitOpError("gopt-gpu-map-kernels: a parallel loop with "
                            "reductions across its iterations is not "
                            "supported");
  OpBuilder builder(loop);
  Location loc = loop.getLoc();
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, v);
  };
  LoopSpace space = computeLoopSpace(builder, loop);
  Value total = space.total;
  Value threads = constant(blockSize);
  Value blocks = arith::CeilDivUIOp::create(
      builder, loc, total, constant(blockSize * perThread));
  Value one = constant(1);
  auto launch =
      gpu::LaunchOp::create(builder, loc, blocks, one, one, threads, one, one);

  Block &body = launch.getBody().front();
  builder.setInsertionPointToStart(&body);
  auto terminator = gpu::TerminatorOp::create(builder, loc);
  Block *loopBody = loop.getBody();
  for (int64_t j = 0; j < perThread; ++j) {
    builder.setInsertionPoint(terminator);
    Value first = arith::MulIOp::create(
        builder, loc,
        arith::AddIOp::create(
            builder, loc,
            arith::MulIOp::create(builder, loc, launch.getBlockIds().x,
                                  constant(perThread)),
            constant(j)),
        threads);
    Value linear =
        arith::AddIOp::create(builder, loc, first, launch.getThreadIds().x);
    if (perThread == 1) {
      Value inRange = arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::ult, linear, total);
      auto guard = scf::IfOp::create(builder, loc, inRange, /*withElse=*/false);
      builder.setInsertionPoint(guard.thenBlock()->getTerminator());
    }
    // Delinearize, innermost dimension fastest, into the loop's variables.
    SmallVector<Value> ivs =
        delinearizeIteration(builder, loc, linear, loop, space.extents);
    IRMapping mapping;
    for (auto [iv, value] : llvm::zip(loopBody->getArguments(), ivs))
      mapping.map(iv, value);
    for (Operation &op : loopBody->without_terminator())
      builder.clone(op, mapping);
  }
  loop.erase();
  if (failed(privatizeAllocations(launch)))
    return failure();
  return launch;
}

/// Wraps `op` (an op with no parallel loop: a whole reduction, a 0-d op)
/// into a one-iteration scf.parallel: one thread runs it.
scf::ParallelOp wrapInSingleIteration(Operation *op) {
  OpBuilder builder(op);
  Location loc = op->getLoc();
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  auto loop = scf::ParallelOp::create(builder, loc, ValueRange{zero},
                                      ValueRange{one}, ValueRange{one});
  op->moveBefore(loop.getBody()->getTerminator());
  return loop;
}

/// `op` with its parallel loops before its reductions (a generic op,
/// interchanged), or `op` itself when they already are.
FailureOr<linalg::LinalgOp> parallelLoopsFirst(RewriterBase &rewriter,
                                               linalg::LinalgOp op) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<unsigned> order;
  for (auto [d, it] : llvm::enumerate(iterators))
    if (it == utils::IteratorType::parallel)
      order.push_back(d);
  for (auto [d, it] : llvm::enumerate(iterators))
    if (it != utils::IteratorType::parallel)
      order.push_back(d);
  bool sorted = llvm::all_of(llvm::enumerate(order), [](auto pair) {
    return pair.index() == pair.value();
  });
  if (sorted)
    return op;
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::GenericOp> generic =
      isa<linalg::GenericOp>(op) ? cast<linalg::GenericOp>(op.getOperation())
                                 : linalg::generalizeNamedOp(rewriter, op);
  if (failed(generic))
    return failure();
  FailureOr<linalg::GenericOp> interchanged =
      linalg::interchangeGenericOp(rewriter, *generic, order);
  if (failed(interchanged))
    return failure();
  return cast<linalg::LinalgOp>(interchanged->getOperation());
}

struct GOptGPUMapKernelsPass
    : gopt::impl::GOptGPUMapKernelsBase<GOptGPUMapKernelsPass> {
  using GOptGPUMapKernelsBase::GOptGPUMapKernelsBase;

  void runOnOperation() override {
    if (blockSize < 1 || blockSize > 1024) {
      emitError(getOperation().getLoc())
          << "gopt-gpu-map-kernels: block-size must be in [1, 1024], got "
          << static_cast<int64_t>(blockSize);
      return signalPassFailure();
    }
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      if (failed(mapFunction(func)))
        return signalPassFailure();
    }
  }

  /// Iterations per thread for `loop`: elements-per-thread when the
  /// static trip count is a multiple of it times the block size and the
  /// body reduces nothing (each iteration a few loads and one store),
  /// else 1.
  int64_t elementsPerThread(scf::ParallelOp loop) {
    std::optional<int64_t> count = staticTripCount(loop);
    int64_t chunk = elementsPerThreadOption * blockSize;
    if (elementsPerThreadOption <= 1 || !count || *count % chunk != 0)
      return 1;
    bool reduces = false;
    loop.getBody()->walk([&](linalg::LinalgOp op) {
      reduces |= op.getNumReductionLoops() > 0;
    });
    return reduces ? 1 : elementsPerThreadOption;
  }

  /// The ops of `func` that compute on buffers at the host level: parallel
  /// loops, linalg ops and copies (not the staged host-to-device ones).
  static SmallVector<Operation *> collectComputations(func::FuncOp func) {
    SmallVector<Operation *> ops;
    func.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<gpu::LaunchOp>(op))
        return WalkResult::skip();
      if (isa<scf::ParallelOp, linalg::LinalgOp>(op) ||
          (isa<memref::CopyOp>(op) && !op->hasAttr(kHostToDeviceAttrName))) {
        ops.push_back(op);
        return WalkResult::skip();
      }
      return WalkResult::advance();
    });
    return ops;
  }

  LogicalResult mapFunction(func::FuncOp func) {
    IRRewriter rewriter(func.getContext());
    for (Operation *op : collectComputations(func)) {
      if (auto copy = dyn_cast<memref::CopyOp>(op)) {
        rewriter.setInsertionPoint(copy);
        op = linalg::CopyOp::create(rewriter, copy.getLoc(), copy.getSource(),
                                    copy.getTarget());
        rewriter.eraseOp(copy);
      }
      scf::ParallelOp loop = dyn_cast<scf::ParallelOp>(op);
      if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
        FailureOr<scf::ParallelOp> lowered = toParallelLoop(rewriter, linalgOp);
        if (failed(lowered))
          return failure();
        loop = *lowered;
      }
      if (prefersBlockPerTile(loop)) {
        if (failed(launchTilesOnBlocks(loop, blockSize)))
          return failure();
        ++numBlockPerTileLaunches;
      } else if (failed(launchParallelLoop(loop, blockSize,
                                           elementsPerThread(loop)))) {
        return failure();
      }
      ++numLaunches;
    }
    return success();
  }

  /// `op` as one scf.parallel over its parallel loops (its reductions
  /// sequential inside), or, when it has none (a whole reduction, a 0-d
  /// op), inside a one-iteration scf.parallel: one thread runs it.
  static FailureOr<scf::ParallelOp> toParallelLoop(IRRewriter &rewriter,
                                                   linalg::LinalgOp op) {
    if (!op.hasPureBufferSemantics())
      return op->emitOpError(
          "gopt-gpu-map-kernels: expected a bufferized linalg op");
    if (op.getNumParallelLoops() == 0)
      return wrapInSingleIteration(op);
    // Parallel loops outermost, so they all become threads.
    FailureOr<linalg::LinalgOp> interchanged = parallelLoopsFirst(rewriter, op);
    if (failed(interchanged))
      return op->emitOpError("gopt-gpu-map-kernels: cannot move the "
                             "parallel loops outside the reductions");
    rewriter.setInsertionPoint(*interchanged);
    FailureOr<linalg::LinalgLoops> loops =
        linalg::linalgOpToParallelLoops(rewriter, *interchanged);
    if (failed(loops))
      return interchanged->emitOpError(
          "gopt-gpu-map-kernels: cannot lower to parallel loops");
    rewriter.eraseOp(*interchanged);
    return cast<scf::ParallelOp>(loops->front());
  }
};

} // namespace
