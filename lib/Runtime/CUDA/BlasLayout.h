//===- BlasLayout.h - Row-major strides as column-major GEMM operands -*- C++
//-*-===//
//
// Private to lib/Runtime/CUDA: how cuBLAS and cuBLASLt (both column-major)
// read the row-major, strided matrices gopt_cuda_sgemm and
// gopt_cuda_sgemm_epilogue are given.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_LIB_RUNTIME_CUDA_BLASLAYOUT_H
#define GOPT_LIB_RUNTIME_CUDA_BLASLAYOUT_H

#include <algorithm>
#include <climits>
#include <cstdint>

namespace gopt {
namespace runtime {
namespace cuda {

// cublasOperation_t values (cublas_api.h).
constexpr int kOpN = 0, kOpT = 1;

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

} // namespace cuda
} // namespace runtime
} // namespace gopt

#endif // GOPT_LIB_RUNTIME_CUDA_BLASLAYOUT_H
