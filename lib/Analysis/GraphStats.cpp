//===- GraphStats.cpp - Size, cost and memory statistics of a graph -------===//
//
// One walk computes everything: the histogram and counts, the cost of each
// kernel, the IR fingerprint (a tree of per-op hashes) and the liveness of
// intermediate tensors per block. Nothing in it is a table with an entry per
// op: on the machines this runs on, faulting in fresh memory for one costs
// more than the walk. Costs are memoized by op signature (the cost interface
// reads only names, attributes and types), which answers most ops of a graph
// of repeated layers without asking the interface; the liveness table holds
// only the values live at the point of the walk.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Analysis/GraphStats.h"
#include "GOpt/Dialect/GOpt/IR/GOptOps.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace mlir::gopt;

namespace {

/// Mixes one word into a running hash: a multiply-xorshift step of a few
/// cycles (llvm::hash_combine's buffered mixing costs several times more, and
/// the fingerprint runs over every operand after every pass).
inline uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6);
  h *= 0xbf58476d1ce4e5b9ULL;
  return h ^ (h >> 31);
}

inline uint64_t word(const void *p) { return reinterpret_cast<uintptr_t>(p); }

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

/// An intermediate tensor of a block: its bytes and the uses not yet seen.
struct LiveValue {
  int64_t bytes;
  int64_t remainingUses;
};

/// Liveness of one block's intermediates over its program order, swept as
/// the walk goes: a result is allocated at its op; a result with one use is
/// freed after the op of the block that makes that use (directly, or inside
/// its regions); one with several uses gets a count that each use counts
/// down. Only live multi-use values are held, so the table stays small.
struct BlockLiveness {
  Block *block = nullptr;
  int64_t live = 0;
  int64_t peak = 0;
  /// Bytes to free after the op of this block being visited.
  int64_t freeAfterCurrent = 0;
  DenseMap<void *, LiveValue> values;

  void reset(Block *b) {
    block = b;
    live = peak = freeAfterCurrent = 0;
    values.clear();
  }

  /// Values with one use (most of a graph's) need no entry: their use frees
  /// them (`useOfSingleUseValue`).
  void allocate(Value result, int64_t bytes) {
    live += bytes;
    if (result.use_empty()) {
      freeAfterCurrent += bytes;
      return;
    }
    if (result.hasOneUse())
      return;
    int64_t uses = 0;
    for (auto it = result.use_begin(), e = result.use_end(); it != e; ++it)
      ++uses;
    values[result.getAsOpaquePointer()] = {bytes, uses};
  }

  /// The only use of an intermediate of `bytes`.
  void useOfSingleUseValue(int64_t bytes) { freeAfterCurrent += bytes; }

  /// Counts one use of a multi-use `value`, if it is an intermediate of this
  /// block.
  void use(Value value) {
    auto it = values.find(value.getAsOpaquePointer());
    if (it == values.end())
      return;
    if (--it->second.remainingUses == 0) {
      freeAfterCurrent += it->second.bytes;
      values.erase(it);
    }
  }

  /// Called after the op: counts the peak with its results and operands
  /// live, then frees what it used last.
  void finish() {
    peak = std::max(peak, live);
    live -= freeAfterCurrent;
    freeAfterCurrent = 0;
  }
};

} // namespace

static bool isContainer(Operation &op) {
  return op.getNumRegions() != 0 && !isa<FusionOp>(op);
}

struct GraphStatsCache::Impl {
  GraphStats stats;
  DenseMap<OperationName, NameInfo> names;
  DenseMap<Type, int64_t> typeBytes;
  /// Costs by op signature: graphs repeat a few signatures many times, so
  /// this stays small and answers most ops even on the first walk.
  DenseMap<uint64_t, Cost> costs;
  /// Liveness of the blocks being walked, innermost last, and spares kept for
  /// their capacity.
  std::vector<BlockLiveness> blocks, spareBlocks;
  int64_t hits = 0, misses = 0;

