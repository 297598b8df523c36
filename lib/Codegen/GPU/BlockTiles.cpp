//===- BlockTiles.cpp - One thread block per kernel tile ------------------===//
//
// A tile of softmax or layer norm reduces a whole row: one thread per tile
// (the first mapping, MapKernels.cpp) walks the row three times alone and
// keeps the row's temporaries in its private (local, off-chip) memory. Here
// the tile runs on a block of threads instead:
//
//   * block b runs tile b (the loop's iterations delinearized, innermost
//     fastest), with no bounds guard: the grid has exactly one block each;
//   * an all-parallel linalg op is a loop over its flattened iteration
//     space starting at the thread's id with the block's size as step
//     (neighbouring threads, neighbouring elements);
//   * a reduction keeps, for each point of its parallel dims, a partial
//     result per thread from the reduction's neutral element, combines the
//     partials with gpu.all_reduce (shuffles and shared memory, lowered by
//     convert-gpu-to-nvvm), and thread 0 combines the total with what the
//     output held and stores it;
//   * the tile's temporaries are workgroup (shared) memory attributions of
//     the launch, and a gpu.barrier follows every op, so the next one reads
//     what all threads wrote;
//   * a row of device memory that several ops of the tile read is copied
//     into shared memory once, before the first of them, while the budget
//     allows: one pass over global memory instead of two or three.
//
//===----------------------------------------------------------------------===//

#include "BlockTiles.h"
#include "GOpt/Codegen/Common/BufferViews.h"
#include "LoopSpace.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::gopt;

