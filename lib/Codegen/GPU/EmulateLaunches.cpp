//===- EmulateLaunches.cpp - gpu.launch ops run on the host ---------------===//
//
// The GPU mapping (gopt-gpu-map-kernels: indices, guards, several elements
// per thread, one block per reducing tile with shared memory, barriers and
// block reductions) is code no CPU test runs: its numerics are only seen on
// a GPU. Here each gpu.launch becomes host loops that compute what the
// launch computes, so the CPU runner can check the mapping against the
// unoptimized graph on any machine:
//
//   buffers: shared memory, values kept per thread (N each), and each
//   thread's private temporaries, allocated once for the launch
//   scf.for %block = 0 to grid {            // one iteration per block
//     uniform ops (the block's id, constants, reduction results, and
//     side-effect-free arithmetic of them): once
//     scf.for %thread = 0 to N { a stretch of the body between barriers }
//     a gpu.all_reduce: its N values combined in thread order
//     a loop or if holding barriers: once, its body in stretches
//   }
//   the buffers freed
//
// A buffer is reused by the next block (shared memory) or thread (private
// temporaries, which never outlive a stretch): on the device their content
// is undefined when a block or thread starts, and the kernels write before
// they read. Stack buffers per iteration instead would grow the host stack
// with every block (canonicalization inlines memref.alloca_scope).
//
// Barriers are where one stretch's thread loop ends and the next begins, so
// every thread has run the stretch before any runs the next, as on the
// device. A value one stretch computes and a later one reads is stored per
// thread at the end of its stretch and loaded at the start of the reader's.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Codegen/GPU/Passes.h"

#include "mlir/Dialect/GPU/Utils/GPUUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir {
namespace gopt {
#define GEN_PASS_DEF_GOPTGPUEMULATELAUNCHES
#include "GOpt/Codegen/GPU/Passes.h.inc"
} // namespace gopt
} // namespace mlir

using namespace mlir;
using namespace mlir::gopt;

