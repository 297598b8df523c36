//===- RuntimeTest.cpp - Tracking allocator and kernel timers -------------===//

#include "GOpt/Runtime/Runtime.h"
#include "GOpt/Runtime/PostOps.h"

#include "llvm/ADT/STLExtras.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <vector>

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

/// A freed block serves a smaller request, the smallest such block first
/// (best fit), and goes back to its own size class.
TEST(TrackingAllocator, FreedBlocksServeSmallerRequests) {
  setCaching(true);
  releaseCachedMemory();
  void *a = _mlir_memref_to_llvm_alloc(4096);
  _mlir_memref_to_llvm_free(a);
  resetMemoryStats();
  void *b = _mlir_memref_to_llvm_alloc(3000);
  EXPECT_EQ(a, b);
  EXPECT_EQ(getMemoryStats().cacheHits, 1);
  void *c = _mlir_memref_to_llvm_alloc(1000);
  _mlir_memref_to_llvm_free(c);
  _mlir_memref_to_llvm_free(b);
  // Two free blocks, 1024 and 4096 bytes: a request of 900 gets the
  // smaller one.
  void *d = _mlir_memref_to_llvm_alloc(900);
  EXPECT_EQ(d, c);
  // The larger block kept its size class: a request of 4096 gets it.
  void *e = _mlir_memref_to_llvm_alloc(4096);
  EXPECT_EQ(e, a);
  EXPECT_EQ(getMemoryStats().cacheHits, 3);
  for (void *p : {d, e})
    _mlir_memref_to_llvm_free(p);
  releaseCachedMemory();
}

TEST(TrackingAllocator, ResetKeepsLiveBytesAsThePeak) {
  void *a = _mlir_memref_to_llvm_alloc(256);
  resetMemoryStats();
  MemoryStats s = getMemoryStats();
  EXPECT_EQ(s.peakBytes, s.liveBytes);
  EXPECT_EQ(s.allocations, 0);
  _mlir_memref_to_llvm_free(a);
}

/// At the peak, the allocator notes what it holds from the system and how
/// much of it is free in its cache: blocks of 1024 and 2048 bytes freed
/// before a 4096-byte one is asked for stay in their size classes, free
/// but of no use to it.
TEST(TrackingAllocator, NotesFreeBlocksAtThePeak) {
  setCaching(true);
  releaseCachedMemory();
  void *a = _mlir_memref_to_llvm_alloc(1024);
  void *b = _mlir_memref_to_llvm_alloc(2048);
  _mlir_memref_to_llvm_free(a);
  _mlir_memref_to_llvm_free(b);
  resetMemoryStats();
  MemoryStats start = getMemoryStats();
  EXPECT_EQ(start.freeAtPeak, 1024 + 2048);
  void *c = _mlir_memref_to_llvm_alloc(4096);
  MemoryStats s = getMemoryStats();
  EXPECT_EQ(s.peakBytes - start.liveBytes, 4096);
  EXPECT_EQ(s.reservedAtPeak - start.reservedAtPeak, 4096);
  EXPECT_EQ(s.freeAtPeak, 1024 + 2048);
  EXPECT_EQ(s.largestFreeAtPeak, 2048);
  EXPECT_DOUBLE_EQ(externalFragmentationAtPeak(s), 1.0 - 2048.0 / 3072.0);
  _mlir_memref_to_llvm_free(c);
  releaseCachedMemory();
  resetMemoryStats();
  EXPECT_EQ(getMemoryStats().freeAtPeak, 0);
  EXPECT_EQ(externalFragmentationAtPeak(getMemoryStats()), 0.0);
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
  EXPECT_EQ(symbols.size(), 14u);
  for (auto &[name, address] : symbols)
    EXPECT_NE(address, nullptr) << name;
  EXPECT_TRUE(llvm::any_of(
      symbols, [](auto &symbol) { return symbol.first == "gopt_sgemm"; }));
  EXPECT_TRUE(llvm::any_of(symbols, [](auto &symbol) {
    return symbol.first == "gopt_sgemm_epilogue";
  }));
}

/// What gopt_parallel_for's body saw: one record per chunk.
struct ChunkLog {
  std::mutex mutex;
  std::vector<std::pair<int64_t, int64_t>> chunks;
  std::vector<int> hits;
};

static void recordChunk(void *context, int64_t begin, int64_t end) {
  auto *log = static_cast<ChunkLog *>(context);
  for (int64_t i = begin; i < end; ++i)
    ++log->hits[i]; // chunks are disjoint: no two threads write one slot
  std::lock_guard<std::mutex> lock(log->mutex);
  log->chunks.push_back({begin, end});
}

