//===- GraphStats.cpp - Size, cost and memory statistics of a graph -------===//
//
// One walk computes everything: the histogram and counts, the cost of each
// kernel, the IR fingerprint (a tree of per-op hashes) and the liveness of
// intermediate tensors per block. It runs after every pass, so it is built
// for few instructions per op (docs/Analysis.md, "Cost"):
//  - nothing in it is a table with an entry per op: faulting in fresh memory
//    for one costs more than the walk;
//  - costs are memoized by op signature (the cost interface reads only
//    names, attributes and types), which answers most ops of a graph of
//    repeated layers without asking the interface;
//  - per-name, per-type and per-signature answers sit behind direct-mapped
//    caches of a few slots;
//  - liveness finds each value's last user once, from its use list, at the
//    definition; nothing is looked up per operand, and what waits to be
//    freed holds only the values live at the point of the walk.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Analysis/GraphStats.h"
#include "GOpt/Dialect/GOpt/IR/GOptOps.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/bit.h"

#include <array>

using namespace mlir;
using namespace mlir::gopt;

namespace {

/// Mixes one word into a running hash: FxHash's rotate-xor-multiply step,
/// three instructions (llvm::hash_combine's buffered mixing costs several
/// times more, and the fingerprint runs over every operand after every pass).
/// Each step is a bijection of the running hash for a given word, so a
/// change to any one word always changes the result.
inline uint64_t mix(uint64_t h, uint64_t v) {
  return (llvm::rotl(h, 5) ^ v) * 0x517cc1b727220a95ULL;
}

inline uint64_t word(const void *p) { return reinterpret_cast<uintptr_t>(p); }

/// A direct-mapped cache of a few answers keyed by a pointer or a hash, in
/// front of a slower lookup: a hit costs a multiply, a shift and a compare,
/// where a DenseMap lookup probes through several calls. The walk asks such
/// questions several times per op (op name, result type, cost signature) and
/// a graph holds few distinct answers.
template <typename T, unsigned Log2Slots = 6>
class DirectMapped {
public:
  /// The answer cached for `key`, or null.
  T *lookup(uint64_t key) {
    Slot &slot = slots[index(key)];
    return slot.key == key && key != 0 ? &slot.value : nullptr;
  }
  void insert(uint64_t key, T value) { slots[index(key)] = {key, value}; }
  void clear() { slots.fill(Slot()); }

private:
  static unsigned index(uint64_t key) {
    return static_cast<unsigned>((key * 0x9e3779b97f4a7c15ULL) >>
                                 (64 - Log2Slots));
  }
  struct Slot {
    uint64_t key = 0;
    T value{};
  };
  std::array<Slot, 1u << Log2Slots> slots;
};

/// Two hashes of an op: its signature (name, attributes, properties, operand
/// and result types: everything the cost interface may read) and its
/// identity (the signature plus the op and its operand values). The
/// fingerprint is built of identities; costs are memoized by signature.
struct OpHashes {
  uint64_t signature;
  uint64_t identity;
};

/// What the collector needs to know of an op name, looked up once per name:
/// trait queries scan an op's trait list, which is slow per op.
struct NameInfo {
  int64_t count = 0;
  bool terminator = false;
  bool constant = false;
  bool hasCost = false;
  /// The op's properties are attribute handles only (gopt ops: ODS stores
  /// each inherent attribute as its uniqued handle), so their bytes identify
  /// them: hashing the words is exact and several times cheaper than
  /// hashProperties' hash_combine over each attribute.
  bool propertiesAreHandles = false;
};

/// The cost interface's answer for one op signature.
struct Cost {
  int64_t flops;
  int64_t bytesMoved;
};

/// Bytes to free after `lastUser`, an op of the block.
struct PendingFree {
  Operation *lastUser;
  int64_t bytes;
};

/// Liveness of one block's intermediates over its program order, swept as
/// the walk goes: a result is allocated at its op and freed after the op of
/// the block that uses it last (directly, or inside its regions). The last
/// user is found once, at the definition, from the use list, so nothing is
/// looked up per operand. Its bytes wait in `freeAfterNext` when it is the
/// next op (a chain), else among a few pending frees scanned after each op
/// (values live across a few ops), and only beyond those in a table keyed by
/// the user; every structure holds only values live at this point.
struct BlockLiveness {
  /// Pending frees scanned after each op; more wait in `freeAfterLater`.
  static constexpr unsigned kScanned = 8;

  Block *block = nullptr;
  int64_t live = 0;
  int64_t peak = 0;
  /// Bytes to free after the op being visited, and after the one after it.
  int64_t freeAfterCurrent = 0;
  int64_t freeAfterNext = 0;
  SmallVector<PendingFree, kScanned> freeAfterSoon;
  DenseMap<Operation *, int64_t> freeAfterLater;

