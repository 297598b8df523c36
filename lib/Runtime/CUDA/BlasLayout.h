//===- BlasLayout.h - Row-major strides as column-major GEMM operands -*- C++
//-*-===//
//
// Private to lib/Runtime/CUDA: how cuBLAS and cuBLASLt (both column-major)
// read the row-major, strided matrices gopt_cuda_sgemm and
// gopt_cuda_sgemm_epilogue are given, and what else the two share: their
// status check, the GEMMs' arithmetic (f32, TF32, bf16) and the stream
// a call runs on.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_LIB_RUNTIME_CUDA_BLASLAYOUT_H
#define GOPT_LIB_RUNTIME_CUDA_BLASLAYOUT_H

#include "Driver.h"
#include "GraphCapture.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace gopt {
namespace runtime {
namespace cuda {

// cublasOperation_t values (cublas_api.h).
constexpr int kOpN = 0, kOpT = 1;
// cudaDataType_t CUDA_R_32F (library_types.h).
constexpr int kRealF32 = 0;

/// The stream a library call runs on, and whether it waits for it.
struct CallStream {
  CUstream stream;
  /// A CUDA graph is being captured: the call is recorded, not timed.
  bool captured;
  /// The call waits for its work before returning (on the library's own
  /// stream only; the caller orders work on its stream, a graph its own).
  bool wait;
};

/// The capturing stream during a capture, else `requested` (the compiled
/// code's stream: gopt_cuda_sgemm_async), else the library's `own` stream.
inline CallStream callStream(CUstream requested, CUstream own) {
  if (CUstream captured = capturingStream())
    return {captured, true, false};
  if (requested)
    return {requested, false, false};
  return {own, false, true};
}

/// How a column-major GEMM reads a `rows` x `cols` matrix with element
/// (i, j) at `i * rowStride + j * colStride`: as stored (N: unit row
/// stride) or as the transpose of what is stored (T: unit column stride),
/// with its leading dimension.
struct Operand {
  int op = kOpN;
  int64_t ld = 1;
};

inline bool columnMajor(int64_t rows, int64_t cols, int64_t rowStride,
                        int64_t colStride, Operand &operand) {
  // N: (i, j) at i + j * ld.
  if (rowStride == 1 || rows == 1) {
    int64_t ld = cols == 1 ? std::max<int64_t>(rows, 1) : colStride;
    if (ld >= std::max<int64_t>(rows, 1)) {
      operand = {kOpN, ld};
      return true;
    }
  }
  // T: the stored matrix is cols x rows, (i, j) at j + i * ld.
  if (colStride == 1 || cols == 1) {
    int64_t ld = rows == 1 ? std::max<int64_t>(cols, 1) : rowStride;
    if (ld >= std::max<int64_t>(cols, 1)) {
      operand = {kOpT, ld};
      return true;
    }
  }
  return false;
}

inline bool fitsInt(int64_t v) { return v >= 0 && v <= INT_MAX; }

/// C = A·B with C row-major (unit column stride) as the column-major
/// Cᵀ (n × m) = X (n × k) · Y (k × m), X = Bᵀ and Y = Aᵀ read through
/// swapped strides; false when an operand has no unit stride.
inline bool rowMajorProduct(int64_t m, int64_t n, int64_t k, int64_t aRow,
                            int64_t aCol, int64_t bRow, int64_t bCol,
                            int64_t cRow, int64_t cCol, Operand &x, Operand &y,
                            Operand &out) {
  return columnMajor(n, m, cCol, cRow, out) && out.op == kOpN &&
         columnMajor(n, k, bCol, bRow, x) && columnMajor(k, m, aCol, aRow, y);
}

/// Whether `batch` products share B and lay their rows of A and C one after
/// the other (x[batch, m, k]·W[k, n]): one GEMM of batch·m rows.
inline bool batchesAreRows(int64_t batch, int64_t m, int64_t aBatch,
                           int64_t aRow, int64_t bBatch, int64_t cBatch,
                           int64_t cRow) {
  return batch > 1 && bBatch == 0 && aBatch == m * aRow && cBatch == m * cRow;
}

/// Stops the process when a cuBLAS or cuBLASLt call failed, naming the
/// call and the status (by `statusName` when the library has it).
inline void checkBlasStatus(const char *(*statusName)(int), const char *call,
                            int status) {
  if (status != 0)
    fatal(std::string(call) + " failed with " +
          (statusName ? std::string(statusName(status))
                      : "status " + std::to_string(status)));
}

/// The arithmetic of the GEMMs cuBLAS and cuBLASLt compute for f32
/// contractions (GOPT_CUBLAS_MATH): f32 (the default: what the CPU
/// reference computes), tf32 (TF32 tensor cores: the inputs rounded to
/// 10-bit mantissas, f32 accumulation) or bf16 (bf16 tensor cores: 7-bit
/// mantissas, f32 accumulation). Operands and results stay f32 in memory.
enum class GemmMath { F32, TF32, BF16 };

/// GOPT_CUBLAS_MATH (f32, tf32, bf16), or GOPT_CUBLAS_TF32=1 for tf32;
/// stops the process, naming the values, on any other.
inline GemmMath gemmMath() {
  const char *tf32 = std::getenv("GOPT_CUBLAS_TF32");
  const char *math = std::getenv("GOPT_CUBLAS_MATH");
  if (!math || !*math)
    return tf32 && std::string(tf32) == "1" ? GemmMath::TF32 : GemmMath::F32;
  std::string value = math;
  if (value == "f32")
    return GemmMath::F32;
  if (value == "tf32")
    return GemmMath::TF32;
  if (value == "bf16")
    return GemmMath::BF16;
  fatal("GOPT_CUBLAS_MATH is '" + value + "': use f32, tf32 or bf16");
}

/// cublasComputeType_t of `math`: CUBLAS_COMPUTE_32F, _32F_FAST_TF32,
/// _32F_FAST_16BF.
inline int computeType(GemmMath math) {
  switch (math) {
  case GemmMath::F32:
    return 68;
  case GemmMath::TF32:
    return 77;
  case GemmMath::BF16:
    return 75;
  }
  return 68;
}

} // namespace cuda
} // namespace runtime
} // namespace gopt

#endif // GOPT_LIB_RUNTIME_CUDA_BLASLAYOUT_H
