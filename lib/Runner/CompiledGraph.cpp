//===- CompiledGraph.cpp - Compile a gopt graph to host code and call it --===//
//
// Calls go through the C interface gopt-lower-to-llvm emits
// (docs/Lowering.md, "ABI for a runtime"): `_mlir_ciface_f(out, args...)`
// where every argument is a pointer to a strided memref descriptor
// {allocated, aligned, offset, sizes[R], strides[R]} and `out` points to the
// descriptors of the results, in order. The ExecutionEngine wraps it in a
// packed function taking an array of pointers to those pointers.
//
//===----------------------------------------------------------------------===//

#include "DiagnosticCollector.h"
#include "GOpt/Codegen/Common/Passes.h"
#include "GOpt/Codegen/GPU/Passes.h"
#include "GOpt/Codegen/GPU/Pipeline.h"
#include "GOpt/Deploy/PackedCall.h"
#include "GOpt/Pipelines/Pipelines.h"
#include "GOpt/Runner/Runner.h"
#include "GOpt/Runtime/Runtime.h"
#include "GOpt/Support/Error.h"
#include "GOpt/Support/Timing.h"
#include "GOpt/Transforms/Passes.h"
#include "NativeTarget.h"
#include "ObjectCode.h"
#include "PipelineRun.h"
#include "WeightArguments.h"

#include "GOpt/Version.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/ExecutionEngine/Orc/RTDyldObjectLinkingLayer.h"
#include "llvm/ExecutionEngine/SectionMemoryManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <mutex>
#include <set>
#include <thread>

#include <sys/wait.h>
#include <unistd.h>

using namespace mlir;
using namespace mlir::gopt;

namespace {

/// The function to run: the one named, else `main`, else the only public
/// function with a body.
FailureOr<func::FuncOp> findEntry(ModuleOp module, llvm::StringRef name,
                                  std::string &error) {
  if (!name.empty()) {
    auto fn = module.lookupSymbol<func::FuncOp>(name);
    if (!fn || fn.isExternal()) {
      error = "no function @" + name.str() + " with a body in the module";
      return failure();
    }
    return fn;
  }
  if (auto fn = module.lookupSymbol<func::FuncOp>("main"))
    if (!fn.isExternal())
      return fn;
  SmallVector<func::FuncOp> publics;
  for (auto fn : module.getOps<func::FuncOp>())
    if (fn.isPublic() && !fn.isExternal())
      publics.push_back(fn);
  if (publics.size() == 1)
    return publics.front();
  error = publics.empty() ? "the module has no public function to run"
                          : "the module has several public functions: name "
                            "one with --entry (";
  for (auto [i, fn] : llvm::enumerate(publics))
    error += (i ? ", @" : "@") + fn.getSymName().str();
  if (!publics.empty())
    error += ")";
  return failure();
}

/// Only static ranked tensors of supported element types cross the call.
LogicalResult checkSignature(FunctionType type, std::string &error) {
  auto check = [&](Type t, llvm::StringRef what, unsigned i) {
    auto tensor = dyn_cast<RankedTensorType>(t);
    if (!tensor || !tensor.hasStaticShape() ||
        !getElementKind(tensor.getElementType())) {
      llvm::raw_string_ostream os(error);
      os << what << " #" << i << " has type " << t
         << ": the runner passes static ranked tensors of f32, f64, f16, "
            "bf16, i64, i32, i16, i8 or i1";
      return failure();
    }
    return success();
  };
  for (auto [i, t] : llvm::enumerate(type.getInputs()))
    if (failed(check(t, "argument", i)))
      return failure();
  for (auto [i, t] : llvm::enumerate(type.getResults()))
    if (failed(check(t, "result", i)))
      return failure();
  return success();
}

/// Graph inputs are read-only to the caller: bufferization must copy rather
/// than write into them, or a second run would see changed inputs.
void markArgumentsReadOnly(func::FuncOp fn) {
  auto no = BoolAttr::get(fn.getContext(), false);
  for (unsigned i = 0; i < fn.getNumArguments(); ++i)
    fn.setArgAttr(i, bufferization::BufferizationDialect::kWritableAttrName,
                  no);
}

/// The cache key of a program: SHA-256 of its IR's hash and of what its
/// machine code depends on.
std::string computeCacheKey(ModuleOp program, const CompileOptions &options) {
  static const std::string context = describeCodegenContext();
  llvm::SHA256 hash;
  hash.update(options.programHash.empty() || !options.graphPipeline.empty()
                  ? computeProgramHash(program)
                  : options.programHash);
  hash.update("|lowering=" + options.loweringOptions +
              "|timers=" + (options.kernelTimers ? "1" : "0") +
              "|O" + std::to_string(options.codegenOptLevel) + "|" + context);
  // GPU code: the NVVM options (chip, features, block size...) and the
  // toolkit whose ptxas made the cubins. The driver is not in the key: the
  // binaries are compiled ahead for the chip, the driver only loads them.
  if (options.target == Target::CUDA)
    hash.update("|cuda|nvvm=" + options.nvvmOptions +
                "|toolkit=" + findCUDAToolkit());
  if (options.target == Target::EmulatedCUDA)
    hash.update("|emulated-cuda|nvvm=" + options.nvvmOptions);
  return llvm::toHex(hash.final(), /*LowerCase=*/true);
}

} // namespace

