//===- Pipeline.h - The GPU pipeline gopt-lower-to-nvvm ---------*- C++ -*-===//
//
// From gopt IR (optimized or not) to the LLVM dialect for the host and a
// gpu.binary for NVIDIA GPUs: outline kernels, lower to linalg, one loop
// nest per kernel, bufferize, one gpu.launch per kernel on device buffers,
// then MLIR's GPU/NVVM pipeline (NVVM, PTX, cubin through ptxas).
// docs/GPU.md describes the stages; the passes are declared in Passes.td
// beside this.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_CODEGEN_GPU_PIPELINE_H
#define GOPT_CODEGEN_GPU_PIPELINE_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
namespace gopt {

/// What `gopt-lower-to-nvvm` puts in each gpu.binary.
enum class GPUBinaryFormat { Auto, Bin, Isa, Fatbin, Llvm };

/// Options of the GPU pipeline `gopt-lower-to-nvvm` (docs/GPU.md).
struct LowerToNVVMOptions : public PassPipelineOptions<LowerToNVVMOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("Target GPU architecture (sm_XX)"),
                           llvm::cl::init("sm_90")};
  Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX features (the PTX ISA version, +ptxXX)"),
      llvm::cl::init("+ptx80")};
  Option<int> optLevel{*this, "opt-level",
                       llvm::cl::desc("LLVM optimization level of the device "
                                      "code (0 to 3)"),
                       llvm::cl::init(3)};
  Option<GPUBinaryFormat> format{
      *this, "format",
      llvm::cl::desc("What the gpu.binary holds"),
      llvm::cl::init(GPUBinaryFormat::Auto),
      llvm::cl::values(
          clEnumValN(GPUBinaryFormat::Auto, "auto",
                     "bin when a CUDA toolkit (ptxas, libdevice) is found, isa otherwise"),
          clEnumValN(GPUBinaryFormat::Bin, "bin", "cubin made by ptxas"),
          clEnumValN(GPUBinaryFormat::Isa, "isa", "PTX text"),
          clEnumValN(GPUBinaryFormat::Fatbin, "fatbin",
                     "cubin and PTX (needs ptxas and fatbinary)"),
          clEnumValN(GPUBinaryFormat::Llvm, "llvm", "NVVM LLVM IR"))};
  Option<int64_t> blockSize{*this, "block-size",
                            llvm::cl::desc("Threads per block of every kernel "
                                           "launch (1 to 1024)"),
                            llvm::cl::init(256)};
  Option<int64_t> elementsPerThread{
      *this, "elements-per-thread",
      llvm::cl::desc("Elements each thread of an elementwise kernel computes "
                     "when the element count is a multiple of it times the "
                     "block size, its loads issued together "
                     "(gopt-gpu-hoist-loads); 1: one each"),
      llvm::cl::init(1)};
  Option<bool> cublasltEpilogues{
      *this, "cublaslt-epilogues",
      llvm::cl::desc("A contraction followed by a bias along its result's "
                     "last dim, or a bias and a ReLU, is one cuBLASLt call "
                     "that applies them (gopt_cuda_sgemm_epilogue) instead "
                     "of a cuBLAS call and a launch"),
      llvm::cl::init(false)};
  Option<bool> convolutionsAsGemm{
      *this, "conv-gemm",
      llvm::cl::desc("An ungrouped f32 convolution is an im2col launch and a "
                     "cuBLAS GEMM (gopt-convolutions-to-gemm) instead of one "
                     "dot product per output element"),
      llvm::cl::init(false)};
  Option<bool> streamLibraryCalls{
      *this, "stream-library-calls",
      llvm::cl::desc("Library GEMMs go on the stream of the launches around "
                     "them (gopt-gpu-stream-library-calls): the host waits "
                     "once per call; false: before and after each GEMM"),
      llvm::cl::init(true)};
  Option<bool> deduplicateKernels{
      *this, "dedup-kernels",
      llvm::cl::desc("Kernels that are the same function under different "
                     "names (a network's repeated blocks) are one function "
                     "(gopt-deduplicate-kernels), compiled once and "
                     "launched from each call"),
      llvm::cl::init(true)};
  Option<bool> emulate{
      *this, "emulate",
      llvm::cl::desc("Host code only, for checking the GPU mapping without a "
                     "GPU: the kernels mapped as for the device, then each "
                     "gpu.launch run on the host thread after thread "
                     "(gopt-gpu-emulate-launches), the GEMMs the CPU's "
                     "library calls, lowered as the CPU pipeline lowers host "
                     "code: no device code, not for timing"),
      llvm::cl::init(false)};
  Option<bool> emulateCheckBounds{
      *this, "emulate-check-bounds",
      llvm::cl::desc("With emulate: every load, store and view is checked "
                     "against its buffer's bounds as it runs "
                     "(generate-runtime-verification); an access out of "
                     "bounds stops the run naming the op"),
      llvm::cl::init(true)};
  Option<bool> emulateReverseThreads{
      *this, "emulate-reverse-threads",
      llvm::cl::desc("With emulate: each stretch between barriers runs its "
                     "threads from the last to the first (a missing barrier "
                     "changes the result in one of the orders)"),
      llvm::cl::init(false)};
};

/// Appends the GPU pipeline from gopt to the LLVM dialect and a gpu.binary
/// to `pm`, which must be anchored on `builtin.module`. The entry
/// functions take and return device buffers. With `emulate`, the LLVM
/// dialect of host code only, which takes and returns host buffers and runs
/// on the CPU (the kernels as host loops, GEMMs through the CPU runtime).
void buildLowerToNVVMPipeline(OpPassManager &pm,
                              const LowerToNVVMOptions &options);

/// The CUDA toolkit's root: the first of $CUDA_HOME, $CUDA_ROOT, $CUDA_PATH,
/// the folder above the real path of the `ptxas` on PATH, and
/// /usr/local/cuda that has both bin/ptxas and
/// nvvm/libdevice/libdevice.10.bc; empty when none has.
std::string findCUDAToolkit();

/// Registers `gopt-lower-to-nvvm` with the global pipeline registry.
void registerLowerToNVVMPipeline();

} // namespace gopt
} // namespace mlir

#endif // GOPT_CODEGEN_GPU_PIPELINE_H
