//===- GraphStats.cpp - Size, cost and memory statistics of a graph -------===//

#include "GOpt/Analysis/GraphStats.h"
#include "GOpt/Dialect/GOpt/IR/GOptOps.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Hashing.h"

using namespace mlir;
using namespace mlir::gopt;

namespace {

/// What the collector needs to know of an op name, looked up once per name:
/// trait queries scan an op's trait list, which is slow per op.
struct NameInfo {
  int64_t count = 0;
  bool terminator = false;
  bool constant = false;
  bool hasCost = false;
};

class StatsCollector {
public:
  void visitBlock(Block &block, bool insideFusion);
  GraphStats stats;
  DenseMap<OperationName, NameInfo> names;
  DenseMap<Type, int64_t> typeBytes;
  bool hashing = false;
  llvm::hash_code hash = 0;

private:
  void visitOp(Operation &op, bool insideFusion);
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
    }
    return it->second;
  }
  int64_t peakOfBlock(Block &block);
};

} // namespace

static bool isContainer(Operation &op) {
  return op.getNumRegions() != 0 && !isa<FusionOp>(op);
}

void StatsCollector::visitOp(Operation &op, bool insideFusion) {
  if (hashing) {
    hash = llvm::hash_combine(hash, &op, op.getName().getAsOpaquePointer(),
                              op.getRawDictionaryAttrs().getAsOpaquePointer(),
                              op.getNumOperands(), op.getNumResults());
    if (op.getPropertiesStorageSize())
      hash = llvm::hash_combine(hash, op.hashProperties());
    for (Value v : op.getOperands())
      hash = llvm::hash_combine(hash, v.getAsOpaquePointer());
    for (Type t : op.getResultTypes())
      hash = llvm::hash_combine(hash, t.getAsOpaquePointer());
  }
  if (auto fusion = dyn_cast<FusionOp>(op)) {
    ++stats.numFusionGroups;
    stats.numValues += op.getNumResults();
    stats.numUseEdges += op.getNumOperands();
    if (!insideFusion) {
      auto cost = cast<CostOpInterface>(op);
      ++stats.numKernels;
      stats.flops += cost.getFlops();
      stats.bytesMoved += cost.getBytesRead() + cost.getBytesWritten();
    }
    visitBlock(fusion.getBodyBlock(), /*insideFusion=*/true);
    return;
  }
  if (isContainer(op)) {
    if (auto function = dyn_cast<FunctionOpInterface>(op))
      if (!function.isExternal())
        stats.numValues += function.getFunctionBody().front().getNumArguments();
    for (Region &region : op.getRegions())
      for (Block &block : region)
        visitBlock(block, insideFusion);
    return;
  }
  stats.numUseEdges += op.getNumOperands();
  NameInfo &info = infoOf(op);
  if (info.terminator)
    return;
  ++stats.numOps;
  ++info.count;
  stats.numValues += op.getNumResults();
  if (info.constant) {
    ++stats.numConstants;
    for (Value r : op.getResults())
      stats.constantBytes += bytesOf(r.getType());
    return;
  }
  if (insideFusion || !info.hasCost)
    return;
  if (auto cost = dyn_cast<CostOpInterface>(op)) {
    ++stats.numKernels;
    stats.flops += cost.getFlops();
    stats.bytesMoved += cost.getBytesRead() + cost.getBytesWritten();
  }
}

int64_t StatsCollector::peakOfBlock(Block &block) {
  auto count = static_cast<unsigned>(std::distance(block.begin(), block.end()));
  DenseMap<Operation *, int64_t> position(count);
  int64_t n = 0;
  for (Operation &op : block)
    position[&op] = n++;
  // frees[i]: bytes whose last use is op i.
  std::vector<int64_t> allocs(n, 0), frees(n, 0);
  bool any = false;
  for (Operation &op : block) {
    if (isContainer(op) || infoOf(op).constant)
      continue;
    int64_t def = position[&op];
    for (Value r : op.getResults()) {
      int64_t bytes = bytesOf(r.getType());
      if (bytes == 0)
        continue;
      stats.intermediateBytes += bytes;
      any = true;
      int64_t last = def;
      for (Operation *user : r.getUsers()) {
        Operation *ancestor =
            user->getBlock() == &block ? user : block.findAncestorOpInBlock(*user);
        if (ancestor)
          last = std::max(last, position.lookup(ancestor));
      }
      allocs[def] += bytes;
      frees[last] += bytes;
    }
  }
  if (!any)
    return 0;
  int64_t live = 0, peak = 0;
  for (int64_t i = 0; i < n; ++i) {
    live += allocs[i];
    peak = std::max(peak, live);
    live -= frees[i];
  }
  return peak;
}

void StatsCollector::visitBlock(Block &block, bool insideFusion) {
  if (!insideFusion)
    stats.peakMemoryBytes = std::max(stats.peakMemoryBytes, peakOfBlock(block));
  for (Operation &op : block)
    visitOp(op, insideFusion);
}

GraphStats GraphStats::compute(Operation *root, uint64_t *fingerprint) {
  StatsCollector collector;
  collector.hashing = fingerprint != nullptr;
  for (Region &region : root->getRegions())
    for (Block &block : region)
      collector.visitBlock(block, isa<FusionOp>(root));
  for (auto &[name, info] : collector.names)
    if (info.count)
      collector.stats.opHistogram[name.getStringRef().str()] = info.count;
  if (fingerprint)
    *fingerprint = static_cast<uint64_t>(collector.hash);
  return collector.stats;
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