/// Every iteration runs exactly once, in contiguous chunks: one per thread
/// (as many as there are threads, at most one per iteration), one chunk on
/// one thread, none for no iterations.
TEST(ParallelFor, RunsEveryIterationOnceInContiguousChunks) {
  int saved = getLibraryThreads();
  for (int threads : {1, 2}) {
    setLibraryThreads(threads);
    for (int64_t iterations : {0, 1, 3, 1000}) {
      ChunkLog log;
      log.hits.assign(iterations, 0);
      gopt_parallel_for(&recordChunk, &log, iterations);
      EXPECT_TRUE(llvm::all_of(log.hits, [](int h) { return h == 1; }))
          << iterations << " iterations on " << threads << " threads";
      int64_t expected = std::min<int64_t>(iterations, getLibraryThreads());
      EXPECT_EQ(static_cast<int64_t>(log.chunks.size()), expected);
      for (auto [begin, end] : log.chunks)
        EXPECT_LT(begin, end);
    }
  }
  setLibraryThreads(saved);
}

/// C = A·B by definition, A m×k and B k×n given by their strides.
static std::vector<float> referenceProduct(int64_t m, int64_t n, int64_t k,
                                           const float *a, int64_t aRow,
                                           int64_t aCol, const float *b,
                                           int64_t bRow, int64_t bCol) {
  std::vector<float> c(m * n, 0.0f);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t p = 0; p < k; ++p)
        c[i * n + j] += a[i * aRow + p * aCol] * b[p * bRow + j * bCol];
  return c;
}

TEST(Sgemm, TakesTransposesFromTheStrides) {
  const int64_t m = 3, n = 5, k = 4;
  std::vector<float> a(m * k), b(k * n);
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = 0.25f * static_cast<float>(i) - 1.0f;
  for (size_t i = 0; i < b.size(); ++i)
    b[i] = 0.5f - 0.125f * static_cast<float>(i);
  // Row-major A (m×k) and B (k×n), then both read as transposes of the
  // same buffers: A' = (k×m)ᵀ, B' = (n×k)ᵀ.
  struct Layout {
    int64_t aRow, aCol, bRow, bCol;
  } layouts[] = {{k, 1, n, 1}, {1, m, 1, k}, {k, 1, 1, k}, {1, m, n, 1}};
  for (const Layout &l : layouts) {
    std::vector<float> c(m * n, 7.0f);
    gopt_sgemm(1, m, n, k, 1.0f, a.data(), 0, l.aRow, l.aCol, b.data(), 0,
               l.bRow, l.bCol, 0.0f, c.data(), 0, n, 1);
    std::vector<float> expected = referenceProduct(
        m, n, k, a.data(), l.aRow, l.aCol, b.data(), l.bRow, l.bCol);
    for (int64_t i = 0; i < m * n; ++i)
      EXPECT_NEAR(c[i], expected[i], 1e-5)
          << "layout " << l.aRow << "," << l.aCol << " " << i;
  }
}

TEST(Sgemm, AccumulatesWithBetaOneAndIgnoresCWithBetaZero) {
  float a[2] = {1, 2}, b[2] = {3, 4}; // 1×2 · 2×1
  float c = 10.0f;
  gopt_sgemm(1, 1, 1, 2, 1.0f, a, 0, 2, 1, b, 0, 1, 1, 1.0f, &c, 0, 1, 1);
  EXPECT_EQ(c, 21.0f);
  c = std::numeric_limits<float>::quiet_NaN();
  gopt_sgemm(1, 1, 1, 2, 1.0f, a, 0, 2, 1, b, 0, 1, 1, 0.0f, &c, 0, 1, 1);
  EXPECT_EQ(c, 11.0f);
  // k = 0: the product is empty, C becomes beta·C.
  c = std::numeric_limits<float>::quiet_NaN();
  gopt_sgemm(1, 1, 1, 0, 1.0f, a, 0, 2, 1, b, 0, 1, 1, 0.0f, &c, 0, 1, 1);
  EXPECT_EQ(c, 0.0f);
}

TEST(Sgemm, BatchesWithBroadcastOperands) {
  // Two 2×2 · 2×2 products sharing B (batch stride 0).
  float a[8] = {1, 2, 3, 4, 5, 6, 7, 8}, b[4] = {1, 0, 1, 1};
  float c[8] = {};
  gopt_sgemm(2, 2, 2, 2, 1.0f, a, 4, 2, 1, b, 0, 2, 1, 0.0f, c, 4, 2, 1);
  float expected[8] = {3, 2, 7, 4, 11, 6, 15, 8};
  for (int i = 0; i < 8; ++i)
    EXPECT_EQ(c[i], expected[i]) << i;
}

