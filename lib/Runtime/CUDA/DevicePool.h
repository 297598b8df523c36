//===- DevicePool.h - The caching device allocator --------------*- C++ -*-===//
//
// Private to lib/Runtime/CUDA. The device allocator behind mgpuMemAlloc,
// mgpuMemFree and allocateDevice: a caching pool, as PyTorch's CUDA
// allocator is one. A freed block is kept for a later allocation of about
// its size instead of going back to the driver (cuMemFree synchronizes the
// whole device; cuMemAlloc costs tens of microseconds), so a steady state of
// repeated runs allocates from the driver only once. Sizes are rounded up to
// 512 bytes; an allocation takes the smallest cached block that fits and is
// at most twice its size. When the driver is out of memory, the cache is
// emptied and the allocation tried again. Reuse is safe because compiled
// code allocates, uses and frees a buffer on one stream (gpu-async-region)
// and synchronizes it before returning.
//
// A CUDA graph owns the blocks its capture allocated (an arena, as a graph
// has a private memory pool in PyTorch): its replays write them again, so
// they never go to another allocation while the graph lives. A block freed
// during the capture is reused by the capture's later allocations only (the
// graph orders their kernels); a block of a graph freed afterwards (a
// result the caller is done with) stays the graph's. Destroying the graph
// returns its blocks to the cache.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_LIB_RUNTIME_CUDA_DEVICEPOOL_H
#define GOPT_LIB_RUNTIME_CUDA_DEVICEPOOL_H

#include "GOpt/Runtime/CUDA.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <unordered_map>

namespace gopt {
namespace runtime {
namespace cuda {

/// The blocks one CUDA graph owns.
struct GraphArena {
  /// Every block of the graph: pointer -> rounded bytes.
  std::unordered_map<void *, size_t> owned;
  /// Those not live (freed during or after the capture), by rounded bytes.
  std::multimap<size_t, void *> free;
  int64_t bytes() const;
};

class DevicePool {
public:
  void *allocate(size_t bytes);
  /// False when `ptr` is no block of this pool.
  bool release(void *ptr);

  /// From now on, allocations are `arena`'s (stream capture begins).
  void beginArena(GraphArena *arena);
  /// Allocations are the pool's again (the capture ended).
  void endArena();
  /// Returns the arena's blocks to the cache (the graph is destroyed).
  void releaseArena(GraphArena &arena);

  DeviceMemoryStats stats();
  void resetPeak();
  void setCaching(bool enabled);
  void emptyCache();

private:
  static size_t round(size_t bytes) { return (bytes + 511) / 512 * 512; }
  /// The smallest block of `blocks` that fits `size` and is at most twice
  /// it, taken out of `blocks`; null when there is none.
  static void *take(std::multimap<size_t, void *> &blocks, size_t &size);
  /// A block of the cache, else of the driver.
  void *allocateLocked(size_t &size);
  void cacheOrFreeLocked(void *ptr, size_t size);
  void releaseCachedLocked();

  std::mutex mutex;
  /// Live blocks: pointer -> rounded bytes.
  std::unordered_map<void *, size_t> live;
  /// Cached free blocks by rounded bytes.
  std::multimap<size_t, void *> cached;
  /// The arena of the graph being captured, if any, and every live graph's
  /// arena by block.
  GraphArena *capturing = nullptr;
  std::unordered_map<void *, GraphArena *> ownerOf;
  DeviceMemoryStats counters;
  bool caching = true;
};

/// The process's pool (GOPT_CUDA_CACHING=0 starts it with caching off).
DevicePool &devicePool();

} // namespace cuda
} // namespace runtime
} // namespace gopt

#endif // GOPT_LIB_RUNTIME_CUDA_DEVICEPOOL_H
