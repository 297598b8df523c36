//===- Prediction.h - Configurations predicted on other hardware -*- C++
//-*-===//
//
// gopt-explore --predict=h100,h200,host (docs/Explore.md, "Prediction for
// hardware not at hand"): every configuration's run time on a target is
// predicted by the roofline model (GOpt/Support/Roofline.h) from the costs
// of its kernels after the graph passes, and its speedup S from the
// baseline's prediction on the same target. Where the target is the
// hardware the configurations were measured on, the measured S stands next
// to the predicted one, with the error. eta_mem is predicted by the static
// peak estimate, which does not depend on the target (the Memory table's
// estimate column). Pure: nothing here measures.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_EXPLORE_PREDICTION_H
#define GOPT_EXPLORE_PREDICTION_H

#include "GOpt/Explore/Effect.h"
#include "GOpt/Support/Roofline.h"

#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <vector>

namespace mlir {
namespace gopt {

/// One configuration on one target.
struct ConfigurationPrediction {
  /// Whether there is a prediction: the configuration's graph passes ran
  /// (its kernels' costs are known). The figures below are 0 otherwise.
  bool predicted = false;
  double predictedMs = 0;
  /// T_base / T_config, both predicted on this target.
  double speedup = 0;
  /// Share of the predicted time spent in compute-bound kernels (the rest
  /// is memory-bound time and launch overhead).
  double computeBoundShare = 0;
  /// Share of the predicted time that is fixed cost: per kernel (launches)
  /// and per run.
  double launchShare = 0;
  /// Only where the target is the measured hardware and the configuration
  /// is valid: the measured S, predicted S / measured S - 1, and the
  /// predicted time over the measured median.
  std::optional<double> measuredSpeedup;
  std::optional<double> speedupError;
  std::optional<double> timeRatio;
};

/// Every configuration on one target.
struct TargetPrediction {
  TargetDescription target;
  /// The configurations were measured on this target (the report's machine
  /// or GPU and thread count): measured figures stand beside predictions.
  bool measuredHere = false;
  /// Parallel to the report's configurations.
  std::vector<ConfigurationPrediction> configurations;
  /// The configuration predicted fastest among those that compiled and
  /// whose outputs were not found wrong (ties: the earlier one).
  std::optional<size_t> fastest;
  /// Where measured here: the mean of |speedupError| over the valid
  /// configurations, and the one measured fastest.
  std::optional<double> meanAbsSpeedupError;
  std::optional<size_t> measuredFastest;
  /// Where measured here: the geometric mean over the valid configurations
  /// of predicted time / measured median (below 1: the model is too
  /// optimistic about absolute times, as a roofline is).
  std::optional<double> meanTimeRatio;
};

/// Whether configurations measured on `reportTarget` ("cpu-<name>" or
/// "cuda-<chip> (<device>)") with a CPU of model `cpuModel` and
/// `libraryThreads` threads ran on `target`: a CPU description of the same
/// model and thread count, or a GPU description whose name (upper-cased,
/// "H100") appears in the device the GPU runs named.
bool isMeasuredTarget(const TargetDescription &target,
                      llvm::StringRef reportTarget, llvm::StringRef cpuModel,
                      int libraryThreads);

/// The prediction of every configuration on `target`. `analysis` may be
/// empty (a verify run): no measured figures then.
TargetPrediction
predictOnTarget(const TargetDescription &target, bool measuredHere,
                llvm::ArrayRef<Configuration> configurations,
                llvm::ArrayRef<ConfigurationMeasurement> measurements,
                const EffectAnalysis &analysis);

} // namespace gopt
} // namespace mlir

#endif // GOPT_EXPLORE_PREDICTION_H
