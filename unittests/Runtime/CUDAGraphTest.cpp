//===- CUDAGraphTest.cpp - CUDA graph capture over a stand-in driver ------===//
//
// The runtime's stream capture and the pool's graph arenas, on
// FakeCUDADriver.cpp (no GPU needed): what compiled code calls while a graph
// is captured is recorded, not run; a replay runs it on the same buffers;
// the graph keeps the memory it captured with.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Runtime/CUDA.h"
#include "StandInDriver.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <vector>

using namespace gopt::runtime::cuda;

extern "C" {
void *mgpuMemAlloc(uint64_t bytes, void *stream, bool hostShared);
void mgpuMemFree(void *ptr, void *stream);
void *mgpuStreamCreate();
void mgpuStreamDestroy(void *stream);
void mgpuStreamSynchronize(void *stream);
void mgpuMemcpy(void *dst, void *src, size_t bytes, void *stream);
void mgpuMemset32(void *dst, unsigned value, size_t count, void *stream);
void *mgpuModuleLoad(void *data, size_t size);
void *mgpuModuleGetFunction(void *module, const char *name);
void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t sharedMemoryBytes, void *stream,
                      void **params, void **extra, size_t paramsCount);
}

namespace {

struct FakeStats {
  int64_t kernelsRun, copiesRun, memsetsRun, graphLaunches, liveAllocations,
      eagerOpsDuringCapture, capturesBegun;
};

FakeStats fakeStats() {
  void *library = dlopen(GOPT_FAKE_CUDA_DRIVER, RTLD_NOW | RTLD_LOCAL);
  auto stats =
      reinterpret_cast<FakeStats (*)()>(dlsym(library, "gopt_fake_cuda_stats"));
  return stats();
}

std::vector<float> toHost(void *device, size_t count) {
  std::vector<float> host(count);
  copy(host.data(), device, count * sizeof(float));
  return host;
}

void *toDevice(const std::vector<float> &host) {
  void *device = allocateDevice(host.size() * sizeof(float));
  copy(device, host.data(), host.size() * sizeof(float));
  return device;
}

using CUDAGraphTest = StandInDriverTest;

TEST_F(CUDAGraphTest, TheFakeDriverIsADevice) {
  EXPECT_EQ(deviceName(), "Fake");
  EXPECT_EQ(deviceChip(), "sm_90");
}

// What compiled code does, the way gpu-async-region lowers it: a stream, a
// buffer, work on it, a synchronization, the stream destroyed.
TEST_F(CUDAGraphTest, ACapturedCallIsRecordedAndEachReplayRunsItAgain) {
  void *input = toDevice({1, 2, 3, 4});
  FakeStats before = fakeStats();
  ASSERT_EQ(beginGraphCapture(), "");
  void *stream = mgpuStreamCreate();
  void *result = mgpuMemAlloc(4 * sizeof(float), stream, false);
  void *scratch = mgpuMemAlloc(4 * sizeof(float), stream, false);
  mgpuMemset32(scratch, 0, 4, stream);
  mgpuMemcpy(result, input, 4 * sizeof(float), stream);
  mgpuStreamSynchronize(stream); // skipped: the fake driver rejects it
  mgpuMemFree(scratch, stream);
  mgpuStreamDestroy(stream);
  std::string error;
  std::unique_ptr<CapturedGraph> graph = endGraphCapture(error);
  ASSERT_TRUE(graph) << error;
  EXPECT_EQ(graph->copyNodes, 1);
  EXPECT_EQ(graph->memsetNodes, 1);
  EXPECT_EQ(graph->kernelNodes, 0);
  EXPECT_EQ(graph->memoryBytes, 2 * 512);
  // Nothing ran yet, and nothing ran outside the graph.
  FakeStats captured = fakeStats();
  EXPECT_EQ(captured.copiesRun, before.copiesRun);
  EXPECT_EQ(captured.memsetsRun, before.memsetsRun);
  EXPECT_EQ(captured.eagerOpsDuringCapture, before.eagerOpsDuringCapture);
  graph->replay();
  EXPECT_EQ(toHost(result, 4), (std::vector<float>{1, 2, 3, 4}));
  // A replay reads the arguments where they are, as they are now.
  copy(input, std::vector<float>{5, 6, 7, 8}.data(), 4 * sizeof(float));
  int64_t launches = fakeStats().graphLaunches;
  graph->replay();
  EXPECT_EQ(fakeStats().graphLaunches, launches + 1);
  EXPECT_EQ(toHost(result, 4), (std::vector<float>{5, 6, 7, 8}));
  graph.reset();
  freeDevice(input);
}

TEST_F(CUDAGraphTest, KernelLaunchesBecomeKernelNodes) {
  static const char image[] = "a cubin";
  void *module = mgpuModuleLoad(const_cast<char *>(image), sizeof(image));
  void *function = mgpuModuleGetFunction(module, "main_k0_add_kernel");
  ASSERT_EQ(beginGraphCapture(), "");
  void *stream = mgpuStreamCreate();
  for (int i = 0; i < 3; ++i)
    mgpuLaunchKernel(function, 8, 1, 1, 128, 1, 1, 0, stream, nullptr, nullptr,
                     0);
  // A grid of no blocks launches nothing, captured or not.
  mgpuLaunchKernel(function, 0, 1, 1, 128, 1, 1, 0, stream, nullptr, nullptr,
                   0);
  mgpuStreamDestroy(stream);
  std::string error;
  std::unique_ptr<CapturedGraph> graph = endGraphCapture(error);
  ASSERT_TRUE(graph) << error;
  EXPECT_EQ(graph->kernelNodes, 3);
  int64_t before = fakeStats().kernelsRun;
  graph->replay();
  graph->replay();
  EXPECT_EQ(fakeStats().kernelsRun, before + 6);
}

TEST_F(CUDAGraphTest, EveryStreamOfTheCapturedCallIsTheCapturingStream) {
  ASSERT_EQ(beginGraphCapture(), "");
  void *first = mgpuStreamCreate();
  mgpuStreamSynchronize(first);
  mgpuStreamDestroy(first);
  void *second = mgpuStreamCreate(); // after a library call, a new stream
  EXPECT_EQ(first, second);
  mgpuStreamDestroy(second);
  std::string error;
  EXPECT_TRUE(endGraphCapture(error)) << error;
  // Outside a capture, streams are the compiled code's own again.
  void *a = mgpuStreamCreate(), *b = mgpuStreamCreate();
  EXPECT_NE(a, b);
  mgpuStreamDestroy(a);
  mgpuStreamDestroy(b);
}

TEST_F(CUDAGraphTest, CopiesFromHostMemoryAreStagedOnTheDevice) {
  static const float constants[4] = {0.5f, 1.5f, 2.5f, 3.5f};
  ASSERT_EQ(beginGraphCapture(), "");
  void *stream = mgpuStreamCreate();
  void *buffer = mgpuMemAlloc(sizeof(constants), stream, false);
  mgpuMemcpy(buffer, const_cast<float *>(constants), sizeof(constants), stream);
  mgpuStreamDestroy(stream);
  std::string error;
  std::unique_ptr<CapturedGraph> graph = endGraphCapture(error);
  ASSERT_TRUE(graph) << error;
  EXPECT_EQ(graph->stagedBytes, static_cast<int64_t>(sizeof(constants)));
  EXPECT_EQ(graph->copyNodes, 1);
  EXPECT_EQ(graph->memoryBytes, 2 * 512); // the buffer and the staged copy
  graph->replay();
  EXPECT_EQ(toHost(buffer, 4), std::vector<float>(constants, constants + 4));
}

TEST_F(CUDAGraphTest, TheGraphKeepsTheMemoryItCapturedWith) {
  emptyCache();
  ASSERT_EQ(beginGraphCapture(), "");
  void *stream = mgpuStreamCreate();
  void *a = mgpuMemAlloc(4096, stream, false);
  mgpuMemFree(a, stream);
  // Freed during the capture: reused by the capture's next allocation.
  void *b = mgpuMemAlloc(4000, stream, false);
  EXPECT_EQ(a, b);
  void *result = mgpuMemAlloc(1024, stream, false);
  mgpuStreamDestroy(stream);
  std::string error;
  std::unique_ptr<CapturedGraph> graph = endGraphCapture(error);
  ASSERT_TRUE(graph) << error;
  EXPECT_EQ(graph->memoryBytes, 4096 + 1024);
  mgpuMemFree(b, nullptr);
  mgpuMemFree(result, nullptr); // the caller is done with the result
  DeviceMemoryStats held = deviceMemoryStats();
  EXPECT_EQ(held.graphHeldBytes, 4096 + 1024);
  EXPECT_EQ(held.cachedBytes, 0);
  // Its replays write those blocks: nobody else gets them.
  void *other = mgpuMemAlloc(4096, nullptr, false);
  EXPECT_NE(other, a);
  mgpuMemFree(other, nullptr);
  graph.reset();
  DeviceMemoryStats released = deviceMemoryStats();
  EXPECT_EQ(released.graphHeldBytes, 0);
  EXPECT_GE(released.cachedBytes, 4096 + 1024 + 4096);
}

TEST_F(CUDAGraphTest, OneCaptureAtATime) {
  ASSERT_EQ(beginGraphCapture(), "");
  EXPECT_EQ(beginGraphCapture(),
            "cannot capture a CUDA graph: a capture is already going on");
  std::string error;
  EXPECT_TRUE(endGraphCapture(error)) << error;
  EXPECT_FALSE(endGraphCapture(error));
  EXPECT_EQ(error, "no CUDA graph capture is going on");
}

TEST_F(CUDAGraphTest, ACopyIntoHostMemoryCannotBeCaptured) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  // The message on one line: docs/Errors.md quotes it.
  // clang-format off
  EXPECT_DEATH(
      {
        void *device = allocateDevice(16);
        float host[4];
        (void)beginGraphCapture();
        void *stream = mgpuStreamCreate();
        mgpuMemcpy(host, device, sizeof(host), stream);
      },
      "GOpt CUDA runtime: compiled code copies into host memory while a CUDA graph is captured; a graph cannot replay that");
  // clang-format on
}

TEST_F(CUDAGraphTest, KernelsAreNotTimedWhileCaptured) {
  static const char image[] = "a cubin";
  void *function = mgpuModuleGetFunction(
      mgpuModuleLoad(const_cast<char *>(image), sizeof(image)), "k");
  setKernelProfiling(true);
  ASSERT_EQ(beginGraphCapture(), "");
  void *stream = mgpuStreamCreate();
  mgpuLaunchKernel(function, 1, 1, 1, 32, 1, 1, 0, stream, nullptr, nullptr, 0);
  std::string error;
  std::unique_ptr<CapturedGraph> graph = endGraphCapture(error);
  ASSERT_TRUE(graph) << error;
  // The graph holds the launch alone: no timing events were recorded.
  EXPECT_EQ(graph->kernelNodes, 1);
  EXPECT_EQ(graph->otherNodes, 0);
  EXPECT_TRUE(collectKernelTimes().empty());
  setKernelProfiling(false);
}

} // namespace
