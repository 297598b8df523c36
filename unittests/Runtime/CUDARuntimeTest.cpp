//===- CUDARuntimeTest.cpp - The CUDA runtime without a usable driver -----===//
//
// The driver is opened once per process, so each case that picks a driver
// library runs in a fresh child process (a "threadsafe" death test, which
// re-executes the test binary). The runtime over a driver is tested over
// the stand-in driver (CUDAPoolTest.cpp, CUDAGraphTest.cpp).
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

} // namespace
