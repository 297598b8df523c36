//===- Stages.h - Pipeline stages every target shares -----------*- C++ -*-===//
//
// The stages gopt-lower-to-llvm (CPU) and gopt-lower-to-nvvm (GPU) have in
// common, so both pipelines build them the same way (docs/Lowering.md,
// docs/GPU.md).
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_CODEGEN_COMMON_STAGES_H
#define GOPT_CODEGEN_COMMON_STAGES_H

namespace mlir {
class OpPassManager;
namespace gopt {

/// Appends the first stage to `pm` (anchored on `builtin.module`): every
/// kernel outlined into its own function (gopt-outline-kernels, with timer
/// calls when `kernelTimers`), then, nested on each function,
/// convert-gopt-to-linalg, convert-elementwise-to-linalg and canonicalize.
/// With `attentionKernels` each attention kernel gopt-fuse made becomes one
/// gopt.attention_kernel first (gopt-form-attention-kernels: the target
/// lowers it); without, it is split into the kernels of its parts
/// (gopt-split-attention-kernels) before outlining. With `sliceViews`,
/// the linears that read one input are one GEMM first
/// (gopt-merge-sibling-linears), a layer norm of a GEMM's epilogue joins
/// its kernel (gopt-fuse-gemm-layer-norms), and the slices a kernel reads
/// are moved into it (gopt-fuse-slice-inputs): views of its argument
/// instead of copy kernels. (The GPU's graph rewrites: one flag, as the
/// GPU pipeline is their one user.) With `deduplicateKernels`, kernels
/// that are the same function under different names are one function
/// (gopt-deduplicate-kernels), lowered and compiled once.
/// Returns that nested pass manager, where a target adds its own
/// tensor-level passes.
OpPassManager &addKernelsToLinalgStage(OpPassManager &pm, bool kernelTimers,
                                       bool attentionKernels,
                                       bool sliceViews = false,
                                       bool deduplicateKernels = true);

/// One-shot bufferization of the whole module, function boundaries
/// included, with identity-layout memrefs at those boundaries.
void addBufferizeStage(OpPassManager &pm);

/// Ownership-based deallocation (private kernels pass the ownership of
/// their results to the caller, so a reshape kernel returns a view), then
/// the remaining bufferization ops lowered to memref. With
/// `freeAfterLastUse`, gopt-dealloc-after-last-use frees each buffer after
/// its last use instead of at the end of its block.
void addDeallocationStage(OpPassManager &pm, bool freeAfterLastUse);

} // namespace gopt
} // namespace mlir

#endif // GOPT_CODEGEN_COMMON_STAGES_H