/// The running executable's size and time stamp are in it, so a rebuilt
/// tool never loads code an older build made.
std::string mlir::gopt::describeCodegenContext() {
  std::string text = llvm::sys::getProcessTriple() + "|" +
                     llvm::sys::getHostCPUName().str() + "|";
  for (const auto &feature : llvm::sys::getHostCPUFeatures())
    text += (feature.second ? "+" : "-") + feature.first().str() + ",";
  text += "|gopt " GOPT_VERSION_STRING "|";
  llvm::sys::fs::file_status exe;
  if (!llvm::sys::fs::status("/proc/self/exe", exe))
    text += std::to_string(exe.getSize()) + "@" +
            std::to_string(llvm::sys::toTimeT(exe.getLastModificationTime()));
  return text;
}

std::string
mlir::gopt::describeKernelCount(const std::vector<KernelInfo> &kernels) {
  size_t library = llvm::count_if(
      kernels, [](const KernelInfo &k) { return k.library; });
  std::string text = std::to_string(kernels.size()) +
                     (kernels.size() == 1 ? " kernel" : " kernels");
  if (library > 0)
    text += " (" + std::to_string(library) +
            (library == 1 ? " cuBLAS call)" : " cuBLAS calls)");
  return text;
}

std::string mlir::gopt::computeProgramHash(ModuleOp module) {
  std::string printed;
  llvm::raw_string_ostream os(printed);
  module->print(os, OpPrintingFlags().printGenericOpForm());
  return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(printed)),
                     /*LowerCase=*/true);
}

llvm::Expected<double> mlir::gopt::runGraphPipeline(ModuleOp module,
                                                    llvm::StringRef pipeline,
                                                    bool passTiming,
                                                    bool verifyEachPass) {
  MLIRContext *context = module.getContext();
  PassManager pm(context, ModuleOp::getOperationName());
  if (passTiming)
    pm.enableTiming();
  std::string parseError;
  if (failed(parseGraphPipeline(pipeline, pm, parseError)))
    return makeError("bad graph pipeline '" + pipeline + "': " + parseError);
  double start = nowMs();
  if (llvm::Error e =
          runPipeline(pm, module, verifyEachPass,
                      ("the graph pipeline '" + pipeline + "' failed").str()))
    return std::move(e);
  return nowMs() - start;
}

CompiledGraph::~CompiledGraph() {
  // The runtime may keep what it derived from the weights (they were
  // passed as constant): drop that before their buffers go.
  for (const HostTensor &weight : weights)
    runtime::forgetConstantBuffer(weight.getData(), weight.getByteSize());
}

size_t CompiledGraph::getWeightBytes() const {
  size_t bytes = 0;
  for (const HostTensor &weight : weights)
    bytes += weight.getByteSize();
  return bytes;
}

