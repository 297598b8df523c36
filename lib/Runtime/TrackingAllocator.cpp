//===- TrackingAllocator.cpp - Caching allocator with live/peak bytes -----===//
//
// `free` gets no size, so live blocks are kept in a map from address to
// block. Freed blocks go to a free list per (capacity, alignment) and are
// handed out again: a graph run after the first allocates without touching
// fresh pages. Peak and live bytes count what the code asked for; at each
// new peak the bytes held from the system, the free (cached) bytes among
// them and the largest free block are noted.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Runtime/Runtime.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>
#include <unordered_map>

using namespace mlir::gopt::runtime;

namespace {

/// Blocks are at least this aligned and their capacity a multiple of it.
constexpr size_t kMinAlignment = 64;

struct Block {
  size_t requested;
  size_t capacity;
  size_t alignment;
};

class TrackingAllocator {
public:
  void *allocate(size_t alignment, size_t size) {
    alignment = std::max(alignment, kMinAlignment);
    size_t capacity = std::max<size_t>(size, 1);
    capacity = (capacity + alignment - 1) / alignment * alignment;
    std::lock_guard<std::mutex> lock(mutex);
    void *ptr = nullptr;
    auto cached = cache.find({capacity, alignment});
    if (cached != cache.end() && !cached->second.empty()) {
      ptr = cached->second.back();
      cached->second.pop_back();
      ++stats.cacheHits;
    } else {
      ptr = std::aligned_alloc(alignment, capacity);
      if (!ptr)
        return nullptr;
      stats.reservedBytes += static_cast<int64_t>(capacity);
    }
    live[ptr] = {size, capacity, alignment};
    ++stats.allocations;
    stats.liveBytes += static_cast<int64_t>(size);
    liveCapacity += static_cast<int64_t>(capacity);
    if (stats.liveBytes >= stats.peakBytes) {
      stats.peakBytes = stats.liveBytes;
      notePeakLocked();
    }
    return ptr;
  }

  void release(void *ptr) {
    if (!ptr)
      return;
    std::lock_guard<std::mutex> lock(mutex);
    auto it = live.find(ptr);
    if (it == live.end()) {
      // Not ours (allocated before this allocator saw it): plain free.
      std::free(ptr);
      return;
    }
    Block block = it->second;
    live.erase(it);
    ++stats.frees;
    stats.liveBytes -= static_cast<int64_t>(block.requested);
    liveCapacity -= static_cast<int64_t>(block.capacity);
    if (caching) {
      cache[{block.capacity, block.alignment}].push_back(ptr);
    } else {
      stats.reservedBytes -= static_cast<int64_t>(block.capacity);
      std::free(ptr);
    }
  }

  MemoryStats getStats() {
    std::lock_guard<std::mutex> lock(mutex);
    return stats;
  }

  void resetStats() {
    std::lock_guard<std::mutex> lock(mutex);
    int64_t liveBytes = stats.liveBytes, reserved = stats.reservedBytes;
    stats = MemoryStats();
    stats.liveBytes = stats.peakBytes = liveBytes;
    stats.reservedBytes = reserved;
    notePeakLocked();
  }

  void releaseCache() {
    std::lock_guard<std::mutex> lock(mutex);
    releaseCacheLocked();
  }

  bool owns(const void *ptr) {
    std::lock_guard<std::mutex> lock(mutex);
    return live.count(const_cast<void *>(ptr)) != 0;
  }

  void setCaching(bool enabled) {
    std::lock_guard<std::mutex> lock(mutex);
    caching = enabled;
    if (!enabled)
      releaseCacheLocked();
  }

private:
  /// Notes what is held from the system at a new peak.
  void notePeakLocked() {
    stats.reservedAtPeak = stats.reservedBytes;
    stats.freeAtPeak = stats.reservedBytes - liveCapacity;
    stats.largestFreeAtPeak = 0;
    // The cache is ordered by capacity: the last non-empty class.
    for (auto it = cache.rbegin(); it != cache.rend(); ++it)
      if (!it->second.empty()) {
        stats.largestFreeAtPeak = static_cast<int64_t>(it->first.first);
        break;
      }
  }

  void releaseCacheLocked() {
    for (auto &[key, blocks] : cache) {
      for (void *ptr : blocks)
        std::free(ptr);
      stats.reservedBytes -= static_cast<int64_t>(key.first * blocks.size());
    }
    cache.clear();
  }

  std::mutex mutex;
  std::unordered_map<void *, Block> live;
  std::map<std::pair<size_t, size_t>, std::vector<void *>> cache;
  MemoryStats stats;
  /// Capacity of the live blocks (what they take of `reservedBytes`).
  int64_t liveCapacity = 0;
  bool caching = true;
};

TrackingAllocator &allocator() {
  // Never destroyed: compiled code may free during static destruction.
  static TrackingAllocator *instance = new TrackingAllocator();
  return *instance;
}

} // namespace

extern "C" void *_mlir_memref_to_llvm_alloc(size_t size) {
  return allocator().allocate(kMinAlignment, size);
}

extern "C" void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment,
                                                    size_t size) {
  return allocator().allocate(alignment, size);
}

extern "C" void _mlir_memref_to_llvm_free(void *ptr) {
  allocator().release(ptr);
}

double mlir::gopt::runtime::externalFragmentationAtPeak(
    const MemoryStats &stats) {
  if (stats.freeAtPeak <= 0)
    return 0.0;
  return 1.0 - static_cast<double>(stats.largestFreeAtPeak) /
                   static_cast<double>(stats.freeAtPeak);
}

MemoryStats mlir::gopt::runtime::getMemoryStats() {
  return allocator().getStats();
}

void mlir::gopt::runtime::resetMemoryStats() { allocator().resetStats(); }

void mlir::gopt::runtime::releaseCachedMemory() { allocator().releaseCache(); }

bool mlir::gopt::runtime::ownsAllocation(const void *ptr) {
  return allocator().owns(ptr);
}

void mlir::gopt::runtime::setCaching(bool enabled) {
  allocator().setCaching(enabled);
}