TEST(Sgemm, BatchesOfRowsSharingBMatchThePerBatchProducts) {
  // x[batch, 1, k] · W[k, n] (a sequence-first linear layer): batches that
  // follow each other row after row, and the same batches with a gap of two
  // elements after each, which cannot be read as one matrix.
  const int64_t batch = 6, k = 4, n = 5;
  std::vector<float> w(k * n);
  for (size_t i = 0; i < w.size(); ++i)
    w[i] = 0.5f - 0.125f * static_cast<float>(i);
  for (int64_t gap : {0, 2}) {
    int64_t aBatch = k + gap, cBatch = n + gap;
    std::vector<float> x(batch * aBatch), c(batch * cBatch, -3.0f);
    for (size_t i = 0; i < x.size(); ++i)
      x[i] = 0.25f * static_cast<float>(i % 11) - 1.0f;
    gopt_sgemm(batch, 1, n, k, 1.0f, x.data(), aBatch, k, 1, w.data(), 0, n, 1,
               0.0f, c.data(), cBatch, n, 1);
    for (int64_t i = 0; i < batch; ++i) {
      std::vector<float> expected = referenceProduct(
          1, n, k, x.data() + i * aBatch, k, 1, w.data(), n, 1);
      for (int64_t j = 0; j < n; ++j)
        EXPECT_NEAR(c[i * cBatch + j], expected[j], 1e-5)
            << "gap " << gap << " batch " << i << " column " << j;
      // The gap after each row of C is left alone.
      for (int64_t j = n; j < cBatch; ++j)
        EXPECT_EQ(c[i * cBatch + j], -3.0f) << "gap " << gap;
    }
  }
}

TEST(Sgemm, LoopsOverLayoutsSgemmCannotTake) {
  // A with neither stride 1: every other element of a 2×4 buffer.
  float a[8] = {1, 0, 2, 0, 3, 0, 4, 0}, b[4] = {1, 2, 3, 4};
  float c[4] = {};
  gopt_sgemm(1, 2, 2, 2, 1.0f, a, 0, 4, 2, b, 0, 2, 1, 0.0f, c, 0, 2, 1);
  float expected[4] = {7, 10, 15, 22};
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(c[i], expected[i]) << i;
}

/// gopt_sgemm_epilogue (the host counterpart of cuBLASLt's bias and
/// bias + ReLU epilogues): C = epilogue(alpha·A·B + bias), whatever C held,
/// over batches whose rows follow each other.
TEST(SgemmEpilogue, AddsTheBiasPerColumnAndAppliesTheReLU) {
  // Two batches of a 2×2 · 2×2 product sharing B, alpha 2.
  float a[8] = {1, 2, 3, 4, -5, -6, -7, -8}, b[4] = {1, 0, 1, 1};
  float bias[2] = {0.5f, -1.0f};
  float bare[8], expected[8];
  for (int i = 0; i < 8; ++i)
    bare[i] = std::numeric_limits<float>::quiet_NaN();
  gopt_sgemm(2, 2, 2, 2, 2.0f, a, 4, 2, 1, b, 0, 2, 1, 0.0f, bare, 4, 2, 1);
  for (int32_t epilogue : {1, 2}) {
    float c[8];
    for (int i = 0; i < 8; ++i)
      c[i] = std::numeric_limits<float>::quiet_NaN();
    gopt_sgemm_epilogue(2, 2, 2, 2, 2.0f, a, 4, 2, 1, b, 0, 2, 1, c, 4, 2, 1,
                        bias, epilogue);
    for (int i = 0; i < 8; ++i) {
      expected[i] = bare[i] + bias[i % 2];
      if (epilogue == 2)
        expected[i] = std::max(expected[i], 0.0f);
      EXPECT_EQ(c[i], expected[i]) << "epilogue " << epilogue << " " << i;
    }
  }
}

/// What cuBLASLt's call refuses, the host's refuses too: code the GPU
/// pipeline makes fails on the CPU as it would on the device.
TEST(SgemmEpilogueDeathTest, StopsOnWhatTheDeviceCallRefuses) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  float a[8] = {}, b[8] = {}, c[8] = {}, bias[2] = {};
  EXPECT_DEATH(gopt_sgemm_epilogue(1, 2, 2, 2, 1.0f, a, 0, 2, 1, b, 0, 2, 1, c,
                                   0, 2, 1, bias, 3),
               "unknown epilogue");
  // B differs per batch: not one GEMM of batch·m rows.
  EXPECT_DEATH(gopt_sgemm_epilogue(2, 2, 2, 2, 1.0f, a, 4, 2, 1, b, 4, 2, 1, c,
                                   4, 2, 1, bias, 1),
               "not one GEMM");
}

TEST(MemrefCopy, CopiesAStridedView) {
  // A 2x3 view with row stride 4 of a 2x4 buffer, into a dense 2x3 buffer.
  float src[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  float dst[6] = {};
  int64_t srcDesc[] = {reinterpret_cast<int64_t>(src),
                       reinterpret_cast<int64_t>(src),
                       1,
                       2,
                       3,
                       4,
                       1};
  int64_t dstDesc[] = {reinterpret_cast<int64_t>(dst),
                       reinterpret_cast<int64_t>(dst),
                       0,
                       2,
                       3,
                       3,
                       1};
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
                        reinterpret_cast<int64_t>(dstT),
                        0,
                        2,
                        3,
                        1,
                        2};
  dstArg.descriptor = dstTDesc;
  memrefCopy(sizeof(float), &srcArg, &dstArg);
  float expectedT[6] = {1, 5, 2, 6, 3, 7};
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(dstT[i], expectedT[i]) << i;
}

} // namespace

