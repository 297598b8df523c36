//===- Explorer.cpp - Build, verify and measure configurations ------------===//
//
// explore() runs in phases, each reported through the progress callback:
//
//  1. compile every configuration (a failure is recorded, the run goes on);
//  2. run each once and compare its outputs with the baseline's;
//  3. measure the valid ones in rounds: every round gives each configuration
//     `repetitionsPerRound` timed runs, in an order rotated by one each
//     round so no configuration always runs first (interleaving keeps slow
//     drifts of the machine from looking like effects); rounds stop when
//     every CV is at most `targetCV` (after `minRounds`), at `maxRounds`, or
//     when the budget is spent;
//  4. (autotune) propose more configurations, drop those whose program is
//     one already measured or that are statically dominated, measure the
//     rest while the budget lasts;
//  5. copy figures to configurations that share a program, and analyze.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Explore/Explorer.h"
#include "GOpt/Pipelines/Pipelines.h"
#include "GOpt/Support/Error.h"
#include "GOpt/Version.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <set>

using namespace mlir;
using namespace mlir::gopt;

ExploreBackend::~ExploreBackend() = default;

llvm::Error ExploreBackend::loadTest(size_t index,
                                     const ExploreOptions &options,
                                     ConfigurationMeasurement &measurement) {
  return makeError("this backend cannot run a load test");
}

const char *mlir::gopt::getExploreModeName(ExploreMode mode) {
  switch (mode) {
  case ExploreMode::Verify:
    return "verify";
  case ExploreMode::Default:
    return "default";
  case ExploreMode::Autotune:
    return "autotune";
  }
  return "default";
}

std::optional<ExploreMode> mlir::gopt::parseExploreMode(llvm::StringRef name) {
  if (name == "verify")
    return ExploreMode::Verify;
  if (name == "default")
    return ExploreMode::Default;
  if (name == "autotune")
    return ExploreMode::Autotune;
  return std::nullopt;
}

namespace {

double nowSeconds() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// Short names and the pipeline elements they stand for.
const std::pair<const char *, const char *> kShortPasses[] = {
    {"fold", "gopt-fold"},       {"dce", "gopt-dce"},
    {"cse", "cse"},              {"fuse", "gopt-fuse"},
    {"layout", "gopt-channels-last"}, {"canonicalize", "canonicalize"},
};

/// A lowering pass: a short name, the option of the configuration's
/// lowering options it sets, and the target it is for.
struct LoweringPass {
  const char *name;
  const char *option;
  const char *target;
};

/// The lowering passes: a configuration runs one when it names it and runs
/// without it otherwise. "plan" is gopt-lower-to-llvm's plan-buffers (on by
/// default there); "cuda-graph" is how the GPU backend launches the
/// program: captured once as one CUDA graph and replayed, instead of one
/// launch per kernel.
const LoweringPass kLoweringPasses[] = {
    {"plan", "plan-buffers", "cpu"},
    {"cuda-graph", "cuda-graph", "cuda"},
};

/// The pipeline of the graph passes among `passes` ("" when none).
std::string makePipeline(llvm::ArrayRef<std::string> passes) {
  std::string text;
  for (const std::string &pass : passes)
    if (!isLoweringPass(pass))
      text += (text.empty() ? "" : ",") + getPassPipelineElement(pass);
  return text.empty() ? "" : "builtin.module(" + text + ")";
}

/// The lowering options of a configuration that runs the lowering passes
/// `passes` names, of those in the pass set `all`: "" when `all` has none.
std::string makeLoweringOptions(llvm::ArrayRef<std::string> all,
                                llvm::ArrayRef<std::string> passes) {
  std::string text;
  for (const LoweringPass &pass : kLoweringPasses)
    if (llvm::is_contained(all, pass.name))
      text += std::string(text.empty() ? "" : " ") + pass.option + "=" +
              (llvm::is_contained(passes, pass.name) ? "true" : "false");
  return text;
}

std::string joinPasses(llvm::ArrayRef<std::string> passes) {
  return llvm::join(passes, "+");
}

} // namespace

bool mlir::gopt::isLoweringPass(llvm::StringRef pass) {
  return !getLoweringPassTarget(pass).empty();
}

