//===- RuntimeProbe.cpp - Run time after every pass -----------------------===//

#include "GOpt/Runner/RuntimeProbe.h"
#include "GOpt/Deploy/BundleRunner.h"
#include "GOpt/Runner/Runner.h"
#include "GOpt/Runtime/CUDA.h"
#include "GOpt/Support/Statistics.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;
using namespace mlir::gopt;

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
  llvm::SmallString<128> dir;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueDirectory("gopt-probe-bundle", dir)) {
    figures.error = "cannot create a temporary folder: " + ec.message();
    return figures;
  }
  std::vector<HostTensor> inputs = (*graph)->makeRandomInputs(options.seed);
  std::string error;
  if (llvm::Error e = (*graph)->exportBundle(dir, inputs, /*reference=*/{},
                                             "", "none")) {
    error = llvm::toString(std::move(e));
  } else if (auto bundle =
                 ::gopt::deploy::LoadedBundle::load(dir.str().str(), error)) {
    std::vector<double> ms;
    int64_t allocations = 0, driverAllocations = 0;
    bundle->timeCalls(options.warmup, options.repetitions, ms,
                      figures.peakBytes, allocations, driverAllocations);
    SampleSummary latency = SampleSummary::of(ms);
    figures.target = "cuda-" + ::gopt::runtime::cuda::deviceChip() + " (" +
                     ::gopt::runtime::cuda::deviceName() + ")";
    figures.medianMs = latency.median;
    figures.q1Ms = latency.q1;
    figures.q3Ms = latency.q3;
    figures.cv = latency.cv;
    figures.repetitions = static_cast<int>(ms.size());
    figures.kernels = static_cast<int64_t>((*graph)->getKernels().size());
    figures.compileMs = (*graph)->getCompileTimes().totalMs();
  }
  llvm::sys::fs::remove_directories(dir);
  figures.error = error;
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
    figures.target = "cpu-" + llvm::sys::getHostCPUName().str();
    figures.medianMs = report->latency.median;
    figures.q1Ms = report->latency.q1;
    figures.q3Ms = report->latency.q3;
    figures.cv = report->latency.cv;
    figures.repetitions = report->repetitions;
    figures.peakBytes = report->peakBytes;
    figures.kernels = report->numKernels;
    figures.compileMs = report->compile.totalMs();
    return figures;
  };
}