namespace {

/// out[b, f, y, x] = init + Σ in[b, g·C/G + c, y·s + i·d, x·s + j·d] ·
/// w[f, c, i, j], in doubles.
struct ConvCase {
  int64_t n, c, h, w, f, kh, kw, sh, sw, dh, dw, groups;
  int64_t oh() const { return (h - (kh - 1) * dh - 1) / sh + 1; }
  int64_t ow() const { return (w - (kw - 1) * dw - 1) / sw + 1; }
};

std::vector<float> referenceConv(const ConvCase &s,
                                 const std::vector<float> &in,
                                 const std::vector<float> &w,
                                 const std::vector<float> &init) {
  int64_t cg = s.c / s.groups, fg = s.f / s.groups;
  std::vector<float> out(init);
  for (int64_t b = 0; b < s.n; ++b)
    for (int64_t f = 0; f < s.f; ++f)
      for (int64_t y = 0; y < s.oh(); ++y)
        for (int64_t x = 0; x < s.ow(); ++x) {
          double sum = 0;
          for (int64_t c = 0; c < cg; ++c)
            for (int64_t i = 0; i < s.kh; ++i)
              for (int64_t j = 0; j < s.kw; ++j)
                sum += double(in[((b * s.c + (f / fg) * cg + c) * s.h +
                                  y * s.sh + i * s.dh) *
                                     s.w +
                                 x * s.sw + j * s.dw]) *
                       w[((f * cg + c) * s.kh + i) * s.kw + j];
          out[((b * s.f + f) * s.oh() + y) * s.ow() + x] += float(sum);
        }
  return out;
}

std::vector<float> pattern(size_t size, float scale, int period) {
  std::vector<float> v(size);
  for (size_t i = 0; i < size; ++i)
    v[i] =
        scale * static_cast<float>(static_cast<int>(i % period) - period / 2);
  return v;
}

/// What a convolution accumulates into for `beta`: zeros for 0 (the
/// output's contents are ignored), a pattern otherwise.
std::vector<float> initialOutput(size_t size, float beta) {
  return beta == 0.0f ? std::vector<float>(size, 0.0f) : pattern(size, 0.5f, 3);
}

/// The output buffer handed to the convolution: NaNs for beta 0 (which
/// must overwrite them), `init` otherwise.
std::vector<float> outputBuffer(const std::vector<float> &init, float beta) {
  return beta == 0.0f
             ? std::vector<float>(init.size(),
                                  std::numeric_limits<float>::quiet_NaN())
             : init;
}

} // namespace

/// Plain, strided, dilated, grouped, depthwise and 1x1 convolutions (GEMMs
/// on NCHW, strided ones on the subsampled input), overwriting
/// (beta 0) and accumulating into a bias (beta 1), match the definition.
TEST(Conv2D, MatchesTheDefinition) {
  ConvCase cases[] = {
      {2, 4, 9, 8, 6, 3, 3, 1, 1, 1, 1, 1},    // plain
      {1, 3, 11, 11, 8, 3, 3, 2, 2, 1, 1, 1},  // stride 2
      {1, 4, 10, 9, 4, 3, 2, 1, 1, 2, 2, 1},   // dilation 2
      {1, 4, 7, 7, 6, 3, 3, 1, 1, 1, 1, 2},    // 2 groups
      {1, 16, 8, 8, 16, 3, 3, 2, 2, 1, 1, 16}, // depthwise
      {1, 32, 5, 5, 8, 1, 1, 1, 1, 1, 1, 1},   // 1x1: one GEMM
      {3, 12, 6, 7, 10, 1, 1, 1, 1, 1, 1, 1},  // 1x1, batched GEMMs
      {1, 8, 9, 9, 4, 1, 1, 2, 2, 1, 1, 1},    // 1x1, stride 2: subsampled
      {2, 6, 8, 7, 5, 1, 1, 2, 3, 1, 1, 1},    // 1x1, strides 2 and 3
  };
  for (const ConvCase &s : cases)
    for (float beta : {0.0f, 1.0f}) {
      std::vector<float> in = pattern(s.n * s.c * s.h * s.w, 0.25f, 7);
      std::vector<float> w =
          pattern(s.f * (s.c / s.groups) * s.kh * s.kw, 0.125f, 5);
      size_t outSize = s.n * s.f * s.oh() * s.ow();
      std::vector<float> init = initialOutput(outSize, beta);
      std::vector<float> out = outputBuffer(init, beta);
      gopt_conv2d(s.n, s.c, s.h, s.w, s.f, s.kh, s.kw, s.oh(), s.ow(), s.sh,
                  s.sw, s.dh, s.dw, s.groups, in.data(), w.data(),
                  /*constantWeight=*/0, beta, out.data());
      std::vector<float> expected = referenceConv(s, in, w, init);
      for (size_t i = 0; i < outSize; ++i)
        ASSERT_NEAR(out[i], expected[i], 1e-4)
            << "groups " << s.groups << " stride " << s.sh << " dilation "
            << s.dh << " beta " << beta << " at " << i;
    }
}