llvm::Expected<std::unique_ptr<CompiledGraph>>
CompiledGraph::compile(ModuleOp module, const CompileOptions &options) {
  MLIRContext *context = module.getContext();
  OwningOpRef<ModuleOp> clone = module.clone();
  std::unique_ptr<CompiledGraph> graph(new CompiledGraph());
  graph->times.importMs = options.importMs;
  static std::atomic<unsigned> processCompiles{0};
  unsigned compilesBefore = processCompiles++;
  graph->times.processCompilesBefore = compilesBefore;

  std::string error;
  FailureOr<func::FuncOp> entry = findEntry(*clone, options.entry, error);
  if (failed(entry))
    return makeError(error);
  graph->entry = entry->getSymName().str();

  // Graph passes.
  if (!options.graphPipeline.empty()) {
    auto ms = runGraphPipeline(*clone, options.graphPipeline,
                               options.passTiming, options.verifyEachPass);
    if (!ms)
      return ms.takeError();
    graph->times.graphPassesMs = *ms;
  }

  auto fn = clone->lookupSymbol<func::FuncOp>(graph->entry);
  if (!fn)
    return makeError("the graph pipeline removed @" + graph->entry);
  graph->functionType = fn.getFunctionType();
  if (failed(checkSignature(graph->functionType, error)))
    return makeError("cannot run @" + graph->entry + ": " + error);
  markArgumentsReadOnly(fn);
  // Weights: trailing arguments, not code (WeightArguments.h). Copying
  // them out (and looking the program up in the cache) is part of the
  // lowering's time, or of a load from the cache.
  double hoistStart = nowMs();
  HoistedWeights hoisted =
      hoistWeightsIntoArguments(fn, kMinWeightArgumentBytes);
  graph->weightStorage = std::move(hoisted.storage);
  graph->retainedWeights = std::move(hoisted.retained);
  graph->weights = std::move(hoisted.tensors);
  double preparationMs = nowMs() - hoistStart;

  graph->target = options.target;

  // A program compiled before: load its machine code (on the GPU: its host
  // object, which embeds the kernels' binaries).
  std::string cacheKey;
  ObjectCacheEntry cacheEntry;
  if (!options.objectCacheDir.empty()) {
    double start = nowMs();
    cacheKey = computeCacheKey(*clone, options);
    cacheEntry = getObjectCacheEntry(options.objectCacheDir, cacheKey);
    if (graph->loadFromCache(cacheEntry)) {
      touchObjectCacheEntry(cacheEntry);
      graph->times.loadMs = preparationMs + nowMs() - start;
      graph->times.processCompilesBefore = compilesBefore;
      return std::move(graph);
    }
    // A miss: the lookup is part of this compile's lowering too.
    preparationMs += nowMs() - start;
  }
  if (options.target == Target::CUDA) {
    auto compiled = compileForCUDA(std::move(graph), std::move(clone), options);
    if (compiled)
      (*compiled)->times.loweringMs += preparationMs;
    if (compiled && !cacheKey.empty() && (*compiled)->storeInCache(cacheEntry))
      trimObjectCache(options.objectCacheDir, options.objectCacheLimitBytes,
                      cacheKey);
    return compiled;
  }

  // Lowering: the CPU pipeline, or the GPU pipeline's kernels emulated on
  // this CPU.
  {
    PassManager pm(context, ModuleOp::getOperationName());
    if (options.passTiming)
      pm.enableTiming();
    if (options.target == Target::EmulatedCUDA) {
      if (options.kernelTimers)
        return makeError("kernel timers are for the cpu and cuda targets "
                         "(emulated GPU kernels are not timed)");
      auto lowering = LowerToNVVMOptions::createFromString(options.nvvmOptions);
      if (!lowering)
        return makeError("bad gopt-lower-to-nvvm options '" +
                         options.nvvmOptions + "'");
      lowering->emulate = true;
      buildLowerToNVVMPipeline(pm, *lowering);
    } else {
      auto lowering =
          LowerToLLVMOptions::createFromString(options.loweringOptions);
      if (!lowering)
        return makeError("bad gopt-lower-to-llvm options '" +
                         options.loweringOptions + "'");
      lowering->kernelTimers = options.kernelTimers;
      buildLowerToLLVMPipeline(pm, *lowering);
    }
    double start = nowMs();
    if (llvm::Error e = runPipeline(pm, *clone, options.verifyEachPass,
                                    "lowering to LLVM failed"))
      return std::move(e);
    graph->times.loweringMs = preparationMs + nowMs() - start;
  }
  clone->walk([&](LLVM::LLVMFuncOp f) {
    auto id = f->getAttrOfType<IntegerAttr>(gopt::kKernelAttrName);
    if (!id)
      return;
    // The runtime's library entry points it calls (timers and the parallel
    // loop driver are not libraries).
    llvm::SetVector<llvm::StringRef> calls;
    f.walk([&](LLVM::CallOp call) {
      std::optional<llvm::StringRef> callee = call.getCallee();
      if (callee && callee->starts_with("gopt_") &&
          !llvm::is_contained(
              {"gopt_kernel_begin", "gopt_kernel_end", "gopt_parallel_for"},
              *callee))
        calls.insert(*callee);
    });
    KernelInfo kernel{id.getInt(), f.getSymName().str(), /*library=*/false,
                      llvm::join(calls.getArrayRef(), ","),
                      /*launches=*/{}};
    if (auto launches = f->getAttrOfType<ArrayAttr>(kEmulatedLaunchesAttrName))
      for (auto launch : launches.getAsRange<StringAttr>())
        kernel.launches.push_back(launch.str());
    // Kernels gopt-deduplicate-kernels replaced by this one: kernels of
    // their own (their calls are timed under their ids) running its code.
    if (auto copies =
            f->getAttrOfType<DictionaryAttr>(gopt::kKernelCopiesAttrName))
      for (NamedAttribute copy : copies) {
        KernelInfo same = kernel;
        same.id = cast<IntegerAttr>(copy.getValue()).getInt();
        same.name = copy.getName().str();
        same.sameCodeAs = kernel.id;
        graph->kernels.push_back(std::move(same));
      }
    graph->kernels.push_back(std::move(kernel));
  });
  clone->walk([&](LLVM::CallOp call) {
    if (call.getCallee() == llvm::StringRef("gopt_parallel_for"))
      ++graph->parallelLoops;
  });
  if (auto lowered = clone->lookupSymbol<LLVM::LLVMFuncOp>(graph->entry))
    graph->bufferPlan = getRecordedBufferPlan(lowered);
  llvm::sort(graph->kernels, [](const KernelInfo &a, const KernelInfo &b) {
    return a.id < b.id;
  });

  // Machine code for this CPU, at O3 unless asked otherwise, the module's
  // partitions compiled on every core (ObjectCode.h, emitObjects).
  initializeNativeTarget();
  registerBuiltinDialectTranslation(*context);
  registerLLVMDialectTranslation(*context);
  double start = nowMs();
  auto tmBuilder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!tmBuilder)
    return tmBuilder.takeError();
  if (options.codegenOptLevel > 3)
    return makeError("codegen optimization level " +
                     llvm::Twine(options.codegenOptLevel) +
                     " is not one of 0-3");
  auto codegenLevel =
      llvm::CodeGenOpt::getLevel(static_cast<int>(options.codegenOptLevel));
  tmBuilder->setCodeGenOptLevel(*codegenLevel);
  // The packed entry the runner calls: void(void **args).
  if (failed(addPackedEntry(*clone, "_mlir_ciface_" + graph->entry)))
    return makeError("@" + graph->entry +
                     " has no C interface after "
                     "lowering (gopt-emit-c-interface)");
  DiagnosticCollector diags(context);
  unsigned threads = options.codegenThreads
                         ? options.codegenThreads
                         : std::max(1u, std::thread::hardware_concurrency());
  std::string packedName = "_mlir__mlir_ciface_" + graph->entry;
  auto objects = emitObjects(*clone, *tmBuilder, options.codegenOptLevel,
                             threads, {packedName});
  if (!objects)
    return makeError("JIT compilation failed: " +
                     llvm::toString(objects.takeError()) + diags.str());
  auto jit = linkObjects(*tmBuilder, *objects);
  if (!jit)
    return makeError("JIT linking failed: " + llvm::toString(jit.takeError()));
  // Link now, so the first run does not pay for it.
  auto packed = (*jit)->lookup(packedName);
  if (!packed)
    return makeError("JIT lookup of @" + graph->entry +
                     " failed: " + llvm::toString(packed.takeError()));
  graph->packedEntry = packed->toPtr<void (*)(void **)>();
  graph->jit = std::move(*jit);
  graph->objectCount = objects->size();
  graph->times.codegenMs = nowMs() - start;
  if (!cacheKey.empty() && graph->storeInCache(cacheEntry, *objects))
    trimObjectCache(options.objectCacheDir, options.objectCacheLimitBytes,
                    cacheKey);
  return std::move(graph);
}

