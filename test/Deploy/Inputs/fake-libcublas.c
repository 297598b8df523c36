/* A stand-in for libcublas.so (GOPT_CUBLAS_LIBRARY) for tests on machines
   with no GPU: it computes nothing and prints each GEMM it is asked for, so
   the tests see how gopt_cuda_sgemm maps row-major strides to cuBLAS's
   column-major operands. With FAKE_CUBLAS_STREAMS set, it also prints each
   stream it is set to, numbered in the order they are first seen (0: the
   one the runtime creates for cuBLAS). */
#include <stdio.h>
#include <stdlib.h>

static const char *op(int o) { return o == 0 ? "N" : "T"; }
int cublasCreate_v2(void **h) { *h = (void *)1; return 0; }
int cublasSetStream_v2(void *h, void *s) {
  static void *seen[64];
  static int count;
  if (!getenv("FAKE_CUBLAS_STREAMS"))
    return 0;
  int i = 0;
  while (i < count && seen[i] != s)
    ++i;
  if (i == count && count < 64)
    seen[count++] = s;
  fprintf(stderr, "fake cublas: stream %d\n", i);
  return 0;
}
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
int cublasGemmEx(void *h, int ta, int tb, int m, int n, int k,
                 const void *alpha, const void *a, int at, int lda,
                 const void *b, int bt, int ldb, const void *beta, void *c,
                 int ct, int ldc, int compute, int algo) {
  fprintf(stderr,
          "fake cublas: gemmEx %s%s m=%d n=%d k=%d lda=%d ldb=%d ldc=%d "
          "types=%d,%d,%d compute=%d beta=%g\n",
          op(ta), op(tb), m, n, k, lda, ldb, ldc, at, bt, ct, compute,
          *(const float *)beta);
  return 0;
}
int cublasGemmStridedBatchedEx(void *h, int ta, int tb, int m, int n, int k,
                               const void *alpha, const void *a, int at,
                               int lda, long long sa, const void *b, int bt,
                               int ldb, long long sb, const void *beta, void *c,
                               int ct, int ldc, long long sc, int batch,
                               int compute, int algo) {
  fprintf(stderr,
          "fake cublas: gemmEx batched %s%s m=%d n=%d k=%d lda=%d ldb=%d "
          "ldc=%d strides=%lld,%lld,%lld batch=%d compute=%d\n",
          op(ta), op(tb), m, n, k, lda, ldb, ldc, sa, sb, sc, batch, compute);
  return 0;
}

/* cuBLASLt (GOPT_CUBLASLT_LIBRARY may name this library too): descriptors
   remember what they are set to, and each matmul prints its operation. */
#include <stdlib.h>
#include <string.h>
struct desc {
  int transa, transb;
  unsigned epilogue;
  const void *bias;
};
struct layout {
  unsigned long long rows, cols;
  long long ld;
};
int cublasLtCreate(void **h) {
  *h = (void *)1;
  return 0;
}
const char *cublasLtGetStatusName(int s) { return "CUBLAS_STATUS_FAKE"; }
int cublasLtMatmulDescCreate(struct desc **d, int compute, int scale) {
  *d = calloc(1, sizeof(struct desc));
  fprintf(stderr, "fake cublasLt: compute type %d\n", compute);
  return 0;
}
int cublasLtMatmulDescSetAttribute(struct desc *d, int attr, const void *buf,
                                   size_t size) {
  if (attr == 3)
    memcpy(&d->transa, buf, sizeof(int));
  if (attr == 4)
    memcpy(&d->transb, buf, sizeof(int));
  if (attr == 7)
    memcpy(&d->epilogue, buf, sizeof(unsigned));
  if (attr == 8)
    memcpy(&d->bias, buf, sizeof(void *));
  return 0;
}
int cublasLtMatrixLayoutCreate(struct layout **l, int type,
                               unsigned long long rows, unsigned long long cols,
                               long long ld) {
  *l = malloc(sizeof(struct layout));
  (*l)->rows = rows;
  (*l)->cols = cols;
  (*l)->ld = ld;
  return 0;
}
int cublasLtMatmulPreferenceCreate(void **p) {
  *p = (void *)1;
  return 0;
}
int cublasLtMatmulPreferenceSetAttribute(void *p, int attr, const void *buf,
                                         size_t size) {
  return 0;
}
int cublasLtMatmulPreferenceDestroy(void *p) { return 0; }
struct result {
  unsigned long long algo[8];
  size_t workspace;
  int state;
  float waves;
  int reserved[4];
};
int cublasLtMatmulAlgoGetHeuristic(void *h, void *d, void *a, void *b, void *c,
                                   void *dd, void *p, int count,
                                   struct result *results, int *found) {
  memset(results, 0, sizeof(*results));
  *found = 1;
  return 0;
}
int cublasLtMatmul(void *h, struct desc *d, const float *alpha, const void *a,
                   struct layout *al, const void *b, struct layout *bl,
                   const float *beta, const void *c, struct layout *cl,
                   void *dd, struct layout *dl, const void *algo,
                   void *workspace, size_t workspaceSize, void *stream) {
  fprintf(stderr,
          "fake cublasLt: matmul %s%s A %llux%llu lda=%lld B %llux%llu "
          "ldb=%lld D %llux%llu ldd=%lld epilogue %u bias %s beta=%g\n",
          op(d->transa), op(d->transb), al->rows, al->cols, al->ld, bl->rows,
          bl->cols, bl->ld, dl->rows, dl->cols, dl->ld, d->epilogue,
          d->bias ? "set" : "null", *beta);
  return 0;
}
