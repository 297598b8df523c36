//===- PostOps.h - Steps a library convolution applies ----------*- C++ -*-===//
//
// The ABI between the compiler and the runtime for the epilogue a library
// convolution applies to its output as it writes it (oneDNN's post-ops): a
// chain of steps, each one of the kinds below with two float parameters
// and, for the binary kinds, one operand vector. gopt-lower-library-
// contractions recognizes such a chain in the elementwise kernel that
// follows a channels-last convolution (lib/Codegen/Common/
// ConvolutionEpilogue.cpp) and passes it to gopt_conv2d_nhwc, which hands
// it to oneDNN or, where oneDNN declines, applies it itself
// (lib/Runtime/Conv.cpp). Header only: both sides include it.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_RUNTIME_POSTOPS_H
#define GOPT_RUNTIME_POSTOPS_H

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace mlir {
namespace gopt {
namespace runtime {

/// One step y = step(x) of the chain, x the value so far (first the
/// convolution's result, plus the output's old value when it accumulates).
enum class PostOpKind : int64_t {
  /// alpha·x + beta.
  Linear = 0,
  /// min(max(x, alpha), beta).
  Clip = 1,
  /// 1 / (1 + exp(-x)).
  Logistic = 2,
  /// x / (1 + exp(-alpha·x)) (SiLU for alpha 1).
  Swish = 3,
  /// alpha · x · min(max(x/6 + 1/2, 0), 1).
  HardSwish = 4,
  /// tanh(x).
  Tanh = 5,
  /// x + operand[channel], x · operand[channel]: a vector of one value per
  /// output channel. (Operands of the output's shape, a residual, are not
  /// steps: oneDNN 2.6 applies them only in its slow GEMM-based
  /// convolution, with the activations reordered to NCHW and back.)
  AddChannel = 16,
  MulChannel = 17,
};

/// Whether steps of `kind` read an operand buffer.
inline bool isBinary(PostOpKind kind) {
  return static_cast<int64_t>(kind) >=
         static_cast<int64_t>(PostOpKind::AddChannel);
}

/// One step by its definition: x after a step of `kind` with parameters
/// `alpha`, `beta` and, for the binary kinds, the operand's value
/// `operand` (what the runtime's plain loops compute, and the tests'
/// reference for oneDNN's post-ops).
inline float applyPostOp(PostOpKind kind, float alpha, float beta, float x,
                         float operand) {
  switch (kind) {
  case PostOpKind::Linear:
    return alpha * x + beta;
  case PostOpKind::Clip:
    return std::min(std::max(x, alpha), beta);
  case PostOpKind::Logistic:
    return 1.0f / (1.0f + std::exp(-x));
  case PostOpKind::Swish:
    return x / (1.0f + std::exp(-alpha * x));
  case PostOpKind::HardSwish:
    return alpha * x * std::min(std::max(x / 6.0f + 0.5f, 0.0f), 1.0f);
  case PostOpKind::Tanh:
    return std::tanh(x);
  case PostOpKind::AddChannel:
    return x + operand;
  case PostOpKind::MulChannel:
    return x * operand;
  }
  return x;
}

/// Whether `kind` is one of the kinds above (the value arrives as an
/// int64_t from compiled code).
inline bool isKnownPostOpKind(int64_t kind) {
  return (kind >= 0 && kind <= 5) || kind == 16 || kind == 17;
}

} // namespace runtime
} // namespace gopt
} // namespace mlir

#endif // GOPT_RUNTIME_POSTOPS_H