namespace {

/// Shared memory the tile's temporaries may take (of the 48 KiB a block
/// has without opting in; gpu.all_reduce takes a little too).
constexpr int64_t kSharedMemoryBudget = 40 * 1024;
/// A reduction shorter than this leaves most of a block idle: one thread
/// per tile is as good.
constexpr int64_t kMinReductionExtent = 32;

/// The reduction a generic computes: its body yields `combine(x, out)` with
/// `out` (the output's block argument) used nowhere else, and `combine` an
/// op gpu.all_reduce has.
struct Combiner {
  gpu::AllReduceOperation kind;
  Operation *op;
};

std::optional<Combiner> matchCombiner(linalg::GenericOp op) {
  if (op.getNumDpsInits() != 1 || op.getNumResults() != 0)
    return std::nullopt;
  Block &body = op.getRegion().front();
  BlockArgument out = body.getArguments().back();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  Operation *combine = yield.getValues()[0].getDefiningOp();
  if (!combine || combine->getBlock() != &body ||
      combine->getNumOperands() != 2 || !out.hasOneUse() ||
      *out.getUsers().begin() != combine ||
      combine->getOperand(0) == combine->getOperand(1))
    return std::nullopt;
  using Kind = gpu::AllReduceOperation;
  std::optional<Kind> kind =
      llvm::TypeSwitch<Operation *, std::optional<Kind>>(combine)
          .Case<arith::AddFOp, arith::AddIOp>([](auto) { return Kind::ADD; })
          .Case<arith::MulFOp, arith::MulIOp>([](auto) { return Kind::MUL; })
          .Case<arith::MaximumFOp>([](auto) { return Kind::MAXIMUMF; })
          .Case<arith::MinimumFOp>([](auto) { return Kind::MINIMUMF; })
          .Case<arith::MaxNumFOp>([](auto) { return Kind::MAXNUMF; })
          .Case<arith::MinNumFOp>([](auto) { return Kind::MINNUMF; })
          .Case<arith::MaxSIOp>([](auto) { return Kind::MAXSI; })
          .Case<arith::MinSIOp>([](auto) { return Kind::MINSI; })
          .Case<arith::MaxUIOp>([](auto) { return Kind::MAXUI; })
          .Case<arith::MinUIOp>([](auto) { return Kind::MINUI; })
          .Case<arith::AndIOp>([](auto) { return Kind::AND; })
          .Case<arith::OrIOp>([](auto) { return Kind::OR; })
          .Case<arith::XOrIOp>([](auto) { return Kind::XOR; })
          .Default([](Operation *) { return std::nullopt; });
  if (!kind)
    return std::nullopt;
  return Combiner{*kind, combine};
}

/// The neutral element of `kind` on `type`: what a thread's partial result
/// starts from.
Value neutralElement(OpBuilder &b, Location loc, gpu::AllReduceOperation kind,
                     Type type) {
  using Kind = gpu::AllReduceOperation;
  if (auto floatType = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &sem = floatType.getFloatSemantics();
    APFloat value = APFloat::getZero(sem, /*Negative=*/true);
    if (kind == Kind::MUL)
      value = APFloat::getOne(sem);
    else if (kind == Kind::MAXIMUMF || kind == Kind::MAXNUMF)
      value = APFloat::getInf(sem, /*Negative=*/true);
    else if (kind == Kind::MINIMUMF || kind == Kind::MINNUMF)
      value = APFloat::getInf(sem, /*Negative=*/false);
    return arith::ConstantOp::create(b, loc, FloatAttr::get(type, value));
  }
  unsigned width = type.getIntOrFloatBitWidth();
  APInt value = APInt::getZero(width);
  if (kind == Kind::MUL)
    value = APInt(width, 1);
  else if (kind == Kind::AND || kind == Kind::MINUI)
    value = APInt::getAllOnes(width);
  else if (kind == Kind::MAXSI)
    value = APInt::getSignedMinValue(width);
  else if (kind == Kind::MINSI)
    value = APInt::getSignedMaxValue(width);
  return arith::ConstantOp::create(b, loc, IntegerAttr::get(type, value));
}

/// Whether `op` reads two inputs that both vary along a reduction dim (a
/// contraction: a dot product per tile, better one thread each).
bool isContraction(linalg::LinalgOp op) {
  int varying = 0;
  for (OpOperand *input : op.getDpsInputOperands()) {
    if (!isa<MemRefType>(input->get().getType()))
      continue;
    AffineMap map = op.getMatchingIndexingMap(input);
    SmallVector<unsigned> reductions;
    op.getReductionDims(reductions);
    if (llvm::any_of(reductions,
                     [&](unsigned d) { return map.isFunctionOfDim(d); }))
      ++varying;
  }
  return varying >= 2;
}

int64_t product(ArrayRef<int64_t> values) {
  int64_t result = 1;
  for (int64_t v : values)
    result *= v;
  return result;
}

/// The static bytes of a temporary, or -1.
int64_t staticBytes(MemRefType type) {
  if (!type.hasStaticShape() || !type.getElementType().isIntOrFloat())
    return -1;
  return product(type.getShape()) *
         ((type.getElementType().getIntOrFloatBitWidth() + 7) / 8);
}

/// Whether a linalg op of a tile can be spread over a block: buffers,
/// static loop ranges, and for a reduction a combiner gpu.all_reduce has.
bool isDistributable(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op->getNumRegions() != 1)
    return false;
  if (llvm::any_of(op.getStaticLoopRanges(), ShapedType::isDynamic))
    return false;
  if (op.getNumReductionLoops() == 0)
    return true;
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  return generic && matchCombiner(generic).has_value();
}

/// Extent of `op`'s reduction (product of its reduction loops' ranges).
int64_t reductionExtent(linalg::LinalgOp op) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t extent = 1;
  for (auto [range, it] : llvm::zip(ranges, op.getIteratorTypesArray()))
    if (it == utils::IteratorType::reduction)
      extent *= range;
  return extent;
}

} // namespace

