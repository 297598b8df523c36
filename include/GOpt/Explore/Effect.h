//===- Effect.h - Measured configurations and what they mean ----*- C++ -*-===//
//
// The effect analysis of docs/Formulas.md, as a pure function of
// measurements: given the configurations gopt-explore ran (baseline, single
// passes, ordered pairs, pipelines) and what was measured for each (run-time
// samples, peak memory, compile time), it derives the speedup S, synergy
// eta = S_ab / (S_a * S_b) with a bootstrap interval and a verdict, Amdahl
// shares, eta_mem, break-even request counts, the utility U(alpha), the
// Pareto frontier and a choice. Nothing here measures or times anything, so
// every figure is reproducible from the measurements (tests inject them).
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_EXPLORE_EFFECT_H
#define GOPT_EXPLORE_EFFECT_H

#include "GOpt/Support/BufferPlan.h"
#include "GOpt/Support/Roofline.h"
#include "GOpt/Support/Statistics.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace gopt {

//===----------------------------------------------------------------------===//
// Configurations and their measurements
//===----------------------------------------------------------------------===//

enum class ConfigurationKind {
  /// No graph pass (same backend): T_base, M_base.
  Baseline,
  /// One pass alone: S_a.
  Single,
  /// Pass a then pass b: S_ab.
  Pair,
  /// The default pipeline (gopt-optimize).
  Default,
  /// A pipeline the user named.
  User,
  /// A configuration the autotuner proposed.
  Tuned,
};

/// "baseline", "single", "pair", "default", "user", "tuned".
const char *getConfigurationKindName(ConfigurationKind kind);

/// One way of compiling the model: the graph passes run before lowering.
struct Configuration {
  /// Unique, readable: "baseline", "fold", "fold+fuse", "default", or the
  /// user's label.
  std::string name;
  ConfigurationKind kind = ConfigurationKind::Baseline;
  /// Short pass names in order ("fold", "fuse"); empty for the baseline and
  /// for user pipelines.
  std::vector<std::string> passes;
  /// Textual pass pipeline on the module, "" for the baseline.
  std::string pipeline;
  /// gopt-lower-to-llvm options of this configuration, after the run's
  /// (ExploreOptions::loweringOptions): how the pass set's lowering passes
  /// ("plan": plan-buffers) are set for it; "" when the pass set has none.
  std::string loweringOptions = {};
};

enum class ConfigurationStatus {
  Ok,
  /// The graph passes, the lowering or the JIT failed.
  CompileFailed,
  /// A run failed (e.g. a trap in compiled code was reported as an error).
  RunFailed,
  /// The outputs differ from the baseline's beyond the tolerances.
  Wrong,
  /// Not measured on purpose: the autotuner pruned it (statically
  /// dominated) or the budget was spent before its turn.
  Skipped,
};

/// "ok", "compile-failed", "run-failed", "wrong", "skipped".
const char *getConfigurationStatusName(ConfigurationStatus status);

/// One kernel of a compiled configuration, as timed by the runtime.
struct KernelTiming {
  /// The kernel function's name (`<entry>_k<N>_<ops>`).
  std::string name;
  /// Median time of the kernel in one run, ms.
  double msPerRun = 0;
  /// Share of the sum of kernel times: the Amdahl f of the kernel.
  double share = 0;
};

/// A configuration under load (gopt-explore --load-test): an open-loop
/// stream of requests arriving as a Poisson process at `qps`, latency from
/// arrival to completion (queueing included); with a p99 bound, the
/// highest rate whose p99 stays within it.
struct LoadMeasurement {
  double qps = 0;
  int64_t requests = 0;
  int workers = 1;
  double p50Ms = 0, p90Ms = 0, p99Ms = 0, maxMs = 0;
  double achievedPerSecond = 0;
  /// Share of the time the workers ran requests.
  double utilization = 0;
  /// With a p99 bound: the highest rate found within it (0: none met it),
  /// and why the search stopped short, if it did.
  double sustainedQps = 0;
  std::string stoppedBecause;
};

