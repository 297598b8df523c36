//===- Pipeline.cpp - The GPU pipeline gopt-lower-to-nvvm -----------------===//

#include "GOpt/Codegen/GPU/Pipeline.h"
#include "GOpt/Codegen/CPU/Pipeline.h"
#include "GOpt/Codegen/Common/Passes.h"
#include "GOpt/Codegen/Common/Stages.h"
#include "GOpt/Codegen/GPU/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <cstdlib>

using namespace mlir;

/// Whether `root` is a CUDA toolkit gpu-module-to-binary can use: it runs
/// <root>/bin/ptxas and links <root>/nvvm/libdevice/libdevice.10.bc.
static bool isCompleteCUDAToolkit(StringRef root) {
  if (root.empty())
    return false;
  SmallString<128> ptxas(root), libdevice(root);
  llvm::sys::path::append(ptxas, "bin", "ptxas");
  llvm::sys::path::append(libdevice, "nvvm", "libdevice", "libdevice.10.bc");
  return llvm::sys::fs::can_execute(ptxas) &&
         llvm::sys::fs::is_regular_file(libdevice);
}

std::string mlir::gopt::findCUDAToolkit() {
  SmallVector<std::string> candidates;
  for (const char *name : {"CUDA_HOME", "CUDA_ROOT", "CUDA_PATH"})
    if (const char *value = std::getenv(name); value && *value)
      candidates.push_back(value);
  // The `ptxas` on PATH may be a link or a wrapper script outside the
  // toolkit (/usr/local/bin/ptxas running /usr/local/cuda-13.0/bin/ptxas):
  // its real path is tried, and a folder without libdevice is passed over.
  if (llvm::ErrorOr<std::string> ptxas = llvm::sys::findProgramByName("ptxas")) {
    SmallString<256> real;
    if (!llvm::sys::fs::real_path(*ptxas, real))
      candidates.push_back(
          llvm::sys::path::parent_path(llvm::sys::path::parent_path(real))
              .str());
  }
  candidates.push_back("/usr/local/cuda");
  for (const std::string &root : candidates)
    if (isCompleteCUDAToolkit(root))
      return root;
  return "";
}

/// The compilation target of gpu-module-to-binary for `format`.
static std::string binaryTarget(gopt::GPUBinaryFormat format,
                                StringRef toolkit) {
  switch (format) {
  case gopt::GPUBinaryFormat::Auto:
    return isCompleteCUDAToolkit(toolkit) ? "bin" : "isa";
  case gopt::GPUBinaryFormat::Bin:
    return "bin";
  case gopt::GPUBinaryFormat::Isa:
    return "isa";
  case gopt::GPUBinaryFormat::Fatbin:
    return "fatbin";
  case gopt::GPUBinaryFormat::Llvm:
    return "llvm";
  }
  llvm_unreachable("unknown GPU binary format");
}

