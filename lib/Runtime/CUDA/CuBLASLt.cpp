//===- CuBLASLt.cpp - gopt_cuda_sgemm_epilogue: a GEMM and its bias in one
//--===//
//
// gopt-lower-to-nvvm{cublaslt-epilogues} turns a contraction whose kernel's
// epilogue is a bias along the result's last dim, with or without a ReLU
// after it, into one call of gopt_cuda_sgemm_epilogue: cuBLASLt computes
// C = epilogue(alpha · A · B + bias) in the GEMM's own kernel, so the
// epilogue needs no launch of its own and C is written once. Like cuBLAS,
// cuBLASLt is opened at the first call: $GOPT_CUBLASLT_LIBRARY when set,
// else libcublasLt.so.13, .12, .so.
//
// Layout: as gopt_cuda_sgemm's (BlasLayout.h), a row-major C (unit column
// stride) is computed as the column-major Cᵀ = Bᵀ · Aᵀ, whose rows are C's
// columns: the bias, one value per column of C, is cuBLASLt's per-row bias.
// Batches must share B with their rows of A and C one after the other (a
// linear layer over a sequence): they are one GEMM of batch · m rows. Each
// shape's descriptors and the algorithm cuBLASLt's heuristic picks (for
// the operands' actual alignments) are made once and kept.
//
// Math: as gopt_cuda_sgemm's (GOPT_CUBLAS_MATH, BlasLayout.h), the compute
// type CUBLAS_COMPUTE_32F, _32F_FAST_TF32 or _32F_FAST_16BF.
// Stream: as gopt_cuda_sgemm's (CuBLAS.cpp): a stream of its own, waited
// for before returning, or with gopt_cuda_sgemm_epilogue_async the stream
// the compiled code's launches are on, not waited for; the capturing
// stream while a CUDA graph is captured. Timed under the name
// `cublaslt_sgemm_epilogue` when kernels are profiled.
//
//===----------------------------------------------------------------------===//

#include "BlasLayout.h"
#include "Driver.h"
#include "KernelProfiler.h"
#include "OpenLibrary.h"

#include "GOpt/Runtime/CUDA.h"

#include <dlfcn.h>

#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <tuple>

using namespace gopt::runtime::cuda;

