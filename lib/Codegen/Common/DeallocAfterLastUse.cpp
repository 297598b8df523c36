//===- DeallocAfterLastUse.cpp - Free buffers after their last use --------===//
//
// Ownership-based deallocation places one `bufferization.dealloc` at the end
// of each block. In an entry function that calls one kernel per op, that
// keeps every intermediate alive until the function returns. This pass moves
// each memref out of those deallocs into one of its own after the last use
// of anything that may alias it (docs/Lowering.md, "Buffers").
//
//===----------------------------------------------------------------------===//

#include "GOpt/Codegen/Common/Passes.h"
#include "GOpt/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/EquivalenceClasses.h"

namespace mlir {
namespace gopt {
#define GEN_PASS_DEF_GOPTDEALLOCAFTERLASTUSE
#include "GOpt/Codegen/Common/Passes.h.inc"
} // namespace gopt
} // namespace mlir

using namespace mlir;

namespace {

bool isMemRef(Value v) { return isa<BaseMemRefType>(v.getType()); }

/// Ops whose memref result is a buffer of its own, aliasing no operand.
bool isFreshBuffer(Operation *op) {
  return isa<memref::AllocOp, memref::AllocaOp, memref::GetGlobalOp,
             bufferization::CloneOp>(op);
}

/// What a function's memref result may be: a view of some of its arguments
/// and of buffers it allocates (the origins); nullopt when that is unknown.
using Origins = std::optional<llvm::SmallDenseSet<Value>>;

/// Adds to `origins` the entry-block arguments and fresh buffers `value` may
/// be a view of; false when its origin is unknown.
bool traceOrigins(Value value, Block &entry, llvm::SmallDenseSet<Value> &origins,
                  llvm::DenseSet<Value> &visited) {
  if (!isMemRef(value) || !visited.insert(value).second)
    return true;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (arg.getOwner() != &entry)
      return false;
    origins.insert(arg);
    return true;
  }
  Operation *def = value.getDefiningOp();
  if (isFreshBuffer(def)) {
    origins.insert(value);
    return true;
  }
  if (isa<CallOpInterface>(def))
    return false;
  for (Value operand : def->getOperands())
    if (!traceOrigins(operand, entry, origins, visited))
      return false;
  for (Region &region : def->getRegions())
    for (Block &block : region)
      if (Operation *terminator = block.getTerminator())
        for (Value yielded : terminator->getOperands())
          if (!traceOrigins(yielded, entry, origins, visited))
            return false;
  return true;
}

/// The origins of each result of `callee` (all unknown for a declaration).
SmallVector<Origins> computeResultOrigins(func::FuncOp callee) {
  SmallVector<Origins> origins(callee.getNumResults());
  if (callee.isExternal() || !callee.getBody().hasOneBlock())
    return origins;
  auto ret = dyn_cast<func::ReturnOp>(callee.getBody().front().getTerminator());
  if (!ret)
    return origins;
  for (auto [i, value] : llvm::enumerate(ret.getOperands())) {
    llvm::SmallDenseSet<Value> found;
    llvm::DenseSet<Value> visited;
    if (traceOrigins(value, callee.getBody().front(), found, visited))
      origins[i] = std::move(found);
  }
  return origins;
}

/// Classes of values that may alias.
using AliasClasses = llvm::EquivalenceClasses<Value>;

void joinWithMemRefOperands(AliasClasses &classes, Value result,
                            Operation *op) {
  for (Value operand : op->getOperands())
    if (isMemRef(operand))
      classes.unionSets(result, operand);
}

