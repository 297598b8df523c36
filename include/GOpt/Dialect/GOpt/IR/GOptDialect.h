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

#endif // GOPT_DIALECT_GOPT_IR_GOPTDIALECT_H
