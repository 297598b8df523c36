//===- CuBLAS.cpp - gopt_cuda_sgemm: contractions on the library path -----===//
//
// gopt-lower-to-nvvm turns f32 matmul and linear contractions into calls of
// gopt_cuda_sgemm, with gopt_sgemm's signature (lib/Runtime/Blas.cpp): raw
// device pointers and element strides of row-major views. cuBLAS computes
// them. Like the driver, cuBLAS is opened with dlopen at the first call, so
// GOpt builds and links without it: $GOPT_CUBLAS_LIBRARY when set, else
// libcublas.so.13, .12, .so on the loader's path.
//
// cuBLAS is column-major: a row-major C = A·B is computed as the
// column-major Cᵀ = Bᵀ·Aᵀ, each operand's transpose flag and leading
// dimension read off its strides (one of them must be 1;
// gopt-select-library-contractions marks no other layout). Batches go to
// cublasSgemmStridedBatched; batches that share B and whose rows of A and C
// follow each other are one GEMM of batch·m rows.
//
// Math (GOPT_CUBLAS_MATH, BlasLayout.h): plain f32 (CUBLAS_DEFAULT_MATH, no
// TF32) by default; tf32, the math mode CUBLAS_TF32_TENSOR_OP_MATH (10-bit
// mantissas on the inputs, f32 accumulation); bf16, which no math mode
// selects, through cublasGemmEx / cublasGemmStridedBatchedEx with f32
// operands and CUBLAS_COMPUTE_32F_FAST_16BF (7-bit mantissas on the
// inputs, f32 accumulation).
//
// Streams: gopt_cuda_sgemm_async(stream, ...) puts the GEMM on the stream
// the compiled code's launches are on, after them, and returns without
// waiting (gopt-gpu-stream-library-calls makes the host code call it where
// it can: the stream then orders the GEMM between the launches). Otherwise
// the lowered host code synchronizes its stream before calling
// gopt_cuda_sgemm (gpu-async-region) and starts a new one after, so that
// call runs on a stream of its own and waits for it before returning.
// While a CUDA graph is captured (GraphCapture.h), either goes on the
// capturing stream and returns without waiting: the graph orders it. With
// kernel profiling on, each call is timed with events like a launch, named
// `cublas_sgemm`.
//
//===----------------------------------------------------------------------===//

#include "BlasLayout.h"
#include "Driver.h"
#include "KernelProfiler.h"
#include "OpenLibrary.h"

#include "GOpt/Runtime/CUDA.h"

#include <dlfcn.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

using namespace gopt::runtime::cuda;

