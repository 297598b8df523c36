//===- CUDABackend.cpp - Configurations compiled and run on the GPU -------===//
//
// As the JIT backend does on the CPU: each configuration's graph passes run
// on a clone of the model, configurations that end with the same program
// share one compile and one set of runs. The program is compiled for the
// GPU (gopt-lower-to-nvvm, a host object linked into a bundle's library),
// written as a bundle into a temporary folder with the exploration's
// inputs, and loaded into this process; calls run on the device-resident
// inputs and weights, as gopt-exec runs them, so the latency is the
// model's on the device (no host-device copies), and the peak is device
// memory above the resident inputs and weights.
//
// Not on the GPU: the forked first run that catches traps on the CPU (a
// CUDA context does not survive fork; a failed driver call stops the
// process with its reason instead), and compile memory (reported as 0,
// unknown).
//
//===----------------------------------------------------------------------===//

#include "GOpt/Explore/CUDABackend.h"
#include "GOpt/Analysis/GraphStats.h"
#include "GOpt/Deploy/BundleRunner.h"
#include "GOpt/Runner/Runner.h"
#include "GOpt/Runtime/CUDA.h"
#include "GOpt/Support/Error.h"

#include "llvm/Support/FileSystem.h"

#include <cstring>
#include <map>

using namespace mlir;
using namespace mlir::gopt;

namespace {

/// What is kept per configuration: its bundle, loaded.
struct Slot {
  std::unique_ptr<::gopt::deploy::LoadedBundle> bundle;
  std::string dir;
};

class CUDABackend : public ExploreBackend {
public:
  CUDABackend(ModuleOp module, const ExploreOptions &options)
      : module(module), options(options) {}
  ~CUDABackend() override {
    for (size_t i = 0; i < slots.size(); ++i)
      release(i);
  }

  llvm::Error compile(size_t index, const Configuration &config,
                      ConfigurationMeasurement &m) override;
  llvm::Expected<std::vector<HostTensor>> runOnce(size_t index) override;
  llvm::Error measure(size_t index, int warmup, int repetitions,
                      ConfigurationMeasurement &m) override;
  llvm::Error profileKernels(size_t index, const Configuration &config,
                             int warmup, int repetitions,
                             ConfigurationMeasurement &m) override;
  void release(size_t index) override {
    if (index >= slots.size())
      return;
    slots[index].bundle.reset();
    if (!slots[index].dir.empty())
      llvm::sys::fs::remove_directories(slots[index].dir);
    slots[index].dir.clear();
  }
  std::string getTarget() const override {
    namespace cuda = ::gopt::runtime::cuda;
    if (!cuda::isAvailable())
      return "cuda";
    return "cuda-" + cuda::deviceChip() + " (" + cuda::deviceName() + ")";
  }
  std::string getEntry() const override { return entry; }

private:
  Slot &slot(size_t index) {
    if (slots.size() <= index)
      slots.resize(index + 1);
    return slots[index];
  }
  /// The slot that runs configuration `index`: its own, or that of the
  /// earlier configuration with the same program.
  Slot *runner(size_t index) {
    auto shared = sharedWith.find(index);
    size_t owner = shared == sharedWith.end() ? index : shared->second;
    if (owner >= slots.size() || !slots[owner].bundle)
      return nullptr;
    return &slots[owner];
  }

  ModuleOp module;
  const ExploreOptions &options;
  std::vector<Slot> slots;
  /// Program hash -> (configuration index, name, compile figures).
  struct Program {
    size_t index;
    std::string name;
    ConfigurationMeasurement figures;
  };
  std::map<std::string, Program> programs;
  /// Configuration -> the configuration whose bundle it runs.
  std::map<size_t, size_t> sharedWith;
  std::vector<HostTensor> inputs;
  std::string entry;
};

} // namespace