namespace {

using cublasStatus_t = int;
using cublasLtHandle_t = struct cublasLtContext *;
using cublasLtMatmulDesc_t = struct cublasLtMatmulDescOpaque *;
using cublasLtMatrixLayout_t = struct cublasLtMatrixLayoutOpaque *;
using cublasLtMatmulPreference_t = struct cublasLtMatmulPreferenceOpaque *;

/// cublasLtMatmulAlgo_t and cublasLtMatmulHeuristicResult_t (cublasLt.h).
struct MatmulAlgo {
  uint64_t data[8];
};
struct HeuristicResult {
  MatmulAlgo algo;
  size_t workspaceSize;
  cublasStatus_t state;
  float wavesCount;
  int reserved[4];
};

// Values of cublasLt.h, cublas_api.h and library_types.h.
constexpr int kDescTransA = 3, kDescTransB = 4, kDescEpilogue = 7,
              kDescBiasPointer = 8;
constexpr int kPrefMaxWorkspaceBytes = 1, kPrefMinAlignmentA = 5,
              kPrefMinAlignmentB = 6, kPrefMinAlignmentC = 7,
              kPrefMinAlignmentD = 8;
constexpr uint32_t kEpilogueBias = 4, kEpilogueReluBias = 6;
/// Workspace cuBLASLt may use (what NVIDIA recommends for Hopper).
constexpr size_t kWorkspaceBytes = size_t(32) << 20;

/// The cuBLASLt functions GOpt calls, opened at run time, one handle, a
/// stream and a workspace.
struct CuBLASLt {
  cublasStatus_t (*create)(cublasLtHandle_t *);
  const char *(*statusName)(cublasStatus_t);
  cublasStatus_t (*descCreate)(cublasLtMatmulDesc_t *, int, int);
  cublasStatus_t (*descSetAttribute)(cublasLtMatmulDesc_t, int, const void *,
                                     size_t);
  cublasStatus_t (*layoutCreate)(cublasLtMatrixLayout_t *, int, uint64_t,
                                 uint64_t, int64_t);
  cublasStatus_t (*preferenceCreate)(cublasLtMatmulPreference_t *);
  cublasStatus_t (*preferenceSetAttribute)(cublasLtMatmulPreference_t, int,
                                           const void *, size_t);
  cublasStatus_t (*preferenceDestroy)(cublasLtMatmulPreference_t);
  cublasStatus_t (*heuristic)(cublasLtHandle_t, cublasLtMatmulDesc_t,
                              cublasLtMatrixLayout_t, cublasLtMatrixLayout_t,
                              cublasLtMatrixLayout_t, cublasLtMatrixLayout_t,
                              cublasLtMatmulPreference_t, int,
                              HeuristicResult *, int *);
  cublasStatus_t (*matmul)(cublasLtHandle_t, cublasLtMatmulDesc_t, const void *,
                           const void *, cublasLtMatrixLayout_t, const void *,
                           cublasLtMatrixLayout_t, const void *, const void *,
                           cublasLtMatrixLayout_t, void *,
                           cublasLtMatrixLayout_t, const MatmulAlgo *, void *,
                           size_t, CUstream);
  cublasLtHandle_t handle = nullptr;
  CUstream stream = nullptr;
  CUdeviceptr workspace = 0;
  GemmMath math = GemmMath::F32;
  std::string library;
};

void checkStatus(const CuBLASLt &lt, const char *call, cublasStatus_t status) {
  checkBlasStatus(lt.statusName, call, status);
}

CuBLASLt load() {
  CuBLASLt lt;
  OpenedLibrary opened =
      openLibrary("GOPT_CUBLASLT_LIBRARY",
                  {"libcublasLt.so.13", "libcublasLt.so.12", "libcublasLt.so"});
  if (!opened.handle)
    fatal("GEMM epilogues on the GPU need cuBLASLt, and none could be "
          "opened (tried " +
          opened.tried +
          "); set GOPT_CUBLASLT_LIBRARY to the path of libcublasLt.so, or "
          "compile without gopt-lower-to-nvvm's cublaslt-epilogues");
  lt.library = opened.name;
#define GOPT_LT_FUNCTION(field, symbol)                                        \
  lt.field = opened.function<decltype(lt.field)>(symbol)
  GOPT_LT_FUNCTION(create, "cublasLtCreate");
  GOPT_LT_FUNCTION(descCreate, "cublasLtMatmulDescCreate");
  GOPT_LT_FUNCTION(descSetAttribute, "cublasLtMatmulDescSetAttribute");
  GOPT_LT_FUNCTION(layoutCreate, "cublasLtMatrixLayoutCreate");
  GOPT_LT_FUNCTION(preferenceCreate, "cublasLtMatmulPreferenceCreate");
  GOPT_LT_FUNCTION(preferenceSetAttribute,
                   "cublasLtMatmulPreferenceSetAttribute");
  GOPT_LT_FUNCTION(preferenceDestroy, "cublasLtMatmulPreferenceDestroy");
  GOPT_LT_FUNCTION(heuristic, "cublasLtMatmulAlgoGetHeuristic");
  GOPT_LT_FUNCTION(matmul, "cublasLtMatmul");
#undef GOPT_LT_FUNCTION
  lt.statusName = reinterpret_cast<decltype(lt.statusName)>(
      dlsym(opened.handle, "cublasLtGetStatusName"));

  const Driver &d = driver(); // the primary context current on this thread
  checkStatus(lt, "cublasLtCreate", lt.create(&lt.handle));
  check("cuStreamCreate",
        d.cuStreamCreate(&lt.stream, /*CU_STREAM_NON_BLOCKING=*/1));
  check("cuMemAlloc_v2", d.cuMemAlloc(&lt.workspace, kWorkspaceBytes));
  lt.math = gemmMath();
  return lt;
}

std::mutex &ltMutex() {
  static std::mutex *m = new std::mutex();
  return *m;
}

/// The process's cuBLASLt, loaded at the first use; never destroyed.
CuBLASLt &cublasLt() {
  static CuBLASLt *lt = new CuBLASLt(load());
  return *lt;
}

/// One GEMM shape: operands as column-major cuBLASLt reads them (X·Y = D,
/// D rows × cols), the epilogue, and the operands' alignments.
struct PlanKey {
  int64_t rows, cols, k;
  int xOp, yOp;
  int64_t xLd, yLd, dLd;
  uint32_t epilogue;
  uint32_t xAlign, yAlign, dAlign;
  auto tie() const {
    return std::tie(rows, cols, k, xOp, yOp, xLd, yLd, dLd, epilogue, xAlign,
                    yAlign, dAlign);
  }
  bool operator<(const PlanKey &o) const { return tie() < o.tie(); }
};

struct Plan {
  cublasLtMatmulDesc_t desc = nullptr;
  cublasLtMatrixLayout_t x = nullptr, y = nullptr, d = nullptr;
  MatmulAlgo algo{};
  size_t workspaceSize = 0;
};

/// The largest power of two up to 256 that divides `ptr`'s address.
uint32_t alignmentOf(const void *ptr) {
  auto address = reinterpret_cast<uintptr_t>(ptr);
  uint32_t alignment = 256;
  while (alignment > 4 && address % alignment)
    alignment /= 2;
  return alignment;
}

/// The plan of `key`, made at its first use (under ltMutex()).
const Plan &planFor(CuBLASLt &lt, const PlanKey &key) {
  static std::map<PlanKey, Plan> *plans = new std::map<PlanKey, Plan>();
  auto [it, inserted] = plans->try_emplace(key);
  Plan &plan = it->second;
  if (!inserted)
    return plan;
  checkStatus(lt, "cublasLtMatmulDescCreate",
              lt.descCreate(&plan.desc, computeType(lt.math), kRealF32));
  int32_t xOp = key.xOp, yOp = key.yOp;
  checkStatus(lt, "cublasLtMatmulDescSetAttribute",
              lt.descSetAttribute(plan.desc, kDescTransA, &xOp, sizeof(xOp)));
  checkStatus(lt, "cublasLtMatmulDescSetAttribute",
              lt.descSetAttribute(plan.desc, kDescTransB, &yOp, sizeof(yOp)));
  checkStatus(lt, "cublasLtMatmulDescSetAttribute",
              lt.descSetAttribute(plan.desc, kDescEpilogue, &key.epilogue,
                                  sizeof(key.epilogue)));
  // A layout is of the matrix as stored: op(X) is rows × k.
  auto stored = [](int op, int64_t r, int64_t c) {
    return op == kOpN ? std::pair<int64_t, int64_t>{r, c}
                      : std::pair<int64_t, int64_t>{c, r};
  };
  auto [xr, xc] = stored(key.xOp, key.rows, key.k);
  auto [yr, yc] = stored(key.yOp, key.k, key.cols);
  checkStatus(lt, "cublasLtMatrixLayoutCreate",
              lt.layoutCreate(&plan.x, kRealF32, xr, xc, key.xLd));
  checkStatus(lt, "cublasLtMatrixLayoutCreate",
              lt.layoutCreate(&plan.y, kRealF32, yr, yc, key.yLd));
  checkStatus(lt, "cublasLtMatrixLayoutCreate",
              lt.layoutCreate(&plan.d, kRealF32, key.rows, key.cols, key.dLd));
  cublasLtMatmulPreference_t preference = nullptr;
  checkStatus(lt, "cublasLtMatmulPreferenceCreate",
              lt.preferenceCreate(&preference));
  auto prefer = [&](int attribute, const void *value, size_t size) {
    checkStatus(lt, "cublasLtMatmulPreferenceSetAttribute",
                lt.preferenceSetAttribute(preference, attribute, value, size));
  };
  prefer(kPrefMaxWorkspaceBytes, &kWorkspaceBytes, sizeof(kWorkspaceBytes));
  prefer(kPrefMinAlignmentA, &key.xAlign, sizeof(key.xAlign));
  prefer(kPrefMinAlignmentB, &key.yAlign, sizeof(key.yAlign));
  prefer(kPrefMinAlignmentC, &key.dAlign, sizeof(key.dAlign));
  prefer(kPrefMinAlignmentD, &key.dAlign, sizeof(key.dAlign));
  HeuristicResult result{};
  int found = 0;
  checkStatus(lt, "cublasLtMatmulAlgoGetHeuristic",
              lt.heuristic(lt.handle, plan.desc, plan.x, plan.y, plan.d, plan.d,
                           preference, 1, &result, &found));
  lt.preferenceDestroy(preference);
  if (found < 1 || result.state != 0)
    fatal("cuBLASLt has no algorithm for a " + std::to_string(key.rows) + "x" +
          std::to_string(key.cols) + "x" + std::to_string(key.k) +
          " GEMM with epilogue " + std::to_string(key.epilogue));
  plan.algo = result.algo;
  plan.workspaceSize = result.workspaceSize;
  return plan;
}

/// The profiler's name for these calls: a key no CUfunction has.
CUfunction timingKey() {
  static char key;
  return reinterpret_cast<CUfunction>(&key);
}

} // namespace

