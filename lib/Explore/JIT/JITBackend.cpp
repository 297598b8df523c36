//===- JITBackend.cpp - Configurations compiled and run on this CPU -------===//
//
// Each configuration's graph passes run on a clone of the model; the result
// is hashed (computeProgramHash, which the object cache reuses as its key),
// so configurations that end with the same program share one lowering, one
// JIT and one set of runs: a pass that changes nothing costs only its own
// time. The rest is the runner's:
// CompiledGraph lowers with gopt-lower-to-llvm and JITs at O3 for this CPU;
// measureGraph times runs on the runtime's tracking allocator.
//
// Compile memory is the growth of the resident set during the compile: the
// kernel's high-water mark (VmHWM) is reset before it (writing 5 to
// /proc/self/clear_refs) and read after it, less the resident size at the
// start. Where /proc does not allow that, it is reported as 0 (unknown).
//
//===----------------------------------------------------------------------===//

#include "GOpt/Explore/JITBackend.h"
#include "GOpt/Explore/ConfigurationProgram.h"
#include "GOpt/Runner/LoadTest.h"
#include "GOpt/Runner/Runner.h"
#include "GOpt/Runtime/Runtime.h"
#include "GOpt/Support/Error.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/TargetParser/Host.h"

#include <cstdio>
#include <map>

using namespace mlir;
using namespace mlir::gopt;

static_assert(kDefaultExploreCacheLimitBytes == kDefaultObjectCacheLimitBytes,
              "gopt-explore's cache bound defaults to the runner's");

namespace {

/// A "VmXXX:   1234 kB" line of /proc/self/status, in bytes (0: unknown).
int64_t readProcStatusBytes(llvm::StringRef key) {
  auto buffer = llvm::MemoryBuffer::getFileAsStream("/proc/self/status");
  if (!buffer)
    return 0;
  llvm::StringRef text = (*buffer)->getBuffer();
  while (!text.empty()) {
    auto [line, rest] = text.split('\n');
    text = rest;
    if (!line.consume_front(key) || !line.consume_front(":"))
      continue;
    int64_t kb = 0;
    line = line.trim();
    line = line.take_until([](char c) { return c == ' '; });
    if (line.getAsInteger(10, kb))
      return 0;
    return kb * 1024;
  }
  return 0;
}

/// Resets the resident high-water mark; false where the kernel refuses.
bool resetResidentHighWater() {
  std::FILE *f = std::fopen("/proc/self/clear_refs", "w");
  if (!f)
    return false;
  bool ok = std::fputs("5", f) >= 0;
  ok = std::fclose(f) == 0 && ok;
  return ok;
}

/// What is kept per configuration.
struct Slot {
  std::unique_ptr<CompiledGraph> graph;
  /// The program after the graph passes and its hash, for a build with
  /// kernel timers.
  OwningOpRef<ModuleOp> program;
  std::string programHash;
  /// The configuration's own lowering options (Configuration).
  std::string loweringOptions;
};

class JITBackend : public ExploreBackend {
public:
  JITBackend(ModuleOp module, const ExploreOptions &options)
      : module(module), options(options) {}

  llvm::Error compile(size_t index, const Configuration &config,
                      ConfigurationMeasurement &m) override;
  llvm::Expected<std::vector<HostTensor>> runOnce(size_t index) override;
  llvm::Error measure(size_t index, int warmup, int repetitions,
                      ConfigurationMeasurement &m) override;
  llvm::Error profileKernels(size_t index, const Configuration &config,
                             int warmup, int repetitions,
                             ConfigurationMeasurement &m) override;
  llvm::Error loadTest(size_t index, const ExploreOptions &options,
                       ConfigurationMeasurement &m) override;
  void release(size_t index) override {
    if (index < slots.size()) {
      slots[index].graph.reset();
      slots[index].program = nullptr;
    }
  }
  std::string getTarget() const override {
    return "cpu-" + llvm::sys::getHostCPUName().str();
  }
  std::string getEntry() const override { return entry; }

private:
  Slot &slot(size_t index) {
    if (slots.size() <= index)
      slots.resize(index + 1);
    return slots[index];
  }
  /// How every configuration's program is compiled: the explorer's entry,
  /// lowering options (then the configuration's own) and compile cache,
  /// with or without kernel timers.
  CompileOptions compileOptions(bool kernelTimers,
                                const std::string &programHash,
                                llvm::StringRef configLowering) const {
    CompileOptions compile;
    compile.entry = options.entry;
    compile.loweringOptions = options.loweringOptions;
    if (!configLowering.empty())
      compile.loweringOptions +=
          (compile.loweringOptions.empty() ? "" : " ") + configLowering.str();
    compile.kernelTimers = kernelTimers;
    compile.objectCacheDir = options.cacheDir;
    compile.objectCacheLimitBytes = options.cacheLimitBytes;
    compile.programHash = programHash;
    return compile;
  }

