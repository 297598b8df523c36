//===- GOptDialect.h - GOpt dialect -----------------------------*- C++ -*-===//
//
// The gopt tensor-graph dialect (docs/Dialect.md).
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_DIALECT_GOPT_IR_GOPTDIALECT_H
#define GOPT_DIALECT_GOPT_IR_GOPTDIALECT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Dialect.h"

#include "GOpt/Dialect/GOpt/IR/GOptOpsDialect.h.inc"

namespace mlir {
namespace gopt {

/// Unit attribute on a function argument that holds a constant (a weight
/// the caller hands in; docs/Dialect.md, "Attributes"): its contents do not
/// change while the program runs, so code generation may keep what it
/// derives from them (a reordered copy).
inline constexpr llvm::StringLiteral kWeightArgAttrName = "gopt.weight";

} // namespace gopt
} // namespace mlir

#endif // GOPT_DIALECT_GOPT_IR_GOPTDIALECT_H