bool mlir::gopt::runsLoweringPass(llvm::StringRef loweringOptions,
                                  llvm::StringRef pass) {
  for (const LoweringPass &entry : kLoweringPasses)
    if (pass == entry.name) {
      llvm::SmallVector<llvm::StringRef> options;
      loweringOptions.split(options, ' ', -1, /*KeepEmpty=*/false);
      return llvm::is_contained(options, std::string(entry.option) + "=true");
    }
  return false;
}

llvm::StringRef mlir::gopt::getLoweringPassTarget(llvm::StringRef pass) {
  for (const LoweringPass &entry : kLoweringPasses)
    if (pass == entry.name)
      return entry.target;
  return "";
}

std::string mlir::gopt::getPassPipelineElement(llvm::StringRef pass) {
  for (auto [name, element] : kShortPasses)
    if (pass == name)
      return element;
  return pass.str();
}

/// Whether `element` names a registered pass or pipeline (options included).
static bool isRegisteredPassElement(llvm::StringRef element) {
  llvm::StringRef name = element.take_until([](char c) { return c == '{'; });
  return PassPipelineInfo::lookup(name) || PassInfo::lookup(name);
}

/// Parses a pipeline the way the backends run it; the error text on
/// failure.
static std::optional<std::string> checkPipeline(llvm::StringRef pipeline) {
  OpPassManager pm("builtin.module");
  std::string error;
  if (succeeded(parseGraphPipeline(pipeline, pm, error)))
    return std::nullopt;
  return error.empty() ? std::string("it does not parse") : error;
}

llvm::Expected<std::vector<Configuration>>
mlir::gopt::buildConfigurations(const ExploreOptions &options) {
  if (options.passes.empty())
    return makeError("the pass set is empty: name at least one pass (fold, "
                     "dce, cse, fuse, or a registered pass)");
  llvm::StringSet<> seen;
  for (const std::string &pass : options.passes) {
    if (!isLoweringPass(pass) &&
        !isRegisteredPassElement(getPassPipelineElement(pass)))
      return makeError("unknown pass '" + pass +
                       "': use fold, dce, cse, fuse, layout, canonicalize, "
                       "plan, cuda-graph or a pass registered with gopt-opt "
                       "(gopt-opt --help lists them)");
    if (!seen.insert(pass).second)
      return makeError("pass '" + pass + "' is named twice in the pass set");
  }

  const std::vector<std::string> &all = options.passes;
  // The default and the user's pipelines run every lowering pass of the
  // set, as gopt-lower-to-llvm does by default.
  std::vector<std::string> loweringPasses;
  for (const std::string &pass : all)
    if (isLoweringPass(pass))
      loweringPasses.push_back(pass);
  std::vector<Configuration> configs;
  configs.push_back({"baseline",
                     ConfigurationKind::Baseline,
                     {},
                     "",
                     makeLoweringOptions(all, {})});
  for (const std::string &pass : all)
    configs.push_back({pass,
                       ConfigurationKind::Single,
                       {pass},
                       makePipeline({pass}),
                       makeLoweringOptions(all, {pass})});
  if (options.pairs)
    for (const std::string &a : all)
      for (const std::string &b : all)
        // A lowering pass runs after every graph pass whatever the order:
        // one order of such a pair, the graph pass first.
        if (a != b && !(isLoweringPass(a) && !isLoweringPass(b)))
          configs.push_back({a + "+" + b,
                             ConfigurationKind::Pair,
                             {a, b},
                             makePipeline({a, b}),
                             makeLoweringOptions(all, {a, b})});
  if (options.defaultPipeline)
    configs.push_back({"default",
                       ConfigurationKind::Default,
                       {},
                       "builtin.module(gopt-optimize)",
                       makeLoweringOptions(all, loweringPasses)});
  for (const auto &[label, pipeline] : options.userPipelines) {
    if (label.empty() || pipeline.empty())
      return makeError("a user pipeline needs a label and a pipeline "
                       "(--pipeline=LABEL=PIPELINE)");
    configs.push_back({label,
                       ConfigurationKind::User,
                       {},
                       pipeline,
                       makeLoweringOptions(all, loweringPasses)});
  }
  llvm::StringSet<> names;
  for (const Configuration &config : configs) {
    if (!names.insert(config.name).second)
      return makeError("two configurations are named '" + config.name +
                       "': give the user pipeline another label");
    if (auto error = checkPipeline(config.pipeline))
      return makeError("the pipeline of '" + config.name + "', '" +
                       config.pipeline + "', is not valid: " + *error);
  }
  return configs;
}

