//===- LibraryContractions.h - Contractions computed by sgemm ---*- C++ -*-===//
//
// The library path for heavy contractions (docs/Lowering.md, "Contractions:
// library or codegen"): an f32 contraction `linalg.generic` that sgemm can
// compute is marked with `library_call = "gopt_sgemm"` on tensors
// (gopt-select-library-contractions; the marks are in
// include/GOpt/Codegen/Common/LibraryCalls.h); the tensor-level passes then
// leave it whole (no tiling, no fusion into it, no vectorization), the
// epilogue of its kernel writes in place into its result, and after
// bufferization
// gopt-lower-library-contractions replaces it with a call of the runtime's
// `gopt_sgemm` (lib/Runtime/Blas.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_CODEGEN_COMMON_LIBRARYCONTRACTIONS_H
#define GOPT_CODEGEN_COMMON_LIBRARYCONTRACTIONS_H

#include "GOpt/Codegen/Common/LibraryCalls.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir {
class RewritePatternSet;
namespace gopt {

/// Loop roles of a contraction `C[batch…, m, n] += alpha · A[…, m, k] ·
/// B[…, k, n]` (A and B may hold their two matrix dims in either order and
/// any subset of the batch dims; the result holds every batch dim and m in
/// any order, n last: a GEMM writing a transposed result through strides).
struct SgemmLoops {
  SmallVector<unsigned> batch;
  unsigned m = 0, n = 0, k = 0;
  /// The constant the body multiplies A's or B's element (or the product)
  /// by: `out + (a * alpha) * b` (gopt-fold-scaling-into-contractions).
  float alpha = 1.0f;
};

/// The loop roles of `op` when sgemm can compute it: f32 operands, one
/// reduction loop, a multiply-accumulate body (an element or the product
/// possibly scaled by constants, which make alpha), projected-permutation
/// maps, the result's innermost dim (n) read by B alone and one other of
/// its dims (m) by A alone. Otherwise none (the codegen path keeps it).
std::optional<SgemmLoops> matchSgemmContraction(linalg::GenericOp op);

/// Whether each operand of a contraction with loop roles `loops`, read
/// through `maps` (A, B, C), has one of its two matrix dims innermost (A: m
/// or k, B: k or n, C: n), so that on row-major buffers one of its matrix
/// strides is 1, as a GEMM library needs.
bool hasGemmLayouts(ArrayRef<AffineMap> maps, const SgemmLoops &loops);

/// Marks every f32 contraction generic sgemm can compute
/// (matchSgemmContraction) with `library_call = "gopt_sgemm"`, and every
/// f32 convolution (`linalg.conv_2d_nchw_fchw`, or a grouped one:
/// a generic with `gopt.grouped_conv2d`) for `gopt_conv2d`, and every f32
/// `linalg.pooling_nchw_max` / `_sum` for `gopt_pool2d` (unless
/// `windowedOps` is false). A contraction is marked only when each operand's
/// innermost dim is one of its two matrix dims (a GEMM library takes no
/// other layout) and, when its operands are row-major (A's innermost dim k,
/// B's n), each of its GEMMs does at least `minFlops` FLOPs (2·m·n·k;
/// static sizes, gemmFlops): smaller ones stay generated loops.
void populateSelectLibraryContractionsPatterns(RewritePatternSet &patterns,
                                               bool windowedOps = true,
                                               int64_t minFlops = 0);

/// The FLOPs of one GEMM of the contraction `op` with loop roles `loops`
/// (2·m·n·k, batches apart), or none when a size is dynamic.
std::optional<int64_t> gemmFlops(linalg::GenericOp op, const SgemmLoops &loops);

/// Replaces marked contractions on memrefs by a call of
/// `sgemmCallee` (`gopt_sgemm` on the CPU, `gopt_cuda_sgemm` on the GPU, same
/// signature) `(batch, m, n, k, alpha, a, aBatch, aRow, aCol, b, …, beta, c,
/// …)` (raw pointers and element strides), declaring the function where
/// needed; a zero `linalg.fill` of the result just before the contraction
/// becomes `beta = 0`. Marked convolutions on contiguous static buffers
/// become a call of `gopt_conv2d(sizes…, strides, dilations, groups, input,
/// weight, constantWeight, beta, output)`; `constantWeight` is 1 when the
/// weight is a function argument marked `gopt.weight`. Marked poolings whose
/// output is filled just before (−∞ for max, 0 for sum) become a call of
/// `gopt_pool2d(kind, sizes…, strides, dilations, input, output)`, the fill
/// dropped. With `sgemmEpilogueCallee`, a zero-initialized contraction
/// followed by an epilogue marked for it (kSgemmEpilogueLibraryCall)
/// becomes one call of that function (gopt_cuda_sgemm_epilogue: gopt_sgemm's
/// arguments without beta, then the bias and the epilogue's code), the
/// epilogue erased; without, or when the call cannot take it, the epilogue
/// loses its mark.
void populateLowerLibraryContractionsPatterns(
    RewritePatternSet &patterns, StringRef sgemmCallee = kSgemmLibraryCall,
    StringRef sgemmEpilogueCallee = "");

} // namespace gopt
} // namespace mlir

#endif // GOPT_CODEGEN_COMMON_LIBRARYCONTRACTIONS_H
