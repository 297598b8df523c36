//===- TargetProbe.cpp - A roofline description of this CPU ---------------===//

#include "GOpt/Runner/TargetProbe.h"
#include "GOpt/Analysis/PassMeasurement.h"
#include "GOpt/Runner/Runner.h"
#include "GOpt/Runtime/Runtime.h"
#include "GOpt/Support/Error.h"
#include "GOpt/Support/Timing.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstring>
#include <ctime>
#include <limits>
#include <unistd.h>
#include <vector>

using namespace mlir;
using namespace mlir::gopt;

/// The shortest time of `run`, ms, over repeated runs filling `seconds`
/// (at least three runs).
template <typename Run> static double bestMs(double seconds, Run run) {
  double best = std::numeric_limits<double>::infinity();
  double start = nowMs();
  for (int i = 0; i < 3 || nowMs() - start < seconds * 1e3; ++i) {
    double t0 = nowMs();
    run();
    best = std::min(best, nowMs() - t0);
  }
  return best;
}

/// GFLOP/s of the library GEMM on n x n matrices.
static double measureGemmGflops(int64_t n, double seconds) {
  std::vector<float> a(n * n, 1.0f), b(n * n, 0.5f), c(n * n, 0.0f);
  double ms = bestMs(seconds, [&] {
    gopt_sgemm(1, n, n, n, 1.0f, a.data(), 0, n, 1, b.data(), 0, n, 1, 0.0f,
               c.data(), 0, n, 1);
  });
  return 2.0 * n * n * n / (ms * 1e6);
}

/// GB/s of copying `bytes` from one buffer to another (read + write).
static double measureCopyGBs(int64_t bytes, double seconds) {
  std::vector<char> from(bytes, 1), to(bytes, 0);
  double ms = bestMs(seconds, [&] {
    std::memcpy(to.data(), from.data(), bytes);
    // Keep the copy: the buffers are read after the loop.
    asm volatile("" : : "r"(to.data()) : "memory");
  });
  return 2.0 * static_cast<double>(bytes) / (ms * 1e6);
}

/// The last-level cache's size, bytes (0 when the system does not say).
static int64_t lastLevelCacheBytes() {
  for (int name : {_SC_LEVEL3_CACHE_SIZE, _SC_LEVEL2_CACHE_SIZE}) {
    long bytes = sysconf(name);
    if (bytes > 0)
      return bytes;
  }
  return 0;
}

/// A chain of `kernels` one-element additions: one kernel each when
/// compiled without graph passes.
static std::string makeKernelChain(int kernels) {
  std::string text = "func.func @main(%x: tensor<1xf32>) -> tensor<1xf32> {\n";
  std::string last = "%x";
  for (int i = 0; i < kernels; ++i) {
    std::string next = "%v" + std::to_string(i);
    text += "  " + next + " = gopt.add " + last + ", " + last +
            " : tensor<1xf32>\n";
    last = next;
  }
  return text + "  return " + last + " : tensor<1xf32>\n}\n";
}

/// Median ms of a run of a chain of `kernels` kernels compiled by GOpt.
static llvm::Expected<double> timeKernelChain(MLIRContext &context, int kernels,
                                              double seconds) {
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(makeKernelChain(kernels), &context);
  if (!module)
    return makeError("the probe's kernel chain does not parse (are GOpt's "
                     "dialects loaded?)");
  auto graph = CompiledGraph::compile(*module, CompileOptions());
  if (!graph)
    return graph.takeError();
  std::vector<HostTensor> inputs = (*graph)->makeRandomInputs(1);
  // Enough runs to fill `seconds` at a few microseconds each.
  MeasureOptions measure;
  measure.warmup = 100;
  measure.repetitions = 100;
  auto first = measureGraph(**graph, inputs, measure);
  if (!first)
    return first.takeError();
  double perRun = std::max(first->latency.median, 1e-4);
  measure.repetitions =
      static_cast<int>(std::clamp(seconds * 1e3 / perRun, 100.0, 100000.0));
  auto report = measureGraph(**graph, inputs, measure);
  if (!report)
    return report.takeError();
  return report->latency.median;
}

llvm::Expected<TargetDescription>
mlir::gopt::probeHostTarget(MLIRContext &context,
                            const TargetProbeOptions &options,
                            const TargetProbeProgress &progress) {
  auto say = [&](llvm::StringRef figure) {
    if (progress)
      progress(figure);
  };
  TargetDescription target;
  target.name = "host";
  target.kind = "cpu";
  target.device = getHostCPUModel();
  target.threads = runtime::getLibraryThreads();

  say("peak f32 FLOP/s (the library GEMM)");
  for (int64_t n : {256, 512, 1024})
    target.peakGflops = std::max(
        target.peakGflops, measureGemmGflops(n, options.secondsPerFigure));

  say("main-memory bandwidth (copy)");
  target.bandwidthGBs =
      measureCopyGBs(options.memoryCopyBytes, options.secondsPerFigure);

  if (int64_t cache = lastLevelCacheBytes(); cache > 0) {
    say("last-level cache bandwidth (copy)");
    // Source and destination together fill half the cache.
    target.cacheBytes = cache;
    target.cacheBandwidthGBs =
        std::max(target.bandwidthGBs,
                 measureCopyGBs(cache / 4, options.secondsPerFigure));
  }

  say("cost per kernel (a chain of one-element kernels)");
  auto one = timeKernelChain(context, 1, options.secondsPerFigure);
  if (!one)
    return one.takeError();
  auto many = timeKernelChain(context, 33, options.secondsPerFigure);
  if (!many)
    return many.takeError();
  target.launchOverheadUs = std::max(0.0, (*many - *one) / 32 * 1e3);
  target.runOverheadUs = std::max(0.0, *one * 1e3 - target.launchOverheadUs);

  std::time_t now = std::time(nullptr);
  char date[32];
  std::strftime(date, sizeof(date), "%Y-%m-%d", std::gmtime(&now));
  target.source = "measured by gopt-probe-target on " + std::string(date) +
                  " (" + gopt_sgemm_backend() + " GEMM, " +
                  std::to_string(target.threads) +
                  (target.threads == 1 ? " thread" : " threads") + ")";
  return target;
}