namespace {

/// The state of one exploration.
class Exploration {
public:
  Exploration(ExploreBackend &backend, const ExploreOptions &options,
              const ExploreProgress &progress)
      : backend(backend), options(options), progress(progress) {}
  /// Measure these instead of the pass set's configurations.
  void setConfigurations(std::vector<Configuration> given) {
    givenConfigurations = std::move(given);
  }

  llvm::Expected<ExploreReport> run();

private:
  void report(llvm::StringRef what) {
    if (progress)
      progress(done, total, what);
  }
  bool interrupted() const {
    return options.interrupted && options.interrupted->load();
  }
  /// The budget is spent, or the user interrupted: no new round starts.
  bool budgetSpent() const {
    return interrupted() || nowSeconds() - start > options.budgetSeconds;
  }
  /// Compiles configuration `i` and checks its outputs (the baseline's
  /// outputs are the reference).
  void compileAndVerify(size_t i);
  /// Rounds of measurement over `indices` until the stop rule holds.
  /// Returns the number of rounds taken.
  int measureRounds(const std::vector<size_t> &indices, bool minRoundsApply);
  /// One round's runs of configuration `i`, in round `roundId`.
  void measureOnce(size_t i, int64_t roundId);
  bool measurable(size_t i) const {
    const ConfigurationMeasurement &m = measurements[i];
    return m.status == ConfigurationStatus::Ok && m.sameProgramAs.empty();
  }
  void proposeTunedConfigurations();
  /// Runs per round for configuration `i`: enough to fill
  /// roundMilliseconds at its run time so far (or its checking run's).
  int repetitionsFor(size_t i) const {
    const ConfigurationMeasurement &m = measurements[i];
    double estimateMs = m.runMs.empty() ? checkMs[i] : median(m.runMs);
    int reps = options.repetitionsPerRound;
    if (estimateMs > 0)
      reps = std::max<int>(
          reps, static_cast<int>(std::min(
                    1000.0, std::ceil(options.roundMilliseconds / estimateMs))));
    return reps;
  }
  /// Relative standard error of configuration `i`'s round medians: a
  /// round's runs share the machine's state, so the rounds, not the runs,
  /// are the independent draws (as in the bootstrap, docs/Explore.md).
  double relativeError(size_t i) const {
    std::vector<llvm::ArrayRef<double>> rounds =
        splitRounds(measurements[i]);
    if (rounds.size() < 2)
      return INFINITY;
    std::vector<double> roundMedians;
    for (llvm::ArrayRef<double> runs : rounds)
      roundMedians.push_back(median(runs));
    return coefficientOfVariation(roundMedians) /
           std::sqrt(static_cast<double>(roundMedians.size()));
  }
  /// Kernel tables for the baseline, the choice and the default pipeline.
  void profileKernels(const EffectAnalysis &analysis);
  size_t indexOf(llvm::StringRef name) const {
    for (auto [i, c] : llvm::enumerate(configs))
      if (c.name == name)
        return i;
    return configs.size();
  }

  ExploreBackend &backend;
  const ExploreOptions &options;
  const ExploreProgress &progress;
  std::optional<std::vector<Configuration>> givenConfigurations;
  std::vector<Configuration> configs;
  std::vector<ConfigurationMeasurement> measurements;
  std::vector<HostTensor> reference;
  std::vector<bool> warmedUp;
  /// Wall time of each configuration's checking run, ms.
  std::vector<double> checkMs;
  int rounds = 0;
  /// Rounds begun so far, over all measuring phases: the next round's number.
  int64_t roundsStarted = 0;
  int done = 0, total = 0;
  double start = 0;
  /// Where the time goes (ExploreSetup's split), seconds.
  double compileSeconds = 0, checkSeconds = 0, measureSeconds = 0,
         profileSeconds = 0, analysisSeconds = 0;
  /// Of measureSeconds, the stop rule's statistics (counted as analysis).
  double stopRuleSeconds = 0;
};

} // namespace

