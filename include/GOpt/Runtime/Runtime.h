//===- Runtime.h - What compiled GOpt code calls ----------------*- C++ -*-===//
//
// The runtime behind code lowered by gopt-lower-to-llvm (docs/Runner.md,
// "The runtime (lib/Runtime)"):
//
// - a caching, tracking allocator behind `_mlir_memref_to_llvm_alloc`,
//   `_mlir_memref_to_llvm_aligned_alloc` and `_mlir_memref_to_llvm_free`
//   (live bytes, peak bytes, allocation count); freed blocks are kept and
//   handed out again (best fit), so repeated runs of a graph do not pay
//   page faults that would hide what a graph pass saved;
// - kernel timers behind `gopt_kernel_begin(id)` / `gopt_kernel_end(id)`,
//   which `gopt-lower-to-llvm{kernel-timers}` puts around every kernel call;
// - `memrefCopy`, the strided copy lowered memref.copy calls;
// - `gopt_sgemm`, the library path of f32 matmul and linear
//   (`gopt-lower-to-llvm{contractions=library}`), over oneDNN's or
//   OpenBLAS's GEMM, `gopt_conv2d` / `gopt_conv2d_nhwc`, that of f32
//   conv2d (oneDNN's convolutions, else im2col + gopt_sgemm), and
//   `gopt_pool2d` / `gopt_pool2d_nhwc`, that of
//   f32 max and sum pooling, and `gopt_attention`, that of the attention
//   kernels (`gopt.attention_kernel`).
//
// The C entry points are declared at the bottom; `getRuntimeSymbols()` lists
// them for a JIT.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_RUNTIME_RUNTIME_H
#define GOPT_RUNTIME_RUNTIME_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace mlir {
namespace gopt {
namespace runtime {

/// What the allocator has seen since the last `resetMemoryStats`.
struct MemoryStats {
  /// Bytes requested by blocks not yet freed.
  int64_t liveBytes = 0;
  /// Largest `liveBytes` seen.
  int64_t peakBytes = 0;
  int64_t allocations = 0;
  int64_t frees = 0;
  /// Allocations served from the cache of freed blocks.
  int64_t cacheHits = 0;
  /// Bytes held from the system: live blocks and cached ones, rounded up.
  int64_t reservedBytes = 0;
  /// When `liveBytes` last reached `peakBytes`: the bytes held from the
  /// system, those of them in cached free blocks (held, not in use), and
  /// the largest such block. Free bytes at the peak are memory held but not
  /// in use when the most was needed.
  int64_t reservedAtPeak = 0;
  int64_t freeAtPeak = 0;
  int64_t largestFreeAtPeak = 0;
};

/// External fragmentation of the free blocks at the peak:
/// 1 - largest free block / free bytes (0 when nothing is free; near 1 when
/// the free bytes are scattered over many small blocks).
double externalFragmentationAtPeak(const MemoryStats &stats);

MemoryStats getMemoryStats();
/// Zeroes the counters and sets the peak to the bytes live now.
void resetMemoryStats();
/// Returns the cached free blocks to the system.
void releaseCachedMemory();
/// Whether `ptr` is a live block of this allocator (results of compiled
/// functions are; constants they return are not).
bool ownsAllocation(const void *ptr);
/// Turns the cache of freed blocks on or off (on by default); off releases it.
void setCaching(bool enabled);

/// Time spent in one kernel since the last `resetKernelTimes`.
struct KernelTime {
  int64_t id = 0;
  int64_t calls = 0;
  double totalMs = 0;
};

/// Kernels that were called, by id.
std::vector<KernelTime> getKernelTimes();
void resetKernelTimes();

/// Threads compiled code may use: those of the library GEMM behind
/// gopt_sgemm and the convolutions (oneDNN's OpenMP threads, or OpenBLAS's)
/// and those gopt_parallel_for runs generated loops on (OpenMP's, the same
/// pool as oneDNN's); at least 1. The default, before any call, is one
/// thread per core (or what OMP_NUM_THREADS / OPENBLAS_NUM_THREADS say).
void setLibraryThreads(int threads);
int getLibraryThreads();

/// Drops what the runtime derived from the constant buffer [begin,
/// begin + bytes) (weights gopt_conv2d reordered once): call before freeing
/// or reusing a buffer compiled code was told is constant.
void forgetConstantBuffer(const void *begin, size_t bytes);

/// Name and address of every C entry point, for a JIT's symbol table.
std::vector<std::pair<std::string, void *>> getRuntimeSymbols();

} // namespace runtime
} // namespace gopt
} // namespace mlir

