//===- CompiledGraphCUDA.cpp - Compile a gopt graph for NVIDIA GPUs -------===//
//
// Target::CUDA: gopt-lower-to-nvvm, then the host code (with the kernels'
// cubins inside) translated to LLVM IR and compiled into an object that is
// position-independent and for any x86-64 CPU, so it can be linked into a
// shared library and run on another machine (exportBundle). Nothing here
// needs a GPU: the code is compiled, not initialized (its constructors load
// the kernels onto the device when the bundle's library is loaded).
//
//===----------------------------------------------------------------------===//

#include "DiagnosticCollector.h"
#include "GOpt/Codegen/GPU/Pipeline.h"
#include "GOpt/Deploy/Bundle.h"
#include "GOpt/Runner/LocalBundle.h"
#include "GOpt/Runner/Runner.h"
#include "GOpt/Runtime/CUDA.h"
#include "GOpt/Support/Error.h"
#include "GOpt/Support/Timing.h"
#include "GOpt/Version.h"
#include "NativeTarget.h"
#include "ObjectCode.h"
#include "PipelineRun.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/TargetParser/Host.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::gopt;

namespace {

/// The system's C compiler driver, which links the bundle's library: $CC,
/// else cc, gcc or clang on PATH.
std::string findLinker() {
  if (const char *cc = std::getenv("CC"); cc && *cc)
    if (auto path = llvm::sys::findProgramByName(cc))
      return *path;
  for (const char *name : {"cc", "gcc", "clang"})
    if (auto path = llvm::sys::findProgramByName(name))
      return *path;
  return "";
}

std::string tensorElementName(Type type) {
  auto kind = getElementKind(cast<RankedTensorType>(type).getElementType());
  return getElementKindName(*kind).str();
}

} // namespace

llvm::Expected<std::unique_ptr<CompiledGraph>>
CompiledGraph::compileForCUDA(std::unique_ptr<CompiledGraph> graph,
                              OwningOpRef<ModuleOp> module,
                              const CompileOptions &options) {
  MLIRContext *context = module->getContext();
  auto lowering = LowerToNVVMOptions::createFromString(options.nvvmOptions);
  if (!lowering)
    return makeError("bad gopt-lower-to-nvvm options '" + options.nvvmOptions +
                     "'");
  graph->chip = lowering->chip;
  {
    PassManager pm(context, ModuleOp::getOperationName());
    if (options.passTiming)
      pm.enableTiming();
    buildLowerToNVVMPipeline(pm, *lowering);
    double start = nowMs();
    if (llvm::Error e = runPipeline(pm, *module, options.verifyEachPass,
                                    "lowering to NVVM failed"))
      return std::move(e);
    graph->times.loweringMs = nowMs() - start;
  }
  // One kernel per launch site and per library GEMM call, in program order
  // (a cuBLAS call is a kernel the graph runs too; its time is reported
  // under the name the runtime's profiler gives it).
  // A module launched from several sites (kernels gopt-deduplicate-kernels
  // merged) is compiled once: the later sites run the first one's code.
  int64_t id = 0;
  llvm::StringMap<int64_t> firstLaunch;
  module->walk([&](Operation *op) {
    if (auto launch = dyn_cast<gpu::LaunchFuncOp>(op)) {
      KernelInfo kernel{id++, launch.getKernelModuleName().str()};
      auto [first, inserted] = firstLaunch.try_emplace(kernel.name, kernel.id);
      if (!inserted)
        kernel.sameCodeAs = first->second;
      graph->kernels.push_back(std::move(kernel));
    } else if (auto call = dyn_cast<LLVM::CallOp>(op);
               call && call.getCallee()) {
      // On the launches' stream or not (gopt-gpu-stream-library-calls).
      StringRef callee = *call.getCallee();
      callee.consume_back("_async");
      if (callee == "gopt_cuda_sgemm")
        graph->kernels.push_back({id++, "cublas_sgemm", /*library=*/true});
      else if (callee == "gopt_cuda_sgemm_epilogue")
        graph->kernels.push_back(
            {id++, "cublaslt_sgemm_epilogue", /*library=*/true});
    }
  });

  // The packed entry a runner calls: void(void **args).
  if (failed(addPackedEntry(*module, "_mlir_ciface_" + graph->entry)))
    return makeError("@" + graph->entry + " has no C interface after "
                     "lowering (gopt-emit-c-interface)");

  // Host code: position-independent, for any x86-64 CPU (the bundle may run
  // on another machine), at O3. The object is emitted here rather than by
  // the ExecutionEngine, whose JIT turns the module's constructors (they
  // load the kernels) into symbols of its own: a shared library runs them
  // only from .init_array.
  initializeNativeTarget();
  registerBuiltinDialectTranslation(*context);
  registerLLVMDialectTranslation(*context);
  registerGPUDialectTranslation(*context);
  double start = nowMs();
  llvm::orc::JITTargetMachineBuilder builder(
      llvm::Triple(llvm::sys::getProcessTriple()));
  builder.setCPU("x86-64");
  builder.setRelocationModel(llvm::Reloc::PIC_);
  builder.setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  auto tm = builder.createTargetMachine();
  if (!tm)
    return tm.takeError();
  DiagnosticCollector diags(context);
  dropForeignArgumentAttributes(*module);
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(*module, llvmContext);
  if (!llvmModule)
    return makeError("translating the host code to LLVM IR failed:" +
                     diags.str());
  llvmModule->setDataLayout((*tm)->createDataLayout());
  llvmModule->setTargetTriple((*tm)->getTargetTriple());
  if (llvm::Error error =
          makeOptimizingTransformer(3, 0, tm->get())(llvmModule.get()))
    return error;
  llvm::SmallVector<char, 0> object;
  {
    llvm::raw_svector_ostream os(object);
    llvm::legacy::PassManager codegen;
    if ((*tm)->addPassesToEmitFile(codegen, os, nullptr,
                                   llvm::CodeGenFileType::ObjectFile))
      return makeError("the host target cannot emit an object file");
    codegen.run(*llvmModule);
  }
  graph->hostObject.assign(object.begin(), object.end());
  graph->times.codegenMs = nowMs() - start;
  return std::move(graph);
}

