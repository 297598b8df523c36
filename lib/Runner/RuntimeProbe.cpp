//===- RuntimeProbe.cpp - Run time after every pass -----------------------===//

#include "GOpt/Runner/RuntimeProbe.h"
#include "GOpt/Runner/LocalBundle.h"
#include "GOpt/Runner/Runner.h"
#include "GOpt/Runtime/CUDA.h"
#include "GOpt/Support/Statistics.h"

#include "llvm/TargetParser/Host.h"

using namespace mlir;
using namespace mlir::gopt;

/// A timed point's figures: where it ran, its latency, its peak, and the
/// compiled graph's kernels and compile time.
static void setFigures(RuntimeFigures &figures, std::string target,
                       const SampleSummary &latency, int repetitions,
                       int64_t peakBytes, const CompiledGraph &graph) {
  figures.target = std::move(target);
  figures.medianMs = latency.median;
  figures.q1Ms = latency.q1;
  figures.q3Ms = latency.q3;
  figures.cv = latency.cv;
  figures.repetitions = repetitions;
  figures.peakBytes = peakBytes;
  figures.kernels = static_cast<int64_t>(graph.getKernels().size());
  figures.compileMs = graph.getCompileTimes().totalMs();
}

/// The module compiled for the GPU into a temporary bundle, loaded and
/// timed on the local device.
static RuntimeFigures probeOnCUDA(ModuleOp module,
                                  const RuntimeProbeOptions &options) {
  RuntimeFigures figures;
  if (std::string why = ::gopt::runtime::cuda::initialize(); !why.empty()) {
    figures.error = "--gopt-measure-target=cuda needs a usable CUDA device: " +
                    why;
    return figures;
  }
  CompileOptions compile;
  compile.target = Target::CUDA;
  compile.entry = options.entry;
  compile.nvvmOptions = options.loweringOptions;
  auto graph = CompiledGraph::compile(module, compile);
  if (!graph) {
    figures.error = llvm::toString(graph.takeError());
    return figures;
  }
  auto local =
      (*graph)->loadOnLocalGPU((*graph)->makeRandomInputs(options.seed));
  if (!local) {
    figures.error = llvm::toString(local.takeError());
    return figures;
  }
  std::vector<double> ms;
  int64_t peak = 0, allocations = 0, driverAllocations = 0;
  (*local)->bundle->timeCalls(options.warmup, options.repetitions, ms, peak,
                              allocations, driverAllocations);
  setFigures(figures, ::gopt::runtime::cuda::describeDevice(),
             SampleSummary::of(ms), static_cast<int>(ms.size()), peak,
             **graph);
  return figures;
}

RuntimeProbe mlir::gopt::makeRuntimeProbe(const RuntimeProbeOptions &options) {
  return [options](Operation *op) {
    RuntimeFigures figures;
    auto module = dyn_cast<ModuleOp>(op);
    if (!module) {
      figures.error = "the pass ran on " + op->getName().getStringRef().str() +
                      ", not on a module";
      return figures;
    }
    if (options.target == Target::CUDA)
      return probeOnCUDA(module, options);
    CompileOptions compile;
    compile.entry = options.entry;
    compile.loweringOptions = options.loweringOptions;
    auto graph = CompiledGraph::compile(module, compile);
    if (!graph) {
      figures.error = llvm::toString(graph.takeError());
      return figures;
    }
    std::vector<HostTensor> inputs = (*graph)->makeRandomInputs(options.seed);
    MeasureOptions measure;
    measure.warmup = options.warmup;
    measure.repetitions = options.repetitions;
    auto report = measureGraph(**graph, inputs, measure);
    if (!report) {
      figures.error = llvm::toString(report.takeError());
      return figures;
    }
    setFigures(figures, "cpu-" + llvm::sys::getHostCPUName().str(),
               report->latency, report->repetitions, report->peakBytes,
               **graph);
    return figures;
  };
}
