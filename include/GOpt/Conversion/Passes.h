//===- Passes.h - GOpt conversion passes ------------------------*- C++ -*-===//

#ifndef GOPT_CONVERSION_PASSES_H
#define GOPT_CONVERSION_PASSES_H

#include "GOpt/Conversion/GOptToLinalg/GOptToLinalg.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace gopt {

#define GEN_PASS_DECL
#include "GOpt/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "GOpt/Conversion/Passes.h.inc"

} // namespace gopt
} // namespace mlir

#endif // GOPT_CONVERSION_PASSES_H