/// Copies a row-major [a, b, c, d] tensor into [a, d, b, c] order (NHWC →
/// NCHW, FHWC → FCHW), or back with `inverse`.
std::vector<float> toChannelsFirst(const std::vector<float> &v, int64_t a,
                                   int64_t b, int64_t c, int64_t d,
                                   bool inverse = false) {
  std::vector<float> out(v.size());
  for (int64_t i = 0; i < a; ++i)
    for (int64_t j = 0; j < b; ++j)
      for (int64_t k = 0; k < c; ++k)
        for (int64_t l = 0; l < d; ++l) {
          int64_t last = ((i * b + j) * c + k) * d + l;
          int64_t first = ((i * d + l) * b + j) * c + k;
          if (inverse)
            out[last] = v[first];
          else
            out[first] = v[last];
        }
  return out;
}

/// gopt_conv2d_nhwc on NHWC / FHWC / NHWC buffers computes what the
/// definition computes on the same tensors in NCHW: plain, strided, dilated,
/// grouped, depthwise and 1x1 (one GEMM over the batch, strided ones on the
/// subsampled input), without and with zero padding (oneDNN's, or a padded
/// copy), overwriting, accumulating, and scaling the output (beta 0.5,
/// which oneDNN's path leaves to the im2col loops).
TEST(Conv2D, ChannelsLastMatchesTheDefinition) {
  ConvCase cases[] = {
      {2, 4, 9, 8, 6, 3, 3, 1, 1, 1, 1, 1},   // plain
      {1, 3, 11, 11, 8, 3, 3, 2, 2, 1, 1, 1}, // stride 2
      {1, 4, 10, 9, 4, 3, 2, 1, 1, 2, 2, 1},  // dilation 2
      {1, 4, 7, 7, 6, 3, 3, 1, 1, 1, 1, 2},   // 2 groups
      // Groups of 8 (RegNet) and of 4 into 8 (ResNeXt): oneDNN's NHWC
      // grouped convolution, not its blocked layout.
      {1, 48, 14, 14, 48, 3, 3, 2, 2, 1, 1, 6},
      {2, 32, 9, 9, 64, 3, 3, 1, 1, 1, 1, 8},
      {1, 16, 8, 8, 16, 3, 3, 2, 2, 1, 1, 16}, // depthwise
      {2, 24, 9, 9, 24, 5, 5, 1, 1, 1, 1, 24}, // depthwise 5x5, batch 2
      {1, 32, 5, 5, 8, 1, 1, 1, 1, 1, 1, 1},   // 1x1
      {3, 12, 6, 7, 10, 1, 1, 1, 1, 1, 1, 1},  // 1x1, batch 3
      {2, 6, 8, 7, 5, 1, 1, 2, 3, 1, 1, 1},    // 1x1, strides 2 and 3
  };
  // Padding (top, left, bottom, right) taken from the case's h x w: the
  // runtime gets the interior and pads as it reads.
  int64_t paddings[][4] = {{0, 0, 0, 0}, {1, 2, 0, 1}};
  for (const ConvCase &s : cases)
    for (auto &pad : paddings)
      for (float beta : {0.0f, 1.0f, 0.5f}) {
        int64_t cg = s.c / s.groups;
        int64_t h = s.h - pad[0] - pad[2], w = s.w - pad[1] - pad[3];
        // The padded input: a pattern inside, zeros around.
        std::vector<float> padded = pattern(s.n * s.c * s.h * s.w, 0.25f, 7);
        std::vector<float> in;
        for (int64_t b = 0; b < s.n; ++b)
          for (int64_t y = 0; y < s.h; ++y)
            for (int64_t x = 0; x < s.w; ++x)
              for (int64_t ch = 0; ch < s.c; ++ch) {
                float &v = padded[((b * s.h + y) * s.w + x) * s.c + ch];
                bool inside = y >= pad[0] && y < pad[0] + h && x >= pad[1] &&
                              x < pad[1] + w;
                if (inside)
                  in.push_back(v);
                else
                  v = 0.0f;
              }
        std::vector<float> wt = pattern(s.f * cg * s.kh * s.kw, 0.125f, 5);
        size_t outSize = s.n * s.f * s.oh() * s.ow();
        std::vector<float> init = initialOutput(outSize, beta);
        std::vector<float> out = outputBuffer(init, beta);
        // The reference accumulates into beta · init.
        std::vector<float> scaled = init;
        for (float &x : scaled)
          x *= beta;
        // The buffers hold NHWC / FHWC / NHWC; the reference reads NCHW.
        gopt_conv2d_nhwc(s.n, s.c, h, w, s.f, s.kh, s.kw, s.oh(), s.ow(), s.sh,
                         s.sw, s.dh, s.dw, s.groups, pad[0], pad[1], pad[2],
                         pad[3], in.data(), wt.data(),
                         /*constantWeight=*/0, beta, out.data(),
                         /*postOpCount=*/0, nullptr, nullptr, nullptr);
        std::vector<float> expected = toChannelsFirst(
            referenceConv(s, toChannelsFirst(padded, s.n, s.h, s.w, s.c),
                          toChannelsFirst(wt, s.f, s.kh, s.kw, cg),
                          toChannelsFirst(scaled, s.n, s.oh(), s.ow(), s.f)),
            s.n, s.oh(), s.ow(), s.f, /*inverse=*/true);
        for (size_t i = 0; i < outSize; ++i)
          ASSERT_NEAR(out[i], expected[i], 1e-4)
              << "groups " << s.groups << " kernel " << s.kh << " stride "
              << s.sh << " dilation " << s.dh << " padding " << pad[0] << pad[1]
              << pad[2] << pad[3] << " beta " << beta << " at " << i;
      }
}

