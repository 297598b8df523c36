/* A stand-in for libcublas.so (GOPT_CUBLAS_LIBRARY) for tests on machines
   with no GPU: it computes nothing and prints each GEMM it is asked for, so
   the tests see how gopt_cuda_sgemm maps row-major strides to cuBLAS's
   column-major operands. */
#include <stdio.h>

static const char *op(int o) { return o == 0 ? "N" : "T"; }
int cublasCreate_v2(void **h) { *h = (void *)1; return 0; }
int cublasSetStream_v2(void *h, void *s) { return 0; }
int cublasSetMathMode(void *h, int mode) {
  fprintf(stderr, "fake cublas: math mode %d\n", mode);
  return 0;
}
const char *cublasGetStatusName(int s) { return "CUBLAS_STATUS_FAKE"; }
int cublasSgemm_v2(void *h, int ta, int tb, int m, int n, int k,
                   const float *alpha, const float *a, int lda, const float *b,
                   int ldb, const float *beta, float *c, int ldc) {
  fprintf(stderr, "fake cublas: sgemm %s%s m=%d n=%d k=%d lda=%d ldb=%d ldc=%d beta=%g\n",
          op(ta), op(tb), m, n, k, lda, ldb, ldc, *beta);
  return 0;
}
int cublasSgemmStridedBatched(void *h, int ta, int tb, int m, int n, int k,
                              const float *alpha, const float *a, int lda,
                              long long sa, const float *b, int ldb,
                              long long sb, const float *beta, float *c,
                              int ldc, long long sc, int batch) {
  fprintf(stderr, "fake cublas: sgemm batched %s%s m=%d n=%d k=%d lda=%d ldb=%d ldc=%d strides=%lld,%lld,%lld batch=%d\n",
          op(ta), op(tb), m, n, k, lda, ldb, ldc, sa, sb, sc, batch);
  return 0;
}