  void reset(Block *b) {
    block = b;
    live = peak = freeAfterCurrent = freeAfterNext = 0;
    freeAfterSoon.clear();
    freeAfterLater.clear();
  }

  /// `result` of `def`, an op of this block, holds `bytes` from now to its
  /// last use.
  void allocate(Operation &def, Value result, int64_t bytes) {
    live += bytes;
    Operation *lastUser = nullptr;
    for (OpOperand &use : result.getUses()) {
      Operation *user = use.getOwner();
      if (user->getBlock() != block &&
          !(user = block->findAncestorOpInBlock(*user)))
        continue;
      if (!lastUser || (user != lastUser && lastUser->isBeforeInBlock(user)))
        lastUser = user;
    }
    if (!lastUser || lastUser == &def)
      freeAfterCurrent += bytes;
    else if (lastUser == def.getNextNode())
      freeAfterNext += bytes;
    else if (freeAfterSoon.size() < kScanned)
      freeAfterSoon.push_back({lastUser, bytes});
    else
      freeAfterLater[lastUser] += bytes;
  }

  /// Called after `op`: counts the peak with its results and operands live,
  /// then frees what it used last.
  void finish(Operation &op) {
    peak = std::max(peak, live);
    int64_t freed = freeAfterCurrent;
    for (unsigned i = 0; i < freeAfterSoon.size();) {
      if (freeAfterSoon[i].lastUser != &op) {
        ++i;
        continue;
      }
      freed += freeAfterSoon[i].bytes;
      freeAfterSoon[i] = freeAfterSoon.back();
      freeAfterSoon.pop_back();
    }
    if (!freeAfterLater.empty()) {
      auto it = freeAfterLater.find(&op);
      if (it != freeAfterLater.end()) {
        freed += it->second;
        freeAfterLater.erase(it);
      }
    }
    live -= freed;
    freeAfterCurrent = freeAfterNext;
    freeAfterNext = 0;
  }
};

} // namespace

struct GraphStatsCache::Impl {
  GraphStats stats;
  DenseMap<OperationName, NameInfo> names;
  /// Entries of `names` (cleared when it grows, which moves them).
  DirectMapped<NameInfo *> recentNames;
  DirectMapped<int64_t> recentTypeBytes;
  /// Costs by op signature: graphs repeat a few signatures many times, so
  /// this stays small and answers most ops even on the first walk.
  DenseMap<uint64_t, Cost> costs;
  DirectMapped<Cost> recentCosts;
  /// Liveness of the blocks being walked, innermost last, and spares kept for
  /// their capacity.
  std::vector<BlockLiveness> blocks, spareBlocks;
  int64_t hits = 0, misses = 0;

  GraphStats compute(Operation *root, uint64_t *fingerprint);

private:
  // The walk: everything but visitBlock and visitOpWithRegions (the
  // recursion) is inlined into its loop.
  OpHashes visitBlock(Block &block, bool insideFusion);
  OpHashes visitOpWithRegions(Operation &op, OpHashes hash, bool insideFusion);
  LLVM_ATTRIBUTE_ALWAYS_INLINE OpHashes visitOp(Operation &op,
                                                bool insideFusion);
  LLVM_ATTRIBUTE_ALWAYS_INLINE OpHashes hashOp(Operation &op,
                                               const NameInfo &info);
  LLVM_ATTRIBUTE_ALWAYS_INLINE void recordCost(Operation &op,
                                               uint64_t signature);
  LLVM_ATTRIBUTE_ALWAYS_INLINE void allocateResults(Operation &op);

  int64_t bytesOf(Type type) {
    uint64_t key = word(type.getAsOpaquePointer());
    if (int64_t *bytes = recentTypeBytes.lookup(key))
      return *bytes;
    int64_t bytes = getTensorBytes(type);
    recentTypeBytes.insert(key, bytes);
    return bytes;
  }
  NameInfo &infoOf(Operation &op) {
    uint64_t key = word(op.getName().getAsOpaquePointer());
    if (NameInfo **info = recentNames.lookup(key))
      return **info;
    auto [it, inserted] = names.try_emplace(op.getName());
    if (inserted) {
      recentNames.clear();
      it->second.terminator = op.hasTrait<OpTrait::IsTerminator>();
      it->second.constant = op.hasTrait<OpTrait::ConstantLike>();
      it->second.hasCost = isa<CostOpInterface>(op);
      it->second.propertiesAreHandles =
          isa_and_nonnull<GOptDialect>(op.getDialect()) &&
          op.getPropertiesStorageSize() % sizeof(uint64_t) == 0;
    }
    recentNames.insert(key, &it->second);
    return it->second;
  }
};

