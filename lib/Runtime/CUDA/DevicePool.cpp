//===- DevicePool.cpp - The caching device allocator ----------------------===//

#include "DevicePool.h"
#include "Driver.h"

#include <algorithm>
#include <cstdlib>
#include <string>

namespace gopt {
namespace runtime {
namespace cuda {

int64_t GraphArena::bytes() const {
  int64_t total = 0;
  for (const auto &[ptr, size] : owned)
    total += static_cast<int64_t>(size);
  return total;
}

void *DevicePool::take(std::multimap<size_t, void *> &blocks, size_t &size) {
  auto it = blocks.lower_bound(size);
  if (it == blocks.end() || it->first > 2 * size)
    return nullptr;
  size = it->first;
  void *ptr = it->second;
  blocks.erase(it);
  return ptr;
}

void *DevicePool::allocateLocked(size_t &size) {
  if (void *ptr = take(cached, size)) {
    ++counters.cacheHits;
    return ptr;
  }
  CUdeviceptr raw = 0;
  CUresult result = driver().cuMemAlloc(&raw, size);
  if (result != 0 && !cached.empty()) {
    releaseCachedLocked();
    result = driver().cuMemAlloc(&raw, size);
  }
  check("cuMemAlloc_v2", result);
  counters.reservedBytes += static_cast<int64_t>(size);
  counters.peakReservedBytes =
      std::max(counters.peakReservedBytes, counters.reservedBytes);
  ++counters.driverAllocations;
  return reinterpret_cast<void *>(raw);
}

void *DevicePool::allocate(size_t bytes) {
  size_t size = round(bytes);
  std::lock_guard<std::mutex> lock(mutex);
  void *ptr = nullptr;
  if (capturing && (ptr = take(capturing->free, size))) {
    ++counters.cacheHits;
  } else {
    ptr = allocateLocked(size);
    if (capturing) {
      capturing->owned[ptr] = size;
      ownerOf[ptr] = capturing;
    }
  }
  live[ptr] = size;
  counters.liveBytes += static_cast<int64_t>(size);
  counters.peakBytes = std::max(counters.peakBytes, counters.liveBytes);
  ++counters.allocations;
  return ptr;
}

bool DevicePool::release(void *ptr) {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = live.find(ptr);
  if (it == live.end())
    return false;
  size_t size = it->second;
  live.erase(it);
  counters.liveBytes -= static_cast<int64_t>(size);
  if (auto owner = ownerOf.find(ptr); owner != ownerOf.end())
    owner->second->free.emplace(size, ptr);
  else
    cacheOrFreeLocked(ptr, size);
  return true;
}

void DevicePool::cacheOrFreeLocked(void *ptr, size_t size) {
  if (caching) {
    cached.emplace(size, ptr);
    return;
  }
  check("cuMemFree_v2", driver().cuMemFree(reinterpret_cast<CUdeviceptr>(ptr)));
  counters.reservedBytes -= static_cast<int64_t>(size);
}

void DevicePool::beginArena(GraphArena *arena) {
  std::lock_guard<std::mutex> lock(mutex);
  capturing = arena;
}

void DevicePool::endArena() {
  std::lock_guard<std::mutex> lock(mutex);
  capturing = nullptr;
}

void DevicePool::releaseArena(GraphArena &arena) {
  std::lock_guard<std::mutex> lock(mutex);
  if (capturing == &arena)
    capturing = nullptr;
  for (auto &[ptr, size] : arena.owned) {
    ownerOf.erase(ptr);
    if (auto it = live.find(ptr); it != live.end()) {
      live.erase(it);
      counters.liveBytes -= static_cast<int64_t>(size);
    }
    cacheOrFreeLocked(ptr, size);
  }
  arena.owned.clear();
  arena.free.clear();
}

void DevicePool::releaseCachedLocked() {
  for (auto &[size, ptr] : cached) {
    check("cuMemFree_v2",
          driver().cuMemFree(reinterpret_cast<CUdeviceptr>(ptr)));
    counters.reservedBytes -= static_cast<int64_t>(size);
  }
  cached.clear();
}

DeviceMemoryStats DevicePool::stats() {
  std::lock_guard<std::mutex> lock(mutex);
  DeviceMemoryStats result = counters;
  result.cachedBytes = 0;
  result.largestCachedBlock = 0;
  for (auto &[size, ptr] : cached) {
    result.cachedBytes += static_cast<int64_t>(size);
    result.largestCachedBlock =
        std::max(result.largestCachedBlock, static_cast<int64_t>(size));
  }
  for (auto &[ptr, arena] : ownerOf)
    if (!live.count(ptr))
      result.graphHeldBytes += static_cast<int64_t>(arena->owned.at(ptr));
  return result;
}

void DevicePool::resetPeak() {
  std::lock_guard<std::mutex> lock(mutex);
  counters.peakBytes = counters.liveBytes;
  counters.peakReservedBytes = counters.reservedBytes;
}

void DevicePool::setCaching(bool enabled) {
  std::lock_guard<std::mutex> lock(mutex);
  caching = enabled;
  if (!enabled)
    releaseCachedLocked();
}

void DevicePool::emptyCache() {
  std::lock_guard<std::mutex> lock(mutex);
  releaseCachedLocked();
}

DevicePool &devicePool() {
  static DevicePool *pool = [] {
    auto *p = new DevicePool();
    if (const char *value = std::getenv("GOPT_CUDA_CACHING"))
      p->setCaching(std::string(value) != "0");
    return p;
  }();
  return *pool;
}

} // namespace cuda
} // namespace runtime
} // namespace gopt
