//===- RuntimeProbe.cpp - Run time after every pass -----------------------===//

#include "GOpt/Runner/RuntimeProbe.h"
#include "GOpt/Runner/Runner.h"

using namespace mlir;
using namespace mlir::gopt;

RuntimeProbe mlir::gopt::makeRuntimeProbe(const RuntimeProbeOptions &options) {
  return [options](Operation *op) {
    RuntimeFigures figures;
    auto module = dyn_cast<ModuleOp>(op);
    if (!module) {
      figures.error = "the pass ran on " + op->getName().getStringRef().str() +
                      ", not on a module";
      return figures;
    }
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