/// The JSON form of a LoadMeasurement (docs/Explore.md), and back; the
/// reader's error names the missing field.
llvm::json::Object toJSON(const LoadMeasurement &load);
llvm::Expected<LoadMeasurement> parseLoadMeasurement(const llvm::json::Value &);

/// What was measured for one configuration.
struct ConfigurationMeasurement {
  ConfigurationStatus status = ConfigurationStatus::Ok;
  /// Why the status is not Ok (a compiler diagnostic, the first mismatch).
  std::string error;
  /// End-to-end run time of every timed repetition, ms, in the order taken.
  std::vector<double> runMs;
  /// How many of runMs each timed round took, in order (they sum to
  /// runMs.size()); empty when not known.
  std::vector<size_t> roundSizes;
  /// The explorer's number of each of those rounds: configurations' rounds
  /// with the same number were timed together, interleaved. Empty: the
  /// rounds are numbered 0, 1, ... in order.
  std::vector<int64_t> roundIds;
  /// Measured peak bytes held by the compiled code during a run.
  int64_t peakBytes = 0;
  /// GraphStats' static peak-memory estimate after the graph passes.
  int64_t staticPeakBytes = 0;
  /// The cost of each kernel after the graph passes (FLOPs, bytes moved;
  /// collectKernelCosts): what the roofline model predicts a run time on
  /// other hardware from.
  std::vector<KernelCost> kernelCosts;
  /// The compiled entry's static buffer plan (lowering option
  /// plan-buffers). The intermediates' bytes fall when a configuration
  /// leaves fewer tensors; the arena below them is reuse.
  BufferPlan bufferPlan;
  /// At the peak of the last measured run: the bytes the runtime's
  /// allocator held (live and cached free blocks), and the external
  /// fragmentation of the free ones (1 - largest / free).
  int64_t reservedAtPeakBytes = 0;
  /// The largest of the allocator's free (cached) blocks at that peak.
  int64_t largestFreeAtPeakBytes = 0;
  double externalFragmentation = 0;
  /// The water level: bytes the runtime's allocator held from the system
  /// after each run of the configuration's first round, from an empty cache
  /// of free blocks (warm-up, --steady-runs, timed runs, in order). Its
  /// last value is what a long-running process settles at; empty when not
  /// measured.
  std::vector<int64_t> waterLevel;
  /// Under load (--load-test); none when not load-tested.
  std::optional<LoadMeasurement> load;
  /// Ops in the entry function after the graph passes.
  int64_t ops = 0;
  /// Kernels of the compiled code.
  int64_t kernels = 0;
  /// Compile time split: graph passes / lowering / LLVM codegen, ms.
  double graphPassesMs = 0;
  double loweringMs = 0;
  double codegenMs = 0;
  /// Resident-set growth of the compile, bytes (0: unknown, as for a program
  /// loaded from the compile cache).
  int64_t compilePeakBytes = 0;
  /// Loaded from the on-disk compile cache: loweringMs and codegenMs are
  /// those of the compile that filled the cache entry.
  bool fromCache = false;
  /// Per-kernel times (empty without kernel timers).
  std::vector<KernelTiming> kernelTimes;
  /// Why kernelTimes is empty although the kernels were to be profiled (the
  /// build with kernel timers failed, or its runs did); empty otherwise.
  std::string kernelProfileError;
  /// The name of an earlier configuration whose program after the graph
  /// passes is identical to this one's, whose compiled code and run figures
  /// this one shares; empty when it was compiled and measured itself.
  std::string sameProgramAs;

  double compileMs() const { return graphPassesMs + loweringMs + codegenMs; }
};

//===----------------------------------------------------------------------===//
// Formulas (docs/Formulas.md)
//===----------------------------------------------------------------------===//

