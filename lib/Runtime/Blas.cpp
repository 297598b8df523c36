//===- Blas.cpp - gopt_sgemm: the library path for contractions ----------===//
//
// gopt-lower-to-llvm{contractions=library} turns f32 matmul, linear and
// conv2d (through im2col) into calls of gopt_sgemm with raw pointers and
// element strides. Each matrix is described by its strides along its rows
// and columns, so the wrapper picks the GEMM's transpose flag and leading
// dimension itself (a transposed operand has a unit row stride). Batches
// that share B and whose rows of A and C follow each other are one GEMM of
// batch·m rows.
//
// The GEMM itself comes from the best library the build found:
//   - oneDNN's dnnl_sgemm (GOPT_HAVE_ONEDNN; Debian's libdnnl-dev): JIT
//     kernels for the CPU it runs on, AVX-512 included, OpenMP threads;
//   - else OpenBLAS's cblas_sgemm (GOPT_HAVE_OPENBLAS), 32-bit sizes;
//   - else, and for layouts no GEMM takes (neither stride 1), a plain loop.
// gopt_sgemm_backend() names the one in use.
//
// The test library of the JIT integration tests (test/Integration/lib)
// compiles this file too, so mlir-runner resolves gopt_sgemm from it.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Runtime/Runtime.h"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>

#if defined(_OPENMP)
#include <omp.h>
#endif
#if defined(GOPT_HAVE_ONEDNN)
#include <dnnl.h>
#elif defined(GOPT_HAVE_OPENBLAS)
#include <cblas.h>
extern "C" void openblas_set_num_threads(int);
extern "C" int openblas_get_num_threads(void);
#endif

namespace {

/// A `rows` x `cols` matrix: element (i, j) at `data[i * row + j * col]`.
struct Matrix {
  int64_t rows, cols, row, col;
};

/// How a row-major GEMM reads a matrix: as is or transposed, with a leading
/// dimension.
struct GemmLayout {
  bool transposed = false;
  int64_t ld = 0;
};

/// The row-major GEMM view of `m`: untransposed when its columns are
/// contiguous, transposed when its rows are; false when neither holds.
bool gemmLayout(const Matrix &m, GemmLayout &layout) {
  // A dimension of size 1 has no stride to honour.
  if (m.cols == 1 || m.col == 1) {
    layout.ld = m.rows == 1 ? std::max<int64_t>(m.cols, 1) : m.row;
    if (layout.ld >= std::max<int64_t>(m.cols, 1)) {
      layout.transposed = false;
      return true;
    }
  }
  if (m.rows == 1 || m.row == 1) {
    layout.ld = m.cols == 1 ? std::max<int64_t>(m.rows, 1) : m.col;
    if (layout.ld >= std::max<int64_t>(m.rows, 1)) {
      layout.transposed = true;
      return true;
    }
  }
  return false;
}

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

/// One row-major GEMM through the library, when it takes these layouts and
/// sizes; false leaves the product to the caller.
bool librarySgemm(int64_t m, int64_t n, int64_t k, float alpha, const float *a,
                  const Matrix &am, const float *b, const Matrix &bm,
                  float beta, float *c, const Matrix &cm) {
  GemmLayout la, lb, lc;
  if (k <= 0 || !gemmLayout(am, la) || !gemmLayout(bm, lb) ||
      !gemmLayout(cm, lc) || lc.transposed)
    return false;
#if defined(GOPT_HAVE_ONEDNN)
  return dnnl_sgemm(la.transposed ? 'T' : 'N', lb.transposed ? 'T' : 'N', m, n,
                    k, alpha, a, la.ld, b, lb.ld, beta, c,
                    lc.ld) == dnnl_success;
#elif defined(GOPT_HAVE_OPENBLAS)
  auto fits = [](int64_t v) { return v >= 0 && v <= INT_MAX; };
  if (!fits(m) || !fits(n) || !fits(k) || !fits(la.ld) || !fits(lb.ld) ||
      !fits(lc.ld))
    return false;
  cblas_sgemm(CblasRowMajor, la.transposed ? CblasTrans : CblasNoTrans,
              lb.transposed ? CblasTrans : CblasNoTrans, m, n, k, alpha, a,
              la.ld, b, lb.ld, beta, c, lc.ld);
  return true;
#else
  return false;
#endif
}

} // namespace