/// C = epilogue(alpha · A · B + bias), epilogue 1: the bias alone, 2: a
/// ReLU after it; `bias` holds n floats, one per column of C. Strides and
/// batches as gopt_cuda_sgemm's; C row-major (unit column stride). On
/// `stream`, or (null) on cuBLASLt's own stream, waited for before
/// returning; on the capturing stream during a capture.
static void sgemmEpilogueOn(CUstream stream, int64_t batch, int64_t m,
                            int64_t n, int64_t k, float alpha, const float *a,
                            int64_t aBatch, int64_t aRow, int64_t aCol,
                            const float *b, int64_t bBatch, int64_t bRow,
                            int64_t bCol, float *c, int64_t cBatch,
                            int64_t cRow, int64_t cCol, const float *bias,
                            int32_t epilogue) {
  if (batch <= 0 || m <= 0 || n <= 0)
    return;
  if (epilogue != 1 && epilogue != 2)
    fatal("gopt_cuda_sgemm_epilogue: unknown epilogue " +
          std::to_string(epilogue));
  // Batches sharing B, rows one after the other: one GEMM.
  if (batch > 1) {
    if (!batchesAreRows(batch, m, aBatch, aRow, bBatch, cBatch, cRow))
      fatal("gopt_cuda_sgemm_epilogue: batches that are not one GEMM of "
            "batch·m rows; gopt-lower-to-nvvm should not have made this call");
    m *= batch;
  }
  // Cᵀ (n × m, column-major) = Bᵀ (n × k) · Aᵀ (k × m).
  Operand x, y, out;
  if (!rowMajorProduct(m, n, k, aRow, aCol, bRow, bCol, cRow, cCol, x, y, out))
    fatal("gopt_cuda_sgemm_epilogue: a matrix layout cuBLASLt cannot take "
          "(strides A " +
          std::to_string(aRow) + "x" + std::to_string(aCol) + ", B " +
          std::to_string(bRow) + "x" + std::to_string(bCol) + ", C " +
          std::to_string(cRow) + "x" + std::to_string(cCol) + ")");
  for (int64_t v : {n, m, k})
    if (!fitsInt(v))
      fatal("gopt_cuda_sgemm_epilogue: a GEMM too large for cuBLASLt");

  std::lock_guard<std::mutex> lock(ltMutex());
  CuBLASLt &lt = cublasLt();
  PlanKey key{n,
              m,
              k,
              x.op,
              y.op,
              x.ld,
              y.ld,
              out.ld,
              epilogue == 2 ? kEpilogueReluBias : kEpilogueBias,
              alignmentOf(b),
              alignmentOf(a),
              alignmentOf(c)};
  const Plan &plan = planFor(lt, key);
  checkStatus(
      lt, "cublasLtMatmulDescSetAttribute",
      lt.descSetAttribute(plan.desc, kDescBiasPointer, &bias, sizeof(bias)));
  auto [on, captured, wait] = callStream(stream, lt.stream);
  stream = on;
  noteFunctionName(timingKey(), "cublaslt_sgemm_epilogue");
  CUevent begin = captured ? nullptr : beginKernelTiming(stream);
  float beta = 0;
  checkStatus(lt, "cublasLtMatmul",
              lt.matmul(lt.handle, plan.desc, &alpha, b, plan.x, a, plan.y,
                        &beta, c, plan.d, c, plan.d, &plan.algo,
                        reinterpret_cast<void *>(lt.workspace),
                        plan.workspaceSize, stream));
  if (captured)
    return;
  endKernelTiming(timingKey(), stream, begin);
  if (wait)
    check("cuStreamSynchronize", driver().cuStreamSynchronize(stream));
}

