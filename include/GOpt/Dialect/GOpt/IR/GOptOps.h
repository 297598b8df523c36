//===- GOptOps.h - GOpt operations ------------------------------*- C++ -*-===//

#ifndef GOPT_DIALECT_GOPT_IR_GOPTOPS_H
#define GOPT_DIALECT_GOPT_IR_GOPTOPS_H

#include "GOpt/Dialect/GOpt/IR/GOptDialect.h"
#include "GOpt/Dialect/GOpt/IR/GOptInterfaces.h"
#include "GOpt/Dialect/GOpt/IR/ShapeInference.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "GOpt/Dialect/GOpt/IR/GOptOps.h.inc"

#endif // GOPT_DIALECT_GOPT_IR_GOPTOPS_H
