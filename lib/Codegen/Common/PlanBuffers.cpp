//===- PlanBuffers.cpp - An entry function's intermediates in one arena ---===//
//
// Static memory planning: every intermediate buffer of an entry function
// whose lifetime is known (allocated and freed in its block) gets an offset
// in one arena, buffers alive at the same time at disjoint offsets, so the
// function allocates once per call and needs only as many bytes as its
// worst moment, packed (docs/Lowering.md, "Buffers").
//
//===----------------------------------------------------------------------===//

#include "GOpt/Codegen/Common/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <limits>
#include <random>

namespace mlir {
namespace gopt {
#define GEN_PASS_DEF_GOPTPLANBUFFERS
#include "GOpt/Codegen/Common/Passes.h.inc"
} // namespace gopt
} // namespace mlir

using namespace mlir;

namespace {

/// One buffer to place: allocated at op index `first`, freed at `last`.
struct PlannedBuffer {
  memref::AllocOp alloc;
  memref::DeallocOp dealloc;
  int64_t first = 0;
  int64_t last = 0;
  int64_t bytes = 0;
  int64_t offset = -1;

  bool livesWith(const PlannedBuffer &other) const {
    return first <= other.last && other.first <= last;
  }
};

/// `value` rounded up to a multiple of `alignment` (llvm::alignTo works on
/// unsigned values; offsets here are signed, -1 meaning not yet placed).
int64_t alignTo(int64_t value, int64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

/// The dealloc of `alloc` when it is the only one and sits in `block`.
memref::DeallocOp findOnlyDealloc(memref::AllocOp alloc, Block &block) {
  memref::DeallocOp found;
  for (Operation *user : alloc->getUsers()) {
    auto dealloc = dyn_cast<memref::DeallocOp>(user);
    if (!dealloc)
      continue;
    if (found || dealloc->getBlock() != &block)
      return {};
    found = dealloc;
  }
  return found;
}

/// The order in which one packing places the buffers: true when `a` goes
/// before `b`.
using PlacementOrder =
    llvm::function_ref<bool(const PlannedBuffer *, const PlannedBuffer *)>;

/// Offsets for `buffers` placed in `order`, each in the smallest gap that
/// holds it between the buffers already placed that live at the same time,
/// else above all of them. Returns the arena's size.
int64_t packInOrder(MutableArrayRef<PlannedBuffer> buffers, int64_t alignment,
                    PlacementOrder before) {
  SmallVector<PlannedBuffer *> order;
  for (PlannedBuffer &buffer : buffers) {
    buffer.offset = -1;
    order.push_back(&buffer);
  }
  llvm::stable_sort(order, before);

  int64_t arenaBytes = 0;
  SmallVector<PlannedBuffer *> placed;
  for (PlannedBuffer *buffer : order) {
    SmallVector<PlannedBuffer *> overlapping;
    for (PlannedBuffer *other : placed)
      if (buffer->livesWith(*other))
        overlapping.push_back(other);
    llvm::sort(overlapping, [](const PlannedBuffer *a, const PlannedBuffer *b) {
      return a->offset < b->offset;
    });

    int64_t bestOffset = -1;
    int64_t bestGap = std::numeric_limits<int64_t>::max();
    int64_t cursor = 0;
    for (PlannedBuffer *other : overlapping) {
      int64_t gap = other->offset - cursor;
      if (gap >= buffer->bytes && gap < bestGap) {
        bestGap = gap;
        bestOffset = cursor;
      }
      cursor =
          std::max(cursor, alignTo(other->offset + other->bytes, alignment));
    }
    buffer->offset = bestOffset >= 0 ? bestOffset : cursor;
    arenaBytes = std::max(arenaBytes, buffer->offset + buffer->bytes);
    placed.push_back(buffer);
  }
  return alignTo(arenaBytes, alignment);
}

/// The most bytes alive at one moment: no packing needs less.
int64_t mostBytesLive(ArrayRef<PlannedBuffer> buffers) {
  // +bytes where a buffer is allocated, -bytes after it is freed; at one
  // position, frees (of buffers that ended before it) come first.
  SmallVector<std::pair<int64_t, int64_t>> events;
  for (const PlannedBuffer &buffer : buffers) {
    events.push_back({buffer.first, buffer.bytes});
    events.push_back({buffer.last + 1, -buffer.bytes});
  }
  llvm::sort(events);
  int64_t live = 0, most = 0;
  for (auto [position, delta] : events) {
    live += delta;
    most = std::max(most, live);
  }
  return most;
}

/// Random placement orders tried at most, when the five fixed ones all stay
/// above the bound, and the work (buffers², the gap checks of one packing,
/// summed over the draws) they may take: 256 draws for 125 buffers, fewer
/// for more.
constexpr int64_t kMaxRandomOrders = 256;
constexpr int64_t kRandomOrderWork = int64_t(4) << 20;
constexpr uint32_t kRandomOrderSeed = 20261206;

/// Offsets for `buffers`: the smallest arena of several greedy packings,
/// each best fit but placing the buffers in a different order — largest
/// first (the planner's first choice), longest-lived first, largest size ×
/// lifetime first, first allocated first, last freed first, then orders
/// drawn at random. No one order wins on every graph (a buffer placed early
/// can leave a gap no later one fits); the search stops at the first
/// packing that reaches the bound no packing beats, the most bytes alive at
/// one moment, `bound` (mostBytesLive, aligned). Returns the arena's size.
int64_t assignOffsets(MutableArrayRef<PlannedBuffer> buffers, int64_t alignment,
                      int64_t bound) {
  auto span = [](const PlannedBuffer *b) { return b->last - b->first + 1; };
  auto largestFirst = [](const PlannedBuffer *a, const PlannedBuffer *b) {
    if (a->bytes != b->bytes)
      return a->bytes > b->bytes;
    return a->first < b->first;
  };
  auto longestLivedFirst = [&](const PlannedBuffer *a, const PlannedBuffer *b) {
    if (span(a) != span(b))
      return span(a) > span(b);
    return a->bytes > b->bytes;
  };
  auto largestAreaFirst = [&](const PlannedBuffer *a, const PlannedBuffer *b) {
    return a->bytes * span(a) > b->bytes * span(b);
  };
  auto firstAllocatedFirst = [](const PlannedBuffer *a,
                                const PlannedBuffer *b) {
    return a->first < b->first;
  };
  auto lastFreedFirst = [](const PlannedBuffer *a, const PlannedBuffer *b) {
    return a->last > b->last;
  };
  int64_t best = std::numeric_limits<int64_t>::max();
  SmallVector<int64_t> bestOffsets;
  // Packs in `order` and keeps the offsets when the arena is the smallest
  // yet; returns whether the search may stop (the bound is reached).
  auto tryOrder = [&](PlacementOrder order) {
    int64_t arena = packInOrder(buffers, alignment, order);
    if (arena < best) {
      best = arena;
      bestOffsets.clear();
      for (const PlannedBuffer &buffer : buffers)
        bestOffsets.push_back(buffer.offset);
    }
    return best <= bound;
  };
  for (PlacementOrder order :
       {PlacementOrder(largestFirst), PlacementOrder(longestLivedFirst),
        PlacementOrder(largestAreaFirst), PlacementOrder(firstAllocatedFirst),
        PlacementOrder(lastFreedFirst)})
    if (tryOrder(order))
      break;
  // Still above: orders drawn at random (std::mt19937 is specified to the
  // bit, so a graph always gets the same plan), as many as keep this
  // search within a few million gap checks.
  int64_t n = static_cast<int64_t>(buffers.size());
  int64_t draws =
      std::min<int64_t>(kMaxRandomOrders, kRandomOrderWork / (n * n));
  std::mt19937 random(kRandomOrderSeed);
  SmallVector<uint32_t> rank(buffers.size());
  auto drawn = [&](const PlannedBuffer *a, const PlannedBuffer *b) {
    return rank[a - buffers.data()] < rank[b - buffers.data()];
  };
  for (int64_t draw = 0; draw < draws && best > bound; ++draw) {
    for (uint32_t &r : rank)
      r = random();
    tryOrder(drawn);
  }
  for (auto [buffer, offset] : llvm::zip(buffers, bestOffsets))
    buffer.offset = offset;
  return best;
}

/// Records `plan` on `function` (getRecordedBufferPlan reads it back).
void recordBufferPlan(Operation *function, const gopt::BufferPlan &plan) {
  Builder builder(function->getContext());
  function->setAttr(gopt::kArenaBytesAttrName,
                    builder.getI64IntegerAttr(plan.arenaBytes));
  function->setAttr(gopt::kPlannedBuffersAttrName,
                    builder.getI64IntegerAttr(plan.plannedBuffers));
  function->setAttr(gopt::kPlannedBytesAttrName,
                    builder.getI64IntegerAttr(plan.plannedBytes));
  function->setAttr(gopt::kMostLiveBytesAttrName,
                    builder.getI64IntegerAttr(plan.mostLiveBytes));
}

struct GOptPlanBuffersPass
    : gopt::impl::GOptPlanBuffersBase<GOptPlanBuffersPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (function.isExternal() || !function.isPublic() ||
        !function.getBody().hasOneBlock())
      return;
    int64_t alignment = this->alignment;
    if (alignment <= 0 || !llvm::isPowerOf2_64(alignment)) {
      function.emitError() << "gopt-plan-buffers: alignment must be a power "
                              "of two, got "
                           << alignment;
      return signalPassFailure();
    }
    Block &block = function.getBody().front();
    DataLayout layout = DataLayout::closest(function);

    DenseMap<Operation *, int64_t> position;
    int64_t index = 0;
    for (Operation &op : block)
      position[&op] = index++;

    SmallVector<PlannedBuffer> buffers;
    for (auto alloc : block.getOps<memref::AllocOp>()) {
      MemRefType type = alloc.getType();
      Type element = type.getElementType();
      std::optional<uint64_t> asked = alloc.getAlignment();
      if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
          type.getMemorySpace() || !element.isIntOrIndexOrFloat() ||
          (asked && static_cast<int64_t>(*asked) > alignment))
        continue;
      memref::DeallocOp dealloc = findOnlyDealloc(alloc, block);
      if (!dealloc)
        continue;
      PlannedBuffer buffer;
      buffer.alloc = alloc;
      buffer.dealloc = dealloc;
      buffer.first = position[alloc];
      buffer.last = position[dealloc];
      buffer.bytes =
          alignTo(std::max<int64_t>(
                      1, type.getNumElements() *
                             static_cast<int64_t>(layout.getTypeSize(element))),
                  alignment);
      buffers.push_back(buffer);
    }
    if (buffers.empty())
      return;

