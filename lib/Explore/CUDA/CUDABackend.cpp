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
// A configuration with the lowering pass "cuda-graph" runs its program as
// one CUDA graph: captured once after loading (the capture counts as
// compile time), its replays timed and their results checked; its program
// is compiled once with the same program's streams configuration (the
// compile cache shares the object) but runs and is measured apart.
//
// Not on the GPU: the forked first run that catches traps on the CPU (a
// CUDA context does not survive fork; a failed driver call stops the
// process with its reason instead), and compile memory (reported as 0,
// unknown).
//
//===----------------------------------------------------------------------===//

#include "GOpt/Explore/CUDABackend.h"
#include "GOpt/Explore/ConfigurationProgram.h"
#include "GOpt/Runner/LocalBundle.h"
#include "GOpt/Runner/Runner.h"
#include "GOpt/Runtime/CUDA.h"
#include "GOpt/Support/Error.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cstring>
#include <map>

using namespace mlir;
using namespace mlir::gopt;

namespace {

/// What is kept per configuration: its bundle, loaded (Run), or where its
/// recorded runs are (Replay).
struct Slot {
  /// Run: the bundle in its temporary folder.
  std::unique_ptr<LocalBundle> local;
  /// Replay: the program's runs folder, its bundle's manifest, and how
  /// many recorded rounds measure() has handed out.
  std::string runsDir;
  ::gopt::deploy::Bundle manifest;
  int roundsTaken = 0;
  bool compiled = false;
  /// Runs as one CUDA graph (the configuration's "cuda-graph=true").
  bool cudaGraph = false;
};

/// The host tensor of a bundle tensor's element type and shape, or an
/// error.
llvm::Expected<HostTensor> hostTensorFor(const ::gopt::deploy::BundleTensor &t,
                                         size_t index) {
  if (std::optional<ElementKind> kind = getElementKindByName(t.elementType))
    return HostTensor(*kind, t.shape);
  return makeError("result " + llvm::Twine(index) + " has element type '" +
                   t.elementType + "', which no host tensor has");
}

/// The JSON object in `path`, or an error naming the file.
llvm::Expected<llvm::json::Value> readJSON(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return makeError("cannot read " + llvm::Twine(path) + ": " +
                     buffer.getError().message());
  auto value = llvm::json::parse((*buffer)->getBuffer());
  if (!value)
    return makeError(llvm::Twine(path) + ": " +
                     llvm::toString(value.takeError()));
  if (!value->getAsObject())
    return makeError(llvm::Twine(path) + ": not a JSON object");
  return std::move(*value);
}

std::string joinPath(llvm::StringRef a, llvm::StringRef b,
                     llvm::StringRef c = "", llvm::StringRef d = "") {
  llvm::SmallString<256> path(a);
  for (llvm::StringRef part : {b, c, d})
    if (!part.empty())
      llvm::sys::path::append(path, part);
  return path.str().str();
}

class CUDABackend : public ExploreBackend {
public:
  CUDABackend(ModuleOp module, const ExploreOptions &options,
              CUDABackendMode mode, llvm::StringRef exchange)
      : module(module), options(options), mode(mode),
        exchange(exchange.str()) {}