llvm::Error CUDABackend::compile(size_t index, const Configuration &config,
                                 ConfigurationMeasurement &m) {
  if (std::string why = ::gopt::runtime::cuda::initialize(); !why.empty())
    return makeError("gopt-explore --target=cuda needs a usable CUDA "
                     "device: " +
                     llvm::Twine(why));
  OwningOpRef<ModuleOp> clone = module.clone();
  if (!config.pipeline.empty()) {
    auto ms = runGraphPipeline(*clone, config.pipeline);
    if (!ms)
      return ms.takeError();
    m.graphPassesMs = *ms;
  }
  GraphStats stats = GraphStats::compute(*clone);
  m.ops = stats.numOps;
  m.staticPeakBytes = stats.peakMemoryBytes;

  std::string hash = computeProgramHash(*clone);
  if (auto known = programs.find(hash); known != programs.end()) {
    const ConfigurationMeasurement &o = known->second.figures;
    m.sameProgramAs = known->second.name;
    m.loweringMs = o.loweringMs;
    m.codegenMs = o.codegenMs;
    m.kernels = o.kernels;
    sharedWith[index] = known->second.index;
    return llvm::Error::success();
  }

  CompileOptions compile;
  compile.target = Target::CUDA;
  compile.entry = options.entry;
  compile.nvvmOptions = options.loweringOptions;
  auto graph = CompiledGraph::compile(*clone, compile);
  if (!graph)
    return graph.takeError();
  m.loweringMs = (*graph)->getCompileTimes().loweringMs;
  m.codegenMs = (*graph)->getCompileTimes().codegenMs;
  m.kernels = static_cast<int64_t>((*graph)->getKernels().size());
  if (entry.empty())
    entry = (*graph)->getEntry();
  if (inputs.empty())
    inputs = (*graph)->makeRandomInputs(options.seed);

  llvm::SmallString<128> dir;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueDirectory("gopt-explore-bundle", dir))
    return makeError("cannot create a temporary folder: " +
                     llvm::Twine(ec.message()));
  Slot &s = slot(index);
  s.dir = dir.str().str();
  if (llvm::Error error = (*graph)->exportBundle(
          dir, inputs, /*reference=*/{}, config.pipeline, "none"))
    return error;
  std::string error;
  s.bundle = ::gopt::deploy::LoadedBundle::load(s.dir, error);
  if (!s.bundle)
    return makeError(error);
  programs[hash] = {index, config.name, m};
  return llvm::Error::success();
}

llvm::Expected<std::vector<HostTensor>> CUDABackend::runOnce(size_t index) {
  Slot *s = runner(index);
  if (!s)
    return makeError("configuration #" + llvm::Twine(index) +
                     " is not compiled");
  const auto &results = s->bundle->getBundle().results;
  std::vector<std::vector<char>> bytes = s->bundle->runToHost();
  std::vector<HostTensor> outputs;
  for (size_t i = 0; i < results.size(); ++i) {
    std::optional<ElementKind> kind;
    for (ElementKind k : {ElementKind::F32, ElementKind::F64, ElementKind::F16,
                          ElementKind::BF16, ElementKind::I64, ElementKind::I32,
                          ElementKind::I16, ElementKind::I8, ElementKind::I1})
      if (getElementKindName(k) == results[i].elementType)
        kind = k;
    if (!kind)
      return makeError("result " + llvm::Twine(i) + " has element type '" +
                       results[i].elementType + "', which no host tensor has");
    HostTensor tensor(*kind, results[i].shape);
    if (tensor.getByteSize() != bytes[i].size())
      return makeError("result " + llvm::Twine(i) + " came back with " +
                       llvm::Twine(bytes[i].size()) + " bytes, " +
                       llvm::Twine(tensor.getByteSize()) + " expected");
    if (!bytes[i].empty())
      std::memcpy(tensor.getData(), bytes[i].data(), bytes[i].size());
    outputs.push_back(std::move(tensor));
  }
  return outputs;
}

llvm::Error CUDABackend::measure(size_t index, int warmup, int repetitions,
                                 ConfigurationMeasurement &m) {
  Slot *s = runner(index);
  if (!s)
    return makeError("configuration #" + llvm::Twine(index) +
                     " is not compiled");
  int64_t peak = 0, allocations = 0, driverAllocations = 0;
  s->bundle->timeCalls(warmup, repetitions, m.runMs, peak, allocations,
                       driverAllocations);
  m.peakBytes = std::max(m.peakBytes, peak);
  return llvm::Error::success();
}

llvm::Error CUDABackend::profileKernels(size_t index,
                                        const Configuration &config,
                                        int warmup, int repetitions,
                                        ConfigurationMeasurement &m) {
  Slot *s = runner(index);
  if (!s)
    return makeError("the bundle of '" + config.name + "' was not kept");
  std::vector<double> ignored;
  int64_t peak = 0, allocations = 0, driverAllocations = 0;
  s->bundle->timeCalls(warmup, 0, ignored, peak, allocations,
                       driverAllocations);
  double total = 0;
  m.kernelTimes.clear();
  for (const auto &k : s->bundle->profileKernels(repetitions, total))
    m.kernelTimes.push_back({k.name, k.msPerRun, k.share});
  return llvm::Error::success();
}

std::unique_ptr<ExploreBackend>
mlir::gopt::createCUDABackend(ModuleOp module, const ExploreOptions &options) {
  return std::make_unique<CUDABackend>(module, options);
}
