//===- CUDAPoolTest.cpp - Device memory, copies, the bandwidth probe ------===//
//
// The caching pool behind mgpuMemAlloc/mgpuMemFree, copies and the copy
// bandwidth probe, over the stand-in driver (FakeCUDADriver.cpp: device
// memory is host memory), so they run on every machine.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Runtime/CUDA.h"
#include "StandInDriver.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <vector>

using namespace gopt::runtime::cuda;

extern "C" {
void *mgpuMemAlloc(uint64_t bytes, void *stream, bool hostShared);
void mgpuMemFree(void *ptr, void *stream);
}

namespace {

using CUDAPoolTest = StandInDriverTest;

TEST_F(CUDAPoolTest, DeviceMemoryIsTracked) {
  DeviceMemoryStats before = deviceMemoryStats();
  void *a = mgpuMemAlloc(1 << 20, nullptr, false);
  void *b = mgpuMemAlloc(1 << 10, nullptr, false);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  DeviceMemoryStats during = deviceMemoryStats();
  EXPECT_EQ(during.liveBytes - before.liveBytes, (1 << 20) + (1 << 10));
  EXPECT_EQ(during.allocations - before.allocations, 2);
  mgpuMemFree(a, nullptr);
  DeviceMemoryStats after = deviceMemoryStats();
  EXPECT_EQ(after.liveBytes - before.liveBytes, 1 << 10);
  EXPECT_GE(after.peakBytes, during.liveBytes);
  resetPeakDeviceMemory();
  EXPECT_EQ(deviceMemoryStats().peakBytes, after.liveBytes);
  mgpuMemFree(b, nullptr);
}

TEST_F(CUDAPoolTest, FreedBlocksAreReusedFromTheCache) {
  setCachingAllocator(true);
  emptyCache();                                 // no block of the tests before
  void *a = mgpuMemAlloc(3000, nullptr, false); // rounded to 3072
  DeviceMemoryStats first = deviceMemoryStats();
  mgpuMemFree(a, nullptr);
  DeviceMemoryStats freed = deviceMemoryStats();
  EXPECT_EQ(freed.reservedBytes, first.reservedBytes);
  EXPECT_GE(freed.cachedBytes, 3072);
  void *b = mgpuMemAlloc(2900, nullptr, false); // fits the cached block
  DeviceMemoryStats second = deviceMemoryStats();
  EXPECT_EQ(b, a);
  EXPECT_EQ(second.driverAllocations, first.driverAllocations);
  EXPECT_EQ(second.cacheHits, first.cacheHits + 1);
  mgpuMemFree(b, nullptr);
  // Off: the cache goes back to the driver, and so does every free.
  setCachingAllocator(false);
  EXPECT_EQ(deviceMemoryStats().cachedBytes, 0);
  EXPECT_EQ(deviceMemoryStats().reservedBytes, deviceMemoryStats().liveBytes);
  setCachingAllocator(true);
}

TEST_F(CUDAPoolTest, CopiesRoundTripAndTheCopyBandwidthIsMeasured) {
  std::vector<float> in(1000), out(1000, 0.0f);
  for (size_t i = 0; i < in.size(); ++i)
    in[i] = static_cast<float>(i) * 0.5f;
  void *device = allocateDevice(in.size() * sizeof(float));
  copy(device, in.data(), in.size() * sizeof(float));
  copy(out.data(), device, out.size() * sizeof(float));
  freeDevice(device);
  EXPECT_EQ(in, out);
  CopyBandwidth bandwidth = measureCopyBandwidth(size_t(64) << 20, 3);
  EXPECT_GT(bandwidth.gbPerSecond, 0);
  EXPECT_GT(bandwidth.medianMs, 0);
}

} // namespace