llvm::Error CompiledGraph::exportBundle(llvm::StringRef dir,
                                        llvm::ArrayRef<HostTensor> inputs,
                                        llvm::ArrayRef<HostTensor> expected,
                                        llvm::StringRef graphPipeline,
                                        llvm::StringRef reference,
                                        bool cudaGraph) {
  if (target != Target::CUDA)
    return makeError("only graphs compiled for target cuda export a bundle");
  bool generated = inputs.empty() && functionType.getNumInputs() > 0;
  if (generated && !expected.empty())
    return makeError("a bundle with generated inputs has no reference");
  if (!generated && inputs.size() != functionType.getNumInputs())
    return makeError("@" + entry + " takes " +
                     llvm::Twine(functionType.getNumInputs()) +
                     " inputs, got " + llvm::Twine(inputs.size()));
  for (auto [i, type] : llvm::enumerate(functionType.getInputs()))
    if (!generated && !inputs[i].matches(cast<RankedTensorType>(type)))
      return makeError("input #" + llvm::Twine(i) + " of @" + entry + " is " +
                       inputs[i].describe());
  if (!expected.empty() && expected.size() != functionType.getNumResults())
    return makeError("@" + entry + " has " +
                     llvm::Twine(functionType.getNumResults()) +
                     " results, got " + llvm::Twine(expected.size()) +
                     " references");
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return makeError("cannot create " + dir + ": " + ec.message());

  // The library: the host object, linked shared.
  std::string linker = findLinker();
  if (linker.empty())
    return makeError("no C compiler driver (cc, gcc or clang on PATH, or "
                     "$CC) to link the bundle's library; scripts/setup.sh "
                     "installs one");
  llvm::SmallString<256> object(dir), library(dir), log(dir);
  llvm::sys::path::append(object, "model.o");
  llvm::sys::path::append(library, "model.so");
  llvm::sys::path::append(log, "link.log");
  if (std::string e = ::gopt::deploy::writeFile(
          dir.str(), "model.o", hostObject.data(), hostObject.size());
      !e.empty())
    return makeError(e);
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, log.str(),
                                                log.str()};
  // -Bsymbolic: the library's calls of its own functions (the entry may be
  // named main) stay inside it instead of binding to a runner's symbols.
  llvm::SmallVector<llvm::StringRef> args = {
      linker, "-shared", "-Wl,-Bsymbolic", "-o", library, object};
  std::string why;
  int status = llvm::sys::ExecuteAndWait(linker, args, std::nullopt,
                                         redirects, 0, 0, &why);
  llvm::sys::fs::remove(object);
  if (status != 0) {
    std::string output;
    if (auto text = llvm::MemoryBuffer::getFile(log))
      output = (*text)->getBuffer().str();
    return makeError("linking " + library + " with " + linker + " failed" +
                     (why.empty() ? "" : ": " + why) +
                     (output.empty() ? "" : ":\n" + output));
  }
  llvm::sys::fs::remove(log);

  ::gopt::deploy::Bundle bundle;
  bundle.goptVersion = GOPT_VERSION_STRING;
  bundle.target = "cuda";
  bundle.chip = chip;
  bundle.library = "model.so";
  bundle.entry = entry;
  bundle.entrySymbol = "_mlir__mlir_ciface_" + entry;
  bundle.graphPipeline = graphPipeline.str();
  bundle.reference = reference.str();
  bundle.cudaGraph = cudaGraph;
  for (const KernelInfo &kernel : kernels)
    bundle.kernels.push_back(kernel.name);
  std::string dirName = dir.str();
  auto writeTensor = [&](const HostTensor &t, const std::string &file,
                         std::vector<::gopt::deploy::BundleTensor> &list) {
    std::string error = ::gopt::deploy::writeFile(dirName, file, t.getData(),
                                          t.getByteSize());
    list.push_back(::gopt::deploy::BundleTensor{
        getElementKindName(t.getKind()).str(), t.getShape(), file});
    return error;
  };
  for (auto [i, t] : llvm::enumerate(inputs))
    if (std::string e = writeTensor(t, "input" + std::to_string(i) + ".bin",
                                    bundle.inputs);
        !e.empty())
      return makeError(e);
  if (generated)
    for (Type type : functionType.getInputs()) {
      auto tensor = cast<RankedTensorType>(type);
      bundle.inputs.push_back(::gopt::deploy::BundleTensor{
          tensorElementName(type),
          std::vector<int64_t>(tensor.getShape().begin(),
                               tensor.getShape().end()),
          ""});
    }
  for (auto [i, t] : llvm::enumerate(weights))
    if (std::string e = writeTensor(t, "weight" + std::to_string(i) + ".bin",
                                    bundle.weights);
        !e.empty())
      return makeError(e);
  for (auto [i, type] : llvm::enumerate(functionType.getResults())) {
    auto tensor = cast<RankedTensorType>(type);
    std::vector<int64_t> shape(tensor.getShape().begin(),
                               tensor.getShape().end());
    if (expected.empty()) {
      bundle.results.push_back(
          ::gopt::deploy::BundleTensor{tensorElementName(type), shape, ""});
      continue;
    }
    if (!expected[i].matches(tensor))
      return makeError("reference #" + llvm::Twine(i) + " is " +
                       expected[i].describe());
    if (std::string e = writeTensor(
            expected[i], "expected" + std::to_string(i) + ".bin",
            bundle.results);
        !e.empty())
      return makeError(e);
  }
  if (std::string e = ::gopt::deploy::writeBundleManifest(dirName, bundle); !e.empty())
    return makeError(e);
  return llvm::Error::success();
}

LocalBundle::~LocalBundle() {
  bundle.reset();
  if (!dir.empty())
    llvm::sys::fs::remove_directories(dir);
}

llvm::Expected<std::unique_ptr<LocalBundle>>
CompiledGraph::loadOnLocalGPU(llvm::ArrayRef<HostTensor> inputs,
                              llvm::ArrayRef<HostTensor> expected,
                              llvm::StringRef graphPipeline,
                              llvm::StringRef reference) {
  llvm::SmallString<128> dir;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueDirectory("gopt-bundle", dir))
    return makeError("cannot create a temporary folder: " +
                     llvm::Twine(ec.message()));
  auto local = std::make_unique<LocalBundle>();
  local->dir = dir.str().str();
  if (llvm::Error error =
          exportBundle(dir, inputs, expected, graphPipeline, reference))
    return std::move(error);
  std::string error;
  local->bundle = ::gopt::deploy::LoadedBundle::load(local->dir, error);
  if (!local->bundle)
    return makeError(error);
  return std::move(local);
}