extern "C" {
void *_mlir_memref_to_llvm_alloc(size_t size);
void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment, size_t size);
void _mlir_memref_to_llvm_free(void *ptr);
void gopt_kernel_begin(int64_t id);
void gopt_kernel_end(int64_t id);
/// Strided copy behind lowered memref.copy of non-contiguous memrefs (the
/// ABI of upstream's libmlir_c_runner_utils); src and dst are unranked
/// memref descriptors {rank, descriptor*}.
void memrefCopy(int64_t elemSize, void *src, void *dst);
/// `batch` products C = alpha·A·B + beta·C, the i-th at `a + i·aBatch`,
/// `b + i·bBatch`, `c + i·cBatch`; A is m×k, B k×n, C m×n, element (r, s)
/// of A at `a[r·aRow + s·aCol]` (likewise B, C). beta = 0 ignores what C
/// held. Calls the library GEMM (transpose flags from the strides) when the
/// layouts allow, else loops.
void gopt_sgemm(int64_t batch, int64_t m, int64_t n, int64_t k, float alpha,
                const float *a, int64_t aBatch, int64_t aRow, int64_t aCol,
                const float *b, int64_t bBatch, int64_t bRow, int64_t bCol,
                float beta, float *c, int64_t cBatch, int64_t cRow,
                int64_t cCol);
/// C = epilogue(alpha·A·B + bias), `bias` one value per column of C,
/// `epilogue` 1 for the bias alone, 2 for a ReLU after it: the host
/// counterpart of the CUDA runtime's gopt_cuda_sgemm_epilogue (cuBLASLt),
/// with its signature and its preconditions (batches sharing B, their rows
/// of A and C one after the other), which stop the process when broken. What
/// gopt-lower-to-nvvm{emulate cublaslt-epilogues} calls.
void gopt_sgemm_epilogue(int64_t batch, int64_t m, int64_t n, int64_t k,
                         float alpha, const float *a, int64_t aBatch,
                         int64_t aRow, int64_t aCol, const float *b,
                         int64_t bBatch, int64_t bRow, int64_t bCol, float *c,
                         int64_t cBatch, int64_t cRow, int64_t cCol,
                         const float *bias, int32_t epilogue);
/// The GEMM library behind gopt_sgemm in this build: "onednn", "openblas"
/// or "loops".
const char *gopt_sgemm_backend();
/// out (+)= conv(input, weight): f32, contiguous NCHW input [n, c, h, w]
/// (already padded), weight [f, c/groups, kh, kw], output [n, f, oh, ow];
/// strides sh, sw, dilations dh, dw (1: none). beta 0 overwrites the
/// output, 1 accumulates into it (a bias written before), others scale it.
/// `constantWeight` promises the weight buffer does not change while the
/// process uses it (until runtime::forgetConstantBuffer): its reordered
/// form is then kept. A 1x1 convolution with one group is one gopt_sgemm
/// per image (on NCHW it is a plain GEMM: no im2col, no layout reorders;
/// with strides, on the subsampled input); others go through oneDNN when
/// the build has it, else im2col and gopt_sgemm.
void gopt_conv2d(int64_t n, int64_t c, int64_t h, int64_t w, int64_t f,
                 int64_t kh, int64_t kw, int64_t oh, int64_t ow, int64_t sh,
                 int64_t sw, int64_t dh, int64_t dw, int64_t groups,
                 const float *input, const float *weight,
                 int64_t constantWeight, float beta, float *output);