/// gopt_conv2d_nhwc with an epilogue computes the convolution, then each
/// step in order: for a 3x3, a depthwise and a 1x1 convolution, overwriting
/// and accumulating, with chains that start with a bias (oneDNN's bias
/// argument), end in each activation, read per-channel operands later
/// (oneDNN's binary post-ops), and repeat an activation.
TEST(Conv2D, ChannelsLastEpilogueAppliesEachStepInOrder) {
  ConvCase cases[] = {
      {1, 8, 9, 9, 16, 3, 3, 1, 1, 1, 1, 1},   // 3x3
      {2, 16, 8, 8, 16, 3, 3, 2, 2, 1, 1, 16}, // depthwise, stride 2
      {1, 24, 6, 6, 8, 1, 1, 1, 1, 1, 1, 1},   // 1x1
      {1, 48, 7, 7, 48, 3, 3, 1, 1, 1, 1, 6},  // groups of 8
  };
  struct Step {
    PostOpKind kind;
    float alpha, beta;
  };
  std::vector<std::vector<Step>> chains = {
      {{PostOpKind::AddChannel, 0, 0}, {PostOpKind::Clip, 0.0f, 6.0f}},
      {{PostOpKind::AddChannel, 0, 0}, {PostOpKind::HardSwish, 1.0f, 0}},
      {{PostOpKind::AddChannel, 0, 0}, {PostOpKind::Swish, 1.0f, 0}},
      {{PostOpKind::Logistic, 0, 0}, {PostOpKind::MulChannel, 0, 0}},
      {{PostOpKind::MulChannel, 0, 0},
       {PostOpKind::AddChannel, 0, 0},
       {PostOpKind::Clip, 0.0f, std::numeric_limits<float>::infinity()}},
      {{PostOpKind::Linear, 2.0f, -1.0f},
       {PostOpKind::MulChannel, 0, 0},
       {PostOpKind::Tanh, 0, 0},
       {PostOpKind::HardSwish, 0.5f, 0}},
      // Two steps of one algorithm with different parameters (oneDNN 2.6
      // would apply the first one's to both: the plain loops take it).
      {{PostOpKind::Clip, 0.0f, 6.0f},
       {PostOpKind::Tanh, 0, 0},
       {PostOpKind::Clip, -0.5f, 0.5f}},
  };
  for (const ConvCase &s : cases)
    for (const std::vector<Step> &chain : chains)
      for (float beta : {0.0f, 1.0f}) {
        int64_t cg = s.c / s.groups;
        size_t outSize = s.n * s.oh() * s.ow() * s.f;
        std::vector<float> in = pattern(s.n * s.h * s.w * s.c, 0.25f, 7);
        std::vector<float> wt = pattern(s.f * s.kh * s.kw * cg, 0.125f, 5);
        std::vector<float> init = initialOutput(outSize, beta);
        std::vector<float> out = outputBuffer(init, beta);
        std::vector<int64_t> kinds;
        std::vector<float> params;
        std::vector<std::vector<float>> buffers;
        std::vector<const float *> operands;
        for (const Step &step : chain) {
          kinds.push_back(static_cast<int64_t>(step.kind));
          params.push_back(step.alpha);
          params.push_back(step.beta);
          buffers.push_back(isBinary(step.kind) ? pattern(s.f, 0.75f, 5)
                                                : std::vector<float>());
          operands.push_back(buffers.back().empty() ? nullptr
                                                    : buffers.back().data());
        }
        gopt_conv2d_nhwc(s.n, s.c, s.h, s.w, s.f, s.kh, s.kw, s.oh(), s.ow(),
                         s.sh, s.sw, s.dh, s.dw, s.groups, 0, 0, 0, 0,
                         in.data(), wt.data(), /*constantWeight=*/0, beta,
                         out.data(), static_cast<int64_t>(chain.size()),
                         kinds.data(), params.data(), operands.data());
        std::vector<float> expected = toChannelsFirst(
            referenceConv(s, toChannelsFirst(in, s.n, s.h, s.w, s.c),
                          toChannelsFirst(wt, s.f, s.kh, s.kw, cg),
                          toChannelsFirst(init, s.n, s.oh(), s.ow(), s.f)),
            s.n, s.oh(), s.ow(), s.f, /*inverse=*/true);
        for (size_t i = 0; i < outSize; ++i) {
          float x = expected[i];
          for (size_t k = 0; k < chain.size(); ++k) {
            const std::vector<float> &buffer = buffers[k];
            float operand = buffer.empty() ? 0.0f : buffer[i % s.f];
            x = applyPostOp(chain[k].kind, chain[k].alpha, chain[k].beta, x,
                            operand);
          }
          ASSERT_NEAR(out[i], x, 1e-4f * std::max(1.0f, std::fabs(x)))
              << "groups " << s.groups << " kernel " << s.kh << " chain "
              << (&chain - chains.data()) << " beta " << beta << " at " << i;
        }
      }
}

