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

#include "GOpt/Dialect/GOpt/IR/GOptDialect.h"
#include "GOpt/Support/BufferPlan.h"

namespace mlir {
namespace gopt {

/// Byte alignment of the buffers generated code allocates for its
/// intermediates (an entry function's arena, its offsets in the arena, a
/// kernel's out-parameters): a cache line, what vector loads and oneDNN
/// want.
inline constexpr int64_t kBufferAlignment = 64;

/// What gopt-deduplicate-kernels records on a kernel that replaced
/// identical ones: a dictionary from each replaced kernel's name to its id
/// (the runner lists them as kernels of their own, sharing its code).
inline constexpr llvm::StringLiteral kKernelCopiesAttrName =
    "gopt.kernel_copies";

/// What gopt-plan-buffers records on an entry function, and the runner
/// reads back from the lowered function: the arena's size in bytes, how
/// many buffers share it, the sum of their sizes and the most of those
/// bytes alive at once (the bound no arena beats).
inline constexpr llvm::StringLiteral kArenaBytesAttrName = "gopt.arena_bytes";
inline constexpr llvm::StringLiteral kPlannedBuffersAttrName =
    "gopt.planned_buffers";
inline constexpr llvm::StringLiteral kPlannedBytesAttrName =
    "gopt.planned_bytes";
inline constexpr llvm::StringLiteral kMostLiveBytesAttrName =
    "gopt.most_live_bytes";

/// The buffer plan gopt-plan-buffers recorded on `function` (a func.func
/// or, after lowering, an llvm.func); all zero where it recorded none.
BufferPlan getRecordedBufferPlan(Operation *function);

#define GEN_PASS_DECL
#include "GOpt/Codegen/Common/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "GOpt/Codegen/Common/Passes.h.inc"

} // namespace gopt
} // namespace mlir

#endif // GOPT_CODEGEN_COMMON_PASSES_H