/// How an interval was obtained (docs/Formulas.md, "Intervals").
enum class IntervalMethod {
  /// No data, or no resampling asked for: a point, not an interval.
  None,
  /// Student-t over the shared rounds: the statistic in each round, its log
  /// averaged, t with rounds - 1 degrees of freedom. A real confidence
  /// interval when rounds are independent.
  RoundT,
  /// Percentile bootstrap of the runs one by one, for samples whose rounds
  /// are unknown or shared in fewer than two: runs of one round are not
  /// independent, so it is narrower than it should be.
  RunBootstrap,
};
const char *getIntervalMethodName(IntervalMethod method);

/// A two-sided interval [low, high].
struct Interval {
  double low = 0, high = 0;
  /// The estimate the interval belongs to, the figure to print with it:
  /// for RoundT the geometric mean of the rounds' statistics (its centre on
  /// a log scale: drift between rounds cancels within each round), else
  /// the statistic of the medians over all runs. 0 when nothing was
  /// measured.
  double estimate = 0;
  IntervalMethod method = IntervalMethod::None;
  /// The shared rounds a RoundT interval rests on (its degrees of freedom
  /// plus one); 0 otherwise.
  int rounds = 0;
  bool contains(double x) const { return low <= x && x <= high; }
};

/// The two-sided Student-t quantile: t such that P(|T| <= t) = level for T
/// with `degreesOfFreedom` (at least 1); level in (0, 1).
double studentTQuantile(double level, int degreesOfFreedom);

// median, quantile and coefficientOfVariation: GOpt/Support/Statistics.h.

/// S = T_base / T_opt.
double speedup(double baseMs, double optMs);
/// eta = S_ab / (S_a * S_b).
double synergy(double speedupA, double speedupB, double speedupAB);
/// Amdahl: S_overall = 1 / ((1 - f) + f / S_p).
double amdahlOverall(double f, double partSpeedup);
/// Amdahl bound 1 / (1 - f) (infinity for f >= 1).
double amdahlBound(double f);
/// eta_mem = (M_base - M_opt) / M_base (0 when M_base is 0).
double memorySaving(int64_t baseBytes, int64_t optBytes);
/// N = T_compile / (T_base - T_opt): requests before the compile pays back;
/// nullopt when the configuration is not faster than the baseline.
std::optional<double> breakEvenRequests(double compileMs, double baseMs,
                                        double optMs);
/// U = S / (1 + alpha * T_compile / T_run).
double utility(double speedup, double alpha, double compileMs, double runMs);

/// Run times with the rounds they were taken in: `runMs` in the order
/// taken, `roundSizes`, the runs of each round (empty: unknown), and
/// `roundIds`, each round's number (empty: 0, 1, ...).
struct RunSample {
  explicit RunSample(llvm::ArrayRef<double> runMs) : runMs(runMs) {}
  RunSample(const ConfigurationMeasurement &m)
      : runMs(m.runMs), roundSizes(m.roundSizes), roundIds(m.roundIds) {}
  static RunSample inRounds(llvm::ArrayRef<double> runMs,
                            llvm::ArrayRef<size_t> roundSizes,
                            llvm::ArrayRef<int64_t> roundIds = {}) {
    RunSample sample(runMs);
    sample.roundSizes = roundSizes;
    sample.roundIds = roundIds;
    return sample;
  }
  llvm::ArrayRef<double> runMs;
  llvm::ArrayRef<size_t> roundSizes;
  llvm::ArrayRef<int64_t> roundIds;
};

/// The runs of each round of `sample`, in order; empty when its rounds are
/// not known, a round is empty, or the rounds do not cover its runs.
std::vector<llvm::ArrayRef<double>> splitRounds(const RunSample &sample);