/// A constant weight's derived form is kept until the runtime is told to
/// forget its buffer; after that, new contents at the same address count.
TEST(Conv2D, ConstantWeightsAreKeptUntilForgotten) {
  ConvCase s{1, 16, 6, 6, 16, 3, 3, 1, 1, 1, 1, 1};
  std::vector<float> in = pattern(s.c * s.h * s.w, 0.25f, 7);
  std::vector<float> w = pattern(s.f * s.c * s.kh * s.kw, 0.125f, 5);
  std::vector<float> zeros(s.f * s.oh() * s.ow(), 0.0f);
  std::vector<float> out(zeros.size());
  auto run = [&] {
    gopt_conv2d(s.n, s.c, s.h, s.w, s.f, s.kh, s.kw, s.oh(), s.ow(), s.sh, s.sw,
                s.dh, s.dw, s.groups, in.data(), w.data(),
                /*constantWeight=*/1, 0.0f, out.data());
  };
  run();
  std::vector<float> first = referenceConv(s, in, w, zeros);
  for (size_t i = 0; i < out.size(); ++i)
    ASSERT_NEAR(out[i], first[i], 1e-4) << i;
  // New weights in the same buffer, announced by forgetting the old ones.
  for (float &x : w)
    x = -2.0f * x + 0.5f;
  forgetConstantBuffer(w.data(), w.size() * sizeof(float));
  run();
  std::vector<float> second = referenceConv(s, in, w, zeros);
  for (size_t i = 0; i < out.size(); ++i)
    ASSERT_NEAR(out[i], second[i], 1e-4) << i;
}

/// Max and sum pooling match the definition at strides and dilations; max
/// propagates NaN and orders -0 below +0 (maximumf), as the generated loops
/// do.
TEST(Pool2D, MatchesTheDefinition) {
  struct Case {
    int64_t n, c, h, w, kh, kw, sh, sw, dh, dw;
  } cases[] = {{1, 3, 9, 9, 3, 3, 2, 2, 1, 1},
               {2, 2, 8, 7, 2, 2, 1, 1, 1, 1},
               {1, 4, 9, 10, 3, 2, 1, 2, 2, 1},
               {1, 1, 5, 5, 5, 5, 1, 1, 1, 1}};
  for (const Case &s : cases)
    for (int64_t kind : {0, 1}) {
      int64_t oh = (s.h - (s.kh - 1) * s.dh - 1) / s.sh + 1;
      int64_t ow = (s.w - (s.kw - 1) * s.dw - 1) / s.sw + 1;
      std::vector<float> in = pattern(s.n * s.c * s.h * s.w, 0.25f, 11);
      std::vector<float> out(s.n * s.c * oh * ow, 42.0f);
      gopt_pool2d(kind, s.n, s.c, s.h, s.w, s.kh, s.kw, oh, ow, s.sh, s.sw,
                  s.dh, s.dw, in.data(), out.data());
      for (int64_t p = 0; p < s.n * s.c; ++p)
        for (int64_t y = 0; y < oh; ++y)
          for (int64_t x = 0; x < ow; ++x) {
            float expected = kind == 0 ? -INFINITY : 0.0f;
            for (int64_t i = 0; i < s.kh; ++i)
              for (int64_t j = 0; j < s.kw; ++j) {
                float v = in[(p * s.h + y * s.sh + i * s.dh) * s.w +
                             x * s.sw + j * s.dw];
                expected = kind == 0 ? std::max(expected, v) : expected + v;
              }
            ASSERT_FLOAT_EQ(out[(p * oh + y) * ow + x], expected)
                << "kind " << kind << " plane " << p << " at " << y << ","
                << x;
          }
    }
  // maximumf: a NaN anywhere in the window wins; +0 beats -0.
  float special[4] = {1.0f, std::numeric_limits<float>::quiet_NaN(), -0.0f,
                      0.0f};
  float result[2] = {0, 0};
  gopt_pool2d(0, 1, 1, 1, 4, 1, 2, 1, 2, 1, 2, 1, 1, special, result);
  EXPECT_TRUE(std::isnan(result[0]));
  EXPECT_EQ(result[1], 0.0f);
  EXPECT_FALSE(std::signbit(result[1]));
}

