//===- ConfigurationProgram.cpp - A configuration's program ---------------===//

#include "GOpt/Explore/ConfigurationProgram.h"
#include "GOpt/Analysis/GraphStats.h"
#include "GOpt/Runner/Runner.h"

using namespace mlir;
using namespace mlir::gopt;

llvm::Expected<ConfigurationProgram>
mlir::gopt::buildConfigurationProgram(ModuleOp model,
                                      const Configuration &config,
                                      ConfigurationMeasurement &m) {
  ConfigurationProgram program;
  program.module = model.clone();
  if (!config.pipeline.empty()) {
    auto ms = runGraphPipeline(*program.module, config.pipeline);
    if (!ms)
      return ms.takeError();
    m.graphPassesMs = *ms;
  }
  GraphStats stats = GraphStats::compute(*program.module);
  m.ops = stats.numOps;
  m.staticPeakBytes = stats.peakMemoryBytes;
  m.kernelCosts = collectKernelCosts(*program.module);
  program.hash = computeProgramHash(*program.module);
  return program;
}

void mlir::gopt::shareProgram(llvm::StringRef firstName,
                              const ConfigurationMeasurement &first,
                              ConfigurationMeasurement &m) {
  m.sameProgramAs = firstName.str();
  m.loweringMs = first.loweringMs;
  m.codegenMs = first.codegenMs;
  m.kernels = first.kernels;
  m.bufferPlan = first.bufferPlan;
  m.compilePeakBytes = first.compilePeakBytes;
}