bool mlir::gopt::prefersBlockPerTile(scf::ParallelOp loop) {
  if (loop.getNumResults() != 0)
    return false;
  bool longReduction = false;
  int64_t sharedBytes = 0;
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
      if (!isDistributable(linalgOp))
        return false;
      if (linalgOp.getNumReductionLoops() > 0) {
        if (isContraction(linalgOp))
          return false;
        if (reductionExtent(linalgOp) >= kMinReductionExtent)
          longReduction = true;
      }
      continue;
    }
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      int64_t bytes = staticBytes(alloc.getType());
      if (bytes < 0 || !alloc.getType().getLayout().isIdentity())
        return false;
      // Temporaries are read and written by the tile's ops alone.
      if (!llvm::all_of(alloc->getUsers(), [](Operation *user) {
            return isa<linalg::LinalgOp, memref::CopyOp, memref::DeallocOp>(
                user);
          }))
        return false;
      sharedBytes += bytes;
      continue;
    }
    if (auto copy = dyn_cast<memref::CopyOp>(op)) {
      if (!copy.getSource().getType().hasStaticShape())
        return false;
      continue;
    }
    if (isa<memref::DeallocOp, ViewLikeOpInterface>(op))
      continue;
    if (op.getNumRegions() == 0 && isMemoryEffectFree(&op))
      continue;
    return false;
  }
  return longReduction && sharedBytes <= kSharedMemoryBudget;
}

namespace {

/// Spreads the ops of one tile over the threads of a block.
class TileDistributor {
public:
  TileDistributor(IRRewriter &rewriter, Value threadId, int64_t threads)
      : rewriter(rewriter), threadId(threadId), threads(threads) {}

  /// Replaces the linalg op `op` (generalized) by loops over the block's
  /// threads, followed by a barrier.
  LogicalResult distribute(linalg::GenericOp op) {
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    LogicalResult result = op.getNumReductionLoops() == 0
                               ? distributeParallel(op)
                               : distributeReduction(op);
    if (failed(result))
      return failure();
    gpu::BarrierOp::create(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }

private:
  Value index(Location loc, int64_t v) {
    return arith::ConstantIndexOp::create(rewriter, loc, v);
  }

  /// `linear` as indices over `extents`, the last varying fastest.
  SmallVector<Value> delinearize(Location loc, Value linear,
                                 ArrayRef<int64_t> extents) {
    SmallVector<Value> ivs(extents.size());
    Value rest = linear;
    for (int64_t d = static_cast<int64_t>(extents.size()) - 1; d >= 0; --d) {
      if (d == 0) {
        ivs[d] = rest;
        break;
      }
      Value extent = index(loc, extents[d]);
      ivs[d] = arith::RemUIOp::create(rewriter, loc, rest, extent);
      rest = arith::DivUIOp::create(rewriter, loc, rest, extent);
    }
    return ivs;
  }

  /// Indices of `operand` at the loop point `ivs`.
  SmallVector<Value> operandIndices(Location loc, linalg::GenericOp op,
                                    OpOperand &operand, ValueRange ivs) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    SmallVector<Value> indices;
    for (unsigned r = 0; r < map.getNumResults(); ++r) {
      AffineExpr e = map.getResult(r);
      if (auto dim = dyn_cast<AffineDimExpr>(e)) {
        indices.push_back(ivs[dim.getPosition()]);
        continue;
      }
      indices.push_back(affine::AffineApplyOp::create(
          rewriter, loc, map.getSubMap({r}), ivs));
    }
    return indices;
  }