  ModuleOp module;
  const ExploreOptions &options;
  std::vector<Slot> slots;
  /// Program hash -> (configuration name, its compile figures).
  std::map<std::string, std::pair<std::string, ConfigurationMeasurement>>
      programs;
  std::vector<HostTensor> inputs;
  std::string entry;
  bool warmedUp = false;
};

} // namespace

llvm::Error JITBackend::compile(size_t index, const Configuration &config,
                                ConfigurationMeasurement &m) {
  if (!warmedUp) {
    // The first compile in a process pays for one-time set-up (target and
    // pass registries, dialect loading, the JIT's own start); one untimed
    // compile of the model keeps that off the first configuration's bill.
    // It bypasses the compile cache: its times must not be stored as the
    // baseline's.
    warmedUp = true;
    CompileOptions warm;
    warm.entry = options.entry;
    warm.loweringOptions = options.loweringOptions;
    if (auto graph = CompiledGraph::compile(module, warm); !graph)
      llvm::consumeError(graph.takeError());
  }
  bool canResetHighWater = resetResidentHighWater();
  int64_t residentBefore = readProcStatusBytes("VmRSS");

  auto program = buildConfigurationProgram(module, config, m);
  if (!program)
    return program.takeError();
  OwningOpRef<ModuleOp> clone = std::move(program->module);
  // Programs are the same when their graphs and their lowerings are.
  std::string hash = program->hash;
  if (!config.loweringOptions.empty())
    hash += "|lowering " + config.loweringOptions;
  if (auto known = programs.find(hash); known != programs.end()) {
    shareProgram(known->second.first, known->second.second, m);
    return llvm::Error::success();
  }

  auto graph = CompiledGraph::compile(
      *clone,
      compileOptions(/*kernelTimers=*/false, hash, config.loweringOptions));
  if (!graph)
    return graph.takeError();
  m.loweringMs = (*graph)->getCompileTimes().loweringMs;
  m.codegenMs = (*graph)->getCompileTimes().codegenMs;
  m.fromCache = (*graph)->getCompileTimes().fromCache;
  m.kernels = static_cast<int64_t>((*graph)->getKernels().size());
  m.bufferPlan = (*graph)->getBufferPlan();
  if (canResetHighWater && !m.fromCache) {
    int64_t highWater = readProcStatusBytes("VmHWM");
    m.compilePeakBytes = std::max<int64_t>(0, highWater - residentBefore);
  }
  if (entry.empty())
    entry = (*graph)->getEntry();
  if (inputs.empty())
    inputs = (*graph)->makeRandomInputs(options.seed);
  slot(index).graph = std::move(*graph);
  slot(index).programHash = hash;
  slot(index).loweringOptions = config.loweringOptions;
  if (options.profileKernels)
    slot(index).program = std::move(clone);
  programs[hash] = {config.name, m};
  return llvm::Error::success();
}

llvm::Expected<std::vector<HostTensor>> JITBackend::runOnce(size_t index) {
  Slot &s = slot(index);
  if (!s.graph)
    return makeError("configuration #" + llvm::Twine(index) +
                     " is not compiled");
  // The first run happens in a child process: code that traps takes the
  // child down, not the exploration, and is reported as a failed run.
  if (llvm::Error error = s.graph->checkRunsWithoutTrapping(
          inputs, options.configTimeoutSeconds))
    return std::move(error);
  return s.graph->run(inputs);
}

