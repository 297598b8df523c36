//===- CUDARuntimeTest.cpp - The CUDA runtime without (or with) a GPU -----===//
//
// The driver is opened once per process, so each case that picks a driver
// library runs in a fresh child process (a "threadsafe" death test, which
// re-executes the test binary).
//
//===----------------------------------------------------------------------===//

#include "GOpt/Runtime/CUDA.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <vector>

using namespace gopt::runtime::cuda;

extern "C" {
void *mgpuMemAlloc(uint64_t bytes, void *stream, bool hostShared);
void mgpuMemFree(void *ptr, void *stream);
void *mgpuStreamCreate();
}

namespace {

class CUDARuntimeTest : public ::testing::Test {
protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

/// In a child process: opens `library` as the driver, prints initialize()'s
/// answer to stderr and exits 0 when the runtime says it is unusable.
[[noreturn]] void reportInitialization(const char *library) {
  setenv("GOPT_LIBCUDA", library, 1);
  std::string why = initialize();
  std::fprintf(stderr, "%s\n", why.c_str());
  std::exit(isAvailable() || why.empty() ? 1 : 0);
}

TEST_F(CUDARuntimeTest, NoDriverLibraryIsAClearError) {
  EXPECT_EXIT(reportInitialization("/nonexistent/libcuda.so.1"),
              ::testing::ExitedWithCode(0),
              "no CUDA driver: cannot open /nonexistent/libcuda.so.1");
}

TEST_F(CUDARuntimeTest, ALibraryThatIsNoDriverIsAClearError) {
  EXPECT_EXIT(reportInitialization("libm.so.6"), ::testing::ExitedWithCode(0),
              "libm.so.6 has no cuInit: not a CUDA driver");
}

TEST_F(CUDARuntimeTest, TheToolkitStubIsNoDevice) {
  const char *home = std::getenv("CUDA_HOME");
  std::filesystem::path stub =
      std::filesystem::path(home && *home ? home : "/usr/local/cuda") /
      "lib64" / "stubs" / "libcuda.so";
  if (!std::filesystem::exists(stub))
    GTEST_SKIP() << "no CUDA toolkit stub at " << stub;
  EXPECT_EXIT(reportInitialization(stub.c_str()), ::testing::ExitedWithCode(0),
              "cuInit failed with .*: no usable CUDA device");
}

TEST_F(CUDARuntimeTest, CompiledCodeWithoutADriverStopsWithTheReason) {
  EXPECT_DEATH(
      {
        setenv("GOPT_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
        mgpuStreamCreate();
      },
      "GOpt CUDA runtime: no CUDA driver: cannot open "
      "/nonexistent/libcuda.so.1");
}

TEST_F(CUDARuntimeTest, EmptyAllocationsNeedNoDevice) {
  // An empty tensor's buffer: no driver call, nothing tracked.
  EXPECT_EQ(mgpuMemAlloc(0, nullptr, false), nullptr);
  mgpuMemFree(nullptr, nullptr);
  DeviceMemoryStats stats = deviceMemoryStats();
  EXPECT_EQ(stats.liveBytes, 0);
  EXPECT_EQ(stats.allocations, 0);
}

TEST_F(CUDARuntimeTest, KernelTimesWithNothingLaunchedNeedNoDevice) {
  setKernelProfiling(true);
  EXPECT_TRUE(collectKernelTimes().empty());
  setKernelProfiling(false);
}

TEST_F(CUDARuntimeTest, DeviceMemoryIsTracked) {
  if (!initialize().empty())
    GTEST_SKIP() << "no CUDA device: " << initialize();
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

TEST_F(CUDARuntimeTest, FreedBlocksAreReusedFromTheCache) {
  if (!initialize().empty())
    GTEST_SKIP() << "no CUDA device: " << initialize();
  setCachingAllocator(true);
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

TEST_F(CUDARuntimeTest, CopiesRoundTripAndTheCopyBandwidthIsMeasured) {
  if (!initialize().empty())
    GTEST_SKIP() << "no CUDA device: " << initialize();
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