std::vector<HostTensor> CompiledGraph::makeRandomInputs(uint64_t seed) const {
  std::vector<HostTensor> inputs;
  for (auto [i, type] : llvm::enumerate(functionType.getInputs()))
    inputs.push_back(makeRandomTensor(cast<RankedTensorType>(type), seed + i));
  return inputs;
}

llvm::Error CompiledGraph::invoke(llvm::ArrayRef<HostTensor> inputs,
                                  std::vector<int64_t> &resultWords) {
  if (target == Target::CUDA)
    return makeError("@" + entry + " is compiled for cuda: its code runs "
                     "from a bundle (exportBundle, then "
                     "gopt::deploy::LoadedBundle or gopt-exec)");
  if (inputs.size() != functionType.getNumInputs())
    return makeError("@" + entry + " takes " +
                     llvm::Twine(functionType.getNumInputs()) +
                     " inputs, got " + llvm::Twine(inputs.size()));
  std::vector<std::vector<int64_t>> descriptors;
  for (auto [i, type] : llvm::enumerate(functionType.getInputs())) {
    auto tensor = cast<RankedTensorType>(type);
    const HostTensor &input = inputs[i];
    if (!input.matches(tensor)) {
      std::string expected;
      llvm::raw_string_ostream os(expected);
      os << tensor;
      return makeError("input #" + llvm::Twine(i) + " of @" + entry + " is " +
                       input.describe() + ", expected " + expected);
    }
    descriptors.push_back(
        ::gopt::deploy::describeRowMajor(input.getData(), input.getShape()));
  }
  for (const HostTensor &weight : weights)
    descriptors.push_back(
        ::gopt::deploy::describeRowMajor(weight.getData(), weight.getShape()));
  std::vector<int64_t> resultRanks;
  for (Type type : functionType.getResults())
    resultRanks.push_back(cast<RankedTensorType>(type).getRank());
  ::gopt::deploy::callPacked(packedEntry, descriptors, resultRanks,
                             resultWords);
  return llvm::Error::success();
}

