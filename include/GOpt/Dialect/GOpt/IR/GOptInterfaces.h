//===- GOptInterfaces.h - Fusion-kind and cost interfaces -------*- C++ -*-===//

#ifndef GOPT_DIALECT_GOPT_IR_GOPTINTERFACES_H
#define GOPT_DIALECT_GOPT_IR_GOPTINTERFACES_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"

#include "GOpt/Dialect/GOpt/IR/GOptEnums.h.inc"

namespace mlir {
namespace gopt {

/// Number of elements of a statically shaped tensor; 1 for a non-tensor.
int64_t getNumElements(Type type);

/// Bytes of a statically shaped tensor (i1 counts one byte, as it is stored);
/// 0 for a non-tensor.
int64_t getTensorBytes(Type type);

} // namespace gopt
} // namespace mlir

#include "GOpt/Dialect/GOpt/IR/GOptInterfaces.h.inc"

#endif // GOPT_DIALECT_GOPT_IR_GOPTINTERFACES_H
