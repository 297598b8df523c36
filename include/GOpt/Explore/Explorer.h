//===- Explorer.h - Build, verify and measure configurations ----*- C++ -*-===//
//
// The driver behind gopt-explore (docs/Explore.md): it turns a set of passes
// into configurations (baseline, each pass alone, each ordered pair, the
// default pipeline, the user's pipelines; in autotune mode also other orders,
// subsets and pass options), compiles each through an ExploreBackend, checks
// every configuration's outputs against the baseline's, measures the valid
// ones in interleaved rounds until the spread is small or the budget is
// spent, and hands the measurements to analyzeEffects.
//
// The backend is an interface so that the driver's logic (what is compiled,
// what is excluded, when measuring stops, what is shared) can be tested with
// injected measurements; JITBackend is the real one.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_EXPLORE_EXPLORER_H
#define GOPT_EXPLORE_EXPLORER_H

#include "GOpt/Explore/Effect.h"
#include "GOpt/Explore/Report.h"
#include "GOpt/Support/HostTensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace mlir {
namespace gopt {

enum class ExploreMode {
  /// Compile every configuration and check its outputs; time nothing.
  Verify,
  /// Baseline, singles, ordered pairs, default and user pipelines, timed.
  Default,
  /// Default, then a budgeted search over pass orders, subsets and options.
  Autotune,
};
const char *getExploreModeName(ExploreMode mode);
std::optional<ExploreMode> parseExploreMode(llvm::StringRef name);

/// Default bound on the compile cache (the runner's object cache default,
/// kDefaultObjectCacheLimitBytes, which the JIT backend asserts it equals).
constexpr uint64_t kDefaultExploreCacheLimitBytes = uint64_t(256) << 20;

struct ExploreOptions {
  ExploreMode mode = ExploreMode::Default;
  /// Short pass names (fold, dce, cse, fuse, layout, canonicalize) or pass pipeline
  /// elements such as "gopt-fuse{max-group-size=8}".
  std::vector<std::string> passes = {"fold", "dce", "cse", "fuse"};
  /// Measure ordered pairs (both orders) of the passes.
  bool pairs = true;
  /// Measure the default pipeline, gopt-optimize.
  bool defaultPipeline = true;
  /// The user's pipelines: (label, textual pipeline).
  std::vector<std::pair<std::string, std::string>> userPipelines;

  /// Function to run (empty: as the runner chooses).
  std::string entry;
  /// gopt-lower-to-llvm options, the same for every configuration.
  std::string loweringOptions;
  /// On-disk cache of compiled programs (CompileOptions::objectCacheDir);
  /// empty: none.
  std::string cacheDir;
  /// Bound on the cache's entries (CompileOptions::objectCacheLimitBytes).
  uint64_t cacheLimitBytes = kDefaultExploreCacheLimitBytes;
  /// Profile kernels for the Amdahl view: the baseline, the chosen and the
  /// default configuration are built once more with kernel timers (timers
  /// perturb end-to-end time, so the timed builds have none).
  bool profileKernels = true;

  /// Un-timed runs before a configuration's first round.
  int warmup = 2;
  /// More un-timed runs in a configuration's first round, after its
  /// warm-up: the allocator's water level over a long run
  /// (ConfigurationMeasurement::waterLevel).
  int steadyRuns = 0;
  /// Timed runs per configuration per round, at least; rounds interleave
  /// the configurations (in a rotating order).
  int repetitionsPerRound = 5;
  /// More runs per round for fast graphs: enough to fill this many
  /// milliseconds (at most 1000 runs).
  double roundMilliseconds = 20;
  /// Rounds are the independent draws the intervals rest on (Student-t
  /// with rounds - 1 degrees of freedom): five keep t at 2.78.
  int minRounds = 5;
  int maxRounds = 12;
  /// Stop when every measured configuration's relative standard error,
  /// CV / sqrt(runs), is at most this.
  double targetRelativeError = 0.005;
  /// Stop starting new rounds after this many seconds of the whole run
  /// (every configuration gets at least one round).
  double budgetSeconds = 60;
  /// A configuration's checking run (in a child process) that takes longer
  /// is killed and the configuration reported as a failed run; the
  /// exploration goes on.
  double configTimeoutSeconds = 300;
  /// When set and true (a Ctrl-C the tool caught), the exploration stops at
  /// the next step: configurations not compiled yet are skipped, no new
  /// round starts, and the report covers what was measured, marked
  /// interrupted.
  const std::atomic<bool> *interrupted = nullptr;

  /// Load-test every valid distinct program after the rounds
  /// (LoadMeasurement): a stream of `loadRequests` Poisson arrivals at
  /// analysis.criteria.qps served by `loadWorkers` threads and, with
  /// analysis.criteria.p99BoundMs, the highest rate within that bound.
  bool loadTest = false;
  int64_t loadRequests = 200;
  int loadWorkers = 1;