extern "C" void gopt_cuda_sgemm_epilogue(
    int64_t batch, int64_t m, int64_t n, int64_t k, float alpha, const float *a,
    int64_t aBatch, int64_t aRow, int64_t aCol, const float *b, int64_t bBatch,
    int64_t bRow, int64_t bCol, float *c, int64_t cBatch, int64_t cRow,
    int64_t cCol, const float *bias, int32_t epilogue) {
  sgemmEpilogueOn(nullptr, batch, m, n, k, alpha, a, aBatch, aRow, aCol, b,
                  bBatch, bRow, bCol, c, cBatch, cRow, cCol, bias, epilogue);
}

/// gopt_cuda_sgemm_epilogue on `stream`, after the work already there,
/// without waiting (gopt-gpu-stream-library-calls).
extern "C" void gopt_cuda_sgemm_epilogue_async(
    CUstream stream, int64_t batch, int64_t m, int64_t n, int64_t k,
    float alpha, const float *a, int64_t aBatch, int64_t aRow, int64_t aCol,
    const float *b, int64_t bBatch, int64_t bRow, int64_t bCol, float *c,
    int64_t cBatch, int64_t cRow, int64_t cCol, const float *bias,
    int32_t epilogue) {
  if (!stream)
    fatal("gopt_cuda_sgemm_epilogue_async: no stream");
  sgemmEpilogueOn(stream, batch, m, n, k, alpha, a, aBatch, aRow, aCol, b,
                  bBatch, bRow, bCol, c, cBatch, cRow, cCol, bias, epilogue);
}
