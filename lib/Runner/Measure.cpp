//===- Measure.cpp - Time a compiled graph, with memory and kernels -------===//
//
// Every run is timed alone (the call only: inputs are prepared before,
// outputs freed after); peak memory and per-kernel times are read from the
// runtime after each run and reset before the next.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Runner/Runner.h"
#include "SummaryJSON.h"
#include "GOpt/Version.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>

using namespace mlir;
using namespace mlir::gopt;

llvm::Expected<RunReport> mlir::gopt::measureGraph(
    CompiledGraph &graph, llvm::ArrayRef<HostTensor> inputs,
    const MeasureOptions &options) {
  if (options.repetitions < 1)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "repetitions must be at least 1");
  RunReport report;
  report.entry = graph.getEntry();
  report.warmup = std::max(0, options.warmup);
  report.repetitions = options.repetitions;
  report.compile = graph.getCompileTimes();
  report.numKernels = static_cast<int64_t>(graph.getKernels().size());
  report.libraryKernels =
      llvm::count_if(graph.getKernels(), [](const KernelInfo &k) {
        return !k.libraryCalls.empty();
      });
  report.kernelFunctions =
      llvm::count_if(graph.getKernels(), [](const KernelInfo &k) {
        return !k.library && k.sameCodeAs < 0;
      });
  report.generatedKernels = llvm::count_if(
      graph.getKernels(), [](const KernelInfo &k) { return !k.library; });
  report.gemmLibrary = gopt_sgemm_backend();
  report.libraryThreads = runtime::getLibraryThreads();
  report.parallelLoops = graph.getParallelLoopCount();
  report.bufferPlan = graph.getBufferPlan();
  for (const HostTensor &input : inputs)
    report.inputBytes += static_cast<int64_t>(input.getByteSize());

  std::vector<int64_t> resultWords;
  for (int i = 0; i < report.warmup + std::max(0, options.steadyRuns); ++i) {
    if (llvm::Error error = graph.invoke(inputs, resultWords))
      return std::move(error);
    graph.takeResults(resultWords, /*copy=*/false);
    report.reservedByRun.push_back(runtime::getMemoryStats().reservedBytes);
  }

  std::map<int64_t, std::vector<double>> kernelMs;
  std::map<int64_t, int64_t> kernelCalls;
  for (int r = 0; r < report.repetitions; ++r) {
    runtime::resetMemoryStats();
    runtime::resetKernelTimes();
    auto start = std::chrono::steady_clock::now();
    if (llvm::Error error = graph.invoke(inputs, resultWords))
      return std::move(error);
    auto end = std::chrono::steady_clock::now();
    runtime::MemoryStats memory = runtime::getMemoryStats();
    graph.takeResults(resultWords, /*copy=*/false);
    report.latencyMs.push_back(
        std::chrono::duration<double, std::milli>(end - start).count());
    report.peakBytes = std::max(report.peakBytes, memory.peakBytes);
    report.allocationsPerRun = memory.allocations;
    report.reservedAtPeak = memory.reservedAtPeak;
    report.freeAtPeak = memory.freeAtPeak;
    report.largestFreeAtPeak = memory.largestFreeAtPeak;
    report.externalFragmentation = runtime::externalFragmentationAtPeak(memory);
    report.reservedByRun.push_back(runtime::getMemoryStats().reservedBytes);
    for (const runtime::KernelTime &k : runtime::getKernelTimes()) {
      kernelMs[k.id].push_back(k.totalMs);
      kernelCalls[k.id] = k.calls;
    }
  }
  report.latency = SampleSummary::of(report.latencyMs);
  if (report.latency.median > 0)
    report.throughput = 1000.0 / report.latency.median;

  double kernelTotal = 0;
  for (const KernelInfo &kernel : graph.getKernels()) {
    auto it = kernelMs.find(kernel.id);
    if (it == kernelMs.end())
      continue;
    KernelReport k{kernel.id,
                   kernel.name,
                   kernelCalls[kernel.id],
                   SampleSummary::of(it->second).median,
                   0,
                   kernel.libraryCalls};
    kernelTotal += k.msPerRun;
    report.kernels.push_back(std::move(k));
  }
  for (KernelReport &k : report.kernels)
    k.share = kernelTotal > 0 ? k.msPerRun / kernelTotal : 0;
  return std::move(report);
}

llvm::json::Object RunReport::toJSON() const {
  llvm::json::Array kernelArray;
  for (const KernelReport &k : kernels)
    kernelArray.push_back(
        llvm::json::Object{{"id", k.id},
                           {"name", k.name},
                           {"calls_per_run", k.callsPerRun},
                           {"ms_per_run", k.msPerRun},
                           {"share", k.share},
                           {"library_calls", k.libraryCalls}});
  llvm::json::Array warmUpArray;
  for (const CompileTimes &times : warmUpCompiles)
    warmUpArray.push_back(times.toJSON());
  llvm::json::Array samples;
  for (double x : latencyMs)
    samples.push_back(x);
  return llvm::json::Object{
      {"gopt_version", GOPT_VERSION_STRING},
      {"entry", entry},
      {"warmup", warmup},
      {"repetitions", repetitions},
      {"latency_ms", summaryJSON(latency)},
      {"latency_samples_ms", std::move(samples)},
      {"throughput_per_s", throughput},
      {"peak_bytes", peakBytes},
      {"allocations_per_run", allocationsPerRun},
      {"arena_bytes", bufferPlan.arenaBytes},
      {"planned_buffers", bufferPlan.plannedBuffers},
      {"planned_bytes", bufferPlan.plannedBytes},
      {"most_live_bytes", bufferPlan.mostLiveBytes},
      {"reserved_bytes_by_run", llvm::json::Array(reservedByRun)},
      {"reserved_at_peak", reservedAtPeak},
      {"free_at_peak", freeAtPeak},
      {"largest_free_at_peak", largestFreeAtPeak},
      {"external_fragmentation", externalFragmentation},
      {"input_bytes", inputBytes},
      {"kernels", numKernels},
      {"library_kernels", libraryKernels},
      {"kernel_functions", kernelFunctions},
      {"kernel_times", std::move(kernelArray)},
      {"compile_ms", compile.toJSON()},
      {"warm_up_compile_ms", std::move(warmUpArray)},
      {"gemm_library", gemmLibrary},
      {"library_threads", libraryThreads},
      {"parallel_loops", parallelLoops},
  };
}