  /// Output comparison against the baseline.
  double rtol = 1e-3, atol = 1e-4;
  /// Seed of the random inputs.
  uint64_t seed = 1;

  AnalysisOptions analysis;
};

/// Turns the pass set into configurations: the baseline first, then each
/// pass alone, each ordered pair, the default pipeline and the user's
/// pipelines. Errors: an empty pass set, an unknown pass, a duplicate name, a
/// pipeline that does not parse.
llvm::Expected<std::vector<Configuration>>
buildConfigurations(const ExploreOptions &options);

/// The textual pipeline element of a short pass name ("fold" ->
/// "gopt-fold"); other names are returned as they are.
std::string getPassPipelineElement(llvm::StringRef pass);

/// Whether `pass` is a short name of a lowering pass, which a configuration
/// sets through its lowering options, not its pipeline: "plan" (the static
/// buffer planner, gopt-lower-to-llvm's plan-buffers; CPU) or "cuda-graph"
/// (the program launched as one CUDA graph, captured once and replayed;
/// GPU).
bool isLoweringPass(llvm::StringRef pass);
/// The target a lowering pass is for ("cpu", "cuda"); "" for other passes.
llvm::StringRef getLoweringPassTarget(llvm::StringRef pass);
/// Whether a configuration's lowering options (Configuration::
/// loweringOptions) run the lowering pass `pass` ("cuda-graph").
bool runsLoweringPass(llvm::StringRef loweringOptions, llvm::StringRef pass);

/// Compiles and runs configurations for the explorer.
class ExploreBackend {
public:
  virtual ~ExploreBackend();
  /// Compiles configuration `index`: fills the compile figures of
  /// `measurement` (times, compile peak, ops, kernels, static peak) and, when
  /// its program after the graph passes equals an earlier configuration's,
  /// `sameProgramAs`. An error makes the configuration CompileFailed.
  virtual llvm::Error compile(size_t index, const Configuration &config,
                              ConfigurationMeasurement &measurement) = 0;
  /// One run of configuration `index` on the fixed inputs; its outputs.
  virtual llvm::Expected<std::vector<HostTensor>> runOnce(size_t index) = 0;
  /// `warmup` un-timed runs, then `repetitions` timed ones, appended to
  /// `measurement.runMs`; updates peakBytes and kernelTimes.
  virtual llvm::Error measure(size_t index, int warmup, int repetitions,
                              ConfigurationMeasurement &measurement) = 0;
  /// Times the kernels of configuration `index` (already compiled; it and
  /// its outputs are valid): builds it again with kernel timers and fills
  /// `measurement.kernelTimes` from `warmup` + `repetitions` runs. The
  /// default does nothing (no kernel table).
  virtual llvm::Error profileKernels(size_t index,
                                     const Configuration &config, int warmup,
                                     int repetitions,
                                     ConfigurationMeasurement &measurement) {
    return llvm::Error::success();
  }
  /// Configuration `index` under load (ExploreOptions::loadTest), into
  /// `measurement.load`. The default says the backend cannot.
  virtual llvm::Error loadTest(size_t index, const ExploreOptions &options,
                               ConfigurationMeasurement &measurement);
  /// Frees what configuration `index` holds; it is not used again.
  virtual void release(size_t index) {}
  /// Target description for the report ("cpu-<name>").
  virtual std::string getTarget() const = 0;
  /// The function measured.
  virtual std::string getEntry() const = 0;
};

// The real backend, over the JIT, and the batch-size sweep that uses it:
// GOpt/Explore/JITBackend.h (library GOptExploreJIT). This header and its
// library (GOptExplore) do not depend on the runner.

/// Progress of a long exploration: `done` of `total` steps, what is being
/// done now.
using ExploreProgress =
    std::function<void(int done, int total, llvm::StringRef what)>;

/// Measures the given configurations (the baseline first) as explore() does,
/// without building them from a pass set and without autotuning.
llvm::Expected<ExploreReport>
exploreConfigurations(ExploreBackend &backend,
                      std::vector<Configuration> configurations,
                      const ExploreOptions &options,
                      const ExploreProgress &progress = {});

/// The error message of an exploration interrupted (ExploreOptions::
/// interrupted) before its baseline was measured: nothing was measured.
inline constexpr llvm::StringLiteral kInterruptedBeforeBaseline =
    "interrupted before the baseline (no graph pass) was measured: nothing "
    "was measured";

/// Runs the exploration and returns the report (setup figures that only the
/// caller knows, such as the model name, are left for it to fill). Fails only
/// when nothing can be compared: a bad pass set, a baseline that does not
/// compile or run, or an interrupt before the baseline was measured
/// (kInterruptedBeforeBaseline). Configurations that fail or miscompile are
/// reported in the measurements and the run goes on.
llvm::Expected<ExploreReport> explore(ExploreBackend &backend,
                                      const ExploreOptions &options,
                                      const ExploreProgress &progress = {});

} // namespace gopt
} // namespace mlir

#endif // GOPT_EXPLORE_EXPLORER_H