void Exploration::compileAndVerify(size_t i) {
  ConfigurationMeasurement &m = measurements[i];
  report("compiling " + configs[i].name);
  double compileStart = nowSeconds();
  llvm::Error compileError = backend.compile(i, configs[i], m);
  compileSeconds += nowSeconds() - compileStart;
  if (llvm::Error error = std::move(compileError)) {
    m.status = ConfigurationStatus::CompileFailed;
    m.error = llvm::toString(std::move(error));
    ++done;
    return;
  }
  ++done;
  if (!m.sameProgramAs.empty()) {
    // Same program: same outputs and figures as the configuration shared.
    size_t other = indexOf(m.sameProgramAs);
    if (other < configs.size() &&
        measurements[other].status != ConfigurationStatus::Ok) {
      m.status = measurements[other].status;
      m.error = "same program as '" + m.sameProgramAs +
                "': " + measurements[other].error;
    }
    backend.release(i);
    return;
  }
  report("checking " + configs[i].name);
  double checkStart = nowSeconds();
  auto outputs = backend.runOnce(i);
  checkMs[i] = (nowSeconds() - checkStart) * 1e3;
  checkSeconds += checkMs[i] / 1e3;
  if (!outputs) {
    m.status = ConfigurationStatus::RunFailed;
    m.error = llvm::toString(outputs.takeError());
    backend.release(i);
    return;
  }
  if (configs[i].kind == ConfigurationKind::Baseline) {
    reference = std::move(*outputs);
    return;
  }
  if (outputs->size() != reference.size()) {
    m.status = ConfigurationStatus::Wrong;
    m.error = "returns " + std::to_string(outputs->size()) +
              " outputs, the baseline " + std::to_string(reference.size());
  } else {
    for (auto [k, out] : llvm::enumerate(*outputs)) {
      TensorComparison cmp =
          compareTensors(out, reference[k], options.rtol, options.atol);
      if (!cmp.matches) {
        m.status = ConfigurationStatus::Wrong;
        m.error = "output #" + std::to_string(k) + " differs from the "
                  "baseline's: " + cmp.detail;
        break;
      }
    }
  }
  if (m.status != ConfigurationStatus::Ok)
    backend.release(i);
}

void Exploration::profileKernels(const EffectAnalysis &analysis) {
  // Resolve shared programs to the configuration that was compiled.
  auto owner = [&](size_t i) {
    if (!measurements[i].sameProgramAs.empty())
      return indexOf(measurements[i].sameProgramAs);
    return i;
  };
  std::vector<size_t> wanted = {analysis.baseline};
  if (analysis.choice.index)
    wanted.push_back(*analysis.choice.index);
  size_t defaultIndex = indexOf("default");
  if (defaultIndex < configs.size())
    wanted.push_back(defaultIndex);
  std::set<size_t> profiled;
  for (size_t want : wanted) {
    size_t i = owner(want);
    if (i >= configs.size() || !measurable(i) || !profiled.insert(i).second)
      continue;
    report("profiling kernels of " + configs[i].name);
    ConfigurationMeasurement &m = measurements[i];
    int reps = repetitionsFor(i) * std::max(1, std::min(rounds, 3));
    if (llvm::Error error =
            backend.profileKernels(i, configs[i], options.warmup, reps, m)) {
      // The kernel table is an extra: its failure is a note in the report,
      // not a verdict on the configuration.
      m.kernelTimes.clear();
      m.kernelProfileError = llvm::toString(std::move(error));
    }
  }
  for (ConfigurationMeasurement &m : measurements)
    if (!m.sameProgramAs.empty() && m.status == ConfigurationStatus::Ok) {
      const ConfigurationMeasurement &shared =
          measurements[indexOf(m.sameProgramAs)];
      m.kernelTimes = shared.kernelTimes;
      m.kernelProfileError = shared.kernelProfileError;
    }
}