/// Intervals of a statistic of medians at `level`.
///
/// When the samples share two or more rounds (the same round numbers), as
/// the explorer's interleaved rounds give, a round is one draw: its runs
/// share the machine's state of that moment, and a drift that slows every
/// configuration in a round cancels in the ratio. The statistic is taken in
/// each shared round (of that round's medians) and the interval is
/// Student-t on their logs, with rounds - 1 degrees of freedom
/// (IntervalMethod::RoundT): wide with few rounds, as it must be. Otherwise
/// each sample's runs are resampled one by one, as if independent, with a
/// fixed-seed generator (IntervalMethod::RunBootstrap): narrower than the
/// truth, and labelled so.
struct BootstrapOptions {
  int resamples = 2000;
  double level = 0.95;
  uint64_t seed = 0x5eed;
};
/// Interval of T_base / T_opt.
Interval bootstrapSpeedup(RunSample base, RunSample opt,
                          const BootstrapOptions &options = {});
/// Interval of eta = (T_a * T_b) / (T_base * T_ab).
Interval bootstrapSynergy(RunSample base, RunSample a, RunSample b,
                          RunSample ab, const BootstrapOptions &options = {});
/// The same, for runs whose rounds are not known.
inline Interval bootstrapSpeedup(llvm::ArrayRef<double> baseMs,
                                 llvm::ArrayRef<double> optMs,
                                 const BootstrapOptions &options = {}) {
  return bootstrapSpeedup(RunSample(baseMs), RunSample(optMs), options);
}
inline Interval bootstrapSynergy(llvm::ArrayRef<double> baseMs,
                                 llvm::ArrayRef<double> aMs,
                                 llvm::ArrayRef<double> bMs,
                                 llvm::ArrayRef<double> abMs,
                                 const BootstrapOptions &options = {}) {
  return bootstrapSynergy(RunSample(baseMs), RunSample(aMs), RunSample(bMs),
                          RunSample(abMs), options);
}

enum class SynergyVerdict {
  /// The interval lies above 1.
  Synergy,
  /// The interval lies below 1.
  Interference,
  /// The interval contains 1: no effect beyond the noise.
  Independent,
};
const char *getSynergyVerdictName(SynergyVerdict verdict);
SynergyVerdict classifySynergy(const Interval &etaInterval);

/// A point for the Pareto frontier: larger speedup, smaller compile time and
/// smaller peak memory are better.
struct ParetoPoint {
  double speedup = 0;
  double compileMs = 0;
  int64_t peakBytes = 0;
};
/// Whether `a` dominates `b`: at least as good on every axis, better on one.
bool dominates(const ParetoPoint &a, const ParetoPoint &b);
/// For every point, whether no other point dominates it (ties on every axis
/// dominate neither way, so equal points are all on the frontier).
std::vector<bool> paretoFrontier(llvm::ArrayRef<ParetoPoint> points);

//===----------------------------------------------------------------------===//
// The analysis
//===----------------------------------------------------------------------===//

/// The derived figures of one configuration, against the baseline.
struct ConfigurationEffect {
  /// Median run time, its quartiles and CV.
  double medianMs = 0, q1Ms = 0, q3Ms = 0, cv = 0;
  /// The tail: 90th and 99th percentiles (linear interpolation) and the
  /// slowest run, ms. With fewer than 100 runs p99 lies between the two
  /// slowest runs.
  double p90Ms = 0, p99Ms = 0, maxMs = 0;
  /// T_base of its S: the baseline's median over the rounds this
  /// configuration was timed in (all the baseline's runs when they share no
  /// rounds).
  double baselineMs = 0;
  /// S (medians) and its bootstrap interval.
  double speedup = 1;
  Interval speedupInterval{1, 1};
  /// eta_mem from measured peaks, and the same from the static estimates.
  double memorySaving = 0;
  double staticMemorySaving = 0;
  double compileMs = 0;
  /// Requests before the compile pays back (nullopt: never, not faster).
  std::optional<double> breakEvenRequests;
  /// breakEvenRequests / QPS, seconds (with a QPS).
  std::optional<double> paybackSeconds;
  /// U(alpha) at the analysis' alpha.
  double utility = 0;
  bool pareto = false;
  /// Whether the configuration is usable (measured, outputs match).
  bool valid = false;
};