struct GOptDeallocAfterLastUsePass
    : gopt::impl::GOptDeallocAfterLastUseBase<GOptDeallocAfterLastUsePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::DenseMap<Operation *, SmallVector<Origins>> origins;
    for (auto fn : module.getOps<func::FuncOp>())
      origins[fn] = computeResultOrigins(fn);
    SymbolTable symbols(module);
    for (auto fn : module.getOps<func::FuncOp>())
      if (!fn.isExternal())
        runOnFunction(fn, symbols, origins);
  }

  void runOnFunction(func::FuncOp fn, SymbolTable &symbols,
                     llvm::DenseMap<Operation *, SmallVector<Origins>> &origins) {
    AliasClasses classes;
    for (BlockArgument arg : fn.getArguments())
      if (isMemRef(arg))
        classes.insert(arg);
    fn.walk([&](Operation *op) {
      for (Value result : op->getResults()) {
        if (!isMemRef(result))
          continue;
        classes.insert(result);
        if (isFreshBuffer(op))
          continue;
        if (auto call = dyn_cast<func::CallOp>(op)) {
          if (joinCallResult(classes, call, cast<OpResult>(result), symbols,
                             origins))
            continue;
        }
        joinWithMemRefOperands(classes, result, op);
        for (Region &region : op->getRegions())
          for (Block &block : region)
            if (Operation *terminator = block.getTerminator())
              joinWithMemRefOperands(classes, result, terminator);
      }
    });
    SmallVector<bufferization::DeallocOp> deallocs;
    fn.walk([&](bufferization::DeallocOp d) { deallocs.push_back(d); });
    for (bufferization::DeallocOp dealloc : deallocs)
      splitDealloc(dealloc, classes);
  }

  /// Joins a call's result with the operands and the other results its
  /// callee may return views of; false when the callee is unknown.
  static bool
  joinCallResult(AliasClasses &classes, func::CallOp call, OpResult result,
                 SymbolTable &symbols,
                 llvm::DenseMap<Operation *, SmallVector<Origins>> &origins) {
    auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
    auto it = callee ? origins.find(callee) : origins.end();
    if (it == origins.end())
      return false;
    const SmallVector<Origins> &of = it->second;
    unsigned index = result.getResultNumber();
    if (index >= of.size() || !of[index])
      return false;
    for (Value origin : *of[index]) {
      if (auto arg = dyn_cast<BlockArgument>(origin)) {
        if (arg.getArgNumber() >= call.getNumOperands())
          return false;
        classes.unionSets(result, call.getOperand(arg.getArgNumber()));
      }
    }
    // Results that may share a buffer (one allocation returned twice).
    for (auto [other, otherOrigins] : llvm::enumerate(of)) {
      if (other == index || !isMemRef(call.getResult(other)))
        continue;
      if (!otherOrigins ||
          llvm::any_of(*of[index], [&, &otherOrigins = otherOrigins](Value v) {
            return otherOrigins->contains(v);
          }))
        classes.unionSets(result, call.getResult(other));
    }
    return true;
  }

  /// The op of `block` at or above `op`, or null.
  static Operation *inBlock(Block *block, Operation *op) {
    return op ? block->findAncestorOpInBlock(*op) : nullptr;
  }

  static Operation *later(Operation *a, Operation *b) {
    if (!a)
      return b;
    if (!b)
      return a;
    return a->isBeforeInBlock(b) ? b : a;
  }

  /// Where the dealloc of `memref` (condition `condition`) can go: the last
  /// op of `block` that defines or uses a value of its class, or its
  /// condition; null when it cannot move (a use outside the block).
  static Operation *lastUse(Block *block, Value memref, Value condition,
                            bufferization::DeallocOp dealloc,
                            const AliasClasses &classes) {
    Operation *last = nullptr;
    Operation *metadata = memref.getDefiningOp();
    for (Value v : classes.members(memref)) {
      if (Operation *def = v.getDefiningOp()) {
        Operation *at = inBlock(block, def);
        if (!at)
          return nullptr;
        if (def != metadata)
          last = later(last, at);
      }
      for (Operation *user : v.getUsers()) {
        if (user == dealloc.getOperation() || user == metadata)
          continue;
        Operation *at = inBlock(block, user);
        if (!at)
          return nullptr;
        last = later(last, at);
      }
    }
    if (Operation *def = condition.getDefiningOp()) {
      Operation *at = inBlock(block, def);
      if (!at)
        return nullptr;
      last = later(last, at);
    }
    return last;
  }

  void splitDealloc(bufferization::DeallocOp dealloc, AliasClasses &classes) {
    Block *block = dealloc->getBlock();
    llvm::SmallDenseSet<Value> retainedRoots;
    for (Value r : dealloc.getRetained())
      retainedRoots.insert(classes.getOrInsertLeaderValue(r));
    llvm::SmallDenseMap<Value, unsigned> memrefsPerRoot;
    for (Value m : dealloc.getMemrefs())
      ++memrefsPerRoot[classes.getOrInsertLeaderValue(m)];

    SmallVector<Value> keptMemrefs, keptConditions;
    for (auto [memref, condition] :
         llvm::zip(dealloc.getMemrefs(), dealloc.getConditions())) {
      auto keep = [&, memref = memref, condition = condition] {
        keptMemrefs.push_back(memref);
        keptConditions.push_back(condition);
      };
      Value root = classes.getOrInsertLeaderValue(memref);
      if (retainedRoots.contains(root) || memrefsPerRoot[root] > 1) {
        keep();
        continue;
      }
      Operation *last =
          lastUse(block, memref, condition, dealloc, classes);
      if (!last || !last->isBeforeInBlock(dealloc)) {
        keep();
        continue;
      }
      // The memref itself must be available after `last`: it is defined
      // before, or it is the base buffer extracted for this dealloc alone,
      // which moves along.
      Operation *def = memref.getDefiningOp();
      if (def && def->getBlock() == block && last->isBeforeInBlock(def)) {
        bool onlyForThisDealloc =
            isa<memref::ExtractStridedMetadataOp>(def) &&
            llvm::all_of(def->getUsers(), [&](Operation *user) {
              return user == dealloc.getOperation();
            });
        if (!onlyForThisDealloc) {
          keep();
          continue;
        }
        def->moveAfter(last);
        last = def;
      }
      // Not inside a kernel's timer bracket (gopt-outline-kernels{timers}):
      // the free is the caller's work, not the kernel's.
      while (auto timer = dyn_cast_if_present<func::CallOp>(last->getNextNode())) {
        if (timer.getCallee() != gopt::kKernelEndTimer)
          break;
        last = timer;
      }
      OpBuilder builder(block, std::next(last->getIterator()));
      bufferization::DeallocOp::create(builder, dealloc.getLoc(),
                                       ValueRange{memref},
                                       ValueRange{condition}, ValueRange{});
      ++numMoved;
    }
    if (keptMemrefs.size() == dealloc.getMemrefs().size())
      return;
    if (!keptMemrefs.empty() || dealloc.getRetained().empty()) {
      if (keptMemrefs.empty()) {
        dealloc.erase();
        return;
      }
      dealloc.getMemrefsMutable().assign(keptMemrefs);
      dealloc.getConditionsMutable().assign(keptConditions);
      return;
    }
    // Nothing left to free: no retained value gains ownership.
    OpBuilder builder(dealloc);
    Value no = arith::ConstantOp::create(builder, dealloc.getLoc(),
                                         builder.getBoolAttr(false));
    for (Value updated : dealloc.getUpdatedConditions())
      updated.replaceAllUsesWith(no);
    dealloc.erase();
  }
};

} // namespace
