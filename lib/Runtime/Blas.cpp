//===- Blas.cpp - gopt_sgemm: the library path for contractions ----------===//
//
// gopt-lower-to-llvm{contractions=library} turns f32 matmul, linear and
// conv2d (through im2col) into calls of gopt_sgemm with raw pointers and
// element strides. Each matrix is described by its strides along its rows
// and columns, so the wrapper picks sgemm's transpose flag and leading
// dimension itself (a transposed operand has a unit row stride); a layout
// sgemm cannot take (neither stride 1) and sizes beyond sgemm's 32-bit
// integers are computed by a plain loop. Batches that share B and whose
// rows of A and C follow each other are one GEMM of batch·m rows. Built
// without OpenBLAS
// (GOPT_HAVE_OPENBLAS undefined), every call takes that loop.
//
// The test library of the JIT integration tests (test/Integration/lib)
// compiles this file too, so mlir-runner resolves gopt_sgemm from it.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Runtime/Runtime.h"

#include <algorithm>
#include <climits>

#ifdef GOPT_HAVE_OPENBLAS
#include <cblas.h>
#endif

namespace {

/// A `rows` x `cols` matrix: element (i, j) at `data[i * row + j * col]`.
struct Matrix {
  int64_t rows, cols, row, col;
};

#ifdef GOPT_HAVE_OPENBLAS
/// sgemm's view of `m` (row-major): untransposed when its columns are
/// contiguous, transposed when its rows are; false when neither holds.
bool blasLayout(const Matrix &m, CBLAS_TRANSPOSE &trans, int64_t &ld) {
  // A dimension of size 1 has no stride to honour.
  if (m.cols == 1 || m.col == 1) {
    ld = m.rows == 1 ? std::max<int64_t>(m.cols, 1) : m.row;
    if (ld >= std::max<int64_t>(m.cols, 1)) {
      trans = CblasNoTrans;
      return true;
    }
  }
  if (m.rows == 1 || m.row == 1) {
    ld = m.cols == 1 ? std::max<int64_t>(m.rows, 1) : m.col;
    if (ld >= std::max<int64_t>(m.rows, 1)) {
      trans = CblasTrans;
      return true;
    }
  }
  return false;
}

bool fitsBlasInt(int64_t v) { return v >= 0 && v <= INT_MAX; }
#endif

/// C = alpha * A * B + beta * C by loops (beta = 0 ignores what C held).
void referenceSgemm(int64_t m, int64_t n, int64_t k, float alpha,
                    const float *a, const Matrix &am, const float *b,
                    const Matrix &bm, float beta, float *c, const Matrix &cm) {
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      float sum = 0.0f;
      for (int64_t p = 0; p < k; ++p)
        sum += a[i * am.row + p * am.col] * b[p * bm.row + j * bm.col];
      float &out = c[i * cm.row + j * cm.col];
      out = alpha * sum + (beta == 0.0f ? 0.0f : beta * out);
    }
}

} // namespace

extern "C" void gopt_sgemm(int64_t batch, int64_t m, int64_t n, int64_t k,
                           float alpha, const float *a, int64_t aBatch,
                           int64_t aRow, int64_t aCol, const float *b,
                           int64_t bBatch, int64_t bRow, int64_t bCol,
                           float beta, float *c, int64_t cBatch, int64_t cRow,
                           int64_t cCol) {
  if (batch <= 0 || m <= 0 || n <= 0)
    return;
  Matrix am{m, k, aRow, aCol}, bm{k, n, bRow, bCol}, cm{m, n, cRow, cCol};
#ifdef GOPT_HAVE_OPENBLAS
  CBLAS_TRANSPOSE ta, tb, tc;
  int64_t lda, ldb, ldc;
  auto blasTakes = [&](const Matrix &a, const Matrix &c, int64_t rows) {
    return k > 0 && blasLayout(a, ta, lda) && blasLayout(bm, tb, ldb) &&
           blasLayout(c, tc, ldc) && tc == CblasNoTrans && fitsBlasInt(rows) &&
           fitsBlasInt(n) && fitsBlasInt(k) && fitsBlasInt(lda) &&
           fitsBlasInt(ldb) && fitsBlasInt(ldc);
  };
  // One B for every batch, and the batches of A and C laid out row after
  // row (x[batch, m, k]·W[k, n], e.g. a linear layer over a sequence-first
  // activation): one GEMM of batch·m rows instead of `batch` thin ones.
  if (batch > 1 && bBatch == 0 && aBatch == m * aRow && cBatch == m * cRow) {
    int64_t rows = batch * m;
    Matrix merged{rows, k, aRow, aCol}, mergedC{rows, n, cRow, cCol};
    if (blasTakes(merged, mergedC, rows)) {
      cblas_sgemm(CblasRowMajor, ta, tb, rows, n, k, alpha, a, lda, b, ldb,
                  beta, c, ldc);
      return;
    }
  }
  if (blasTakes(am, cm, m)) {
    for (int64_t i = 0; i < batch; ++i)
      cblas_sgemm(CblasRowMajor, ta, tb, m, n, k, alpha, a + i * aBatch, lda,
                  b + i * bBatch, ldb, beta, c + i * cBatch, ldc);
    return;
  }
#endif
  for (int64_t i = 0; i < batch; ++i)
    referenceSgemm(m, n, k, alpha, a + i * aBatch, am, b + i * bBatch, bm, beta,
                   c + i * cBatch, cm);
}
