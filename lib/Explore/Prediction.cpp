//===- Prediction.cpp - Configurations predicted on other hardware --------===//

#include "GOpt/Explore/Prediction.h"
#include "GOpt/Explore/Report.h"

#include "llvm/ADT/StringExtras.h"

#include <cmath>

using namespace mlir;
using namespace mlir::gopt;

bool mlir::gopt::isMeasuredTarget(const TargetDescription &target,
                                  llvm::StringRef reportTarget,
                                  llvm::StringRef cpuModel,
                                  int libraryThreads) {
  if (target.kind == "cpu")
    return reportTarget.starts_with("cpu-") && target.device == cpuModel &&
           (target.threads == 0 || target.threads == libraryThreads);
  return reportTarget.starts_with("cuda") &&
         reportTarget.contains(llvm::StringRef(target.name).upper());
}

/// The configuration's program has a prediction: its graph passes ran and
/// left kernels (a configuration that failed to compile in its graph
/// passes has no costs).
static bool hasCosts(const ConfigurationMeasurement &m) {
  return !m.kernelCosts.empty();
}

/// Not known to be unusable: compiled, and its outputs not found wrong.
static bool isCandidate(const ConfigurationMeasurement &m) {
  return hasCosts(m) && m.status != ConfigurationStatus::CompileFailed &&
         m.status != ConfigurationStatus::RunFailed &&
         m.status != ConfigurationStatus::Wrong;
}

TargetPrediction mlir::gopt::predictOnTarget(
    const TargetDescription &target, bool measuredHere,
    llvm::ArrayRef<Configuration> configurations,
    llvm::ArrayRef<ConfigurationMeasurement> measurements,
    const EffectAnalysis &analysis) {
  TargetPrediction out;
  out.target = target;
  out.measuredHere = measuredHere;
  out.configurations.resize(configurations.size());
  std::optional<size_t> baseline;
  for (size_t i = 0; i < configurations.size(); ++i)
    if (configurations[i].kind == ConfigurationKind::Baseline)
      baseline = i;
  double baseMs = 0;
  if (baseline && *baseline < measurements.size() &&
      hasCosts(measurements[*baseline]))
    baseMs = predictProgramMs(measurements[*baseline].kernelCosts, target);

  double errorSum = 0, logRatioSum = 0;
  int errors = 0, ratios = 0;
  for (size_t i = 0; i < configurations.size() && i < measurements.size();
       ++i) {
    const ConfigurationMeasurement &m = measurements[i];
    if (!hasCosts(m))
      continue;
    ConfigurationPrediction &p = out.configurations[i];
    p.predicted = true;
    p.predictedMs = predictProgramMs(m.kernelCosts, target);
    double launchMs = target.launchOverheadUs * 1e-3;
    double fixedMs = target.runOverheadUs * 1e-3 +
                     launchMs * static_cast<double>(m.kernelCosts.size());
    double computeMs = 0;
    for (const KernelCost &kernel : m.kernelCosts)
      if (isComputeBound(kernel, target))
        computeMs += predictKernelMs(kernel, target) - launchMs;
    if (p.predictedMs > 0) {
      p.computeBoundShare = computeMs / p.predictedMs;
      p.launchShare = fixedMs / p.predictedMs;
      p.speedup = baseMs > 0 ? baseMs / p.predictedMs : 0;
    }
    if (isCandidate(m) && p.speedup > 0 &&
        (!out.fastest || p.speedup > out.configurations[*out.fastest].speedup))
      out.fastest = i;

    if (!measuredHere || i >= analysis.effects.size())
      continue;
    const ConfigurationEffect &effect = analysis.effects[i];
    if (!effect.valid || effect.medianMs <= 0 || effect.speedup <= 0)
      continue;
    p.measuredSpeedup = effect.speedup;
    p.timeRatio = p.predictedMs / effect.medianMs;
    logRatioSum += std::log(*p.timeRatio);
    ++ratios;
    if (p.speedup > 0) {
      p.speedupError = p.speedup / effect.speedup - 1;
      if (i != analysis.baseline) {
        errorSum += std::fabs(*p.speedupError);
        ++errors;
      }
    }
    if (!out.measuredFastest ||
        effect.speedup > analysis.effects[*out.measuredFastest].speedup)
      out.measuredFastest = i;
  }
  if (errors > 0)
    out.meanAbsSpeedupError = errorSum / errors;
  if (ratios > 0)
    out.meanTimeRatio = std::exp(logRatioSum / ratios);
  return out;
}

void mlir::gopt::addPredictions(ExploreReport &report,
                                llvm::ArrayRef<TargetDescription> targets) {
  report.predictions.clear();
  // A verify run measured nothing to set beside the predictions.
  bool timed = !report.analysis.effects.empty();
  for (const TargetDescription &target : targets)
    report.predictions.push_back(predictOnTarget(
        target,
        timed &&
            isMeasuredTarget(target, report.setup.target, report.setup.cpuModel,
                             report.setup.libraryThreads),
        report.configurations, report.measurements, report.analysis));
}