  GraphStats compute(Operation *root, uint64_t *fingerprint);

private:
  OpHashes visitBlock(Block &block, bool insideFusion);
  OpHashes visitOp(Operation &op, bool insideFusion);
  OpHashes hashOpAndCountUses(Operation &op, const NameInfo &info,
                              bool countUses);
  void recordCost(Operation &op, uint64_t signature);
  void countUse(Value v);
  void allocateResults(Operation &op);

  int64_t bytesOf(Type type) {
    auto [it, inserted] = typeBytes.try_emplace(type, 0);
    if (inserted)
      it->second = getTensorBytes(type);
    return it->second;
  }
  NameInfo &infoOf(Operation &op) {
    auto [it, inserted] = names.try_emplace(op.getName());
    if (inserted) {
      it->second.terminator = op.hasTrait<OpTrait::IsTerminator>();
      it->second.constant = op.hasTrait<OpTrait::ConstantLike>();
      it->second.hasCost = isa<CostOpInterface>(op);
      it->second.propertiesAreHandles =
          isa_and_nonnull<GOptDialect>(op.getDialect()) &&
          op.getPropertiesStorageSize() % sizeof(uint64_t) == 0;
    }
    return it->second;
  }
};

/// Adds the kernel's cost, asking the cost interface only for a signature it
/// has not answered yet.
void GraphStatsCache::Impl::recordCost(Operation &op, uint64_t signature) {
  auto [it, inserted] = costs.try_emplace(signature, Cost{0, 0});
  if (inserted) {
    auto cost = cast<CostOpInterface>(op);
    it->second = {cost.getFlops(),
                  cost.getBytesRead() + cost.getBytesWritten()};
    ++misses;
  } else {
    ++hits;
  }
  ++stats.numKernels;
  stats.flops += it->second.flops;
  stats.bytesMoved += it->second.bytesMoved;
}

/// Hashes the op and, with `countUses`, counts its uses of intermediates of
/// the blocks around it, in one pass over its operands.
OpHashes GraphStatsCache::Impl::hashOpAndCountUses(Operation &op,
                                                   const NameInfo &info,
                                                   bool countUses) {
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
  for (Value v : op.getOperands()) {
    sig = mix(sig, word(v.getType().getAsOpaquePointer()));
    id = mix(id, word(v.getAsOpaquePointer()));
    if (countUses)
      countUse(v);
  }
  for (Type t : op.getResultTypes())
    sig = mix(sig, word(t.getAsOpaquePointer()));
  return {sig, mix(id, sig)};
}

/// Counts one use of `v` if it is an intermediate of a tracked block.
void GraphStatsCache::Impl::countUse(Value v) {
  auto result = dyn_cast<OpResult>(v);
  if (!result)
    return;
  Operation *def = result.getOwner();
  Block *defBlock = def->getBlock();
  for (BlockLiveness &liveness : llvm::reverse(blocks)) {
    if (liveness.block != defBlock)
      continue;
    if (!v.hasOneUse()) {
      liveness.use(v);
      return;
    }
    // Intermediates are the results of the block's non-constant,
    // non-container ops (allocateResults).
    if (isContainer(*def) || infoOf(*def).constant)
      return;
    if (int64_t bytes = bytesOf(v.getType()))
      liveness.useOfSingleUseValue(bytes);
    return;
  }
}

/// The op's results are intermediates of the innermost tracked block.
void GraphStatsCache::Impl::allocateResults(Operation &op) {
  if (blocks.empty())
    return;
  for (Value r : op.getResults()) {
    int64_t bytes = bytesOf(r.getType());
    stats.intermediateBytes += bytes;
    if (bytes)
      blocks.back().allocate(r, bytes);
  }
}

OpHashes GraphStatsCache::Impl::visitOp(Operation &op, bool insideFusion) {
  NameInfo &info = infoOf(op);
  OpHashes hash =
      hashOpAndCountUses(op, info, !insideFusion && !blocks.empty());
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
  if (isContainer(op)) {
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
  stats.numUseEdges += op.getNumOperands();
  if (info.terminator)
    return hash;
  ++stats.numOps;
  ++info.count;
  stats.numValues += op.getNumResults();
  if (info.constant) {
    ++stats.numConstants;
    for (Value r : op.getResults())
      stats.constantBytes += bytesOf(r.getType());
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
    blocks.back().finish();
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