std::vector<HostTensor>
CompiledGraph::takeResults(const std::vector<int64_t> &resultWords, bool copy) {
  std::vector<HostTensor> results;
  std::set<void *> freed;
  int64_t at = 0;
  for (Type type : functionType.getResults()) {
    auto tensor = cast<RankedTensorType>(type);
    int64_t rank = tensor.getRank();
    auto *allocated = reinterpret_cast<void *>(resultWords[at]);
    auto *aligned = reinterpret_cast<char *>(resultWords[at + 1]);
    int64_t offset = resultWords[at + 2];
    if (copy) {
      HostTensor out(*getElementKind(tensor.getElementType()),
                     std::vector<int64_t>(tensor.getShape().begin(),
                                          tensor.getShape().end()));
      size_t elementBytes = getElementBytes(out.getKind());
      // Row-major copy through the descriptor's strides.
      std::vector<int64_t> index(rank, 0);
      char *dst = static_cast<char *>(out.getData());
      for (int64_t i = 0, e = out.getNumElements(); i < e; ++i) {
        int64_t element = offset;
        for (int64_t d = 0; d < rank; ++d)
          element += index[d] * resultWords[at + 3 + rank + d];
        std::memcpy(dst + i * elementBytes, aligned + element * elementBytes,
                    elementBytes);
        for (int64_t d = rank - 1; d >= 0; --d) {
          if (++index[d] < tensor.getDimSize(d))
            break;
          index[d] = 0;
        }
      }
      results.push_back(std::move(out));
    }
    // Results are the caller's to free, unless they are not heap blocks
    // (a constant the function returns as is).
    if (allocated && !freed.count(allocated) &&
        runtime::ownsAllocation(allocated)) {
      _mlir_memref_to_llvm_free(allocated);
      freed.insert(allocated);
    }
    at += ::gopt::deploy::memrefDescriptorWords(rank);
  }
  return results;
}

