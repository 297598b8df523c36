//===- Report.h - gopt-explore's reports: JSON, Markdown, HTML --*- C++ -*-===//
//
// One ExploreReport holds what a gopt-explore run measured and derived; the
// writers render it as the versioned JSON record (docs/Explore.md documents
// the schema), a Markdown summary for terminals and pull requests, and a
// self-contained HTML page with SVG charts. Writers only format: every
// number they print is in the report.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_EXPLORE_REPORT_H
#define GOPT_EXPLORE_REPORT_H

#include "GOpt/Explore/Effect.h"
#include "GOpt/Explore/Prediction.h"
#include "GOpt/Explore/ShapeClasses.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace mlir {
namespace gopt {

/// Version of the JSON schema written by writeExploreJSON.
constexpr int kExploreSchemaVersion = 1;

/// How the measurements were taken, for the reader of the report.
struct ExploreSetup {
  std::string toolVersion;
  /// The model file (or "<embedded examples/attention_block.mlir>").
  std::string model;
  /// Content hash of the model's IR (hex).
  std::string modelHash;
  std::string entry;
  /// "cpu-<host cpu name>" or "cuda-<chip> (<device>)": the backend the
  /// configurations were compiled for and ran on.
  std::string target;
  std::string cpuModel;
  int cores = 0;
  /// The library GEMM behind the library path ("onednn", "openblas",
  /// "loops") and the threads it used (--threads); generated loops run on
  /// one thread.
  std::string gemmLibrary;
  int libraryThreads = 1;
  /// "verify", "default" or "autotune".
  std::string mode;
  int warmup = 0;
  /// Timed repetitions per round (at least; more to fill roundMilliseconds),
  /// rounds taken, and the stop rule.
  int repetitionsPerRound = 0;
  double roundMilliseconds = 0;
  int rounds = 0;
  double targetRelativeError = 0;
  double budgetSeconds = 0;
  /// The user interrupted the run (Ctrl-C): the figures cover the rounds
  /// and configurations measured before.
  bool interrupted = false;
  /// Seconds the whole exploration took, and how they divide: compiling
  /// the configurations (graph passes, lowering and codegen, or loading
  /// from the cache), checking them (one run each against the baseline),
  /// timing the rounds (warm-up included), profiling kernels, and the
  /// statistics (the stop rule's included). The rest is bookkeeping.
  double elapsedSeconds = 0;
  double compileSeconds = 0;
  double checkSeconds = 0;
  double measureSeconds = 0;
  double profileSeconds = 0;
  double analysisSeconds = 0;
  /// Output comparison tolerances against the baseline.
  double rtol = 0, atol = 0;
  /// Compile-cache figures: configurations whose program was shared in this
  /// run, and compiled programs found in / added to the on-disk cache (empty
  /// cacheDir: no on-disk cache).
  std::string cacheDir;
  int sharedPrograms = 0;
  int cacheHits = 0;
  int cacheMisses = 0;
  /// The runs were not timed by this run but reused from the record at this
  /// path (MeasurementCache.h), taken at measuredAt (seconds since the
  /// epoch); empty when they were timed now.
  std::string reusedMeasurements;
  int64_t measuredAt = 0;
  /// --recorded-runs: the folder of the runs scripts/gpu-explore.sh
  /// recorded on a GPU machine (every recorded round is one round here; no
  /// stop rule applies); empty when the runs were timed in this process.
  std::string recordedRunsDir;
};

/// One configuration at one batch size of a batch-size sweep.
struct BatchMeasurement {
  int64_t batchSize = 0;
  std::string configuration;
  std::string pipeline;
  /// Why there is no figure (the model does not import or compile at this
  /// size, the outputs differ from the baseline's); empty when measured.
  std::string error;
  double medianMs = 0, q1Ms = 0, q3Ms = 0;
  int64_t runs = 0;
  /// batchSize / median run time: samples per second.
  double samplesPerSecond = 0;
  /// T_base / T_opt at this batch size (1 for the baseline).
  double speedup = 0;
  int64_t peakBytes = 0;
};

/// Everything one gopt-explore run found.
struct ExploreReport {
  ExploreSetup setup;
  std::vector<Configuration> configurations;
  std::vector<ConfigurationMeasurement> measurements;
  EffectAnalysis analysis;
  /// Throughput of the baseline, the choice and the default pipeline over
  /// batch sizes (empty without --batch-sizes).
  std::vector<BatchMeasurement> batchSweep;
  /// Every configuration predicted on the targets of --predict (empty
  /// without it).
  std::vector<TargetPrediction> predictions;
  /// The analysis at every shape of --shapes and the classes of shapes
  /// (empty without it; the rest of the report is the first shape's).
  ShapeClassing shapeClasses;
};

/// Predicts the report's configurations on each of `targets`
/// (GOpt/Explore/Prediction.h) into `report.predictions`, with the measured
/// figures beside them where a target is the hardware they were measured
/// on.
void addPredictions(ExploreReport &report,
                    llvm::ArrayRef<TargetDescription> targets);

/// The versioned JSON record (schema in docs/Explore.md).
llvm::json::Value toJSON(const ExploreReport &report);
/// The deployment manifest of the choice (schema in docs/Explore.md): model
/// hash, target, tool version, the chosen pipeline and its measured figures,
/// for a CI job to consume. Without a choice, "configuration" is null and
/// "reason" says why.
llvm::json::Value toManifestJSON(const ExploreReport &report);
/// A Markdown summary: setup, configurations table, synergy table, memory,
/// compile cost and break-even, Amdahl view of the chosen configuration, the
/// choice.
void writeExploreMarkdown(const ExploreReport &report, llvm::raw_ostream &os);
/// The terminal summary, every line within `width` columns: the setup and
/// where the time went, one row per configuration (run time, S with its
/// interval, kernels, peak memory, compile time, break-even), the pairs
/// whose synergy interval excludes 1, and the choice with its reason. The
/// full tables are the Markdown, HTML and JSON reports'.
void writeExploreSummary(const ExploreReport &report, llvm::raw_ostream &os,
                         size_t width = 100);
/// A self-contained HTML page (no external resources) with SVG charts: the
/// Pareto scatter (compile time vs speedup, marker area = peak memory), the
/// synergy matrix as a heat map, the per-configuration run time / op count
/// waterfall, the Amdahl bars per kernel, the latency CDF and the water
/// level of each distinct program; each figure states the machine,
/// repetitions and spread.
void writeExploreHTML(const ExploreReport &report, llvm::raw_ostream &os);

} // namespace gopt
} // namespace mlir

#endif // GOPT_EXPLORE_REPORT_H
