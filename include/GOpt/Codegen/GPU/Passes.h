//===- Passes.h - GOpt GPU code generation passes ---------------*- C++ -*-===//

#ifndef GOPT_CODEGEN_GPU_PASSES_H
#define GOPT_CODEGEN_GPU_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace gopt {

#define GEN_PASS_DECL
#include "GOpt/Codegen/GPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "GOpt/Codegen/GPU/Passes.h.inc"

/// The discardable attribute gopt-gpu-stage-constants puts on the copies
/// from host globals into device buffers.
inline constexpr llvm::StringLiteral kHostToDeviceAttrName =
    "gopt.host_to_device";

/// Whether `op` is host code: not inside a gpu.module or a gpu.launch.
bool isHostCode(Operation *op);

} // namespace gopt
} // namespace mlir

#endif // GOPT_CODEGEN_GPU_PASSES_H
