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

/// The discardable attribute gopt-gpu-emulate-launches puts on each
/// function whose launches it emulated: one string per launch, in program
/// order, saying what it ran ("5 blocks of 256 threads (1200 B shared, 6
/// barriers, 2 block reductions)").
inline constexpr llvm::StringLiteral kEmulatedLaunchesAttrName =
    "gopt.emulated_launches";

/// Whether `op` is host code: not inside a gpu.module or a gpu.launch.
bool isHostCode(Operation *op);

} // namespace gopt
} // namespace mlir

#endif // GOPT_CODEGEN_GPU_PASSES_H