  llvm::Error compile(size_t index, const Configuration &config,
                      ConfigurationMeasurement &m) override;
  llvm::Expected<std::vector<HostTensor>> runOnce(size_t index) override;
  llvm::Error measure(size_t index, int warmup, int repetitions,
                      ConfigurationMeasurement &m) override;
  llvm::Error profileKernels(size_t index, const Configuration &config,
                             int warmup, int repetitions,
                             ConfigurationMeasurement &m) override;
  void release(size_t index) override {
    if (index < slots.size())
      slots[index].local.reset();
  }
  std::string getTarget() const override {
    namespace cuda = ::gopt::runtime::cuda;
    if (mode == CUDABackendMode::Replay && !recordedDevice.empty())
      return recordedDevice;
    if (mode != CUDABackendMode::Run || !cuda::isAvailable())
      return "cuda";
    return cuda::describeDevice();
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
    if (owner >= slots.size() || !slots[owner].compiled)
      return nullptr;
    return &slots[owner];
  }
  /// The slot configuration `index` runs from, or why it cannot run here.
  llvm::Expected<Slot *> runnable(size_t index) {
    Slot *s = runner(index);
    if (!s)
      return makeError("configuration #" + llvm::Twine(index) +
                       " is not compiled");
    if (mode == CUDABackendMode::Export)
      return makeError("--export-bundles compiles only: the bundles run on "
                       "a GPU machine (scripts/gpu-explore.sh)");
    return s;
  }
  llvm::Expected<std::vector<HostTensor>>
  recordedOutputs(const Slot &s) const;
  llvm::Error recordedRound(Slot &s, ConfigurationMeasurement &m);

  ModuleOp module;
  const ExploreOptions &options;
  CUDABackendMode mode;
  /// The exchange folder of Export and Replay.
  std::string exchange;
  /// Replay: "cuda-<chip> (<device>)" from the first recorded round.
  std::string recordedDevice;
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
  if (mode == CUDABackendMode::Run)
    if (std::string why = ::gopt::runtime::cuda::initialize(); !why.empty())
      return makeError("gopt-explore --target=cuda needs a usable CUDA "
                       "device: " +
                       llvm::Twine(why));
  auto program = buildConfigurationProgram(module, config, m);
  if (!program)
    return program.takeError();
  OwningOpRef<ModuleOp> clone = std::move(program->module);
  std::string hash = program->hash;
  // The same program launched as a graph is measured apart.
  bool cudaGraph = runsLoweringPass(config.loweringOptions, "cuda-graph");
  std::string key = hash + (cudaGraph ? "|launch cuda-graph" : "");
  if (auto known = programs.find(key); known != programs.end()) {
    shareProgram(known->second.name, known->second.figures, m);
    sharedWith[index] = known->second.index;
    return llvm::Error::success();
  }

  CompileOptions compile;
  compile.target = Target::CUDA;
  compile.entry = options.entry;
  compile.nvvmOptions = options.loweringOptions;
  compile.objectCacheDir = options.cacheDir;
  compile.objectCacheLimitBytes = options.cacheLimitBytes;
  compile.programHash = hash;
  auto graph = CompiledGraph::compile(*clone, compile);
  if (!graph)
    return graph.takeError();
  m.loweringMs = (*graph)->getCompileTimes().loweringMs;
  m.codegenMs = (*graph)->getCompileTimes().codegenMs;
  m.fromCache = (*graph)->getCompileTimes().fromCache;
  m.kernels = static_cast<int64_t>((*graph)->getKernels().size());
  if (entry.empty())
    entry = (*graph)->getEntry();
  if (inputs.empty())
    inputs = (*graph)->makeRandomInputs(options.seed);

