//===- RuntimeTest.cpp - Tracking allocator and kernel timers -------------===//

#include "GOpt/Runtime/Runtime.h"

#include "gtest/gtest.h"

using namespace mlir::gopt::runtime;

namespace {

TEST(TrackingAllocator, CountsLiveAndPeakBytes) {
  resetMemoryStats();
  MemoryStats start = getMemoryStats();
  void *a = _mlir_memref_to_llvm_alloc(1000);
  void *b = _mlir_memref_to_llvm_aligned_alloc(128, 24);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b) % 128, 0u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % 64, 0u);
  EXPECT_TRUE(ownsAllocation(a));
  _mlir_memref_to_llvm_free(a);
  EXPECT_FALSE(ownsAllocation(a));
  void *c = _mlir_memref_to_llvm_alloc(10);
  MemoryStats s = getMemoryStats();
  EXPECT_EQ(s.liveBytes - start.liveBytes, 24 + 10);
  EXPECT_EQ(s.peakBytes - start.liveBytes, 1000 + 24);
  EXPECT_EQ(s.allocations, 3);
  EXPECT_EQ(s.frees, 1);
  _mlir_memref_to_llvm_free(b);
  _mlir_memref_to_llvm_free(c);
  EXPECT_EQ(getMemoryStats().liveBytes, start.liveBytes);
}

TEST(TrackingAllocator, HandsFreedBlocksOutAgain) {
  setCaching(true);
  void *a = _mlir_memref_to_llvm_alloc(4096);
  _mlir_memref_to_llvm_free(a);
  resetMemoryStats();
  void *b = _mlir_memref_to_llvm_alloc(4090); // same 64-byte-rounded class
  EXPECT_EQ(a, b);
  EXPECT_EQ(getMemoryStats().cacheHits, 1);
  _mlir_memref_to_llvm_free(b);
  setCaching(false);
  resetMemoryStats();
  void *c = _mlir_memref_to_llvm_alloc(4096);
  EXPECT_EQ(getMemoryStats().cacheHits, 0);
  _mlir_memref_to_llvm_free(c);
  setCaching(true);
}

TEST(TrackingAllocator, ResetKeepsLiveBytesAsThePeak) {
  void *a = _mlir_memref_to_llvm_alloc(256);
  resetMemoryStats();
  MemoryStats s = getMemoryStats();
  EXPECT_EQ(s.peakBytes, s.liveBytes);
  EXPECT_EQ(s.allocations, 0);
  _mlir_memref_to_llvm_free(a);
}

TEST(KernelTimers, AddUpCallsPerKernel) {
  resetKernelTimes();
  for (int i = 0; i < 3; ++i) {
    gopt_kernel_begin(2);
    gopt_kernel_end(2);
  }
  gopt_kernel_begin(0);
  gopt_kernel_end(0);
  gopt_kernel_end(5); // an end without a begin is ignored
  std::vector<KernelTime> times = getKernelTimes();
  ASSERT_EQ(times.size(), 2u);
  EXPECT_EQ(times[0].id, 0);
  EXPECT_EQ(times[0].calls, 1);
  EXPECT_EQ(times[1].id, 2);
  EXPECT_EQ(times[1].calls, 3);
  EXPECT_GE(times[1].totalMs, 0);
  resetKernelTimes();
  EXPECT_TRUE(getKernelTimes().empty());
}

TEST(Runtime, ListsEveryEntryPointForAJIT) {
  auto symbols = getRuntimeSymbols();
  EXPECT_EQ(symbols.size(), 6u);
  for (auto &[name, address] : symbols)
    EXPECT_NE(address, nullptr) << name;
}

TEST(MemrefCopy, CopiesAStridedView) {
  // A 2x3 view with row stride 4 of a 2x4 buffer, into a dense 2x3 buffer.
  float src[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  float dst[6] = {};
  int64_t srcDesc[] = {reinterpret_cast<int64_t>(src),
                       reinterpret_cast<int64_t>(src), 1, 2, 3, 4, 1};
  int64_t dstDesc[] = {reinterpret_cast<int64_t>(dst),
                       reinterpret_cast<int64_t>(dst), 0, 2, 3, 3, 1};
  struct {
    int64_t rank;
    void *descriptor;
  } srcArg{2, srcDesc}, dstArg{2, dstDesc};
  memrefCopy(sizeof(float), &srcArg, &dstArg);
  float expected[6] = {1, 2, 3, 5, 6, 7};
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(dst[i], expected[i]) << i;
  // Transposed destination: column-major strides.
  float dstT[6] = {};
  int64_t dstTDesc[] = {reinterpret_cast<int64_t>(dstT),
                        reinterpret_cast<int64_t>(dstT), 0, 2, 3, 1, 2};
  dstArg.descriptor = dstTDesc;
  memrefCopy(sizeof(float), &srcArg, &dstArg);
  float expectedT[6] = {1, 5, 2, 6, 3, 7};
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(dstT[i], expectedT[i]) << i;
}

} // namespace