void Exploration::measureOnce(size_t i, int64_t roundId) {
  ConfigurationMeasurement &m = measurements[i];
  report("timing " + configs[i].name);
  int warmup = warmedUp[i] ? 0 : options.warmup;
  warmedUp[i] = true;
  size_t runsBefore = m.runMs.size();
  if (llvm::Error error = backend.measure(i, warmup, repetitionsFor(i), m)) {
    m.status = ConfigurationStatus::RunFailed;
    m.error = llvm::toString(std::move(error));
    m.runMs.clear();
    m.roundSizes.clear();
    m.roundIds.clear();
    backend.release(i);
  } else if (m.runMs.size() > runsBefore) {
    // The round's runs: the unit the bootstrap resamples.
    m.roundSizes.push_back(m.runMs.size() - runsBefore);
    m.roundIds.push_back(roundId);
  }
  ++done;
}

int Exploration::measureRounds(const std::vector<size_t> &indices,
                               bool minRoundsApply) {
  int taken = 0;
  if (indices.empty())
    return taken;
  for (int round = 0; round < options.maxRounds; ++round) {
    int64_t roundId = roundsStarted++;
    // Rotate the order by one each round.
    size_t n = indices.size();
    for (size_t k = 0; k < n; ++k) {
      size_t i = indices[(k + static_cast<size_t>(round)) % n];
      if (!measurable(i))
        continue;
      // Every configuration gets its first round, whatever the budget.
      if (round > 0 && budgetSpent())
        break;
      measureOnce(i, roundId);
    }
    ++taken;
    if (budgetSpent())
      break;
    if (minRoundsApply && round + 1 < options.minRounds)
      continue;
    double ruleStart = nowSeconds();
    bool settled = true;
    for (size_t i : indices)
      if (measurable(i) && relativeError(i) > options.targetRelativeError)
        settled = false;
    stopRuleSeconds += nowSeconds() - ruleStart;
    if (settled)
      break;
  }
  return taken;
}

/// Proposals of the autotuner: every order of the full pass set (up to 4
/// passes), every subset of three in the given order, and the default
/// pipeline with smaller and larger fusion groups.
void Exploration::proposeTunedConfigurations() {
  std::set<std::string> names;
  for (const Configuration &c : configs)
    names.insert(c.name);
  auto add = [&](std::vector<std::string> passes, std::string pipeline) {
    std::string name = "tuned:" + joinPasses(passes);
    if (!names.insert(name).second)
      return;
    configs.push_back({name, ConfigurationKind::Tuned, passes,
                       pipeline.empty() ? makePipeline(passes) : pipeline,
                       makeLoweringOptions(options.passes, passes)});
  };
  std::vector<std::string> passes = options.passes;
  if (passes.size() >= 3 && passes.size() <= 4) {
    std::vector<std::string> order = passes;
    std::sort(order.begin(), order.end());
    do
      add(order, "");
    while (std::next_permutation(order.begin(), order.end()));
    if (passes.size() == 4)
      for (size_t skip = 0; skip < passes.size(); ++skip) {
        std::vector<std::string> subset;
        for (size_t k = 0; k < passes.size(); ++k)
          if (k != skip)
            subset.push_back(passes[k]);
        add(subset, "");
      }
  }
  for (int groupSize : {4, 16}) {
    std::string option = "max-group-size=" + std::to_string(groupSize);
    std::string name = "default{" + option + "}";
    if (names.insert("tuned:" + name).second)
      configs.push_back({"tuned:" + name,
                         ConfigurationKind::Tuned,
                         {},
                         "builtin.module(gopt-optimize{" + option + "})",
                         makeLoweringOptions(options.passes, options.passes)});
  }
}