/// gopt_conv2d on channels-last buffers: input [n, h, w, c] (not padded),
/// weight [f, kh, kw, c/groups], output [n, oh, ow, f] (the sizes are passed
/// as for gopt_conv2d), with zero padding padTop, padLeft, padBottom,
/// padRight around the input's h x w. oneDNN's convolutions, 1x1 ones
/// included, take these without reordering the activations and pad as they
/// read; without oneDNN a 1x1 convolution with one group and no padding is
/// a single GEMM over the batch. The output then goes through the epilogue
/// of `postOpCount` steps (PostOps.h): step i of kind postOpKinds[i] with
/// parameters postOpParams[2i], postOpParams[2i + 1] and, for the binary
/// kinds, the operand buffer postOpOperands[i] (a per-channel step that
/// comes first in a convolution that does not accumulate is oneDNN's bias);
/// oneDNN applies it as it writes the output, or plain loops after it.
void gopt_conv2d_nhwc(int64_t n, int64_t c, int64_t h, int64_t w, int64_t f,
                      int64_t kh, int64_t kw, int64_t oh, int64_t ow,
                      int64_t sh, int64_t sw, int64_t dh, int64_t dw,
                      int64_t groups, int64_t padTop, int64_t padLeft,
                      int64_t padBottom, int64_t padRight, const float *input,
                      const float *weight, int64_t constantWeight, float beta,
                      float *output, int64_t postOpCount,
                      const int64_t *postOpKinds, const float *postOpParams,
                      const float *const *postOpOperands);
/// output = pool(input): kind 0 is max (maximumf: NaN propagates, -0 < +0),
/// 1 is sum; f32, contiguous NCHW input [n, c, h, w] (already padded),
/// output [n, c, oh, ow]; window kh x kw, strides sh, sw, dilations dh, dw.
void gopt_pool2d(int64_t kind, int64_t n, int64_t c, int64_t h, int64_t w,
                 int64_t kh, int64_t kw, int64_t oh, int64_t ow, int64_t sh,
                 int64_t sw, int64_t dh, int64_t dw, const float *input,
                 float *output);
/// gopt_pool2d on channels-last buffers: input [n, h, w, c] (not padded),
/// output [n, oh, ow, c] (the sizes are passed as for gopt_pool2d), with
/// padding padTop, padLeft, padBottom, padRight around the input's h x w
/// whose elements are the reduction's identity (-inf for max, 0 for sum):
/// window positions there are skipped.
void gopt_pool2d_nhwc(int64_t kind, int64_t n, int64_t c, int64_t h, int64_t w,
                      int64_t kh, int64_t kw, int64_t oh, int64_t ow,
                      int64_t sh, int64_t sw, int64_t dh, int64_t dw,
                      int64_t padTop, int64_t padLeft, int64_t padBottom,
                      int64_t padRight, const float *input, float *output);
/// out = softmax(scale · Q·Kᵀ + mask) · V, the softmax along each row, for
/// every (b0, b1) of b0 x b1 batches: Q [sq, d], Kᵀ [d, sk], V [sk, dv], the
/// mask [sq, sk] (null: none) and out [sq, dv], f32, each operand given by
/// its first element and its element strides along the two batch dims, its
/// rows and its columns (0 along a broadcast dim). Query rows are taken a
/// block at a time (the block's scores stay in cache), blocks split between
/// the runtime's threads; the products go through gopt_sgemm.
void gopt_attention(int64_t b0, int64_t b1, int64_t sq, int64_t sk, int64_t d,
                    int64_t dv, float scale, const float *q, int64_t qB0,
                    int64_t qB1, int64_t qRow, int64_t qCol, const float *kt,
                    int64_t kB0, int64_t kB1, int64_t kRow, int64_t kCol,
                    const float *v, int64_t vB0, int64_t vB1, int64_t vRow,
                    int64_t vCol, const float *mask, int64_t mB0, int64_t mB1,
                    int64_t mRow, int64_t mCol, float *out, int64_t oB0,
                    int64_t oB1, int64_t oRow, int64_t oCol);
/// Runs body(context, begin, end) over [0, iterations) split into one
/// contiguous chunk per thread (OpenMP's threads, as many as
/// runtime::setLibraryThreads allows); on the calling thread when there is
/// one thread, or when called inside a parallel region. The parallel loops
/// of generated kernels (gopt-parallelize-kernel-loops) call it.
void gopt_parallel_for(void (*body)(void *, int64_t, int64_t), void *context,
                       int64_t iterations);
}

#endif // GOPT_RUNTIME_RUNTIME_H