void mlir::gopt::runtime::setLibraryThreads(int threads) {
  threads = std::max(threads, 1);
  // OpenMP's threads run oneDNN and gopt_parallel_for's loops.
#if defined(_OPENMP)
  omp_set_num_threads(threads);
#endif
#if defined(GOPT_HAVE_OPENBLAS) && !defined(GOPT_HAVE_ONEDNN)
  openblas_set_num_threads(threads);
#endif
  (void)threads;
}

int mlir::gopt::runtime::getLibraryThreads() {
#if defined(_OPENMP)
  return omp_get_max_threads();
#elif defined(GOPT_HAVE_OPENBLAS)
  return openblas_get_num_threads();
#else
  return 1;
#endif
}

extern "C" const char *gopt_sgemm_backend() {
#if defined(GOPT_HAVE_ONEDNN)
  return "onednn";
#elif defined(GOPT_HAVE_OPENBLAS)
  return "openblas";
#else
  return "loops";
#endif
}

/// Whether `batch` products share B and lay their rows of A and C one after
/// the other (x[batch, m, k]·W[k, n], e.g. a linear layer over a
/// sequence-first activation): one GEMM of batch·m rows.
static bool batchesAreRows(int64_t batch, int64_t m, int64_t aBatch,
                           int64_t aRow, int64_t bBatch, int64_t cBatch,
                           int64_t cRow) {
  return batch > 1 && bBatch == 0 && aBatch == m * aRow && cBatch == m * cRow;
}

extern "C" void gopt_sgemm(int64_t batch, int64_t m, int64_t n, int64_t k,
                           float alpha, const float *a, int64_t aBatch,
                           int64_t aRow, int64_t aCol, const float *b,
                           int64_t bBatch, int64_t bRow, int64_t bCol,
                           float beta, float *c, int64_t cBatch, int64_t cRow,
                           int64_t cCol) {
  if (batch <= 0 || m <= 0 || n <= 0)
    return;
  Matrix am{m, k, aRow, aCol}, bm{k, n, bRow, bCol}, cm{m, n, cRow, cCol};
  // One GEMM of batch·m rows instead of `batch` thin ones.
  if (batchesAreRows(batch, m, aBatch, aRow, bBatch, cBatch, cRow)) {
    int64_t rows = batch * m;
    Matrix merged{rows, k, aRow, aCol}, mergedC{rows, n, cRow, cCol};
    if (librarySgemm(rows, n, k, alpha, a, merged, b, bm, beta, c, mergedC))
      return;
  }
  for (int64_t i = 0; i < batch; ++i) {
    const float *ai = a + i * aBatch, *bi = b + i * bBatch;
    float *ci = c + i * cBatch;
    if (!librarySgemm(m, n, k, alpha, ai, am, bi, bm, beta, ci, cm))
      referenceSgemm(m, n, k, alpha, ai, am, bi, bm, beta, ci, cm);
  }
}

extern "C" void gopt_sgemm_epilogue(int64_t batch, int64_t m, int64_t n,
                                    int64_t k, float alpha, const float *a,
                                    int64_t aBatch, int64_t aRow, int64_t aCol,
                                    const float *b, int64_t bBatch,
                                    int64_t bRow, int64_t bCol, float *c,
                                    int64_t cBatch, int64_t cRow, int64_t cCol,
                                    const float *bias, int32_t epilogue) {
  if (batch <= 0 || m <= 0 || n <= 0)
    return;
  // The preconditions gopt_cuda_sgemm_epilogue stops on, so that code the
  // GPU pipeline made fails here as it would there.
  const char *misuse = nullptr;
  if (epilogue != 1 && epilogue != 2)
    misuse = "an unknown epilogue";
  else if (batch > 1 &&
           !batchesAreRows(batch, m, aBatch, aRow, bBatch, cBatch, cRow))
    misuse = "batches that are not one GEMM of batch·m rows";
  if (misuse) {
    std::fprintf(stderr, "gopt_sgemm_epilogue: %s (epilogue %d)\n", misuse,
                 static_cast<int>(epilogue));
    std::abort();
  }
  gopt_sgemm(batch, m, n, k, alpha, a, aBatch, aRow, aCol, b, bBatch, bRow,
             bCol, /*beta=*/0.0f, c, cBatch, cRow, cCol);
  for (int64_t i = 0; i < batch; ++i)
    for (int64_t r = 0; r < m; ++r) {
      float *row = c + i * cBatch + r * cRow;
      for (int64_t s = 0; s < n; ++s) {
        float value = row[s * cCol] + bias[s];
        row[s * cCol] = epilogue == 2 ? std::max(value, 0.0f) : value;
      }
    }
}