/// Adds the kernel's cost, asking the cost interface only for a signature it
/// has not answered yet.
void GraphStatsCache::Impl::recordCost(Operation &op, uint64_t signature) {
  Cost *cost = recentCosts.lookup(signature);
  if (!cost) {
    auto [it, inserted] = costs.try_emplace(signature, Cost{0, 0});
    if (inserted) {
      auto costOp = cast<CostOpInterface>(op);
      it->second = {costOp.getFlops(),
                    costOp.getBytesRead() + costOp.getBytesWritten()};
      ++misses;
    }
    recentCosts.insert(signature, it->second);
    cost = &it->second;
  }
  ++stats.numKernels;
  stats.flops += cost->flops;
  stats.bytesMoved += cost->bytesMoved;
}

/// Hashes the op: its signature and identity.
OpHashes GraphStatsCache::Impl::hashOp(Operation &op, const NameInfo &info) {
  uint64_t sig = mix(word(op.getName().getAsOpaquePointer()),
                     word(op.getRawDictionaryAttrs().getAsOpaquePointer()));
  if (int size = op.getPropertiesStorageSize()) {
    if (info.propertiesAreHandles) {
      const uint64_t *words = op.getPropertiesStorage().as<const uint64_t *>();
      for (int i = 0, e = size / 8; i < e; ++i)
        sig = mix(sig, words[i]);
    } else {
      sig = mix(sig, static_cast<uint64_t>(op.hashProperties()));
    }
  }
  sig = mix(sig, (static_cast<uint64_t>(op.getNumOperands()) << 32) |
                     op.getNumResults());
  uint64_t id = mix(sig, word(&op));
  for (OpOperand &operand : op.getOpOperands()) {
    Value v = operand.get();
    sig = mix(sig, word(v.getType().getAsOpaquePointer()));
    id = mix(id, word(v.getAsOpaquePointer()));
  }
  for (unsigned i = 0, e = op.getNumResults(); i < e; ++i)
    sig = mix(sig, word(op.getResult(i).getType().getAsOpaquePointer()));
  return {sig, mix(id, sig)};
}

/// The op's results are intermediates of the innermost tracked block.
void GraphStatsCache::Impl::allocateResults(Operation &op) {
  if (blocks.empty())
    return;
  for (unsigned i = 0, e = op.getNumResults(); i < e; ++i) {
    Value r = op.getResult(i);
    int64_t bytes = bytesOf(r.getType());
    stats.intermediateBytes += bytes;
    if (bytes)
      blocks.back().allocate(op, r, bytes);
  }
}

/// Fusion groups and containers: ops with regions, visited out of line so
/// the walk's loop keeps the common case (an op without regions) inline.
OpHashes GraphStatsCache::Impl::visitOpWithRegions(Operation &op,
                                                   OpHashes hash,
                                                   bool insideFusion) {
  if (auto fusion = dyn_cast<FusionOp>(op)) {
    ++stats.numFusionGroups;
    stats.numValues += op.getNumResults();
    stats.numUseEdges += op.getNumOperands();
    OpHashes body = visitBlock(fusion.getBodyBlock(), /*insideFusion=*/true);
    // The group's cost depends on its body: its signature includes it.
    hash = {mix(hash.signature, body.signature),
            mix(hash.identity, body.identity)};
    if (!insideFusion) {
      recordCost(op, hash.signature);
      allocateResults(op);
    }
    return hash;
  }
  if (auto function = dyn_cast<FunctionOpInterface>(op))
    if (!function.isExternal())
      stats.numValues += function.getFunctionBody().front().getNumArguments();
  for (Region &region : op.getRegions())
    for (Block &block : region) {
      OpHashes inner = visitBlock(block, insideFusion);
      hash = {mix(hash.signature, inner.signature),
              mix(hash.identity, inner.identity)};
    }
  return hash;
}

OpHashes GraphStatsCache::Impl::visitOp(Operation &op, bool insideFusion) {
  NameInfo &info = infoOf(op);
  OpHashes hash = hashOp(op, info);
  if (op.getNumRegions() != 0)
    return visitOpWithRegions(op, hash, insideFusion);
  stats.numUseEdges += op.getNumOperands();
  if (info.terminator)
    return hash;
  ++stats.numOps;
  ++info.count;
  stats.numValues += op.getNumResults();
  if (info.constant) {
    ++stats.numConstants;
    for (unsigned i = 0, e = op.getNumResults(); i < e; ++i)
      stats.constantBytes += bytesOf(op.getResult(i).getType());
    return hash;
  }
  if (insideFusion)
    return hash;
  if (info.hasCost)
    recordCost(op, hash.signature);
  allocateResults(op);
  return hash;
}