/// gopt_pool2d_nhwc on NHWC buffers computes gopt_pool2d's result on the
/// same tensors in NCHW, NaN and signed zeros included.
TEST(Pool2D, ChannelsLastMatchesChannelsFirst) {
  struct Case {
    int64_t n, c, h, w, kh, kw, sh, sw, dh, dw;
  } cases[] = {{1, 3, 9, 9, 3, 3, 2, 2, 1, 1},
               {2, 16, 8, 7, 2, 2, 1, 1, 1, 1},
               {1, 4, 9, 10, 3, 2, 1, 2, 2, 1},
               {1, 33, 5, 5, 5, 5, 1, 1, 1, 1}};
  for (const Case &s : cases)
    for (int64_t kind : {0, 1}) {
      int64_t oh = (s.h - (s.kh - 1) * s.dh - 1) / s.sh + 1;
      int64_t ow = (s.w - (s.kw - 1) * s.dw - 1) / s.sw + 1;
      std::vector<float> in = pattern(s.n * s.c * s.h * s.w, 0.25f, 11);
      in[5] = std::numeric_limits<float>::quiet_NaN();
      in[7] = -0.0f;
      std::vector<float> expected(s.n * s.c * oh * ow, 42.0f);
      gopt_pool2d(kind, s.n, s.c, s.h, s.w, s.kh, s.kw, oh, ow, s.sh, s.sw,
                  s.dh, s.dw, toChannelsFirst(in, s.n, s.h, s.w, s.c).data(),
                  expected.data());
      std::vector<float> out(expected.size(), 42.0f);
      gopt_pool2d_nhwc(kind, s.n, s.c, s.h, s.w, s.kh, s.kw, oh, ow, s.sh, s.sw,
                       s.dh, s.dw, 0, 0, 0, 0, in.data(), out.data());
      std::vector<float> first = toChannelsFirst(out, s.n, oh, ow, s.c);
      for (size_t i = 0; i < out.size(); ++i) {
        if (std::isnan(expected[i])) {
          ASSERT_TRUE(std::isnan(first[i])) << "kind " << kind << " at " << i;
          continue;
        }
        ASSERT_EQ(first[i], expected[i]) << "kind " << kind << " at " << i;
        ASSERT_EQ(std::signbit(first[i]), std::signbit(expected[i])) << i;
      }
    }
}

/// gopt_pool2d_nhwc with padding computes on the unpadded input what it
/// computes without padding on the input padded with the reduction's
/// identity (-inf for max, 0 for sum), on one thread and on two. One
/// channel too: such a pooling once took the planes' path, which reads no
/// padding (found by gopt-difftest, seed 638 at --max-dim=40).
TEST(Pool2D, ChannelsLastPaddingIsTheIdentity) {
  struct Case {
    int64_t n, c, h, w, kh, kw, sh, sw, top, left, bottom, right;
  } cases[] = {{1, 64, 16, 16, 3, 3, 2, 2, 1, 1, 1, 1},
               {2, 5, 7, 9, 3, 2, 1, 2, 2, 0, 1, 1},
               {1, 8, 5, 5, 5, 5, 1, 1, 2, 2, 2, 2},
               {1, 1, 28, 15, 2, 3, 2, 1, 1, 0, 1, 1},
               {2, 1, 7, 9, 3, 2, 1, 2, 0, 0, 0, 1}};
  int saved = getLibraryThreads();
  for (int threads : {1, 2}) {
    setLibraryThreads(threads);
    for (const Case &s : cases)
      for (int64_t kind : {0, 1}) {
        int64_t ph = s.h + s.top + s.bottom, pw = s.w + s.left + s.right;
        int64_t oh = (ph - s.kh) / s.sh + 1, ow = (pw - s.kw) / s.sw + 1;
        std::vector<float> in = pattern(s.n * s.h * s.w * s.c, 0.25f, 11);
        std::vector<float> padded(s.n * ph * pw * s.c,
                                  kind == 0 ? -INFINITY : 0.0f);
        for (int64_t b = 0; b < s.n; ++b)
          for (int64_t y = 0; y < s.h; ++y)
            for (int64_t x = 0; x < s.w; ++x)
              for (int64_t ch = 0; ch < s.c; ++ch)
                padded[((b * ph + y + s.top) * pw + x + s.left) * s.c + ch] =
                    in[((b * s.h + y) * s.w + x) * s.c + ch];
        std::vector<float> expected(s.n * oh * ow * s.c, 42.0f);
        gopt_pool2d_nhwc(kind, s.n, s.c, ph, pw, s.kh, s.kw, oh, ow, s.sh, s.sw,
                         1, 1, 0, 0, 0, 0, padded.data(), expected.data());
        std::vector<float> out(expected.size(), 42.0f);
        gopt_pool2d_nhwc(kind, s.n, s.c, s.h, s.w, s.kh, s.kw, oh, ow, s.sh,
                         s.sw, 1, 1, s.top, s.left, s.bottom, s.right,
                         in.data(), out.data());
        for (size_t i = 0; i < out.size(); ++i)
          ASSERT_EQ(out[i], expected[i])
              << "kind " << kind << " at " << i << " on " << threads;
      }
  }
  setLibraryThreads(saved);
}