  /// The body of `op` at the loop point `ivs`: its inputs loaded (scalars
  /// as they are), the output's value `out` (or loaded when null and
  /// used); returns the yielded values.
  SmallVector<Value> emitBody(Location loc, linalg::GenericOp op,
                              ValueRange ivs, Value out = nullptr) {
    Block &body = op.getRegion().front();
    IRMapping mapping;
    for (OpOperand &operand : op->getOpOperands()) {
      BlockArgument arg = op.getMatchingBlockArgument(&operand);
      bool isOutput = op.isDpsInit(&operand);
      if (isOutput && out) {
        mapping.map(arg, out);
        continue;
      }
      if (arg.use_empty())
        continue;
      Value v = operand.get();
      if (!isa<MemRefType>(v.getType())) {
        mapping.map(arg, v);
        continue;
      }
      mapping.map(arg, memref::LoadOp::create(
                           rewriter, loc, v,
                           operandIndices(loc, op, operand, ivs)));
    }
    for (Operation &inner : body.without_terminator()) {
      if (auto indexOp = dyn_cast<linalg::IndexOp>(inner)) {
        mapping.map(indexOp.getResult(), ivs[indexOp.getDim()]);
        continue;
      }
      rewriter.clone(inner, mapping);
    }
    SmallVector<Value> yielded;
    for (Value v : cast<linalg::YieldOp>(body.getTerminator()).getValues())
      yielded.push_back(mapping.lookupOrDefault(v));
    return yielded;
  }

  void storeOutputs(Location loc, linalg::GenericOp op, ValueRange values,
                    ValueRange ivs) {
    for (auto [operand, value] : llvm::zip(op.getDpsInitsMutable(), values))
      memref::StoreOp::create(rewriter, loc, value, operand.get(),
                              operandIndices(loc, op, operand, ivs));
  }

  LogicalResult distributeParallel(linalg::GenericOp op) {
    Location loc = op.getLoc();
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    auto loop = scf::ForOp::create(rewriter, loc, threadId,
                                   index(loc, product(ranges)),
                                   index(loc, threads));
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(loop.getBody()->getTerminator());
    SmallVector<Value> ivs = delinearize(loc, loop.getInductionVar(), ranges);
    storeOutputs(loc, op, emitBody(loc, op, ivs), ivs);
    return success();
  }

  LogicalResult distributeReduction(linalg::GenericOp op) {
    std::optional<Combiner> combiner = matchCombiner(op);
    if (!combiner)
      return op.emitOpError("gopt-gpu-map-kernels: a reduction without a "
                            "combiner gpu.all_reduce has");
    Location loc = op.getLoc();
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    SmallVector<unsigned> parallelDims, reductionDims;
    SmallVector<int64_t> parallelRanges, reductionRanges;
    for (auto [d, it] : llvm::enumerate(op.getIteratorTypesArray())) {
      bool parallel = it == utils::IteratorType::parallel;
      (parallel ? parallelDims : reductionDims).push_back(d);
      (parallel ? parallelRanges : reductionRanges).push_back(ranges[d]);
    }
    Type type = combiner->op->getResult(0).getType();
    BlockArgument outArg = op.getRegion().front().getArguments().back();

    // Every thread runs every point of the parallel dims (uniform control
    // flow, as gpu.all_reduce needs).
    auto points = scf::ForOp::create(rewriter, loc, index(loc, 0),
                                     index(loc, product(parallelRanges)),
                                     index(loc, 1));
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(points.getBody()->getTerminator());
    SmallVector<Value> pivs =
        delinearize(loc, points.getInductionVar(), parallelRanges);
    Value neutral = neutralElement(rewriter, loc, combiner->kind, type);
    auto partial = scf::ForOp::create(
        rewriter, loc, threadId, index(loc, product(reductionRanges)),
        index(loc, threads), ValueRange{neutral},
        [&](OpBuilder &, Location l, Value iv, ValueRange acc) {
          SmallVector<Value> rivs = delinearize(l, iv, reductionRanges);
          SmallVector<Value> ivs(ranges.size());
          for (auto [d, v] : llvm::zip(parallelDims, pivs))
            ivs[d] = v;
          for (auto [d, v] : llvm::zip(reductionDims, rivs))
            ivs[d] = v;
          Value next = emitBody(l, op, ivs, acc.front()).front();
          scf::YieldOp::create(rewriter, l, next);
        });
    auto total = gpu::AllReduceOp::create(
        rewriter, loc, partial.getResult(0),
        gpu::AllReduceOperationAttr::get(rewriter.getContext(),
                                         combiner->kind),
        /*uniform=*/true);
    // Thread 0 combines the total with what the output held.
    Value first = arith::CmpIOp::create(rewriter, loc,
                                        arith::CmpIPredicate::eq, threadId,
                                        index(loc, 0));
    auto ifFirst = scf::IfOp::create(rewriter, loc, first, /*withElse=*/false);
    rewriter.setInsertionPoint(ifFirst.thenBlock()->getTerminator());
    SmallVector<Value> ivs(ranges.size());
    for (auto [d, v] : llvm::zip(parallelDims, pivs))
      ivs[d] = v;
    for (unsigned d : reductionDims)
      ivs[d] = index(loc, 0);
    OpOperand &output = op.getDpsInitsMutable()[0];
    Value initial = memref::LoadOp::create(
        rewriter, loc, output.get(), operandIndices(loc, op, output, ivs));
    IRMapping mapping;
    for (Value operand : combiner->op->getOperands())
      mapping.map(operand, operand == outArg ? initial : total.getResult());
    Value combined = rewriter.clone(*combiner->op, mapping)->getResult(0);
    memref::StoreOp::create(rewriter, loc, combined, output.get(),
                            operandIndices(loc, op, output, ivs));
    return success();
  }