void mlir::gopt::buildLowerToNVVMPipeline(
    OpPassManager &pm, const gopt::LowerToNVVMOptions &options) {
  // Kernels: one function each, lowered to linalg, one tile loop nest each
  // whose iterations (one output element, or one row where a reduction is
  // broadcast back) are independent: one thread each.
  // Linears of one input are one GEMM (Q, K and V projected apart), and the
  // slices a kernel reads are views inside it (the Q, K, V of an exported
  // attention layer: strided GEMM operands, not copy launches).
  OpPassManager &toLinalg =
      addKernelsToLinalgStage(pm, /*kernelTimers=*/false,
                              /*attentionKernels=*/false,
                              /*sliceViews=*/true, options.deduplicateKernels);
  // Library path: f32 contractions stay whole and become cuBLAS calls
  // (gopt_cuda_sgemm) after bufferization; their kernels' epilogues are
  // the launch, or with cublaslt-epilogues, a bias (and a ReLU) applied by
  // one cuBLASLt call (gopt_cuda_sgemm_epilogue).
  // With conv-gemm, ungrouped convolutions too: an im2col launch and a GEMM.
  if (options.convolutionsAsGemm)
    toLinalg.addPass(createGOptConvolutionsToGemm());
  GOptSelectLibraryContractionsOptions select;
  select.windowedOps = false;
  toLinalg.addPass(createGOptSelectLibraryContractions(select));
  GOptFuseKernelLoopsOptions loops;
  loops.tileSizes = {1};
  loops.parallelTileLoops = true;
  loops.gemmEpilogues = options.cublasltEpilogues;
  pm.addPass(createGOptFuseKernelLoops(loops));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  // Buffers; constants copied to the device; deallocation; one launch per
  // loop nest (and per copy the deallocation placed); host buffers in device
  // memory.
  addBufferizeStage(pm);
  pm.addPass(createGOptGPUStageConstants());
  pm.addNestedPass<func::FuncOp>(createForallToParallelLoopPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // Buffers stay until the end of their block: kernels and cuBLAS run
  // asynchronously, and freeing after the last launch is not yet checked
  // against the pool's reuse on a device.
  addDeallocationStage(pm, /*freeAfterLastUse=*/false);
  // Emulated: the CPU runtime's GEMMs, of the same signatures on host
  // pointers.
  GOptLowerLibraryContractionsOptions library;
  library.sgemmCallee = options.emulate ? "gopt_sgemm" : "gopt_cuda_sgemm";
  if (options.cublasltEpilogues)
    library.sgemmEpilogueCallee =
        options.emulate ? "gopt_sgemm_epilogue" : "gopt_cuda_sgemm_epilogue";
  pm.addPass(createGOptLowerLibraryContractions(library));
  GOptGPUMapKernelsOptions map;
  map.blockSize = options.blockSize;
  map.elementsPerThreadOption = options.elementsPerThread;
  pm.addPass(createGOptGPUMapKernels(map));
  if (!options.emulate)
    pm.addPass(createGOptGPUDeviceBuffers());
  OpPassManager &scalar = pm.nest<func::FuncOp>();
  scalar.addPass(createConvertLinalgToLoopsPass());
  scalar.addPass(createLowerAffinePass());
  scalar.addPass(createCanonicalizerPass());
  scalar.addPass(createCSEPass());
  // Several elements per thread: their loads issued together.
  if (options.elementsPerThread > 1)
    pm.addPass(createGOptGPUHoistLoads());
  // Emulated: the launches as host loops, and host code as the CPU
  // pipeline makes it.
  if (options.emulate) {
    GOptGPUEmulateLaunchesOptions emulate;
    emulate.reverseThreads = options.emulateReverseThreads;
    pm.addPass(createGOptGPUEmulateLaunches(emulate));
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
    // Out-of-bounds accesses, which the device would not report (or would
    // report as a fault at some later call), stop the run at the op.
    if (options.emulateCheckBounds)
      pm.addPass(createGenerateRuntimeVerificationPass());
    addLowerToHostLLVMStage(pm, /*useGenericAllocFunctions=*/true);
    return;
  }
  pm.addPass(createGOptEmitCInterface());
  // Integer powers become generated functions, which kernel outlining
  // copies into the kernels' modules.
  pm.addPass(createConvertMathToFuncs());

  // MLIR's GPU/NVVM path: kernels outlined into a gpu.module, the host to
  // the LLVM dialect with runtime calls, the device to NVVM, then a binary.
  // Constants and index arithmetic the launches use are computed inside
  // them (static extents become immediates: a division by one is a shift
  // or a multiplication, not a 64-bit division by a kernel argument).
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  // The kernel functions (their launches named after them now) inlined
  // into their callers: one stream per entry function, which waits for its
  // work once, before returning, instead of once per kernel. Calls of the
  // runtime (gopt_cuda_sgemm) still wait for the work before them.
  pm.addPass(createInlinerPass());
  // Allocations, copies and launches on one stream per function, which
  // waits for its work before returning (the runtime calls need it).
  pm.addNestedPass<func::FuncOp>(createGpuAsyncRegionPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = options.features;
  target.optLevel = options.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(target));
  pm.addPass(createLowerAffinePass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createStripDebugInfoPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps());
  pm.addNestedPass<gpu::GPUModuleOp>(createCanonicalizerPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createCSEPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createReconcileUnrealizedCastsPass());
  pm.addPass(createGpuToLLVMConversionPass());
  // Library GEMMs on the stream of the launches around them: the host
  // waits once per entry call instead of twice per GEMM.
  if (options.streamLibraryCalls)
    pm.addPass(createGOptGPUStreamLibraryCalls());
  // Modules of launches that folded away after outlining: no binary.
  pm.addPass(createGOptGPUDropUnlaunchedModules());
  GpuModuleToBinaryPassOptions binary;
  binary.toolkitPath = findCUDAToolkit();
  binary.compilationTarget = binaryTarget(options.format, binary.toolkitPath);
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  GOptVerifyLLVMLoweredOptions check;
  check.pipeline = "gopt-lower-to-nvvm";
  check.gpuHost = true;
  pm.addPass(createGOptVerifyLLVMLowered(check));
}

void mlir::gopt::registerLowerToNVVMPipeline() {
  PassPipelineRegistration<gopt::LowerToNVVMOptions>(
      "gopt-lower-to-nvvm",
      "GPU pipeline from gopt to the LLVM dialect and a gpu.binary for "
      "NVIDIA GPUs: outline kernels, lower to linalg, one loop nest and one "
      "gpu.launch per kernel on device buffers, NVVM, PTX, cubin",
      buildLowerToNVVMPipeline);
}
