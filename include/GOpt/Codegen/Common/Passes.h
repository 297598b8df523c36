//===- Passes.h - Code generation passes of every target --------*- C++ -*-===//

#ifndef GOPT_CODEGEN_COMMON_PASSES_H
#define GOPT_CODEGEN_COMMON_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace gopt {

#define GEN_PASS_DECL
#include "GOpt/Codegen/Common/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "GOpt/Codegen/Common/Passes.h.inc"

} // namespace gopt
} // namespace mlir

#endif // GOPT_CODEGEN_COMMON_PASSES_H