    int64_t mostLiveBytes = alignTo(mostBytesLive(buffers), alignment);
    int64_t arenaBytes = assignOffsets(buffers, alignment, mostLiveBytes);
    int64_t plannedBytes = 0;
    for (const PlannedBuffer &buffer : buffers)
      plannedBytes += buffer.bytes;

    OpBuilder builder(&block, block.begin());
    Location loc = function.getLoc();
    auto arenaType = MemRefType::get({arenaBytes}, builder.getI8Type());
    Value arena = memref::AllocOp::create(builder, loc, arenaType, ValueRange(),
                                          builder.getI64IntegerAttr(alignment));
    // Freed where the last planned buffer was: results allocated after
    // that do not stack on top of it.
    memref::DeallocOp lastDealloc =
        llvm::max_element(buffers, [](const PlannedBuffer &a,
                                      const PlannedBuffer &b) {
          return a.last < b.last;
        })->dealloc;
    builder.setInsertionPoint(lastDealloc);
    memref::DeallocOp::create(builder, loc, arena);
    for (PlannedBuffer &buffer : buffers) {
      builder.setInsertionPoint(buffer.alloc);
      Value offset = arith::ConstantIndexOp::create(
          builder, buffer.alloc.getLoc(), buffer.offset);
      Value view = memref::ViewOp::create(builder, buffer.alloc.getLoc(),
                                          buffer.alloc.getType(), arena, offset,
                                          ValueRange());
      buffer.dealloc.erase();
      buffer.alloc.replaceAllUsesWith(view);
      buffer.alloc.erase();
    }

    recordBufferPlan(function,
                     {arenaBytes, static_cast<int64_t>(buffers.size()),
                      plannedBytes, mostLiveBytes});
    numPlanned += buffers.size();
  }
};

} // namespace

gopt::BufferPlan mlir::gopt::getRecordedBufferPlan(Operation *function) {
  auto read = [&](llvm::StringRef name) -> int64_t {
    auto attr = function->getAttrOfType<IntegerAttr>(name);
    return attr ? attr.getInt() : 0;
  };
  return {read(kArenaBytesAttrName), read(kPlannedBuffersAttrName),
          read(kPlannedBytesAttrName), read(kMostLiveBytesAttrName)};
}