llvm::Expected<std::vector<HostTensor>>
CompiledGraph::run(llvm::ArrayRef<HostTensor> inputs) {
  std::vector<int64_t> resultWords;
  if (llvm::Error error = invoke(inputs, resultWords))
    return std::move(error);
  return takeResults(resultWords, /*copy=*/true);
}

bool CompiledGraph::storeInCache(const ObjectCacheEntry &cacheEntry,
                                 llvm::ArrayRef<std::string> objects) {
  // Write under temporary names and rename, so a reader never sees half a
  // file; a cache that cannot be written is only a missed speed-up.
  llvm::StringRef objectPath = cacheEntry.object;
  llvm::StringRef sidecarPath = cacheEntry.sidecar;
  llvm::SmallString<256> dir = objectPath;
  llvm::sys::path::remove_filename(dir);
  if (llvm::sys::fs::create_directories(dir))
    return false;
  std::string suffix =
      ".tmp" + std::to_string(llvm::sys::Process::getProcessId());
  std::string tmpObject = objectPath.str() + suffix;
  std::string tmpSidecar = sidecarPath.str() + suffix;
  // CPU: the partitions' objects one after another (their sizes in the
  // sidecar).
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(tmpObject, ec);
    if (ec)
      return false;
    if (target == Target::CUDA)
      os.write(hostObject.data(), hostObject.size());
    else
      for (const std::string &object : objects)
        os.write(object.data(), object.size());
  }
  uint64_t size = 0;
  if (llvm::sys::fs::file_size(tmpObject, size) || size == 0) {
    llvm::sys::fs::remove(tmpObject);
    return false;
  }
  llvm::json::Array kernelArray;
  for (const KernelInfo &k : kernels)
    kernelArray.push_back(
        llvm::json::Object{{"id", k.id},
                           {"name", k.name},
                           {"library", k.library},
                           {"library_calls", k.libraryCalls},
                           {"launches", llvm::json::Array(k.launches)},
                           {"same_code_as", k.sameCodeAs}});
  llvm::json::Array objectSizes;
  for (const std::string &object : objects)
    objectSizes.push_back(static_cast<int64_t>(object.size()));
  llvm::json::Object sidecar{{"entry", entry},
                             {"object_sizes", std::move(objectSizes)},
                             {"lowering_ms", times.loweringMs},
                             {"codegen_ms", times.codegenMs},
                             {"parallel_loops", parallelLoops},
                             {"arena_bytes", bufferPlan.arenaBytes},
                             {"planned_buffers", bufferPlan.plannedBuffers},
                             {"planned_bytes", bufferPlan.plannedBytes},
                             {"most_live_bytes", bufferPlan.mostLiveBytes},
                             {"kernels", std::move(kernelArray)}};
  if (target == Target::CUDA) {
    sidecar["target"] = "cuda";
    sidecar["chip"] = chip;
  }
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(tmpSidecar, ec);
    if (ec) {
      llvm::sys::fs::remove(tmpObject);
      return false;
    }
    os << llvm::json::Value(std::move(sidecar));
  }
  // The object last: a sidecar without its object is never read.
  if (llvm::sys::fs::rename(tmpSidecar, sidecarPath) ||
      llvm::sys::fs::rename(tmpObject, objectPath)) {
    llvm::sys::fs::remove(tmpObject);
    llvm::sys::fs::remove(tmpSidecar);
    return false;
  }
  return true;
}