  IRRewriter &rewriter;
  Value threadId;
  int64_t threads;
};

/// Copies each buffer of device memory that two or more ops of the tile
/// read (a row softmax reads for its max and again for its exponentials,
/// layer norm three times) into a new temporary before its first reader,
/// and makes the readers read that: one pass over global memory instead of
/// several, while the temporaries fit in `budget` bytes of shared memory.
void promoteRereadInputs(IRRewriter &rewriter, Block &body, int64_t budget) {
  for (auto alloc : body.getOps<memref::AllocOp>())
    budget -= staticBytes(alloc.getType());
  // Buffers an op of the tile writes (an epilogue in place) keep being read
  // where they are: a copy would go stale.
  llvm::SmallPtrSet<Value, 8> written;
  for (auto op : body.getOps<linalg::LinalgOp>())
    for (OpOperand &init : op.getDpsInitsMutable())
      written.insert(rootBuffer(init.get()));
  for (auto copy : body.getOps<memref::CopyOp>())
    written.insert(rootBuffer(copy.getTarget()));
  llvm::MapVector<Value, SmallVector<OpOperand *>> readers;
  for (auto op : body.getOps<linalg::LinalgOp>())
    for (OpOperand *input : op.getDpsInputOperands()) {
      auto type = dyn_cast<MemRefType>(input->get().getType());
      if (type && type.hasStaticShape() && staticBytes(type) > 0 &&
          !input->get().getDefiningOp<memref::AllocOp>() &&
          !written.contains(rootBuffer(input->get())))
        readers[input->get()].push_back(input);
    }
  for (auto &[buffer, uses] : readers) {
    llvm::SmallPtrSet<Operation *, 4> ops;
    for (OpOperand *use : uses)
      ops.insert(use->getOwner());
    auto type = cast<MemRefType>(buffer.getType());
    int64_t bytes = staticBytes(type);
    if (ops.size() < 2 || bytes > budget)
      continue;
    budget -= bytes;
    Operation *first = uses.front()->getOwner();
    rewriter.setInsertionPoint(first);
    auto copy = memref::AllocOp::create(
        rewriter, first->getLoc(),
        MemRefType::get(type.getShape(), type.getElementType()));
    memref::CopyOp::create(rewriter, first->getLoc(), buffer, copy);
    for (OpOperand *use : uses)
      rewriter.modifyOpInPlace(use->getOwner(), [&] { use->set(copy); });
  }
}

/// Threads per block for the tile of `loop`: enough for its widest op, a
/// multiple of 32, at most `maxThreads`.
int64_t threadsFor(scf::ParallelOp loop, int64_t maxThreads) {
  int64_t widest = 1;
  for (auto op : loop.getBody()->getOps<linalg::LinalgOp>()) {
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    int64_t work = op.getNumReductionLoops() ? reductionExtent(op)
                                             : product(ranges);
    widest = std::max(widest, work);
  }
  int64_t threads = (widest + 31) / 32 * 32;
  int64_t cap = std::max<int64_t>(32, maxThreads / 32 * 32);
  return std::min(threads, cap);
}

} // namespace