namespace {

using cublasHandle_t = struct cublasContext *;
using cublasStatus_t = int;
// cublasMath_t values (cublas_api.h).
constexpr int kDefaultMath = 0, kTF32TensorOpMath = 3;
// CUBLAS_GEMM_DEFAULT (cublas_api.h).
constexpr int kGemmDefault = -1;

/// The cuBLAS functions GOpt calls, opened at run time.
struct CuBLAS {
  cublasStatus_t (*create)(cublasHandle_t *);
  cublasStatus_t (*setStream)(cublasHandle_t, CUstream);
  cublasStatus_t (*setMathMode)(cublasHandle_t, int);
  cublasStatus_t (*sgemm)(cublasHandle_t, int, int, int, int, int,
                          const float *, const float *, int, const float *,
                          int, const float *, float *, int);
  cublasStatus_t (*sgemmStridedBatched)(cublasHandle_t, int, int, int, int,
                                        int, const float *, const float *, int,
                                        long long, const float *, int,
                                        long long, const float *, float *, int,
                                        long long, int);
  // The same with a compute type (bf16): f32 operands and results.
  cublasStatus_t (*gemmEx)(cublasHandle_t, int, int, int, int, int,
                           const void *, const void *, int, int, const void *,
                           int, int, const void *, void *, int, int, int, int);
  cublasStatus_t (*gemmStridedBatchedEx)(cublasHandle_t, int, int, int, int,
                                         int, const void *, const void *, int,
                                         int, long long, const void *, int, int,
                                         long long, const void *, void *, int,
                                         int, long long, int, int, int);
  const char *(*statusName)(cublasStatus_t);
  cublasHandle_t handle = nullptr;
  CUstream stream = nullptr;
  GemmMath math = GemmMath::F32;
  std::string library;
};

/// Stops the process when a cuBLAS call failed (checkBlasStatus).
void checkStatus(const CuBLAS &blas, const char *call, cublasStatus_t status) {
  checkBlasStatus(blas.statusName, call, status);
}

/// The library opened, its functions looked up, one handle on one stream;
/// aborts with the reason when there is none.
CuBLAS load() {
  CuBLAS blas;
  OpenedLibrary opened =
      openLibrary("GOPT_CUBLAS_LIBRARY",
                  {"libcublas.so.13", "libcublas.so.12", "libcublas.so"});
  if (!opened.handle)
    fatal("contractions on the GPU need cuBLAS, and none could be opened "
          "(tried " +
          opened.tried +
          "); set GOPT_CUBLAS_LIBRARY to the path of libcublas.so");
  blas.library = opened.name;
#define GOPT_BLAS_FUNCTION(field, symbol)                                      \
  blas.field = opened.function<decltype(blas.field)>(symbol)
  GOPT_BLAS_FUNCTION(create, "cublasCreate_v2");
  GOPT_BLAS_FUNCTION(setStream, "cublasSetStream_v2");
  GOPT_BLAS_FUNCTION(setMathMode, "cublasSetMathMode");
  GOPT_BLAS_FUNCTION(sgemm, "cublasSgemm_v2");
  GOPT_BLAS_FUNCTION(sgemmStridedBatched, "cublasSgemmStridedBatched");
  blas.math = gemmMath();
  if (blas.math == GemmMath::BF16) {
    GOPT_BLAS_FUNCTION(gemmEx, "cublasGemmEx");
    GOPT_BLAS_FUNCTION(gemmStridedBatchedEx, "cublasGemmStridedBatchedEx");
  }
#undef GOPT_BLAS_FUNCTION
  blas.statusName = reinterpret_cast<decltype(blas.statusName)>(
      dlsym(opened.handle, "cublasGetStatusName"));

  driver(); // the primary context current on this thread
  checkStatus(blas, "cublasCreate", blas.create(&blas.handle));
  check("cuStreamCreate",
        driver().cuStreamCreate(&blas.stream, /*CU_STREAM_NON_BLOCKING=*/1));
  checkStatus(blas, "cublasSetStream",
              blas.setStream(blas.handle, blas.stream));
  checkStatus(blas, "cublasSetMathMode",
              blas.setMathMode(blas.handle, blas.math == GemmMath::TF32
                                                ? kTF32TensorOpMath
                                                : kDefaultMath));
  return blas;
}

std::mutex &blasMutex() {
  static std::mutex *m = new std::mutex();
  return *m;
}

/// The process's cuBLAS, loaded at the first use. Never destroyed: the
/// driver tears its context down at exit.
CuBLAS &cublas() {
  static CuBLAS *blas = new CuBLAS(load());
  return *blas;
}

/// C[batch] = alpha · A[batch] · B[batch] + beta · C[batch], all matrices
/// described by element strides; false when cuBLAS cannot take a layout.
bool gemm(int64_t batch, int64_t m, int64_t n, int64_t k, float alpha,
          const float *a, int64_t aBatch, int64_t aRow, int64_t aCol,
          const float *b, int64_t bBatch, int64_t bRow, int64_t bCol,
          float beta, float *c, int64_t cBatch, int64_t cRow, int64_t cCol) {
  // Column-major C (unit row stride): C = A·B. Else, row-major C (unit
  // column stride): Cᵀ = Bᵀ·Aᵀ, the transposes read with swapped strides.
  Operand x, y, out;
  int64_t rows, cols;
  const float *first, *second;
  int64_t firstBatch, secondBatch;
  if (columnMajor(m, n, cRow, cCol, out) && out.op == kOpN) {
    if (!columnMajor(m, k, aRow, aCol, x) || !columnMajor(k, n, bRow, bCol, y))
      return false;
    rows = m, cols = n, first = a, second = b;
    firstBatch = aBatch, secondBatch = bBatch;
  } else if (rowMajorProduct(m, n, k, aRow, aCol, bRow, bCol, cRow, cCol, x, y,
                             out)) {
    rows = n, cols = m, first = b, second = a;
    firstBatch = bBatch, secondBatch = aBatch;
  } else {
    return false;
  }
  for (int64_t v : {rows, cols, k, x.ld, y.ld, out.ld, batch})
    if (!fitsInt(v))
      return false;
  CuBLAS &blas = cublas();
  if (blas.math == GemmMath::BF16) {
    int compute = computeType(blas.math);
    if (batch == 1)
      checkStatus(blas, "cublasGemmEx",
                  blas.gemmEx(blas.handle, x.op, y.op, rows, cols, k, &alpha,
                              first, kRealF32, x.ld, second, kRealF32, y.ld,
                              &beta, c, kRealF32, out.ld, compute,
                              kGemmDefault));
    else
      checkStatus(blas, "cublasGemmStridedBatchedEx",
                  blas.gemmStridedBatchedEx(
                      blas.handle, x.op, y.op, rows, cols, k, &alpha, first,
                      kRealF32, x.ld, firstBatch, second, kRealF32, y.ld,
                      secondBatch, &beta, c, kRealF32, out.ld, cBatch, batch,
                      compute, kGemmDefault));
    return true;
  }
  if (batch == 1)
    checkStatus(blas, "cublasSgemm",
                blas.sgemm(blas.handle, x.op, y.op, rows, cols, k, &alpha,
                           first, x.ld, second, y.ld, &beta, c, out.ld));
  else
    checkStatus(blas, "cublasSgemmStridedBatched",
                blas.sgemmStridedBatched(
                    blas.handle, x.op, y.op, rows, cols, k, &alpha, first,
                    x.ld, firstBatch, second, y.ld, secondBatch, &beta, c,
                    out.ld, cBatch, batch));
  return true;
}

/// The profiler's name for cuBLAS calls: a key no CUfunction has.
CUfunction cublasTimingKey() {
  static char key;
  return reinterpret_cast<CUfunction>(&key);
}

/// C = alpha · A · B + beta · C on `stream` (null: cuBLAS's own stream,
/// waited for before returning; the capturing stream during a capture).
void sgemmOn(CUstream stream, int64_t batch, int64_t m, int64_t n, int64_t k,
             float alpha, const float *a, int64_t aBatch, int64_t aRow,
             int64_t aCol, const float *b, int64_t bBatch, int64_t bRow,
             int64_t bCol, float beta, float *c, int64_t cBatch, int64_t cRow,
             int64_t cCol) {
  if (batch <= 0 || m <= 0 || n <= 0)
    return;
  std::lock_guard<std::mutex> lock(blasMutex());
  CuBLAS &blas = cublas();
  auto [on, captured, wait] = callStream(stream, blas.stream);
  stream = on;
  if (stream != blas.stream)
    checkStatus(blas, "cublasSetStream", blas.setStream(blas.handle, stream));
  noteFunctionName(cublasTimingKey(), "cublas_sgemm");
  CUevent begin = captured ? nullptr : beginKernelTiming(stream);
  bool done = false;
  // One B for every batch, the batches of A and C laid out row after row:
  // one GEMM of batch·m rows.
  if (batchesAreRows(batch, m, aBatch, aRow, bBatch, cBatch, cRow))
    done = gemm(1, batch * m, n, k, alpha, a, 0, aRow, aCol, b, 0, bRow, bCol,
                beta, c, 0, cRow, cCol);
  if (!done)
    done = gemm(batch, m, n, k, alpha, a, aBatch, aRow, aCol, b, bBatch, bRow,
                bCol, beta, c, cBatch, cRow, cCol);
  if (!done)
    fatal("gopt_cuda_sgemm: a matrix layout cuBLAS cannot take (strides A " +
          std::to_string(aRow) + "x" + std::to_string(aCol) + ", B " +
          std::to_string(bRow) + "x" + std::to_string(bCol) + ", C " +
          std::to_string(cRow) + "x" + std::to_string(cCol) +
          "); gopt-select-library-contractions should not have marked it");
  if (!captured)
    endKernelTiming(cublasTimingKey(), stream, begin);
  if (stream != blas.stream)
    checkStatus(blas, "cublasSetStream",
                blas.setStream(blas.handle, blas.stream));
  if (wait)
    check("cuStreamSynchronize", driver().cuStreamSynchronize(stream));
}

} // namespace