OpHashes GraphStatsCache::Impl::visitBlock(Block &block, bool insideFusion) {
  uint64_t sig = mix(0, block.getNumArguments());
  for (BlockArgument arg : block.getArguments())
    sig = mix(sig, word(arg.getType().getAsOpaquePointer()));
  OpHashes hash{sig, sig};
  auto add = [&](OpHashes op) {
    hash = {mix(hash.signature, op.signature), mix(hash.identity, op.identity)};
  };
  if (insideFusion) {
    // Values inside a fusion stay in registers: no liveness.
    for (Operation &op : block)
      add(visitOp(op, insideFusion));
    return hash;
  }
  if (spareBlocks.empty())
    spareBlocks.emplace_back();
  blocks.push_back(std::move(spareBlocks.back()));
  spareBlocks.pop_back();
  blocks.back().reset(&block);
  for (Operation &op : block) {
    add(visitOp(op, insideFusion));
    blocks.back().finish(op);
  }
  stats.peakMemoryBytes = std::max(stats.peakMemoryBytes, blocks.back().peak);
  spareBlocks.push_back(std::move(blocks.back()));
  blocks.pop_back();
  return hash;
}

GraphStats GraphStatsCache::Impl::compute(Operation *root,
                                          uint64_t *fingerprint) {
  stats = GraphStats();
  for (auto &[name, info] : names)
    info.count = 0;
  hits = misses = 0;
  uint64_t hash = mix(0, root->getNumRegions());
  for (Region &region : root->getRegions())
    for (Block &block : region)
      hash = mix(hash, visitBlock(block, isa<FusionOp>(root)).identity);
  for (auto &[name, info] : names)
    if (info.count)
      stats.opHistogram[name.getStringRef().str()] = info.count;
  hits = stats.numKernels - misses;
  if (fingerprint)
    *fingerprint = hash;
  return std::move(stats);
}

GraphStatsCache::GraphStatsCache() : impl(std::make_unique<Impl>()) {}
GraphStatsCache::~GraphStatsCache() = default;
GraphStatsCache::GraphStatsCache(GraphStatsCache &&) = default;
GraphStatsCache &GraphStatsCache::operator=(GraphStatsCache &&) = default;

GraphStats GraphStatsCache::compute(Operation *root, uint64_t *fingerprint) {
  return impl->compute(root, fingerprint);
}

int64_t GraphStatsCache::lastHits() const { return impl->hits; }
int64_t GraphStatsCache::lastMisses() const { return impl->misses; }

std::vector<KernelCost> mlir::gopt::collectKernelCosts(Operation *root) {
  std::vector<KernelCost> kernels;
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == root)
      return WalkResult::advance();
    if (auto fusion = dyn_cast<FusionOp>(op)) {
      auto cost = cast<CostOpInterface>(op);
      kernels.push_back(
          {cost.getFlops(), cost.getBytesRead() + cost.getBytesWritten()});
      // Ops inside a fusion are part of its kernel.
      return WalkResult::skip();
    }
    if (op->getNumRegions() != 0 || op->hasTrait<OpTrait::IsTerminator>() ||
        op->hasTrait<OpTrait::ConstantLike>())
      return WalkResult::advance();
    if (auto cost = dyn_cast<CostOpInterface>(op))
      kernels.push_back(
          {cost.getFlops(), cost.getBytesRead() + cost.getBytesWritten()});
    return WalkResult::advance();
  });
  return kernels;
}

GraphStats GraphStats::compute(Operation *root, uint64_t *fingerprint) {
  return GraphStatsCache().compute(root, fingerprint);
}

llvm::json::Object GraphStats::toJSON() const {
  llvm::json::Object histogram;
  for (const auto &[name, count] : opHistogram)
    histogram[name] = count;
  return llvm::json::Object{
      {"ops", numOps},
      {"values", numValues},
      {"use_edges", numUseEdges},
      {"constants", numConstants},
      {"constant_bytes", constantBytes},
      {"intermediate_bytes", intermediateBytes},
      {"flops", flops},
      {"bytes_moved", bytesMoved},
      {"kernels", numKernels},
      {"fusion_groups", numFusionGroups},
      {"peak_memory_bytes_estimate", peakMemoryBytes},
      {"op_histogram", std::move(histogram)},
  };
}

bool GraphStats::operator==(const GraphStats &o) const {
  return opHistogram == o.opHistogram && numOps == o.numOps &&
         numValues == o.numValues && numUseEdges == o.numUseEdges &&
         numConstants == o.numConstants && constantBytes == o.constantBytes &&
         intermediateBytes == o.intermediateBytes && flops == o.flops &&
         bytesMoved == o.bytesMoved && numKernels == o.numKernels &&
         numFusionGroups == o.numFusionGroups &&
         peakMemoryBytes == o.peakMemoryBytes;
}
