//===- BatchSweep.cpp - Throughput over batch sizes -----------------------===//
//
// For each batch size the model is built again at that size (the caller
// knows how: the ONNX importer overrides dimension 0 of every input) and the
// few configurations of interest are measured on it like any exploration:
// compiled, verified against the baseline at that size, timed in
// interleaved rounds. Throughput is batch size / median run time.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Explore/JITBackend.h"

using namespace mlir;
using namespace mlir::gopt;

std::vector<BatchMeasurement> mlir::gopt::sweepBatchSizes(
    const ModelAtBatchSize &model, llvm::ArrayRef<int64_t> batchSizes,
    llvm::ArrayRef<Configuration> configurations,
    const ExploreOptions &options, const ExploreProgress &progress) {
  std::vector<BatchMeasurement> rows;
  auto errorRows = [&](int64_t batch, const std::string &error) {
    for (const Configuration &c : configurations) {
      BatchMeasurement row;
      row.batchSize = batch;
      row.configuration = c.name;
      row.pipeline = c.pipeline;
      row.error = error;
      rows.push_back(std::move(row));
    }
  };
  // The sweep measures a few configurations at every size: no kernel
  // profiles, and the budget is shared evenly between the sizes.
  ExploreOptions sweepOptions = options;
  sweepOptions.mode = ExploreMode::Default;
  sweepOptions.profileKernels = false;
  sweepOptions.budgetSeconds =
      options.budgetSeconds / static_cast<double>(std::max<size_t>(
                                  1, batchSizes.size()));
  for (auto [step, batch] : llvm::enumerate(batchSizes)) {
    if (progress)
      progress(static_cast<int>(step), static_cast<int>(batchSizes.size()),
               "batch size " + std::to_string(batch));
    auto module = model(batch);
    if (!module) {
      errorRows(batch, llvm::toString(module.takeError()));
      continue;
    }
    auto backend = createJITBackend(**module, sweepOptions);
    auto report = exploreConfigurations(
        *backend,
        std::vector<Configuration>(configurations.begin(),
                                   configurations.end()),
        sweepOptions);
    if (!report) {
      errorRows(batch, llvm::toString(report.takeError()));
      continue;
    }
    const EffectAnalysis &analysis = report->analysis;
    for (size_t i = 0; i < report->configurations.size(); ++i) {
      const ConfigurationMeasurement &m = report->measurements[i];
      BatchMeasurement row;
      row.batchSize = batch;
      row.configuration = report->configurations[i].name;
      row.pipeline = report->configurations[i].pipeline;
      if (i >= analysis.effects.size() || !analysis.effects[i].valid) {
        row.error = m.error.empty() ? getConfigurationStatusName(m.status)
                                    : m.error;
        rows.push_back(std::move(row));
        continue;
      }
      const ConfigurationEffect &e = analysis.effects[i];
      row.medianMs = e.medianMs;
      row.q1Ms = e.q1Ms;
      row.q3Ms = e.q3Ms;
      row.runs = static_cast<int64_t>(m.runMs.size());
      row.samplesPerSecond =
          e.medianMs > 0 ? static_cast<double>(batch) * 1e3 / e.medianMs : 0;
      row.speedup = e.speedup;
      row.peakBytes = m.peakBytes;
      rows.push_back(std::move(row));
    }
  }
  return rows;
}