extern "C" void gopt_cuda_sgemm(int64_t batch, int64_t m, int64_t n, int64_t k,
                                float alpha, const float *a, int64_t aBatch,
                                int64_t aRow, int64_t aCol, const float *b,
                                int64_t bBatch, int64_t bRow, int64_t bCol,
                                float beta, float *c, int64_t cBatch,
                                int64_t cRow, int64_t cCol) {
  sgemmOn(nullptr, batch, m, n, k, alpha, a, aBatch, aRow, aCol, b, bBatch,
          bRow, bCol, beta, c, cBatch, cRow, cCol);
}

extern "C" void
gopt_cuda_sgemm_async(CUstream stream, int64_t batch, int64_t m, int64_t n,
                      int64_t k, float alpha, const float *a, int64_t aBatch,
                      int64_t aRow, int64_t aCol, const float *b,
                      int64_t bBatch, int64_t bRow, int64_t bCol, float beta,
                      float *c, int64_t cBatch, int64_t cRow, int64_t cCol) {
  if (!stream)
    fatal("gopt_cuda_sgemm_async: no stream");
  sgemmOn(stream, batch, m, n, k, alpha, a, aBatch, aRow, aCol, b, bBatch, bRow,
          bCol, beta, c, cBatch, cRow, cCol);
}

const char *gopt::runtime::cuda::cublasLibrary() {
  std::lock_guard<std::mutex> lock(blasMutex());
  return cublas().library.c_str();
}