namespace {

constexpr llvm::StringLiteral kPassName = "gopt-gpu-emulate-launches";

/// Ops all threads of a block must reach together.
bool isCollective(Operation *op) {
  return isa<gpu::BarrierOp, gpu::AllReduceOp>(op);
}

bool holdsCollective(Operation *op) {
  return op
      ->walk([](Operation *inner) {
        return isCollective(inner) ? WalkResult::interrupt()
                                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// `type` in the default memory space when it is a memref in a GPU address
/// space (workgroup memory becomes host memory).
Type inHostMemory(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref ||
      !isa_and_nonnull<gpu::AddressSpaceAttr>(memref.getMemorySpace()))
    return type;
  return MemRefType::Builder(memref).setMemorySpace(Attribute());
}

/// One launch replaced by host loops.
class LaunchEmulator {
public:
  LaunchEmulator(gpu::LaunchOp launch, int64_t threads, bool reverseThreads)
      : launch(launch), threads(threads), reverseThreads(reverseThreads),
        loc(launch.getLoc()) {}

  /// Builds the loops before the launch; the caller erases it.
  LogicalResult emit(int64_t &threadLoops);

private:
  bool isUniform(Value value) {
    return uniform.contains(value) ||
           !launch.getBody().isAncestor(value.getParentRegion());
  }
  /// A side-effect-free op without regions whose operands are uniform: the
  /// same result on every thread, computed once per block.
  bool isUniformOp(Operation &op) {
    return op.getNumRegions() == 0 && isMemoryEffectFree(&op) &&
           llvm::all_of(op.getOperands(),
                        [&](Value v) { return isUniform(v); });
  }

  LogicalResult emitBlock(Block &block, OpBuilder &b, IRMapping &mapping);
  /// Emits `stretch` (ops between collectives) as one loop over the
  /// threads and empties it.
  LogicalResult emitStretch(SmallVectorImpl<Operation *> &stretch, OpBuilder &b,
                            IRMapping &mapping);
  LogicalResult emitAllReduce(gpu::AllReduceOp reduce, OpBuilder &b,
                              IRMapping &mapping);
  LogicalResult emitUniformControl(Operation &op, OpBuilder &b,
                                   IRMapping &mapping);
  /// The per-thread buffer of `value` (allocated for the launch).
  FailureOr<Value> storageFor(Value value);
  /// `value` of thread `thread`: its per-thread buffer's element, or itself
  /// mapped when it is uniform.
  Value threadValue(Value value, Value thread, OpBuilder &b,
                    IRMapping &mapping);
  /// A buffer for the whole launch, in the default memory space.
  Value allocateForLaunch(MemRefType type);
  /// Replaces each thread-private stack buffer of the emitted loops by one
  /// buffer for the launch.
  LogicalResult hoistPrivateBuffers();

  gpu::LaunchOp launch;
  int64_t threads;
  bool reverseThreads;
  Location loc;
  Value zero, one, threadCount, lastThread;
  /// The body's x thread id: each stretch's loop variable.
  Value threadId;
  /// The loop over the blocks; the launch's buffers are allocated before it
  /// and freed after it.
  scf::ForOp blocks;
  int64_t stretches = 0;
  /// Values of the launch body that are the same on every thread.
  DenseSet<Value> uniform;
  /// Values of the launch body kept per thread across stretches.
  DenseMap<Value, Value> perThread;
};

LogicalResult LaunchEmulator::emit(int64_t &threadLoops) {
  OpBuilder b(launch);
  zero = arith::ConstantIndexOp::create(b, loc, 0);
  one = arith::ConstantIndexOp::create(b, loc, 1);
  threadCount = arith::ConstantIndexOp::create(b, loc, threads);
  lastThread = arith::ConstantIndexOp::create(b, loc, threads - 1);

  blocks = scf::ForOp::create(b, loc, zero, launch.getGridSizeOperandValues().x,
                              one);
  b.setInsertionPoint(blocks.getBody()->getTerminator());

  // The body's ids and sizes: the block's id, thread 0 in y and z, the
  // launch's sizes; the thread's x id is mapped in each stretch.
  IRMapping mapping;
  gpu::KernelDim3 blockIds = launch.getBlockIds();
  gpu::KernelDim3 threadIds = launch.getThreadIds();
  gpu::KernelDim3 gridArgs = launch.getGridSize();
  gpu::KernelDim3 blockArgs = launch.getBlockSize();
  gpu::KernelDim3 gridSizes = launch.getGridSizeOperandValues();
  gpu::KernelDim3 blockSizes = launch.getBlockSizeOperandValues();
  mapping.map(blockIds.x, blocks.getInductionVar());
  for (Value id : {blockIds.y, blockIds.z, threadIds.y, threadIds.z})
    mapping.map(id, zero);
  mapping.map(gridArgs.x, gridSizes.x);
  mapping.map(gridArgs.y, gridSizes.y);
  mapping.map(gridArgs.z, gridSizes.z);
  mapping.map(blockArgs.x, blockSizes.x);
  mapping.map(blockArgs.y, blockSizes.y);
  mapping.map(blockArgs.z, blockSizes.z);
  for (Value id : {blockIds.x, blockIds.y, blockIds.z, threadIds.y, threadIds.z,
                   gridArgs.x, gridArgs.y, gridArgs.z, blockArgs.x, blockArgs.y,
                   blockArgs.z})
    uniform.insert(id);
  threadId = threadIds.x;

  // Shared memory: a buffer each block reuses.
  for (BlockArgument shared : launch.getWorkgroupAttributions()) {
    mapping.map(shared, allocateForLaunch(cast<MemRefType>(shared.getType())));
    uniform.insert(shared);
  }

  Block &body = launch.getBody().front();
  if (failed(emitBlock(body, b, mapping)) || failed(hoistPrivateBuffers()))
    return failure();

  // What the body computed on workgroup memory, now on host buffers.
  blocks.walk([](Operation *op) {
    for (OpResult result : op->getResults())
      result.setType(inHostMemory(result.getType()));
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          arg.setType(inHostMemory(arg.getType()));
  });
  threadLoops += stretches;
  return success();
}

LogicalResult LaunchEmulator::emitBlock(Block &block, OpBuilder &b,
                                        IRMapping &mapping) {
  SmallVector<Operation *> stretch;
  for (Operation &op : block.without_terminator()) {
    if (isa<gpu::BarrierOp>(op)) {
      if (failed(emitStretch(stretch, b, mapping)))
        return failure();
      continue;
    }
    if (auto reduce = dyn_cast<gpu::AllReduceOp>(op)) {
      if (failed(emitStretch(stretch, b, mapping)) ||
          failed(emitAllReduce(reduce, b, mapping)))
        return failure();
      continue;
    }
    if (holdsCollective(&op)) {
      if (failed(emitStretch(stretch, b, mapping)) ||
          failed(emitUniformControl(op, b, mapping)))
        return failure();
      continue;
    }
    if (isUniformOp(op)) {
      b.clone(op, mapping);
      for (Value result : op.getResults())
        uniform.insert(result);
      continue;
    }
    stretch.push_back(&op);
  }
  return emitStretch(stretch, b, mapping);
}

Value LaunchEmulator::allocateForLaunch(MemRefType type) {
  OpBuilder b(blocks);
  Value buffer =
      memref::AllocOp::create(b, loc, cast<MemRefType>(inHostMemory(type)));
  b.setInsertionPointAfter(blocks);
  memref::DeallocOp::create(b, loc, buffer);
  return buffer;
}

LogicalResult LaunchEmulator::hoistPrivateBuffers() {
  SmallVector<memref::AllocaOp> privates;
  blocks.walk([&](memref::AllocaOp alloca) { privates.push_back(alloca); });
  for (memref::AllocaOp alloca : privates) {
    if (!alloca.getType().hasStaticShape() ||
        !alloca.getSymbolOperands().empty())
      return alloca.emitOpError()
             << kPassName
             << ": a thread's stack buffer of dynamic shape is not emulated";
    alloca.getResult().replaceAllUsesWith(allocateForLaunch(alloca.getType()));
    alloca.erase();
  }
  return success();
}

FailureOr<Value> LaunchEmulator::storageFor(Value value) {
  if (Value buffer = perThread.lookup(value))
    return buffer;
  Type type = value.getType();
  if (!type.isIntOrIndexOrFloat() && !isa<VectorType>(type))
    return emitError(value.getLoc())
           << kPassName << ": a " << type
           << " computed per thread is used after a barrier; only scalars "
              "and vectors can be kept per thread";
  Value buffer = allocateForLaunch(MemRefType::get({threads}, type));
  perThread[value] = buffer;
  return buffer;
}

Value LaunchEmulator::threadValue(Value value, Value thread, OpBuilder &b,
                                  IRMapping &mapping) {
  if (Value buffer = perThread.lookup(value))
    return memref::LoadOp::create(b, loc, buffer, thread);
  return mapping.lookupOrDefault(value);
}

LogicalResult LaunchEmulator::emitStretch(SmallVectorImpl<Operation *> &stretch,
                                          OpBuilder &b, IRMapping &mapping) {
  if (stretch.empty())
    return success();
  llvm::SmallPtrSet<Operation *, 16> inStretch(stretch.begin(), stretch.end());

  // Values earlier stretches kept per thread that this one reads.
  llvm::SetVector<Value> reads;
  for (Operation *op : stretch)
    op->walk([&](Operation *inner) {
      for (Value operand : inner->getOperands())
        if (perThread.count(operand))
          reads.insert(operand);
    });

  auto loop = scf::ForOp::create(b, loc, zero, threadCount, one);
  ++stretches;
  OpBuilder inner = OpBuilder::atBlockBegin(loop.getBody());
  Value thread = loop.getInductionVar();
  if (reverseThreads)
    thread = arith::SubIOp::create(inner, loc, lastThread, thread);
  IRMapping threadMapping = mapping;
  threadMapping.map(threadId, thread);
  for (Value value : reads)
    threadMapping.map(value, threadValue(value, thread, inner, mapping));
  for (Operation *op : stretch)
    inner.clone(*op, threadMapping);

  // Values later stretches (or reductions) read: kept per thread.
  for (Operation *op : stretch)
    for (Value result : op->getResults()) {
      bool usedLater = llvm::any_of(result.getUsers(), [&](Operation *user) {
        Operation *owner = op->getBlock()->findAncestorOpInBlock(*user);
        return !owner || !inStretch.contains(owner);
      });
      if (!usedLater)
        continue;
      FailureOr<Value> buffer = storageFor(result);
      if (failed(buffer))
        return failure();
      memref::StoreOp::create(inner, loc, threadMapping.lookup(result), *buffer,
                              thread);
    }
  stretch.clear();
  return success();
}

LogicalResult LaunchEmulator::emitAllReduce(gpu::AllReduceOp reduce,
                                            OpBuilder &b, IRMapping &mapping) {
  // The op form (checkEmulable).
  gpu::AllReduceOperation kind = *reduce.getOp();
  Value value = reduce.getValue();
  vector::CombiningKind combining = gpu::convertReductionKind(kind);
  // Thread 0's value, then threads 1 to N-1 combined into it in order.
  Value first = threadValue(value, zero, b, mapping);
  auto loop = scf::ForOp::create(b, loc, one, threadCount, one, first);
  OpBuilder inner = OpBuilder::atBlockBegin(loop.getBody());
  Value next = threadValue(value, loop.getInductionVar(), inner, mapping);
  Value combined = vector::makeArithReduction(inner, loc, combining,
                                              loop.getRegionIterArg(0), next);
  scf::YieldOp::create(inner, loc, combined);
  mapping.map(reduce.getResult(), loop.getResult(0));
  uniform.insert(reduce.getResult());
  return success();
}

LogicalResult LaunchEmulator::emitUniformControl(Operation &op, OpBuilder &b,
                                                 IRMapping &mapping) {
  auto notUniform = [&](StringRef what) {
    return op.emitOpError()
           << kPassName << ": holds a barrier or a block reduction, but its "
           << what << " may differ between the threads of a block";
  };
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    if (!loop.getInitArgs().empty())
      return loop.emitOpError()
             << kPassName
             << ": a loop carrying values around a barrier or a block "
                "reduction is not emulated";
    for (Value bound :
         {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()})
      if (!isUniform(bound))
        return notUniform("bounds");
    auto clone = scf::ForOp::create(
        b, loop.getLoc(), mapping.lookupOrDefault(loop.getLowerBound()),
        mapping.lookupOrDefault(loop.getUpperBound()),
        mapping.lookupOrDefault(loop.getStep()));
    mapping.map(loop.getInductionVar(), clone.getInductionVar());
    uniform.insert(loop.getInductionVar());
    OpBuilder body(clone.getBody()->getTerminator());
    return emitBlock(*loop.getBody(), body, mapping);
  }
  if (auto branch = dyn_cast<scf::IfOp>(op)) {
    if (branch.getNumResults() != 0)
      return branch.emitOpError()
             << kPassName
             << ": an if with results around a barrier or a block reduction "
                "is not emulated";
    if (!isUniform(branch.getCondition()))
      return notUniform("condition");
    bool withElse = !branch.getElseRegion().empty();
    auto clone = scf::IfOp::create(
        b, branch.getLoc(), mapping.lookupOrDefault(branch.getCondition()),
        withElse);
    OpBuilder thenBody(clone.thenBlock()->getTerminator());
    if (failed(emitBlock(*branch.thenBlock(), thenBody, mapping)))
      return failure();
    if (!withElse)
      return success();
    OpBuilder elseBody(clone.elseBlock()->getTerminator());
    return emitBlock(*branch.elseBlock(), elseBody, mapping);
  }
  return op.emitOpError() << kPassName
                          << ": holds a barrier or a block reduction under "
                             "control flow that is not an scf.for or scf.if";
}

/// What `launch` runs, for people: "5 blocks of 256 threads", with "; 1.2
/// KiB shared memory, 6 barriers, 2 block reductions" when it has them.
std::string describeLaunch(gpu::LaunchOp launch, int64_t threads) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (std::optional<int64_t> blocks =
          getConstantIntValue(launch.getGridSizeOperandValues().x))
    os << *blocks << (*blocks == 1 ? " block" : " blocks");
  else
    os << "blocks";
  os << " of " << threads << (threads == 1 ? " thread" : " threads");
  int64_t sharedBytes = 0;
  for (BlockArgument shared : launch.getWorkgroupAttributions()) {
    auto type = cast<MemRefType>(shared.getType());
    sharedBytes += type.getNumElements() *
                   llvm::divideCeil(type.getElementTypeBitWidth(), 8);
  }
  int64_t barriers = 0, reductions = 0;
  launch.getBody().walk([&](Operation *op) {
    barriers += isa<gpu::BarrierOp>(op);
    reductions += isa<gpu::AllReduceOp>(op);
  });
  SmallVector<std::string> extras;
  if (sharedBytes)
    extras.push_back(llvm::formatv("{0} B shared", sharedBytes).str());
  if (barriers)
    extras.push_back(
        llvm::formatv("{0} barrier{1}", barriers, barriers == 1 ? "" : "s")
            .str());
  if (reductions)
    extras.push_back(llvm::formatv("{0} block reduction{1}", reductions,
                                   reductions == 1 ? "" : "s")
                         .str());
  if (!extras.empty())
    os << " (" << llvm::join(extras, ", ") << ")";
  return text;
}

/// Why `launch` cannot be emulated, or success.
LogicalResult checkEmulable(gpu::LaunchOp launch, int64_t &threads) {
  if (launch.getAsyncToken() || !launch.getAsyncDependencies().empty())
    return launch.emitOpError()
           << kPassName
           << ": an async launch is not emulated (run before "
              "gpu-async-region)";
  if (launch.hasClusterSize())
    return launch.emitOpError()
           << kPassName << ": a launch of clusters is not emulated";
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
  for (Value extent : {grid.y, grid.z, block.y, block.z})
    if (getConstantIntValue(extent) != std::optional<int64_t>(1))
      return launch.emitOpError()
             << kPassName
             << ": only one-dimensional grids and blocks are emulated";
  std::optional<int64_t> size = getConstantIntValue(block.x);
  if (!size || *size < 1)
    return launch.emitOpError()
           << kPassName << ": the block size must be a positive constant";
  threads = *size;
  if (!launch.getPrivateAttributions().empty())
    return launch.emitOpError()
           << kPassName << ": private attributions are not emulated";
  WalkResult unsupported =
      launch.getBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
        auto reduce = dyn_cast<gpu::AllReduceOp>(op);
        if (reduce && !reduce.getOp()) {
          reduce.emitOpError()
              << kPassName
              << ": only the op form of gpu.all_reduce (a combining kind, no "
                 "region) is emulated";
          return WalkResult::interrupt();
        }
        if (op->getDialect() != launch->getDialect() ||
            isa<gpu::BarrierOp, gpu::AllReduceOp, gpu::TerminatorOp>(op))
          return WalkResult::advance();
        op->emitOpError() << kPassName
                          << ": not emulated (a launch body may hold barriers, "
                             "op-form block reductions and its terminator)";
        return WalkResult::interrupt();
      });
  return failure(unsupported.wasInterrupted());
}