bool CompiledGraph::loadFromCache(const ObjectCacheEntry &cacheEntry) {
  auto objectBuffer = llvm::MemoryBuffer::getFile(cacheEntry.object);
  if (!objectBuffer)
    return false;
  auto sidecarBuffer = llvm::MemoryBuffer::getFile(cacheEntry.sidecar);
  if (!sidecarBuffer)
    return false;
  auto sidecar = llvm::json::parse((*sidecarBuffer)->getBuffer());
  if (!sidecar) {
    llvm::consumeError(sidecar.takeError());
    return false;
  }
  const llvm::json::Object *object = sidecar->getAsObject();
  if (!object || object->getString("entry") != llvm::StringRef(entry))
    return false;
  std::vector<KernelInfo> cachedKernels;
  if (const llvm::json::Array *list = object->getArray("kernels"))
    for (const llvm::json::Value &value : *list) {
      const llvm::json::Object *k = value.getAsObject();
      if (!k || !k->getInteger("id") || !k->getString("name"))
        return false;
      KernelInfo kernel{*k->getInteger("id"), k->getString("name")->str(),
                        k->getBoolean("library").value_or(false),
                        k->getString("library_calls").value_or("").str(),
                        /*launches=*/{}};
      kernel.sameCodeAs = k->getInteger("same_code_as").value_or(-1);
      if (const llvm::json::Array *launches = k->getArray("launches"))
        for (const llvm::json::Value &launch : *launches)
          if (std::optional<llvm::StringRef> text = launch.getAsString())
            kernel.launches.push_back(text->str());
      cachedKernels.push_back(std::move(kernel));
    }
  bool cudaEntry = object->getString("target") == llvm::StringRef("cuda");
  if (cudaEntry != (target == Target::CUDA))
    return false;
  if (cudaEntry) {
    // The host object, as compileForCUDA left it; a bundle links it.
    hostObject.assign((*objectBuffer)->getBufferStart(),
                      (*objectBuffer)->getBufferEnd());
    chip = object->getString("chip").value_or("").str();
    kernels = std::move(cachedKernels);
    parallelLoops = object->getInteger("parallel_loops").value_or(0);
    times.fromCache = true;
    times.loweringMs = object->getNumber("lowering_ms").value_or(0);
    times.codegenMs = object->getNumber("codegen_ms").value_or(0);
    return !hostObject.empty() && !chip.empty();
  }

  // The partitions' objects, back to back in the object file.
  std::vector<std::string> cachedObjects;
  llvm::StringRef bytes = (*objectBuffer)->getBuffer();
  const llvm::json::Array *sizes = object->getArray("object_sizes");
  if (!sizes || sizes->empty())
    return false;
  size_t offset = 0;
  for (const llvm::json::Value &value : *sizes) {
    std::optional<int64_t> size = value.getAsInteger();
    if (!size || *size <= 0 ||
        offset + static_cast<size_t>(*size) > bytes.size())
      return false;
    cachedObjects.push_back(bytes.substr(offset, *size).str());
    offset += *size;
  }
  if (offset != bytes.size())
    return false;

  initializeNativeTarget();
  double start = nowMs();
  auto tmBuilder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!tmBuilder) {
    llvm::consumeError(tmBuilder.takeError());
    return false;
  }
  auto linked = linkObjects(std::move(*tmBuilder), cachedObjects);
  if (!linked) {
    llvm::consumeError(linked.takeError());
    return false;
  }
  auto address = (*linked)->lookup("_mlir__mlir_ciface_" + entry);
  if (!address) {
    llvm::consumeError(address.takeError());
    return false;
  }
  jit = std::move(*linked);
  objectCount = cachedObjects.size();
  packedEntry = address->toPtr<void (*)(void **)>();
  kernels = std::move(cachedKernels);
  parallelLoops = object->getInteger("parallel_loops").value_or(0);
  bufferPlan = {object->getInteger("arena_bytes").value_or(0),
                object->getInteger("planned_buffers").value_or(0),
                object->getInteger("planned_bytes").value_or(0),
                object->getInteger("most_live_bytes").value_or(0)};
  times.fromCache = true;
  times.loadMs = nowMs() - start;
  times.loweringMs = object->getNumber("lowering_ms").value_or(0);
  times.codegenMs = object->getNumber("codegen_ms").value_or(0);
  return true;
}