llvm::Expected<ExploreReport> Exploration::run() {
  start = nowSeconds();
  if (givenConfigurations) {
    configs = std::move(*givenConfigurations);
    if (configs.empty() || configs[0].kind != ConfigurationKind::Baseline)
      return makeError("the first configuration must be the baseline");
  } else {
    auto built = buildConfigurations(options);
    if (!built)
      return built.takeError();
    configs = std::move(*built);
  }
  measurements.assign(configs.size(), {});
  warmedUp.assign(configs.size(), false);
  checkMs.assign(configs.size(), 0);

  bool timed = options.mode != ExploreMode::Verify;
  total = static_cast<int>(configs.size()) *
          (timed ? 1 + std::max(1, options.minRounds) : 1);

  // 1-2. Compile and verify; the baseline is the reference.
  compileAndVerify(0);
  if (measurements[0].status != ConfigurationStatus::Ok && interrupted())
    return makeError(kInterruptedBeforeBaseline);
  if (measurements[0].status != ConfigurationStatus::Ok)
    return makeError("the baseline (no graph pass) cannot be measured, so "
                     "nothing can be compared: " +
                     measurements[0].error);
  for (size_t i = 1; i < configs.size(); ++i) {
    if (interrupted()) {
      measurements[i].status = ConfigurationStatus::Skipped;
      measurements[i].error = "not tried: the exploration was interrupted";
      continue;
    }
    compileAndVerify(i);
  }

  // 3. Measure.
  std::vector<size_t> all;
  for (size_t i = 0; i < configs.size(); ++i)
    all.push_back(i);
  double measureStart = nowSeconds();
  if (timed)
    rounds = measureRounds(all, /*minRoundsApply=*/true);
  measureSeconds += nowSeconds() - measureStart;

  // 4. Autotune: more configurations while the budget lasts.
  if (options.mode == ExploreMode::Autotune && !givenConfigurations &&
      !budgetSpent()) {
    size_t firstTuned = configs.size();
    proposeTunedConfigurations();
    measurements.resize(configs.size());
    warmedUp.resize(configs.size(), false);
    checkMs.resize(configs.size(), 0);
    total += static_cast<int>(configs.size() - firstTuned) * 2;
    std::vector<size_t> candidates;
    for (size_t i = firstTuned; i < configs.size(); ++i) {
      if (budgetSpent()) {
        measurements[i].status = ConfigurationStatus::Skipped;
        measurements[i].error = interrupted()
                                    ? "not tried: the exploration was "
                                      "interrupted"
                                    : "not tried: the budget was spent";
        continue;
      }
      compileAndVerify(i);
      if (!measurable(i))
        continue;
      // Prune: a measured configuration with no more kernels, ops and
      // static peak that also compiled faster is at least as good on what
      // can be known without timing; this one is not worth the runs.
      const ConfigurationMeasurement &m = measurements[i];
      std::string dominatedBy;
      for (size_t j = 0; j < firstTuned && dominatedBy.empty(); ++j) {
        const ConfigurationMeasurement &o = measurements[j];
        if (measurable(j) && !o.runMs.empty() && o.kernels <= m.kernels &&
            o.ops <= m.ops && o.staticPeakBytes <= m.staticPeakBytes &&
            o.compileMs() <= m.compileMs())
          dominatedBy = configs[j].name;
      }
      if (!dominatedBy.empty()) {
        measurements[i].status = ConfigurationStatus::Skipped;
        measurements[i].error =
            "pruned: statically dominated by '" + dominatedBy + "'";
        backend.release(i);
        continue;
      }
      candidates.push_back(i);
    }
    // The baseline is timed again alongside, so each proposal is compared
    // with baseline runs taken in the same rounds.
    if (!candidates.empty() && measurable(0)) {
      candidates.insert(candidates.begin(), 0);
      total += std::max(1, options.minRounds);
    }
    double tunedStart = nowSeconds();
    rounds = std::max(rounds, measureRounds(candidates, true));
    measureSeconds += nowSeconds() - tunedStart;
  }

  // 4b. Under load: every distinct program that was timed.
  if (options.loadTest && options.mode != ExploreMode::Verify) {
    double loadStart = nowSeconds();
    for (size_t i = 0; i < configs.size() && !interrupted(); ++i) {
      if (!measurable(i) || measurements[i].runMs.empty())
        continue;
      report("load-testing " + configs[i].name);
      if (llvm::Error error = backend.loadTest(i, options, measurements[i])) {
        measurements[i].status = ConfigurationStatus::RunFailed;
        measurements[i].error =
            "under load: " + llvm::toString(std::move(error));
      }
    }
    measureSeconds += nowSeconds() - loadStart;
  }

  // 5. Shared programs take the figures of the one they share.
  for (size_t i = 0; i < configs.size(); ++i) {
    ConfigurationMeasurement &m = measurements[i];
    if (m.sameProgramAs.empty() || m.status != ConfigurationStatus::Ok)
      continue;
    const ConfigurationMeasurement &o = measurements[indexOf(m.sameProgramAs)];
    m.status = o.status;
    m.error = o.error;
    m.runMs = o.runMs;
    m.roundSizes = o.roundSizes;
    m.roundIds = o.roundIds;
    m.peakBytes = o.peakBytes;
    m.reservedAtPeakBytes = o.reservedAtPeakBytes;
    m.largestFreeAtPeakBytes = o.largestFreeAtPeakBytes;
    m.externalFragmentation = o.externalFragmentation;
    m.waterLevel = o.waterLevel;
    m.load = o.load;
    m.kernelTimes = o.kernelTimes;
  }

  ExploreReport result;
  result.setup.toolVersion = GOPT_VERSION_STRING;
  result.setup.target = backend.getTarget();
  result.setup.entry = backend.getEntry();
  result.setup.mode = getExploreModeName(options.mode);
  result.setup.warmup = options.warmup;
  result.setup.repetitionsPerRound = timed ? options.repetitionsPerRound : 0;
  result.setup.rounds = rounds;
  result.setup.roundMilliseconds = timed ? options.roundMilliseconds : 0;
  result.setup.targetRelativeError = options.targetRelativeError;
  result.setup.budgetSeconds = options.budgetSeconds;
  result.setup.interrupted = interrupted();
  result.setup.rtol = options.rtol;
  result.setup.atol = options.atol;
  result.setup.cacheDir = options.cacheDir;
  for (const ConfigurationMeasurement &m : measurements) {
    if (!m.sameProgramAs.empty())
      ++result.setup.sharedPrograms;
    else if (!options.cacheDir.empty() &&
             m.status != ConfigurationStatus::CompileFailed &&
             m.status != ConfigurationStatus::Skipped)
      ++(m.fromCache ? result.setup.cacheHits : result.setup.cacheMisses);
  }
  result.configurations = configs;
  if (timed) {
    double analysisStart = nowSeconds();
    EffectAnalysisResult analysis =
        analyzeEffects(configs, measurements, options.analysis);
    analysisSeconds += nowSeconds() - analysisStart;
    if (!analysis.error.empty())
      return makeError(analysis.error);
    if (options.profileKernels) {
      // Kernel times do not enter the choice; the analysis is only redone
      // to fill its kernel tables.
      double profileStart = nowSeconds();
      profileKernels(analysis.analysis);
      profileSeconds += nowSeconds() - profileStart;
      analysisStart = nowSeconds();
      analysis = analyzeEffects(configs, measurements, options.analysis);
      analysisSeconds += nowSeconds() - analysisStart;
    }
    result.analysis = std::move(analysis.analysis);
  }
  result.measurements = measurements;
  result.setup.elapsedSeconds = nowSeconds() - start;
  result.setup.compileSeconds = compileSeconds;
  result.setup.checkSeconds = checkSeconds;
  result.setup.measureSeconds = measureSeconds - stopRuleSeconds;
  result.setup.profileSeconds = profileSeconds;
  result.setup.analysisSeconds = analysisSeconds + stopRuleSeconds;
  report("done");
  return result;
}

llvm::Expected<ExploreReport>
mlir::gopt::explore(ExploreBackend &backend, const ExploreOptions &options,
                    const ExploreProgress &progress) {
  Exploration exploration(backend, options, progress);
  return exploration.run();
}

llvm::Expected<ExploreReport> mlir::gopt::exploreConfigurations(
    ExploreBackend &backend, std::vector<Configuration> configurations,
    const ExploreOptions &options, const ExploreProgress &progress) {
  Exploration exploration(backend, options, progress);
  exploration.setConfigurations(std::move(configurations));
  return exploration.run();
}