llvm::Error JITBackend::measure(size_t index, int warmup, int repetitions,
                                ConfigurationMeasurement &m) {
  Slot &s = slot(index);
  if (!s.graph)
    return makeError("configuration #" + llvm::Twine(index) +
                     " is not compiled");
  // The runtime's allocator is the process's: free blocks cached from the
  // configurations measured before would count as this one's memory held
  // at its peak. Dropping them costs fresh pages on the next run, which a
  // warm-up run takes.
  runtime::releaseCachedMemory();
  MeasureOptions measure;
  measure.warmup = std::max(warmup, 1);
  measure.repetitions = repetitions;
  // The first round also follows the water level, over --steady-runs more.
  bool first = m.waterLevel.empty();
  if (first)
    measure.steadyRuns = options.steadyRuns;
  auto report = measureGraph(*s.graph, inputs, measure);
  if (!report)
    return report.takeError();
  if (first)
    m.waterLevel = report->reservedByRun;
  m.runMs.insert(m.runMs.end(), report->latencyMs.begin(),
                 report->latencyMs.end());
  m.peakBytes = std::max(m.peakBytes, report->peakBytes);
  m.reservedAtPeakBytes = report->reservedAtPeak;
  m.largestFreeAtPeakBytes = report->largestFreeAtPeak;
  m.externalFragmentation = report->externalFragmentation;
  return llvm::Error::success();
}

llvm::Error JITBackend::profileKernels(size_t index,
                                       const Configuration &config,
                                       int warmup, int repetitions,
                                       ConfigurationMeasurement &m) {
  Slot &s = slot(index);
  if (!s.program)
    return makeError("the program of '" + config.name + "' was not kept");
  auto graph = CompiledGraph::compile(
      *s.program,
      compileOptions(/*kernelTimers=*/true, s.programHash, s.loweringOptions));
  if (!graph)
    return graph.takeError();
  MeasureOptions measure;
  measure.warmup = warmup;
  measure.repetitions = repetitions;
  auto report = measureGraph(**graph, inputs, measure);
  if (!report)
    return report.takeError();
  m.kernelTimes.clear();
  for (const KernelReport &k : report->kernels)
    m.kernelTimes.push_back({k.name, k.msPerRun, k.share});
  return llvm::Error::success();
}

llvm::Error JITBackend::loadTest(size_t index, const ExploreOptions &options,
                                 ConfigurationMeasurement &m) {
  Slot &s = slot(index);
  if (!s.graph)
    return makeError("configuration #" + llvm::Twine(index) +
                     " is not compiled");
  const ChoiceCriteria &criteria = options.analysis.criteria;
  LoadTestOptions load;
  load.qps = criteria.qps;
  load.requests = options.loadRequests;
  load.workers = options.loadWorkers;
  load.seed = options.seed;
  LoadMeasurement out;
  auto record = [&](const LoadTestReport &report) {
    out.qps = report.options.qps;
    out.requests = report.options.requests;
    out.workers = report.options.workers;
    out.p50Ms = report.latency.median;
    out.p90Ms = report.p90Ms;
    out.p99Ms = report.p99Ms;
    out.maxMs = report.maxMs;
    out.achievedPerSecond = report.achievedPerSecond;
    out.utilization = report.utilization;
  };
  if (load.qps > 0) {
    auto stream = runLoadTest(*s.graph, inputs, load);
    if (!stream)
      return stream.takeError();
    record(*stream);
  }
  if (criteria.p99BoundMs > 0) {
    auto sustained =
        findSustainedRate(*s.graph, inputs, load, criteria.p99BoundMs);
    if (!sustained)
      return sustained.takeError();
    out.sustainedQps = sustained->qps;
    out.stoppedBecause = sustained->stoppedBecause;
    // Without a rate of its own, the stream at the sustained rate is the
    // figure under load.
    if (load.qps <= 0 && sustained->qps > 0)
      record(sustained->atRate);
    // No rate met the bound: the lowest p99 tried stands for it, above
    // the bound, so the choice leaves the configuration out.
    if (load.qps <= 0 && sustained->qps <= 0 && !sustained->trials.empty()) {
      const SustainedRate::Trial *lowest = &sustained->trials.front();
      for (const SustainedRate::Trial &trial : sustained->trials)
        if (trial.p99Ms < lowest->p99Ms)
          lowest = &trial;
      out.qps = lowest->qps;
      out.requests = load.requests;
      out.workers = load.workers;
      out.p99Ms = lowest->p99Ms;
    }
  }
  m.load = std::move(out);
  return llvm::Error::success();
}

std::unique_ptr<ExploreBackend>
mlir::gopt::createJITBackend(ModuleOp module, const ExploreOptions &options) {
  return std::make_unique<JITBackend>(module, options);
}