/// One ordered pair (a then b) against a and b alone.
struct PairEffect {
  /// Indices into the configurations: a alone, b alone, a then b.
  size_t a = 0, b = 0, ab = 0;
  double speedupA = 1, speedupB = 1, speedupAB = 1;
  double eta = 1;
  Interval etaInterval{1, 1};
  SynergyVerdict verdict = SynergyVerdict::Independent;
};

/// One kernel of a configuration with its Amdahl figures.
struct KernelEffect {
  std::string name;
  double msPerRun = 0;
  /// f: share of the kernel times.
  double share = 0;
  /// 1 / (1 - f): the most any speedup of this kernel alone can buy.
  double amdahlBound = 1;
  /// Speedup of this kernel over the baseline kernel computing the same ops
  /// (matched by the ops in the kernel name), when there is one.
  std::optional<double> speedupOverBaseline;
};

/// What the user weighs when choosing.
struct ChoiceCriteria {
  /// Sensitivity to compile time in U(alpha).
  double alpha = 0;
  /// Requests per second, for payback times (0: unknown).
  double qps = 0;
  /// Peak-memory limit in bytes (0: none).
  int64_t memoryLimitBytes = 0;
  /// Bound on a configuration's p99 in ms (0: none): one that exceeds it
  /// is not chosen, like one over the memory limit. The p99 under load
  /// where the configuration was load-tested, else that of its timed runs.
  double p99BoundMs = 0;
};

/// The configuration chosen and why.
struct Choice {
  /// Index into the configurations; nullopt when none is valid.
  std::optional<size_t> index;
  /// One paragraph of plain words with the numbers.
  std::string reason;
};

struct EffectAnalysis {
  /// Index of the baseline configuration.
  size_t baseline = 0;
  /// One per configuration, in the configurations' order.
  std::vector<ConfigurationEffect> effects;
  std::vector<PairEffect> pairs;
  /// Per configuration, its kernels with Amdahl figures.
  std::vector<std::vector<KernelEffect>> kernels;
  /// The alphas of the utility table, and U for every configuration at each.
  std::vector<double> alphaTable;
  std::vector<std::vector<double>> utilityTable;
  /// The level of the bootstrap intervals (AnalysisOptions::bootstrap.level).
  double intervalLevel = 0.95;
  ChoiceCriteria criteria;
  Choice choice;
};

struct AnalysisOptions {
  ChoiceCriteria criteria;
  BootstrapOptions bootstrap;
  /// Alphas of the utility table.
  std::vector<double> alphaTable = {0, 0.001, 0.01, 0.1, 1};
};

/// Derives every figure from the measurements. `configurations` and
/// `measurements` are parallel; exactly one configuration is the baseline and
/// it must be valid (Ok with run samples), or the analysis has nothing to
/// compare against and returns an error message instead.
struct EffectAnalysisResult {
  EffectAnalysis analysis;
  std::string error;
};
EffectAnalysisResult
analyzeEffects(llvm::ArrayRef<Configuration> configurations,
               llvm::ArrayRef<ConfigurationMeasurement> measurements,
               const AnalysisOptions &options);

/// Picks the valid configuration with the highest U(alpha) among those within
/// the memory limit (ties: faster, then cheaper to compile, then earlier),
/// and explains the choice in one paragraph.
Choice chooseConfiguration(llvm::ArrayRef<Configuration> configurations,
                           llvm::ArrayRef<ConfigurationMeasurement> measurements,
                           const EffectAnalysis &analysis,
                           const ChoiceCriteria &criteria);

} // namespace gopt
} // namespace mlir

#endif // GOPT_EXPLORE_EFFECT_H