llvm::json::Object CompileTimes::toJSON() const {
  return llvm::json::Object{{"import", importMs},
                            {"graph_passes", graphPassesMs},
                            {"lowering", loweringMs},
                            {"codegen", codegenMs},
                            {"total", totalMs()},
                            {"wall", wallMs()},
                            {"from_cache", fromCache},
                            {"load", loadMs},
                            {"process_compiles_before", processCompilesBefore}};
}

/// `  LABEL     T ms: ONNX import .., graph passes .., lowering .., LLVM
/// codegen ..` (from the cache: what the load took).
static void printCompileTimes(llvm::StringRef label, const CompileTimes &times,
                              llvm::raw_ostream &os) {
  os << llvm::format("  %-11s %.1f ms: ", label.str().c_str(), times.wallMs());
  if (times.importMs > 0)
    os << llvm::format("ONNX import %.1f, ", times.importMs);
  if (times.fromCache)
    os << llvm::format("graph passes %.1f, loaded from the compile cache "
                       "%.1f (when stored: lowering %.1f, LLVM codegen "
                       "%.1f)\n",
                       times.graphPassesMs, times.loadMs, times.loweringMs,
                       times.codegenMs);
  else
    os << llvm::format("graph passes %.1f, lowering %.1f, LLVM codegen %.1f\n",
                       times.graphPassesMs, times.loweringMs, times.codegenMs);
}

void mlir::gopt::printRunReport(const RunReport &r, llvm::raw_ostream &os) {
  os << "@" << r.entry << ": " << r.repetitions << " runs after "
     << r.warmup << " warm-up\n";
  os << llvm::format("  latency     %.4f ms median [IQR %.4f-%.4f], CV %.1f%%, "
                     "min %.4f\n",
                     r.latency.median, r.latency.q1, r.latency.q3,
                     100 * r.latency.cv, r.latency.min);
  os << llvm::format("  throughput  %.1f runs/s\n", r.throughput);
  os << llvm::format("  peak memory %lld bytes held by the compiled code "
                     "(%lld allocations per run; inputs %lld bytes)\n",
                     (long long)r.peakBytes, (long long)r.allocationsPerRun,
                     (long long)r.inputBytes);
  if (r.bufferPlan.plannedBuffers > 0) {
    os << llvm::format("  arena       %lld bytes planned for %lld "
                       "intermediates of %lld bytes in all",
                       (long long)r.bufferPlan.arenaBytes,
                       (long long)r.bufferPlan.plannedBuffers,
                       (long long)r.bufferPlan.plannedBytes);
    if (r.bufferPlan.mostLiveBytes > 0)
      os << llvm::format("; %lld live at most",
                         (long long)r.bufferPlan.mostLiveBytes);
    os << "\n";
  }
  if (!r.reservedByRun.empty())
    os << llvm::format("  reserved    %lld bytes held from the system after "
                       "%zu runs (after the first: %lld)\n",
                       (long long)r.reservedByRun.back(),
                       r.reservedByRun.size(),
                       (long long)r.reservedByRun.front());
  os << llvm::format("  at peak     held %lld bytes, %lld free in cached "
                     "blocks (largest %lld): fragmentation %.2f\n",
                     (long long)r.reservedAtPeak, (long long)r.freeAtPeak,
                     (long long)r.largestFreeAtPeak, r.externalFragmentation);
  printCompileTimes("compile", r.compile, os);
  // Compiles gopt-run --warm-compiles made and dropped first.
  for (const CompileTimes &times : r.warmUpCompiles)
    printCompileTimes("warm-up", times, os);
  os << "  threads     " << r.libraryThreads << " in the " << r.gemmLibrary
     << " GEMM and convolutions";
  if (r.parallelLoops > 0)
    os << " and in " << r.parallelLoops << " parallel loop"
       << (r.parallelLoops == 1 ? "" : "s") << " of the generated code\n";
  else
    os << "; the generated code runs on one thread\n";
  os << "  kernels     " << r.numKernels;
  if (r.numKernels > 0)
    os << " (library calls in " << r.libraryKernels
       << ", generated loops only in " << r.numKernels - r.libraryKernels
       << ")";
  if (r.kernelFunctions < r.generatedKernels)
    os << ", " << r.kernelFunctions << " function"
       << (r.kernelFunctions == 1 ? "" : "s") << " compiled for them";
  os << "\n";
  if (r.kernels.empty())
    return;
  os << llvm::format("  %4s %10s %7s  %s\n", "id", "ms/run", "share",
                     "kernel");
  for (const KernelReport &k : r.kernels) {
    std::string calls =
        k.libraryCalls.empty() ? "" : "  [" + k.libraryCalls + "]";
    os << llvm::format("  %4lld %10.4f %6.1f%%  %s%s\n", (long long)k.id,
                       k.msPerRun, 100 * k.share, k.name.c_str(),
                       calls.c_str());
  }
}
