//===- Pipelines.h - Registered GOpt pass pipelines -------------*- C++ -*-===//

#ifndef GOPT_PIPELINES_PIPELINES_H
#define GOPT_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
namespace gopt {

/// Options of the default graph pipeline `gopt-optimize`:
/// fold, dce, cse, fuse, dce, each of which can be dropped.
struct OptimizePipelineOptions
    : public PassPipelineOptions<OptimizePipelineOptions> {
  Option<bool> fold{*this, "fold", llvm::cl::desc("Run gopt-fold"),
                    llvm::cl::init(true)};
  Option<bool> dce{*this, "dce", llvm::cl::desc("Run gopt-dce (both times)"),
                   llvm::cl::init(true)};
  Option<bool> cse{*this, "cse", llvm::cl::desc("Run upstream cse"),
                   llvm::cl::init(true)};
  Option<bool> fuse{*this, "fuse", llvm::cl::desc("Run gopt-fuse"),
                    llvm::cl::init(true)};
  Option<int64_t> maxFoldedElements{
      *this, "max-folded-elements",
      llvm::cl::desc("gopt-fold: largest non-splat constant to create"),
      llvm::cl::init(1 << 16)};
  Option<int64_t> maxGroupSize{
      *this, "max-group-size",
      llvm::cl::desc("gopt-fuse: largest number of ops in a group"),
      llvm::cl::init(64)};
};

/// Appends the default graph pipeline to `pm` (op-agnostic: it runs on
/// whatever op `pm` is anchored on).
void buildOptimizePipeline(OpPassManager &pm,
                           const OptimizePipelineOptions &options);

/// Options of the CPU pipeline `gopt-lower-to-llvm` (docs/Lowering.md).
struct LowerToLLVMOptions : public PassPipelineOptions<LowerToLLVMOptions> {
  Option<bool> kernelTimers{
      *this, "kernel-timers",
      llvm::cl::desc("Call gopt_kernel_begin/gopt_kernel_end(i64 id) around "
                     "each kernel"),
      llvm::cl::init(false)};
  ListOption<int64_t> tileSizes{
      *this, "tile-sizes",
      llvm::cl::desc("Tile sizes of each kernel's result op, per loop "
                     "dimension (default: 1 on the outer tileable dims, the "
                     "innermost parallel dim whole)")};
  Option<bool> vectorize{
      *this, "vectorize",
      llvm::cl::desc("Vectorize the linalg ops inside the tile loops"),
      llvm::cl::init(true)};
  Option<bool> approximateMath{
      *this, "approximate-math",
      llvm::cl::desc("Compute erf, tanh, exp and log with vectorizable "
                     "polynomials (gopt-approximate-math) instead of one "
                     "libm call per vector lane"),
      llvm::cl::init(true)};
  Option<bool> useGenericAllocFunctions{
      *this, "use-generic-alloc-functions",
      llvm::cl::desc("Allocate through _mlir_memref_to_llvm_alloc/free (the "
                     "runtime's tracking allocator) instead of malloc/free"),
      llvm::cl::init(true)};
};

/// Appends the CPU pipeline from gopt (optimized or not) to the LLVM
/// dialect to `pm`, which must be anchored on `builtin.module`: outline
/// kernels, convert-gopt-to-linalg, fuse each kernel into one loop nest,
/// vectorize, bufferize with ownership-based deallocation, lower to LLVM and
/// verify that only LLVM-dialect ops remain.
void buildLowerToLLVMPipeline(OpPassManager &pm,
                              const LowerToLLVMOptions &options);

/// Registers `gopt-optimize` and `gopt-lower-to-llvm` with the global
/// pipeline registry.
void registerPipelines();

} // namespace gopt
} // namespace mlir

#endif // GOPT_PIPELINES_PIPELINES_H