  Slot &s = slot(index);
  s.cudaGraph = cudaGraph;
  std::string name = hash.substr(0, 16) + (cudaGraph ? "-graph" : "");
  if (mode == CUDABackendMode::Replay) {
    s.runsDir = joinPath(exchange, "runs", name);
    if (!llvm::sys::fs::is_directory(s.runsDir))
      return makeError("no recorded runs of this program in " +
                       llvm::Twine(s.runsDir) +
                       " (export the bundles again and run "
                       "scripts/gpu-explore.sh on them)");
    if (std::string error =
            ::gopt::deploy::readBundle(joinPath(exchange, "bundles", name),
                                       s.manifest);
        !error.empty())
      return makeError(error);
  } else if (mode == CUDABackendMode::Export) {
    std::string dir = joinPath(exchange, "bundles", name);
    llvm::sys::fs::remove_directories(dir);
    if (llvm::Error error = (*graph)->exportBundle(
            dir, inputs, /*reference=*/{}, config.pipeline, "none", cudaGraph))
      return error;
  } else {
    auto local = (*graph)->loadOnLocalGPU(inputs, /*expected=*/{},
                                          config.pipeline);
    if (!local)
      return local.takeError();
    s.local = std::move(*local);
    if (cudaGraph) {
      // One call first, outside the capture (cuBLAS's handle, the pool).
      (void)s.local->bundle->runToHost();
      ::gopt::deploy::GraphReport captured;
      if (std::string error = s.local->bundle->captureGraph(captured);
          !error.empty())
        return makeError(error);
      m.codegenMs += captured.captureMs;
    }
  }
  s.compiled = true;
  programs[key] = {index, config.name, m};
  return llvm::Error::success();
}

llvm::Expected<std::vector<HostTensor>> CUDABackend::runOnce(size_t index) {
  auto found = runnable(index);
  if (!found)
    return found.takeError();
  Slot *s = *found;
  if (mode == CUDABackendMode::Replay)
    return recordedOutputs(*s);
  const auto &results = s->local->bundle->getBundle().results;
  std::vector<std::vector<char>> bytes = s->cudaGraph
                                             ? s->local->bundle->replayToHost()
                                             : s->local->bundle->runToHost();
  std::vector<HostTensor> outputs;
  for (size_t i = 0; i < results.size(); ++i) {
    auto made = hostTensorFor(results[i], i);
    if (!made)
      return made.takeError();
    HostTensor tensor = std::move(*made);
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
  auto found = runnable(index);
  if (!found)
    return found.takeError();
  Slot *s = *found;
  if (mode == CUDABackendMode::Replay)
    return recordedRound(*s, m);
  int64_t peak = 0, allocations = 0, driverAllocations = 0;
  if (s->cudaGraph) {
    // The graph holds all of its buffers for as long as it lives.
    s->local->bundle->timeReplays(warmup, repetitions, m.runMs);
    peak = s->local->bundle->graphMemoryBytes();
  } else {
    s->local->bundle->timeCalls(warmup, repetitions, m.runMs, peak, allocations,
                                driverAllocations);
  }
  m.peakBytes = std::max(m.peakBytes, peak);
  return llvm::Error::success();
}

llvm::Error CUDABackend::profileKernels(size_t index,
                                        const Configuration &config,
                                        int warmup, int repetitions,
                                        ConfigurationMeasurement &m) {
  auto found = runnable(index);
  if (!found)
    return found.takeError();
  Slot *s = *found;
  if (mode == CUDABackendMode::Replay) {
    auto json = readJSON(joinPath(s->runsDir, "kernels.json"));
    if (!json)
      return json.takeError();
    m.kernelTimes.clear();
    if (const llvm::json::Array *kernels =
            json->getAsObject()->getArray("kernels"))
      for (const llvm::json::Value &k : *kernels) {
        const llvm::json::Object *o = k.getAsObject();
        if (!o)
          continue;
        m.kernelTimes.push_back(
            {o->getString("name").value_or("?").str(),
             o->getNumber("ms_per_run").value_or(0),
             o->getNumber("share").value_or(0)});
      }
    return llvm::Error::success();
  }
  double total = 0;
  m.kernelTimes.clear();
  for (const auto &k :
       s->local->bundle->profileKernels(warmup, repetitions, total))
    m.kernelTimes.push_back({k.name, k.msPerRun, k.share});
  return llvm::Error::success();
}

llvm::Expected<std::vector<HostTensor>>
CUDABackend::recordedOutputs(const Slot &s) const {
  std::vector<HostTensor> outputs;
  const auto &results = s.manifest.results;
  for (size_t i = 0; i < results.size(); ++i) {
    auto made = hostTensorFor(results[i], i);
    if (!made)
      return made.takeError();
    std::string path = joinPath(s.runsDir, "results",
                                "result" + std::to_string(i) + ".bin");
    auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!buffer)
      return makeError("cannot read " + llvm::Twine(path) + ": " +
                       buffer.getError().message());
    HostTensor tensor = std::move(*made);
    if ((*buffer)->getBufferSize() != tensor.getByteSize())
      return makeError(llvm::Twine(path) + " has " +
                       llvm::Twine((*buffer)->getBufferSize()) + " bytes; " +
                       llvm::Twine(tensor.getByteSize()) + " expected");
    if (tensor.getByteSize())
      std::memcpy(tensor.getData(), (*buffer)->getBufferStart(),
                  tensor.getByteSize());
    outputs.push_back(std::move(tensor));
  }
  return outputs;
}

llvm::Error CUDABackend::recordedRound(Slot &s, ConfigurationMeasurement &m) {
  std::string path =
      joinPath(s.runsDir, "round" + std::to_string(s.roundsTaken) + ".json");
  if (!llvm::sys::fs::exists(path))
    return makeError("only " + llvm::Twine(s.roundsTaken) +
                     " rounds were recorded in " + s.runsDir);
  auto json = readJSON(path);
  if (!json)
    return json.takeError();
  const llvm::json::Object &report = *json->getAsObject();
  // A graph's round: the replays' samples and the bytes the graph holds.
  const llvm::json::Object *timed = &report;
  if (s.cudaGraph && !(timed = report.getObject("cuda_graph")))
    return makeError(llvm::Twine(path) +
                     " has no cuda_graph report, though its bundle says "
                     "'launch cuda-graph'");
  const llvm::json::Array *samples = timed->getArray("latency_samples_ms");
  if (!samples || samples->empty())
    return makeError(llvm::Twine(path) + " has no latency_samples_ms");
  for (const llvm::json::Value &v : *samples)
    m.runMs.push_back(v.getAsNumber().value_or(0));
  m.peakBytes = std::max<int64_t>(
      m.peakBytes,
      timed->getInteger(s.cudaGraph ? "memory_bytes" : "peak_bytes")
          .value_or(0));
  if (recordedDevice.empty())
    recordedDevice = ::gopt::runtime::cuda::describeDevice(
        report.getString("chip").value_or("?").str(),
        report.getString("device").value_or("?").str());
  ++s.roundsTaken;
  return llvm::Error::success();
}

std::unique_ptr<ExploreBackend>
mlir::gopt::createCUDABackend(ModuleOp module, const ExploreOptions &options,
                              CUDABackendMode mode, llvm::StringRef dir) {
  return std::make_unique<CUDABackend>(module, options, mode, dir);
}

llvm::Expected<RecordedRuns>
mlir::gopt::readRecordedRuns(llvm::StringRef dir) {
  std::string runs = joinPath(dir, "runs");
  std::error_code ec;
  std::optional<int> fewest;
  std::string first;
  for (llvm::sys::fs::directory_iterator it(runs, ec), end; it != end && !ec;
       it.increment(ec)) {
    int rounds = 0;
    while (llvm::sys::fs::exists(
        joinPath(it->path(), "round" + std::to_string(rounds) + ".json")))
      ++rounds;
    fewest = std::min(fewest.value_or(rounds), rounds);
    if (first.empty() && rounds > 0)
      first = joinPath(it->path(), "round0.json");
  }
  if (ec)
    return makeError("cannot read " + llvm::Twine(runs) + ": " + ec.message());
  if (!fewest || *fewest == 0)
    return makeError("no recorded rounds in " + llvm::Twine(runs) +
                     " (scripts/gpu-explore.sh writes them)");
  auto json = readJSON(first);
  if (!json)
    return json.takeError();
  RecordedRuns recorded;
  recorded.rounds = *fewest;
  recorded.repetitions = static_cast<int>(
      json->getAsObject()->getInteger("repetitions").value_or(0));
  recorded.warmup = static_cast<int>(
      json->getAsObject()->getInteger("warmup").value_or(0));
  return recorded;
}