FailureOr<gpu::LaunchOp> mlir::gopt::launchTilesOnBlocks(scf::ParallelOp loop,
                                                         int64_t maxThreads) {
  IRRewriter rewriter(loop.getContext());
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, v);
  };
  LoopSpace space = computeLoopSpace(rewriter, loop);
  Value total = space.total;
  int64_t threads = threadsFor(loop, maxThreads);
  Value one = constant(1);
  auto launch = gpu::LaunchOp::create(rewriter, loc, total, one, one,
                                      constant(threads), one, one);
  Block &body = launch.getBody().front();
  rewriter.setInsertionPointToStart(&body);
  auto terminator = gpu::TerminatorOp::create(rewriter, loc);
  rewriter.setInsertionPoint(terminator);

  // The block's tile: its index delinearized into the loop's variables.
  SmallVector<Value> ivs = delinearizeIteration(
      rewriter, loc, launch.getBlockIds().x, loop, space.extents);
  Block *loopBody = loop.getBody();
  for (auto [iv, value] : llvm::zip(loopBody->getArguments(), ivs))
    iv.replaceAllUsesWith(value);
  for (Operation &op :
       llvm::make_early_inc_range(loopBody->without_terminator()))
    op.moveBefore(terminator);
  rewriter.eraseOp(loop);

  promoteRereadInputs(rewriter, body, kSharedMemoryBudget);

  // Copies become linalg ops, linalg ops generics; then each is spread.
  SmallVector<Operation *> ops;
  for (Operation &op : body)
    ops.push_back(&op);
  TileDistributor distributor(rewriter, launch.getThreadIds().x, threads);
  SmallVector<memref::AllocOp> allocs;
  for (Operation *op : ops) {
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      allocs.push_back(alloc);
      continue;
    }
    if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
      rewriter.eraseOp(dealloc);
      continue;
    }
    if (auto copy = dyn_cast<memref::CopyOp>(op)) {
      rewriter.setInsertionPoint(copy);
      op = linalg::CopyOp::create(rewriter, copy.getLoc(), copy.getSource(),
                                  copy.getTarget());
      rewriter.eraseOp(copy);
    }
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (!linalgOp)
      continue;
    linalg::GenericOp generic = dyn_cast<linalg::GenericOp>(op);
    if (!generic) {
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::GenericOp> generalized =
          linalg::generalizeNamedOp(rewriter, linalgOp);
      if (failed(generalized))
        return op->emitOpError("gopt-gpu-map-kernels: cannot generalize");
      generic = *generalized;
    }
    if (failed(distributor.distribute(generic)))
      return failure();
  }

  // Temporaries: shared memory of the block.
  auto workgroup = gpu::AddressSpaceAttr::get(rewriter.getContext(),
                                              gpu::AddressSpace::Workgroup);
  for (memref::AllocOp alloc : allocs) {
    MemRefType type = alloc.getType();
    auto shared = MemRefType::get(type.getShape(), type.getElementType(),
                                  MemRefLayoutAttrInterface(), workgroup);
    BlockArgument buffer = launch.addWorkgroupAttribution(shared, alloc.getLoc());
    rewriter.replaceAllUsesWith(alloc.getResult(), buffer);
    rewriter.eraseOp(alloc);
  }
  return launch;
}
