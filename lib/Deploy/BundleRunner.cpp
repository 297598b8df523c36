//===- BundleRunner.cpp - Load a bundle, run it on the GPU, measure it ----===//

#include "GOpt/Deploy/BundleRunner.h"
#include "GOpt/Deploy/PackedCall.h"
#include "GOpt/Support/Format.h"
#include "GOpt/Support/Timing.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <ostream>
#include <set>

namespace gopt {
namespace deploy {

namespace cuda = gopt::runtime::cuda;

namespace {

using mlir::gopt::formatBytes;
using mlir::gopt::nowMs;

double halfToDouble(uint16_t h) {
  int sign = h >> 15, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  double value;
  if (exponent == 0)
    value = std::ldexp(mantissa, -24);
  else if (exponent == 31)
    value = mantissa ? NAN : INFINITY;
  else
    value = std::ldexp(mantissa + 1024, exponent - 25);
  return sign ? -value : value;
}

/// Element i of a buffer of `type` as a double.
double elementAt(const std::string &type, const char *data, int64_t i) {
  if (type == "f32") {
    float v;
    std::memcpy(&v, data + 4 * i, 4);
    return v;
  }
  if (type == "f64") {
    double v;
    std::memcpy(&v, data + 8 * i, 8);
    return v;
  }
  if (type == "f16") {
    uint16_t v;
    std::memcpy(&v, data + 2 * i, 2);
    return halfToDouble(v);
  }
  if (type == "bf16") {
    uint16_t v;
    std::memcpy(&v, data + 2 * i, 2);
    uint32_t bits = uint32_t(v) << 16;
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
  }
  if (type == "i64") {
    int64_t v;
    std::memcpy(&v, data + 8 * i, 8);
    return static_cast<double>(v);
  }
  if (type == "i32") {
    int32_t v;
    std::memcpy(&v, data + 4 * i, 4);
    return v;
  }
  if (type == "i16") {
    int16_t v;
    std::memcpy(&v, data + 2 * i, 2);
    return v;
  }
  return static_cast<int8_t>(data[i]);
}

bool isFloat(const std::string &type) { return type[0] == 'f' || type == "bf16"; }

ResultCheck compare(const BundleTensor &tensor, const std::vector<char> &got,
                    const std::vector<char> &want, double rtol, double atol) {
  ResultCheck check;
  check.describe = tensor.describe();
  check.hasReference = true;
  bool floating = isFloat(tensor.elementType);
  for (int64_t i = 0, e = tensor.numElements(); i < e; ++i) {
    double g = elementAt(tensor.elementType, got.data(), i);
    double w = elementAt(tensor.elementType, want.data(), i);
    bool same;
    double absError = std::fabs(g - w);
    if (!floating) {
      same = g == w;
    } else if (std::isnan(w) || std::isnan(g)) {
      same = std::isnan(w) && std::isnan(g);
      absError = same ? 0 : INFINITY;
    } else if (std::isinf(w) || std::isinf(g)) {
      same = g == w;
      absError = same ? 0 : INFINITY;
    } else {
      same = absError <= atol + rtol * std::fabs(w);
    }
    check.maxAbsError = std::max(check.maxAbsError, absError);
    if (std::fabs(w) > 0 && std::isfinite(absError))
      check.maxRelError = std::max(check.maxRelError, absError / std::fabs(w));
    if (!same) {
      if (check.mismatches == 0) {
        char text[160];
        std::snprintf(text, sizeof(text), "element %lld: got %.9g, want %.9g",
                      static_cast<long long>(i), g, w);
        check.firstMismatch = text;
      }
      ++check.mismatches;
      check.matches = false;
    }
  }
  return check;
}

} // namespace

bool BundleReport::allMatch() const {
  for (const ResultCheck &r : results)
    if (!r.matches)
      return false;
  for (const ResultCheck &r : graph.results)
    if (!r.matches)
      return false;
  return true;
}

double BundleReport::launchesPerRun() const {
  double launches = 0;
  for (const KernelShare &k : kernels)
    launches += k.launchesPerRun;
  return launches;
}

double BundleReport::overheadPerLaunchMs() const {
  double launches = launchesPerRun();
  return launches > 0 && profiledRuns > 0
             ? std::max(0.0, latency.median - kernelMsPerRun) / launches
             : 0;
}

double BundleReport::graphOverheadPerLaunchMs() const {
  double launches = launchesPerRun();
  return launches > 0 && profiledRuns > 0 && graph.measured
             ? std::max(0.0, graph.latency.median - kernelMsPerRun) / launches
             : 0;
}

double BundleReport::overheadShare() const {
  return latency.median > 0 && profiledRuns > 0
             ? std::max(0.0, 1.0 - kernelMsPerRun / latency.median)
             : 0;
}

double BundleReport::effectiveGBPerSecond() const {
  return latency.median > 0 ? movedBytes / (latency.median * 1e6) : 0;
}

LoadedBundle::~LoadedBundle() {
  graph.reset();
  if (cuda::isAvailable())
    for (void *ptr : deviceArguments)
      cuda::freeDevice(ptr);
  // The library stays loaded: its destructors unload the kernels' modules
  // at exit, after everything that may still use them.
}

std::unique_ptr<LoadedBundle> LoadedBundle::load(const std::string &dir,
                                                 std::string &error) {
  std::unique_ptr<LoadedBundle> loaded(new LoadedBundle());
  loaded->dir = dir;
  Bundle &bundle = loaded->bundle;
  if (!(error = readBundle(dir, bundle)).empty())
    return nullptr;
  if (bundle.target != "cuda") {
    error = dir + ": a bundle for target '" + bundle.target +
            "'; this runner runs 'cuda' bundles";
    return nullptr;
  }
  std::string why = cuda::initialize();
  if (!why.empty()) {
    error = "cannot run " + dir + " (compiled for " + bundle.chip + "): " + why;
    return nullptr;
  }
  std::string chip = cuda::deviceChip();
  if (!chip.empty() && chip != bundle.chip) {
    // A cubin runs only on its own architecture (PTX would be compiled
    // for the device by the driver; bundles hold cubins when the toolkit
    // was found).
    std::fprintf(stderr,
                 "gopt-exec: note: %s was compiled for %s; the device is %s "
                 "(%s)\n",
                 dir.c_str(), bundle.chip.c_str(), chip.c_str(),
                 cuda::deviceName().c_str());
  }
  // Inputs and weights to the device first, so a bad tensor file is
  // reported before the library is loaded.
  std::vector<std::vector<char>> hostArguments;
  for (const BundleTensor &tensor : bundle.inputs) {
    if (tensor.file.empty()) {
      hostArguments.push_back(generateInput(tensor));
      continue;
    }
    hostArguments.emplace_back();
    if (!(error = readTensorFile(dir, tensor, hostArguments.back())).empty())
      return nullptr;
  }
  for (const BundleTensor &tensor : bundle.weights) {
    hostArguments.emplace_back();
    if (!(error = readTensorFile(dir, tensor, hostArguments.back())).empty())
      return nullptr;
  }
  for (size_t i = 0; i < hostArguments.size(); ++i) {
    double start = nowMs();
    void *ptr = cuda::allocateDevice(hostArguments[i].size());
    cuda::copy(ptr, hostArguments[i].data(), hostArguments[i].size());
    loaded->deviceArguments.push_back(ptr);
    (i < bundle.inputs.size() ? loaded->inputCopyMs : loaded->weightCopyMs) +=
        nowMs() - start;
  }

  std::string path = bundlePath(dir, bundle.library);
  double start = nowMs();
  loaded->library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!loaded->library) {
    const char *reason = dlerror();
    error = "cannot load " + path + ": " + (reason ? reason : "unknown reason");
    return nullptr;
  }
  loaded->packedEntry = reinterpret_cast<void (*)(void **)>(
      dlsym(loaded->library, bundle.entrySymbol.c_str()));
  if (!loaded->packedEntry) {
    error = path + " has no entry symbol " + bundle.entrySymbol;
    return nullptr;
  }
  loaded->loadMs = nowMs() - start;
  return loaded;
}

void LoadedBundle::call(std::vector<int64_t> &resultWords) {
  std::vector<std::vector<int64_t>> descriptors;
  size_t i = 0;
  for (const BundleTensor &tensor : bundle.inputs)
    descriptors.push_back(describeRowMajor(deviceArguments[i++], tensor.shape));
  for (const BundleTensor &tensor : bundle.weights)
    descriptors.push_back(describeRowMajor(deviceArguments[i++], tensor.shape));
  std::vector<int64_t> resultRanks;
  for (const BundleTensor &tensor : bundle.results)
    resultRanks.push_back(static_cast<int64_t>(tensor.shape.size()));
  callPacked(packedEntry, descriptors, resultRanks, resultWords);
}

std::vector<std::vector<char>>
LoadedBundle::copyResultsToHost(const std::vector<int64_t> &resultWords) {
  std::vector<std::vector<char>> results;
  int64_t at = 0;
  for (const BundleTensor &tensor : bundle.results) {
    size_t rank = tensor.shape.size();
    size_t elementBytes = elementTypeBytes(tensor.elementType);
    auto *aligned = reinterpret_cast<char *>(resultWords[at + 1]);
    int64_t offset = resultWords[at + 2];
    // The span of elements the descriptor covers, copied in one piece,
    // then gathered row-major through its strides.
    int64_t span = 1;
    for (size_t d = 0; d < rank; ++d)
      if (tensor.shape[d] > 0)
        span += (tensor.shape[d] - 1) * resultWords[at + 3 + rank + d];
    std::vector<char> device(tensor.numElements() ? span * elementBytes : 0);
    if (!device.empty())
      cuda::copy(device.data(), aligned + offset * elementBytes, device.size());
    std::vector<char> out(tensor.byteSize());
    std::vector<int64_t> index(rank, 0);
    for (int64_t i = 0, e = tensor.numElements(); i < e; ++i) {
      int64_t element = 0;
      for (size_t d = 0; d < rank; ++d)
        element += index[d] * resultWords[at + 3 + rank + d];
      std::memcpy(out.data() + i * elementBytes,
                  device.data() + element * elementBytes, elementBytes);
      for (size_t d = rank; d-- > 0;) {
        if (++index[d] < tensor.shape[d])
          break;
        index[d] = 0;
      }
    }
    results.push_back(std::move(out));
    at += memrefDescriptorWords(static_cast<int64_t>(rank));
  }
  return results;
}

void LoadedBundle::freeResults(const std::vector<int64_t> &resultWords) {
  std::set<void *> freed;
  int64_t at = 0;
  for (const BundleTensor &tensor : bundle.results) {
    auto *allocated = reinterpret_cast<void *>(resultWords[at]);
    // A result that is an input or weight as is stays the caller's.
    bool argument = std::find(deviceArguments.begin(), deviceArguments.end(),
                              allocated) != deviceArguments.end();
    if (allocated && !argument && freed.insert(allocated).second)
      cuda::freeDevice(allocated);
    at += memrefDescriptorWords(static_cast<int64_t>(tensor.shape.size()));
  }
}

std::string LoadedBundle::run(const BundleRunOptions &options,
                              BundleReport &report) {
  if (options.repetitions < 1)
    return "repetitions must be at least 1";
  report = BundleReport();
  report.dir = dir;
  report.deviceName = cuda::deviceName();
  report.deviceChip = cuda::deviceChip();
  report.driverVersion = cuda::driverVersion();
  report.warmup = std::max(0, options.warmup);
  report.repetitions = options.repetitions;
  report.loadMs = loadMs;
  report.weightCopyMs = weightCopyMs;
  report.inputCopyMs = inputCopyMs;
  for (const BundleTensor &t : bundle.inputs)
    report.residentBytes += t.byteSize();
  for (const BundleTensor &t : bundle.weights)
    report.residentBytes += t.byteSize();
  report.movedBytes = report.residentBytes;
  for (const BundleTensor &t : bundle.results)
    report.movedBytes += t.byteSize();

  // The first call: its results against the reference.
  std::vector<int64_t> resultWords;
  call(resultWords);
  double start = nowMs();
  std::vector<std::vector<char>> results = copyResultsToHost(resultWords);
  report.resultCopyMs = nowMs() - start;
  freeResults(resultWords);
  if (std::string error = checkResults(results, options, report.results);
      !error.empty())
    return error;

  timeCalls(report.warmup, report.repetitions, report.latencyMs,
            report.peakBytes, report.allocationsPerRun,
            report.driverAllocationsPerRun);
  report.latency = mlir::gopt::SampleSummary::of(report.latencyMs);
  report.reservedBytes = cuda::deviceMemoryStats().reservedBytes;
  if (options.kernelTimes) {
    report.kernels =
        profileKernels(/*warmup=*/0, report.repetitions, report.kernelMsPerRun);
    report.profiledRuns = report.repetitions;
  }
  if (options.cudaGraph || bundle.cudaGraph) {
    if (std::string error = captureGraph(report.graph); !error.empty())
      return error;
    if (std::string error =
            checkResults(replayToHost(), options, report.graph.results);
        !error.empty())
      return error;
    timeReplays(report.warmup, report.repetitions, report.graph.latencyMs);
    report.graph.latency =
        mlir::gopt::SampleSummary::of(report.graph.latencyMs);
    report.graph.measured = true;
  }
  if (options.copyBandwidthBytes)
    report.copy = cuda::measureCopyBandwidth(options.copyBandwidthBytes, 10);
  return "";
}

std::string
LoadedBundle::checkResults(const std::vector<std::vector<char>> &results,
                           const BundleRunOptions &options,
                           std::vector<ResultCheck> &checks) {
  checks.clear();
  for (size_t i = 0; i < bundle.results.size(); ++i) {
    const BundleTensor &tensor = bundle.results[i];
    if (tensor.file.empty()) {
      ResultCheck none;
      none.describe = tensor.describe();
      checks.push_back(none);
      continue;
    }
    std::vector<char> want;
    std::string error = readTensorFile(dir, tensor, want);
    if (!error.empty())
      return error;
    checks.push_back(
        compare(tensor, results[i], want, options.rtol, options.atol));
  }
  return "";
}

std::string LoadedBundle::captureGraph(GraphReport &report) {
  graph.reset();
  graphResultWords.clear();
  double start = nowMs();
  if (std::string error = cuda::beginGraphCapture(); !error.empty())
    return error;
  call(graphResultWords);
  std::string error;
  graph = cuda::endGraphCapture(error);
  if (!graph)
    return "capturing " + dir + " as a CUDA graph failed: " + error;
  report.captureMs = nowMs() - start;
  static_cast<cuda::GraphFigures &>(report) = *graph;
  return "";
}

std::vector<std::vector<char>> LoadedBundle::replayToHost() {
  graph->replay();
  return copyResultsToHost(graphResultWords);
}

void LoadedBundle::timeReplays(int warmup, int repetitions,
                               std::vector<double> &ms) {
  for (int i = 0; i < warmup; ++i)
    graph->replay();
  for (int r = 0; r < repetitions; ++r) {
    double begin = nowMs();
    graph->replay();
    ms.push_back(nowMs() - begin);
  }
}

std::vector<std::vector<char>> LoadedBundle::runToHost() {
  std::vector<int64_t> resultWords;
  call(resultWords);
  std::vector<std::vector<char>> results = copyResultsToHost(resultWords);
  freeResults(resultWords);
  return results;
}

void LoadedBundle::timeCalls(int warmup, int repetitions,
                             std::vector<double> &ms, int64_t &peakBytes,
                             int64_t &allocations,
                             int64_t &driverAllocations) {
  std::vector<int64_t> resultWords;
  for (int i = 0; i < warmup; ++i) {
    call(resultWords);
    freeResults(resultWords);
  }
  for (int r = 0; r < repetitions; ++r) {
    cuda::resetPeakDeviceMemory();
    cuda::DeviceMemoryStats before = cuda::deviceMemoryStats();
    double begin = nowMs();
    call(resultWords);
    double end = nowMs();
    cuda::DeviceMemoryStats after = cuda::deviceMemoryStats();
    freeResults(resultWords);
    ms.push_back(end - begin);
    peakBytes = std::max(peakBytes, after.peakBytes - before.liveBytes);
    allocations = after.allocations - before.allocations;
    driverAllocations = after.driverAllocations - before.driverAllocations;
  }
}

std::vector<KernelShare> LoadedBundle::profileKernels(int warmup,
                                                      int repetitions,
                                                      double &kernelMsPerRun) {
  std::vector<int64_t> resultWords;
  for (int i = 0; i < warmup; ++i) {
    call(resultWords);
    freeResults(resultWords);
  }
  cuda::collectKernelTimes(); // drop anything pending
  cuda::setKernelProfiling(true);
  for (int r = 0; r < repetitions; ++r) {
    call(resultWords);
    freeResults(resultWords);
  }
  cuda::setKernelProfiling(false);
  std::vector<KernelShare> kernels;
  kernelMsPerRun = 0;
  double runs = std::max(1, repetitions);
  for (const cuda::KernelTime &k : cuda::collectKernelTimes()) {
    KernelShare share;
    share.name = k.name;
    share.launchesPerRun = k.launches / runs;
    share.msPerRun = k.totalMs / runs;
    kernelMsPerRun += share.msPerRun;
    kernels.push_back(std::move(share));
  }
  for (KernelShare &k : kernels)
    k.share = kernelMsPerRun > 0 ? k.msPerRun / kernelMsPerRun : 0;
  return kernels;
}

std::string LoadedBundle::writeResults(const std::string &outDir) {
  std::vector<std::vector<char>> results = graph ? replayToHost() : runToHost();
  for (size_t i = 0; i < results.size(); ++i) {
    std::string error = writeFile(outDir, "result" + std::to_string(i) + ".bin",
                                  results[i].data(), results[i].size());
    if (!error.empty())
      return error;
  }
  return "";
}

void printBundleReport(const BundleReport &r, std::ostream &os) {
  char line[256];
  os << r.dir << " on " << r.deviceName << " (" << r.deviceChip
     << ", driver " << r.driverVersion << ")\n";
  for (size_t i = 0; i < r.results.size(); ++i) {
    const ResultCheck &c = r.results[i];
    if (!c.hasReference)
      std::snprintf(line, sizeof(line), "  result %zu  %s: no reference\n", i,
                    c.describe.c_str());
    else if (c.matches)
      std::snprintf(line, sizeof(line),
                    "  result %zu  %s: matches the reference (max abs error "
                    "%.3g, max rel error %.3g)\n",
                    i, c.describe.c_str(), c.maxAbsError, c.maxRelError);
    else
      std::snprintf(line, sizeof(line),
                    "  result %zu  %s: MISMATCH in %lld elements, first %s\n",
                    i, c.describe.c_str(), static_cast<long long>(c.mismatches),
                    c.firstMismatch.c_str());
    os << line;
  }
  std::snprintf(line, sizeof(line),
                "  latency     %.4f ms median [IQR %.4f-%.4f], CV %.1f%%, min "
                "%.4f (%d runs after %d warm-up)\n",
                r.latency.median, r.latency.q1, r.latency.q3,
                100 * r.latency.cv, r.latency.min, r.repetitions, r.warmup);
  os << line;
  os << "  memory      peak " << formatBytes(r.peakBytes)
     << " on the device during a run, " << r.allocationsPerRun
     << " allocations per run (" << r.driverAllocationsPerRun
     << " from the driver); inputs and weights " << formatBytes(r.residentBytes)
     << " resident; pool reserves " << formatBytes(r.reservedBytes) << "\n";
  std::snprintf(line, sizeof(line),
                "  outside     load %.2f ms, weights to device %.2f ms, inputs "
                "%.2f ms, results to host %.2f ms\n",
                r.loadMs, r.weightCopyMs, r.inputCopyMs, r.resultCopyMs);
  os << line;
  if (r.profiledRuns > 0) {
    std::snprintf(line, sizeof(line),
                  "  kernels     %zu, %.4f ms per run on the device (CUDA "
                  "events, %d runs apart); the rest of the latency, %.0f%%, "
                  "is launches, host code and synchronization\n",
                  r.kernels.size(), r.kernelMsPerRun, r.profiledRuns,
                  100 * r.overheadShare());
    os << line;
    os << "        ms/run   share  launches  kernel\n";
    for (const KernelShare &k : r.kernels) {
      std::snprintf(line, sizeof(line), "    %10.4f %6.1f%%  %8.1f  %s\n",
                    k.msPerRun, 100 * k.share, k.launchesPerRun,
                    k.name.c_str());
      os << line;
    }
  }
  if (r.graph.measured) {
    const GraphReport &g = r.graph;
    std::snprintf(line, sizeof(line),
                  "  cuda graph  %.4f ms median [IQR %.4f-%.4f], %.2fx the "
                  "stream launches (%d replays)\n",
                  g.latency.median, g.latency.q1, g.latency.q3,
                  g.latency.median > 0 ? r.latency.median / g.latency.median
                                       : 0,
                  r.repetitions);
    os << line;
    std::snprintf(line, sizeof(line),
                  "              one launch of %lld kernel nodes, %lld copies, "
                  "%lld memsets; captured in %.2f ms\n",
                  static_cast<long long>(g.kernelNodes),
                  static_cast<long long>(g.copyNodes),
                  static_cast<long long>(g.memsetNodes), g.captureMs);
    os << line;
    os << "              holds " << formatBytes(g.memoryBytes)
       << " on the device while it lives";
    if (g.stagedBytes)
      os << " (" << formatBytes(g.stagedBytes) << " of host constants staged)";
    os << "\n";
    if (r.profiledRuns > 0 && r.launchesPerRun() > 0) {
      std::snprintf(
          line, sizeof(line),
          "              beyond the kernels' time: %.2f us per launch "
          "with streams, %.2f in the graph\n",
          1e3 * r.overheadPerLaunchMs(), 1e3 * r.graphOverheadPerLaunchMs());
      os << line;
    }
    for (size_t i = 0; i < g.results.size(); ++i) {
      const ResultCheck &c = g.results[i];
      if (!c.hasReference)
        continue;
      if (c.matches)
        std::snprintf(line, sizeof(line),
                      "              result %zu matches the reference (max abs "
                      "error %.3g)\n",
                      i, c.maxAbsError);
      else
        std::snprintf(line, sizeof(line),
                      "              result %zu: MISMATCH in %lld elements, "
                      "first %s\n",
                      i, static_cast<long long>(c.mismatches),
                      c.firstMismatch.c_str());
      os << line;
    }
  }
  if (r.copy.gbPerSecond > 0) {
    std::snprintf(line, sizeof(line),
                  "  bandwidth   %.1f GB/s effective (%s of inputs, weights, "
                  "results per run) = %.1f%% of device copy %.0f GB/s\n",
                  r.effectiveGBPerSecond(), formatBytes(r.movedBytes).c_str(),
                  100 * r.effectiveGBPerSecond() / r.copy.gbPerSecond,
                  r.copy.gbPerSecond);
    os << line;
  }
}

void printBundleReportJSON(const BundleReport &r, std::ostream &os) {
  char number[64];
  auto num = [&](double v) {
    std::snprintf(number, sizeof(number), "%.9g", std::isfinite(v) ? v : -1.0);
    return std::string(number);
  };
  // "latency_ms": {median, q1, q3, min, max, cv}, "latency_samples_ms".
  auto latency = [&](const mlir::gopt::SampleSummary &l,
                     const std::vector<double> &samples) {
    os << "\"latency_ms\": {\"median\": " << num(l.median)
       << ", \"q1\": " << num(l.q1) << ", \"q3\": " << num(l.q3)
       << ", \"min\": " << num(l.min) << ", \"max\": " << num(l.max)
       << ", \"cv\": " << num(l.cv) << "}, \"latency_samples_ms\": [";
    for (size_t i = 0; i < samples.size(); ++i)
      os << (i ? ", " : "") << num(samples[i]);
    os << "]";
  };
  auto str = [](const std::string &s) {
    std::string out = "\"";
    for (char c : s) {
      if (c == '"' || c == '\\')
        out += '\\';
      if (static_cast<unsigned char>(c) >= 0x20)
        out += c;
    }
    return out + "\"";
  };
  os << "{\"bundle\": " << str(r.dir) << ", \"device\": " << str(r.deviceName)
     << ", \"chip\": " << str(r.deviceChip)
     << ", \"driver\": " << r.driverVersion << ", \"warmup\": " << r.warmup
     << ", \"repetitions\": " << r.repetitions << ", ";
  latency(r.latency, r.latencyMs);
  os << ", \"peak_bytes\": " << r.peakBytes
     << ", \"allocations_per_run\": " << r.allocationsPerRun
     << ", \"driver_allocations_per_run\": " << r.driverAllocationsPerRun
     << ", \"reserved_bytes\": " << r.reservedBytes
     << ", \"resident_bytes\": " << r.residentBytes
     << ", \"moved_bytes\": " << r.movedBytes
     << ", \"effective_gb_per_s\": " << num(r.effectiveGBPerSecond())
     << ", \"copy_gb_per_s\": " << num(r.copy.gbPerSecond)
     << ", \"load_ms\": " << num(r.loadMs)
     << ", \"weight_copy_ms\": " << num(r.weightCopyMs)
     << ", \"input_copy_ms\": " << num(r.inputCopyMs)
     << ", \"result_copy_ms\": " << num(r.resultCopyMs)
     << ", \"profiled_runs\": " << r.profiledRuns
     << ", \"kernel_ms_per_run\": " << num(r.kernelMsPerRun)
     << ", \"overhead_share\": " << num(r.overheadShare())
     << ", \"kernels\": [";
  for (size_t i = 0; i < r.kernels.size(); ++i) {
    const KernelShare &k = r.kernels[i];
    os << (i ? ", " : "") << "{\"name\": " << str(k.name)
       << ", \"launches_per_run\": " << num(k.launchesPerRun)
       << ", \"ms_per_run\": " << num(k.msPerRun)
       << ", \"share\": " << num(k.share) << "}";
  }
  os << "], \"results\": [";
  for (size_t i = 0; i < r.results.size(); ++i) {
    const ResultCheck &c = r.results[i];
    os << (i ? ", " : "") << "{\"type\": " << str(c.describe)
       << ", \"has_reference\": " << (c.hasReference ? "true" : "false")
       << ", \"matches\": " << (c.matches ? "true" : "false")
       << ", \"mismatches\": " << c.mismatches
       << ", \"max_abs_error\": " << num(c.maxAbsError)
       << ", \"max_rel_error\": " << num(c.maxRelError) << "}";
  }
  os << "], \"cuda_graph\": ";
  if (!r.graph.measured) {
    os << "null";
  } else {
    const GraphReport &g = r.graph;
    os << "{";
    latency(g.latency, g.latencyMs);
    os << ", \"capture_ms\": " << num(g.captureMs)
       << ", \"kernel_nodes\": " << g.kernelNodes
       << ", \"copy_nodes\": " << g.copyNodes
       << ", \"memset_nodes\": " << g.memsetNodes
       << ", \"other_nodes\": " << g.otherNodes
       << ", \"memory_bytes\": " << g.memoryBytes
       << ", \"staged_bytes\": " << g.stagedBytes
       << ", \"overhead_per_launch_ms\": " << num(r.graphOverheadPerLaunchMs())
       << ", \"results_match\": [";
    for (size_t i = 0; i < g.results.size(); ++i)
      os << (i ? ", " : "")
         << (!g.results[i].hasReference ? "null"
             : g.results[i].matches     ? "true"
                                        : "false");
    os << "]}";
  }
  os << ", \"launches_per_run\": " << num(r.launchesPerRun())
     << ", \"overhead_per_launch_ms\": " << num(r.overheadPerLaunchMs());
  os << ", \"all_match\": " << (r.allMatch() ? "true" : "false") << "}\n";
}

} // namespace deploy
} // namespace gopt