struct GOptGPUEmulateLaunchesPass
    : gopt::impl::GOptGPUEmulateLaunchesBase<GOptGPUEmulateLaunchesPass> {
  using GOptGPUEmulateLaunchesBase::GOptGPUEmulateLaunchesBase;

  /// Appends what `launch` runs to its function's kEmulatedLaunchesAttrName.
  static void recordLaunch(gpu::LaunchOp launch, int64_t threads) {
    auto func = launch->getParentOfType<FunctionOpInterface>();
    if (!func)
      return;
    SmallVector<Attribute> launches;
    if (auto recorded =
            func->getAttrOfType<ArrayAttr>(kEmulatedLaunchesAttrName))
      launches.append(recorded.begin(), recorded.end());
    launches.push_back(
        StringAttr::get(launch.getContext(), describeLaunch(launch, threads)));
    func->setAttr(kEmulatedLaunchesAttrName,
                  ArrayAttr::get(launch.getContext(), launches));
  }

  void runOnOperation() override {
    SmallVector<gpu::LaunchOp> launches;
    getOperation().walk(
        [&](gpu::LaunchOp launch) { launches.push_back(launch); });
    for (gpu::LaunchOp launch : launches) {
      int64_t threads = 0;
      if (failed(checkEmulable(launch, threads)))
        return signalPassFailure();
      recordLaunch(launch, threads);
      LaunchEmulator emulator(launch, threads, reverseThreads);
      int64_t loops = 0;
      if (failed(emulator.emit(loops)))
        return signalPassFailure();
      launch.erase();
      ++numEmulatedLaunches;
      numThreadLoops += loops;
    }
  }
};

} // namespace
