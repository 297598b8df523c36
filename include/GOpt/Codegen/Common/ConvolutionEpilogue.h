//===- ConvolutionEpilogue.h - Epilogues a convolution applies --*- C++ -*-===//
//
// Which elementwise kernels after a channels-last library convolution the
// runtime's convolution applies as it writes its output (oneDNN's post-ops,
// include/GOpt/Runtime/PostOps.h): a `linalg.generic` whose payload is a
// chain of steps from the convolution's value, each a linear map, a clip
// (ReLU, ReLU6), a sigmoid, SiLU, hardswish, tanh, or an addition or
// multiplication by a per-channel vector (a bias, a folded batch norm).
//
// On the GPU, a bias, or a bias and a ReLU, after a library GEMM is what
// cuBLASLt applies in the GEMM (gopt-fuse-kernel-loops{gemm-epilogues}, the
// mark `gopt_sgemm_epilogue`, gopt_cuda_sgemm_epilogue).
//
// gopt-fuse-kernel-loops{convolution-epilogues} marks such a generic (when
// isWorthApplyingInConvolution), once it writes in place into the
// convolution's result, with
// `gopt.library_call = "gopt_conv2d_epilogue"` (LibraryCalls.h: no pass
// tiles or vectorizes it), and gopt-lower-library-contractions passes its
// steps to gopt_conv2d_nhwc and erases it.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_CODEGEN_COMMON_CONVOLUTIONEPILOGUE_H
#define GOPT_CODEGEN_COMMON_CONVOLUTIONEPILOGUE_H

#include "GOpt/Runtime/PostOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>

namespace mlir {
namespace gopt {

/// One step of an epilogue (PostOps.h for the kinds and parameters).
struct EpilogueStep {
  runtime::PostOpKind kind;
  float alpha = 0.0f, beta = 0.0f;
  /// The generic's operand a binary step reads; null for the others.
  OpOperand *operand = nullptr;
};

/// The steps by which `op`, an all-parallel f32 generic with one 4-D
/// identity-mapped result, computes each element from the value of its
/// operand `convolutionResult` (an input, or the init it overwrites) at the
/// same indices; none when its payload is anything else, or another operand
/// is read other than per channel (the innermost dim).
std::optional<SmallVector<EpilogueStep>>
matchConvolutionEpilogue(linalg::GenericOp op, OpOperand *convolutionResult);

/// matchConvolutionEpilogue for a result of any rank, its channel the
/// innermost dim: also what a GEMM's epilogue is, the channel its n.
std::optional<SmallVector<EpilogueStep>>
matchChannelEpilogue(linalg::GenericOp op, OpOperand *result);

/// The epilogue gopt_cuda_sgemm_epilogue (cuBLASLt) applies for `steps`:
/// 1 for a bias (one AddChannel step), 2 for a bias then a ReLU (Clip(0,
/// inf)); none for any other chain.
std::optional<int32_t> getGemmEpilogueCode(ArrayRef<EpilogueStep> steps);

/// Whether the convolution should apply `steps` rather than the generated
/// loops after it: only when every step is a cheap one (linear, clip,
/// hardswish, per-channel). oneDNN 2.6's post-op sigmoid and SiLU made
/// EfficientNet-B0's early 1x1 and depthwise convolutions 1.1-1.65x slower
/// than the convolution followed by the vectorized loop (one thread, AVX-512),
/// so chains with a sigmoid, SiLU or tanh stay generated.
bool isWorthApplyingInConvolution(ArrayRef<EpilogueStep> steps);

} // namespace gopt
} // namespace mlir

#endif // GOPT_CODEGEN_COMMON_CONVOLUTIONEPILOGUE_H