llvm::Error
CompiledGraph::checkRunsWithoutTrapping(llvm::ArrayRef<HostTensor> inputs,
                                        double timeoutSeconds) {
  // The child writes why its run failed (an error, not a trap) here.
  int message[2];
  if (pipe(message) != 0)
    return makeError(
        "cannot check the compiled code of @" + entry +
        " in a child process: pipe failed: " + std::strerror(errno));
  std::fflush(nullptr);
  pid_t child = fork();
  if (child < 0) {
    close(message[0]);
    close(message[1]);
    return makeError(
        "cannot check the compiled code of @" + entry +
        " in a child process: fork failed: " + std::strerror(errno));
  }
  if (child == 0) {
    close(message[0]);
    // Die of the signal quietly: the parent reports it.
    for (int sig : {SIGFPE, SIGSEGV, SIGBUS, SIGILL, SIGABRT, SIGTRAP})
      std::signal(sig, SIG_DFL);
    // The GEMM library's thread pool (OpenMP) does not survive fork: the
    // parent's workers are not in the child, and a parallel GEMM here would
    // wait for them forever. One thread computes the same thing.
    runtime::setLibraryThreads(1);
    auto outputs = run(inputs);
    if (!outputs) {
      // Within the pipe's buffer: the parent reads once the child is gone.
      std::string text = llvm::toString(outputs.takeError()).substr(0, 4096);
      ssize_t written = write(message[1], text.data(), text.size());
      (void)written;
      _exit(3);
    }
    _exit(0);
  }
  close(message[1]);
  // What the child wrote before it ended (the pipe's end closes with it).
  auto childMessage = [&] {
    std::string text;
    char buffer[512];
    ssize_t n;
    while ((n = read(message[0], buffer, sizeof(buffer))) > 0 ||
           (n < 0 && errno == EINTR))
      if (n > 0)
        text.append(buffer, static_cast<size_t>(n));
    close(message[0]);
    return text;
  };
  // Wait, polling, until the child ends or the time is up.
  int status = 0;
  double deadline = nowMs() + timeoutSeconds * 1000.0;
  useconds_t pause = 100;
  while (true) {
    pid_t done = waitpid(child, &status, WNOHANG);
    if (done == child)
      break;
    if (done < 0 && errno != EINTR) {
      close(message[0]);
      return makeError("lost the child process checking the compiled code "
                       "of @" +
                       entry + ": " + std::strerror(errno));
    }
    if (nowMs() > deadline) {
      kill(child, SIGKILL);
      while (waitpid(child, &status, 0) < 0 && errno == EINTR)
        ;
      close(message[0]);
      return makeError("the compiled code of @" + entry +
                       " did not finish within " +
                       llvm::formatv("{0}", timeoutSeconds).str() +
                       " s (its run was killed)");
    }
    usleep(pause);
    pause = std::min<useconds_t>(pause * 2, 20000);
  }
  std::string failure = childMessage();
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    std::string why = sig == SIGFPE ? " (an integer division by zero or "
                                      "overflow?)"
                                    : "";
    return makeError("the compiled code of @" + entry + " crashed: signal " +
                     llvm::Twine(sig) + ", " + strsignal(sig) + why);
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
    return makeError(failure.empty()
                         ? "running the compiled code of @" + entry +
                               " failed in a child process (exit status " +
                               std::to_string(WEXITSTATUS(status)) + ")"
                         : failure);
  return llvm::Error::success();
}
