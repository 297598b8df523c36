//===- Effect.cpp - Measured configurations and what they mean ------------===//
//
// The formulas of docs/Formulas.md and the analysis built
// on them. Every
// function is pure: the same measurements give the same figures, intervals,
// choice and reason, bit for bit.
//
// Conventions for inputs a formula cannot use (documented per function):
// a ratio with a non-positive denominator is 0, never an infinity or a NaN,
// so a bad measurement shows up as an obviously wrong 0 in a report instead
// of poisoning sums and comparisons. The Amdahl bound is the one exception:
// a kernel holding all of the time really has an unbounded bound.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Explore/Effect.h"
#include "GOpt/Support/Error.h"
#include "GOpt/Support/Format.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <tuple>

using namespace mlir;
using namespace mlir::gopt;

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

const char *mlir::gopt::getConfigurationKindName(ConfigurationKind kind) {
  switch (kind) {
  case ConfigurationKind::Baseline:
    return "baseline";
  case ConfigurationKind::Single:
    return "single";
  case ConfigurationKind::Pair:
    return "pair";
  case ConfigurationKind::Default:
    return "default";
  case ConfigurationKind::User:
    return "user";
  case ConfigurationKind::Tuned:
    return "tuned";
  }
  return "unknown";
}

const char *mlir::gopt::getConfigurationStatusName(ConfigurationStatus status) {
  switch (status) {
  case ConfigurationStatus::Ok:
    return "ok";
  case ConfigurationStatus::CompileFailed:
    return "compile-failed";
  case ConfigurationStatus::RunFailed:
    return "run-failed";
  case ConfigurationStatus::Wrong:
    return "wrong";
  case ConfigurationStatus::Skipped:
    return "skipped";
  }
  return "unknown";
}

const char *mlir::gopt::getSynergyVerdictName(SynergyVerdict verdict) {
  switch (verdict) {
  case SynergyVerdict::Synergy:
    return "synergy";
  case SynergyVerdict::Interference:
    return "interference";
  case SynergyVerdict::Independent:
    return "independent";
  }
  return "unknown";
}

//===----------------------------------------------------------------------===//
// Sample statistics
//===----------------------------------------------------------------------===//

//===----------------------------------------------------------------------===//
// Formulas
//===----------------------------------------------------------------------===//

/// 0 when either time is not positive (nothing measured, or a bad timer).
double mlir::gopt::speedup(double baseMs, double optMs) {
  if (!(baseMs > 0) || !(optMs > 0))
    return 0;
  return baseMs / optMs;
}

/// 0 when S_a * S_b is not positive.
double mlir::gopt::synergy(double speedupA, double speedupB, double speedupAB) {
  double product = speedupA * speedupB;
  if (!(product > 0))
    return 0;
  return speedupAB / product;
}

/// 0 when the part's speedup is not positive; +infinity when f = 1 and the
/// part takes no time at all.
double mlir::gopt::amdahlOverall(double f, double partSpeedup) {
  if (!(partSpeedup > 0))
    return 0;
  double denominator = (1 - f) + f / partSpeedup;
  if (denominator <= 0)
    return std::numeric_limits<double>::infinity();
  return 1 / denominator;
}

/// A negative share counts as 0 (bound 1).
double mlir::gopt::amdahlBound(double f) {
  if (f >= 1)
    return std::numeric_limits<double>::infinity();
  return 1 / (1 - std::max(0.0, f));
}

double mlir::gopt::memorySaving(int64_t baseBytes, int64_t optBytes) {
  if (baseBytes <= 0)
    return 0;
  return static_cast<double>(baseBytes - optBytes) /
         static_cast<double>(baseBytes);
}

std::optional<double>
mlir::gopt::breakEvenRequests(double compileMs, double baseMs, double optMs) {
  if (!(optMs < baseMs))
    return std::nullopt;
  return compileMs / (baseMs - optMs);
}

/// With alpha = 0 this is S whatever the times. Otherwise a non-positive
/// run time makes the compile cost per run meaningless and U is 0.
double mlir::gopt::utility(double speedup, double alpha, double compileMs,
                           double runMs) {
  if (alpha == 0)
    return speedup;
  if (!(runMs > 0))
    return 0;
  return speedup / (1 + alpha * compileMs / runMs);
}

//===----------------------------------------------------------------------===//
// Bootstrap
//===----------------------------------------------------------------------===//

std::vector<llvm::ArrayRef<double>>
mlir::gopt::splitRounds(const RunSample &sample) {
  std::vector<llvm::ArrayRef<double>> rounds;
  size_t at = 0;
  for (size_t size : sample.roundSizes) {
    if (size == 0 || at + size > sample.runMs.size())
      return {};
    rounds.push_back(sample.runMs.slice(at, size));
    at += size;
  }
  if (at != sample.runMs.size())
    return {};
  return rounds;
}

/// The rounds by which `samples` can be resampled together: for each sample,
/// its runs in every round number that all samples have (in increasing
/// round number), when there are at least two such rounds. Samples without
/// round numbers share their rounds by position, and only when they have
/// as many. Empty when the rounds are not known, do not cover a sample's
/// runs, or are not shared.
static std::vector<std::vector<llvm::ArrayRef<double>>>
sharedRounds(llvm::ArrayRef<RunSample> samples) {
  bool numbered = !samples.front().roundIds.empty();
  for (const RunSample &sample : samples)
    if (sample.roundIds.empty() == numbered ||
        (!numbered &&
         sample.roundSizes.size() != samples.front().roundSizes.size()))
      return {};
  std::vector<std::map<int64_t, llvm::ArrayRef<double>>> byId(samples.size());
  for (auto [i, sample] : llvm::enumerate(samples)) {
    std::vector<llvm::ArrayRef<double>> rounds = splitRounds(sample);
    if (rounds.empty() ||
        (numbered && sample.roundIds.size() != rounds.size()))
      return {};
    for (auto [k, runs] : llvm::enumerate(rounds)) {
      int64_t id = numbered ? sample.roundIds[k] : static_cast<int64_t>(k);
      if (!byId[i].insert({id, runs}).second)
        return {};
    }
  }
  std::vector<std::vector<llvm::ArrayRef<double>>> shared(samples.size());
  for (const auto &[id, runs] : byId.front()) {
    if (!llvm::all_of(byId, [&](const auto &rounds) {
          return rounds.count(id) != 0;
        }))
      continue;
    for (size_t i = 0; i < samples.size(); ++i)
      shared[i].push_back(byId[i].at(id));
  }
  if (shared.front().size() < 2)
    return {};
  return shared;
}

/// The median of `sample`'s runs in the rounds it shares with `other`, or
/// of all its runs when they share none: the baseline's time a
/// configuration is compared with, taken at the same moments as its own.
static double medianOverSharedRounds(const RunSample &sample,
                                     const RunSample &other) {
  RunSample pair[] = {sample, other};
  std::vector<std::vector<llvm::ArrayRef<double>>> rounds = sharedRounds(pair);
  if (rounds.empty())
    return median(sample.runMs);
  std::vector<double> runs;
  for (llvm::ArrayRef<double> round : rounds.front())
    runs.insert(runs.end(), round.begin(), round.end());
  return median(runs);
}

const char *mlir::gopt::getIntervalMethodName(IntervalMethod method) {
  switch (method) {
  case IntervalMethod::None:
    return "none";
  case IntervalMethod::RoundT:
    return "t-rounds";
  case IntervalMethod::RunBootstrap:
    return "run-bootstrap";
  }
  return "unknown";
}

/// The regularized incomplete beta function I_x(a, b), by its continued
/// fraction (modified Lentz), for the Student-t distribution below.
static double incompleteBeta(double a, double b, double x) {
  if (x <= 0)
    return 0;
  if (x >= 1)
    return 1;
  // The continued fraction converges fast for x < (a + 1) / (a + b + 2).
  if (x > (a + 1) / (a + b + 2))
    return 1 - incompleteBeta(b, a, 1 - x);
  double logFront = std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) +
                    a * std::log(x) + b * std::log1p(-x);
  const double tiny = 1e-300;
  double c = 1, d = 1 - (a + b) * x / (a + 1);
  d = 1 / (std::fabs(d) < tiny ? tiny : d);
  double fraction = d;
  for (int m = 1; m <= 300; ++m) {
    for (int step = 0; step < 2; ++step) {
      double numerator =
          step == 0 ? m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
                    : -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
      d = 1 + numerator * d;
      d = 1 / (std::fabs(d) < tiny ? tiny : d);
      c = 1 + numerator / c;
      if (std::fabs(c) < tiny)
        c = tiny;
      fraction *= c * d;
    }
    if (std::fabs(c * d - 1) < 1e-15)
      break;
  }
  return std::exp(logFront) * fraction / a;
}

/// P(|T| <= t) for Student's t with `df` degrees of freedom.
static double studentTCentralProbability(double t, double df) {
  return 1 - incompleteBeta(df / 2, 0.5, df / (df + t * t));
}

double mlir::gopt::studentTQuantile(double level, int degreesOfFreedom) {
  double df = std::max(1, degreesOfFreedom);
  level = std::min(std::max(level, 1e-12), 1 - 1e-12);
  // Bisection on the monotone central probability: 200 halvings of
  // [0, 1e7] are far below double precision.
  double low = 0, high = 1e7;
  for (int i = 0; i < 200 && high - low > 1e-13 * high; ++i) {
    double mid = 0.5 * (low + high);
    (studentTCentralProbability(mid, df) < level ? low : high) = mid;
  }
  return 0.5 * (low + high);
}

/// The Student-t interval of a positive statistic over shared rounds: the
/// statistic of each round's medians, the mean of their logs plus or minus
/// t * s / sqrt(k), exponentiated; its estimate is the exponentiated mean
/// (the geometric mean of the rounds' statistics, where drift between
/// rounds cancels). nullopt when a round's statistic is not positive (no
/// log).
static std::optional<Interval> roundTInterval(
    const std::vector<std::vector<llvm::ArrayRef<double>>> &rounds,
    llvm::function_ref<double(llvm::ArrayRef<double>)> statistic,
    double level) {
  size_t k = rounds.front().size();
  std::vector<double> logs;
  std::vector<double> medians(rounds.size());
  for (size_t round = 0; round < k; ++round) {
    for (size_t i = 0; i < rounds.size(); ++i)
      medians[i] = median(rounds[i][round]);
    double value = statistic(medians);
    if (!(value > 0) || !std::isfinite(value))
      return std::nullopt;
    logs.push_back(std::log(value));
  }
  double mean = 0;
  for (double x : logs)
    mean += x;
  mean /= static_cast<double>(k);
  double sumSquares = 0;
  for (double x : logs)
    sumSquares += (x - mean) * (x - mean);
  double halfWidth = studentTQuantile(level, static_cast<int>(k) - 1) *
                     std::sqrt(sumSquares / static_cast<double>(k - 1)) /
                     std::sqrt(static_cast<double>(k));
  Interval interval;
  interval.low = std::exp(mean - halfWidth);
  interval.high = std::exp(mean + halfWidth);
  interval.estimate = std::exp(mean);
  interval.method = IntervalMethod::RoundT;
  interval.rounds = static_cast<int>(k);
  return interval;
}

/// The interval of a statistic of the medians of `samples` (all
/// non-empty). When the samples share two or more rounds (sharedRounds):
/// Student-t over the rounds (roundTInterval). Otherwise the percentile
/// bootstrap of the runs one by one, each sample at its own size, in the
/// order given, from one mt19937_64 seeded with `options.seed`; indices are
/// drawn as rng() % n, which unlike the standard distributions gives the
/// same sequence with every standard library (the modulo bias is below
/// 1e-17 for any size here). With no resamples the interval is the
/// statistic of the full samples, twice (IntervalMethod::None).
static Interval
intervalOfMedians(llvm::ArrayRef<RunSample> samples,
                 llvm::function_ref<double(llvm::ArrayRef<double>)> statistic,
                 double point, const BootstrapOptions &options) {
  std::vector<double> medians(samples.size());
  if (options.resamples <= 0) {
    Interval interval{point, point};
    interval.estimate = point;
    return interval;
  }

  double level = std::min(1.0, std::max(0.0, options.level));
  std::vector<std::vector<llvm::ArrayRef<double>>> rounds =
      sharedRounds(samples);
  if (!rounds.empty())
    if (std::optional<Interval> t = roundTInterval(rounds, statistic, level))
      return *t;
  // Runs one by one: the rounds are unknown, fewer than two are shared, or
  // a round's statistic is not positive.

  std::mt19937_64 rng(options.seed);
  std::vector<double> buffer;
  std::vector<double> values;
  values.reserve(options.resamples);
  for (int r = 0; r < options.resamples; ++r) {
    for (size_t i = 0; i < samples.size(); ++i) {
      llvm::ArrayRef<double> runs = samples[i].runMs;
      buffer.resize(runs.size());
      for (double &x : buffer)
        x = runs[rng() % runs.size()];
      medians[i] = medianInPlace(buffer);
    }
    values.push_back(statistic(medians));
  }
  std::sort(values.begin(), values.end());
  double tail = (1 - level) / 2;
  Interval interval;
  interval.low = quantileOfSorted(values, tail);
  interval.high = quantileOfSorted(values, 1 - tail);
  interval.estimate = point;
  interval.method = IntervalMethod::RunBootstrap;
  return interval;
}

/// {0, 0} when either sample is empty, as speedup() gives 0 for nothing
/// measured.
Interval mlir::gopt::bootstrapSpeedup(RunSample base, RunSample opt,
                                      const BootstrapOptions &options) {
  if (base.runMs.empty() || opt.runMs.empty())
    return {0, 0};
  RunSample samples[] = {base, opt};
  // The estimate without shared rounds: T_base over opt's rounds (all of
  // base's when they share none) against T_opt.
  double point = speedup(medianOverSharedRounds(base, opt), median(opt.runMs));
  return intervalOfMedians(
      samples, [](llvm::ArrayRef<double> m) { return speedup(m[0], m[1]); },
      point, options);
}

/// {1, 1} when any sample is empty: without data there is no claim, and
/// classifySynergy calls that interval independent. A resample whose
/// T_base * T_ab is not positive has eta 0, like synergy().
Interval mlir::gopt::bootstrapSynergy(RunSample base, RunSample a, RunSample b,
                                      RunSample ab,
                                      const BootstrapOptions &options) {
  if (base.runMs.empty() || a.runMs.empty() || b.runMs.empty() ||
      ab.runMs.empty())
    return {1, 1, /*estimate=*/1};
  RunSample samples[] = {base, a, b, ab};
  auto speedupOver = [&](const RunSample &opt) {
    return speedup(medianOverSharedRounds(base, opt), median(opt.runMs));
  };
  double point = synergy(speedupOver(a), speedupOver(b), speedupOver(ab));
  return intervalOfMedians(
      samples,
      [](llvm::ArrayRef<double> m) {
        double denominator = m[0] * m[3];
        if (!(denominator > 0))
          return 0.0;
        return (m[1] * m[2]) / denominator;
      },
      point, options);
}

SynergyVerdict mlir::gopt::classifySynergy(const Interval &etaInterval) {
  if (etaInterval.low > 1)
    return SynergyVerdict::Synergy;
  if (etaInterval.high < 1)
    return SynergyVerdict::Interference;
  return SynergyVerdict::Independent;
}

//===----------------------------------------------------------------------===//
// Pareto frontier
//===----------------------------------------------------------------------===//

bool mlir::gopt::dominates(const ParetoPoint &a, const ParetoPoint &b) {
  bool noWorse = a.speedup >= b.speedup && a.compileMs <= b.compileMs &&
                 a.peakBytes <= b.peakBytes;
  bool better = a.speedup > b.speedup || a.compileMs < b.compileMs ||
                a.peakBytes < b.peakBytes;
  return noWorse && better;
}

std::vector<bool>
mlir::gopt::paretoFrontier(llvm::ArrayRef<ParetoPoint> points) {
  std::vector<bool> frontier(points.size(), true);
  for (size_t i = 0; i < points.size(); ++i)
    for (size_t j = 0; j < points.size() && frontier[i]; ++j)
      if (j != i && dominates(points[j], points[i]))
        frontier[i] = false;
  return frontier;
}

//===----------------------------------------------------------------------===//
// The analysis
//===----------------------------------------------------------------------===//

/// Whether a configuration can be used: it compiled, ran, matched the
/// baseline's outputs and has run samples.
static bool isValid(const ConfigurationMeasurement &measurement) {
  return measurement.status == ConfigurationStatus::Ok &&
         !measurement.runMs.empty();
}

/// The ops part of a kernel name `<entry>_k<N>_<ops>`: what follows the last
/// `_k<digits>_` ("" for a name ending in `_k<digits>`). A name without the
/// pattern is its own signature.
static llvm::StringRef kernelOpsSignature(llvm::StringRef name) {
  llvm::StringRef prefix = name;
  size_t pos;
  while ((pos = prefix.rfind("_k")) != llvm::StringRef::npos) {
    prefix = prefix.take_front(pos);
    size_t end = pos + 2;
    while (end < name.size() && name[end] >= '0' && name[end] <= '9')
      ++end;
    if (end == pos + 2)
      continue;
    if (end == name.size())
      return "";
    if (name[end] == '_')
      return name.drop_front(end + 1);
  }
  return name;
}

/// The kernels of one configuration, matched to the baseline's: the i-th
/// kernel with a given ops signature against the i-th baseline kernel with
/// the same signature.
static std::vector<KernelEffect>
analyzeKernels(llvm::ArrayRef<KernelTiming> kernels,
               llvm::ArrayRef<KernelTiming> baselineKernels) {
  std::map<std::string, std::vector<double>> baselineBySignature;
  for (const KernelTiming &kernel : baselineKernels)
    baselineBySignature[kernelOpsSignature(kernel.name).str()].push_back(
        kernel.msPerRun);

  std::map<std::string, size_t> seen;
  std::vector<KernelEffect> effects;
  for (const KernelTiming &kernel : kernels) {
    KernelEffect effect;
    effect.name = kernel.name;
    effect.msPerRun = kernel.msPerRun;
    effect.share = kernel.share;
    effect.amdahlBound = amdahlBound(kernel.share);
    std::string signature = kernelOpsSignature(kernel.name).str();
    size_t occurrence = seen[signature]++;
    auto it = baselineBySignature.find(signature);
    if (it != baselineBySignature.end() && occurrence < it->second.size()) {
      double baseMs = it->second[occurrence];
      if (baseMs > 0 && kernel.msPerRun > 0)
        effect.speedupOverBaseline = baseMs / kernel.msPerRun;
    }
    effects.push_back(std::move(effect));
  }
  return effects;
}

/// Index of the Single configuration running exactly `pass`, if any.
static std::optional<size_t>
findSingle(llvm::ArrayRef<Configuration> configurations,
           const std::string &pass) {
  for (size_t c = 0; c < configurations.size(); ++c)
    if (configurations[c].kind == ConfigurationKind::Single &&
        configurations[c].passes.size() == 1 &&
        configurations[c].passes.front() == pass)
      return c;
  return std::nullopt;
}

/// Figures from run samples (median, spread, speedup, memory, break-even)
/// exist only for configurations that ran; a configuration without samples
/// keeps speedup 0 and interval {0, 0}. Utility is 0 and pareto false for
/// every invalid configuration, so none is ever chosen, even a wrong one
/// that ran fast.
EffectAnalysisResult mlir::gopt::analyzeEffects(
    llvm::ArrayRef<Configuration> configurations,
    llvm::ArrayRef<ConfigurationMeasurement> measurements,
    const AnalysisOptions &options) {
  EffectAnalysisResult result;
  if (configurations.size() != measurements.size()) {
    llvm::raw_string_ostream os(result.error);
    os << "there are " << configurations.size() << " configurations but "
       << measurements.size() << " measurements";
    return result;
  }

  std::vector<size_t> baselines;
  for (size_t c = 0; c < configurations.size(); ++c)
    if (configurations[c].kind == ConfigurationKind::Baseline)
      baselines.push_back(c);
  if (baselines.size() != 1) {
    llvm::raw_string_ostream os(result.error);
    if (baselines.empty()) {
      os << "no baseline configuration: the analysis has nothing to compare "
            "against";
    } else {
      os << baselines.size() << " baseline configurations (";
      for (size_t i = 0; i < baselines.size(); ++i)
        os << (i ? ", " : "") << "`" << configurations[baselines[i]].name
           << "`";
      os << "); exactly one is needed";
    }
    return result;
  }

  size_t base = baselines.front();
  const ConfigurationMeasurement &baseMeasurement = measurements[base];
  if (baseMeasurement.status != ConfigurationStatus::Ok) {
    llvm::raw_string_ostream os(result.error);
    os << "the baseline failed: ";
    if (baseMeasurement.error.empty())
      os << getConfigurationStatusName(baseMeasurement.status);
    else
      os << baseMeasurement.error;
    return result;
  }
  if (baseMeasurement.runMs.empty()) {
    result.error = "the baseline has no run samples";
    return result;
  }

  EffectAnalysis &analysis = result.analysis;
  analysis.baseline = base;
  analysis.criteria = options.criteria;
  analysis.intervalLevel = options.bootstrap.level;
  analysis.alphaTable = options.alphaTable;
  double alpha = options.criteria.alpha;
  // Per-configuration figures.
  analysis.effects.resize(configurations.size());
  for (size_t c = 0; c < configurations.size(); ++c) {
    const ConfigurationMeasurement &m = measurements[c];
    ConfigurationEffect &effect = analysis.effects[c];
    effect.valid = isValid(m);
    effect.compileMs = m.compileMs();
    effect.staticMemorySaving =
        memorySaving(baseMeasurement.staticPeakBytes, m.staticPeakBytes);
    if (m.runMs.empty()) {
      effect.speedup = 0;
      effect.speedupInterval = {0, 0};
      continue;
    }
    effect.medianMs = median(m.runMs);
    effect.q1Ms = quantile(m.runMs, 0.25);
    effect.q3Ms = quantile(m.runMs, 0.75);
    effect.p90Ms = quantile(m.runMs, 0.90);
    effect.p99Ms = quantile(m.runMs, 0.99);
    effect.maxMs = quantile(m.runMs, 1.0);
    effect.cv = coefficientOfVariation(m.runMs);
    // T_base from the same rounds as T_opt: timed together, interleaved.
    effect.baselineMs = medianOverSharedRounds(baseMeasurement, m);
    effect.speedupInterval =
        bootstrapSpeedup(baseMeasurement, m, options.bootstrap);
    effect.speedup = effect.speedupInterval.estimate;
    effect.memorySaving = memorySaving(baseMeasurement.peakBytes, m.peakBytes);
    effect.breakEvenRequests =
        breakEvenRequests(effect.compileMs, effect.baselineMs, effect.medianMs);
    if (effect.breakEvenRequests && options.criteria.qps > 0)
      effect.paybackSeconds = *effect.breakEvenRequests / options.criteria.qps;
    if (effect.valid)
      effect.utility =
          utility(effect.speedup, alpha, effect.compileMs, effect.medianMs);
  }

  // The Pareto frontier of the valid configurations.
  std::vector<size_t> validIndices;
  std::vector<ParetoPoint> points;
  for (size_t c = 0; c < configurations.size(); ++c) {
    if (!analysis.effects[c].valid)
      continue;
    validIndices.push_back(c);
    const ConfigurationEffect &effect = analysis.effects[c];
    points.push_back(
        {effect.speedup, effect.compileMs, measurements[c].peakBytes});
  }
  std::vector<bool> frontier = paretoFrontier(points);
  for (size_t i = 0; i < validIndices.size(); ++i)
    analysis.effects[validIndices[i]].pareto = frontier[i];

  // Ordered pairs against their passes alone.
  for (size_t c = 0; c < configurations.size(); ++c) {
    const Configuration &pair = configurations[c];
    if (pair.kind != ConfigurationKind::Pair || pair.passes.size() != 2)
      continue;
    std::optional<size_t> a = findSingle(configurations, pair.passes[0]);
    std::optional<size_t> b = findSingle(configurations, pair.passes[1]);
    if (!a || !b || !analysis.effects[*a].valid ||
        !analysis.effects[*b].valid || !analysis.effects[c].valid)
      continue;
    PairEffect effect;
    effect.a = *a;
    effect.b = *b;
    effect.ab = c;
    effect.speedupA = analysis.effects[*a].speedup;
    effect.speedupB = analysis.effects[*b].speedup;
    effect.speedupAB = analysis.effects[c].speedup;
    effect.etaInterval =
        bootstrapSynergy(baseMeasurement, measurements[*a], measurements[*b],
                         measurements[c], options.bootstrap);
    effect.eta = effect.etaInterval.estimate;
    effect.verdict = classifySynergy(effect.etaInterval);
    analysis.pairs.push_back(effect);
  }

  // Kernels with their Amdahl figures, matched to the baseline's.
  analysis.kernels.resize(configurations.size());
  for (size_t c = 0; c < configurations.size(); ++c)
    if (analysis.effects[c].valid)
      analysis.kernels[c] = analyzeKernels(measurements[c].kernelTimes,
                                           baseMeasurement.kernelTimes);

  // U at every alpha of the table.
  for (double tableAlpha : analysis.alphaTable) {
    std::vector<double> row(configurations.size(), 0);
    for (size_t c = 0; c < configurations.size(); ++c) {
      const ConfigurationEffect &effect = analysis.effects[c];
      if (effect.valid)
        row[c] = utility(effect.speedup, tableAlpha, effect.compileMs,
                         effect.medianMs);
    }
    analysis.utilityTable.push_back(std::move(row));
  }

  analysis.choice = chooseConfiguration(configurations, measurements, analysis,
                                        options.criteria);
  return result;
}

//===----------------------------------------------------------------------===//
// The choice
//===----------------------------------------------------------------------===//

/// A time in a sentence: "2.46 ms".
static std::string formatMsText(double ms) { return formatMs(ms) + " ms"; }

/// "2.00x (95% interval 1.90-2.10x over 4 rounds)", with what the interval
/// rests on: shared rounds (Student-t), runs resampled one by one (which
/// understates the spread), or nothing.
static std::string formatSpeedup(const ConfigurationEffect &effect,
                                 double level) {
  std::string text;
  llvm::raw_string_ostream os(text);
  const Interval &interval = effect.speedupInterval;
  os << llvm::format("%.2fx (", effect.speedup);
  switch (interval.method) {
  case IntervalMethod::RoundT:
    os << llvm::format("the rounds' geometric mean, %g%% interval "
                       "%.2f-%.2fx over %d rounds)",
                       level * 100, interval.low, interval.high,
                       interval.rounds);
    break;
  case IntervalMethod::RunBootstrap:
    os << llvm::format("%g%% interval %.2f-%.2fx from runs resampled one by "
                       "one, which understates the spread)",
                       level * 100, interval.low, interval.high);
    break;
  case IntervalMethod::None:
    os << "no interval)";
    break;
  }
  return text;
}

/// Whether two utilities are equal up to rounding (1e-12 relative).
static bool nearlyEqual(double a, double b) {
  return a == b ||
         std::fabs(a - b) <= 1e-12 * std::max(std::fabs(a), std::fabs(b));
}

/// "1 configuration was excluded for wrong outputs." or "3 configurations
/// were excluded: 1 for wrong outputs, 2 for failing to compile."; "" when
/// every configuration is valid.
static std::string
describeExcluded(llvm::ArrayRef<ConfigurationMeasurement> measurements,
                 const EffectAnalysis &analysis) {
  struct Category {
    const char *why;
    size_t count = 0;
  };
  Category categories[] = {{"for wrong outputs"},
                           {"for failing to compile"},
                           {"for a failed run"},
                           {"for lacking run samples"},
                           {"unmeasured (pruned or out of budget)"}};
  size_t total = 0;
  for (size_t c = 0; c < measurements.size(); ++c) {
    if (analysis.effects[c].valid)
      continue;
    ++total;
    switch (measurements[c].status) {
    case ConfigurationStatus::Wrong:
      ++categories[0].count;
      break;
    case ConfigurationStatus::CompileFailed:
      ++categories[1].count;
      break;
    case ConfigurationStatus::RunFailed:
      ++categories[2].count;
      break;
    case ConfigurationStatus::Ok:
      ++categories[3].count;
      break;
    case ConfigurationStatus::Skipped:
      ++categories[4].count;
      break;
    }
  }
  if (total == 0)
    return "";

  std::string text;
  llvm::raw_string_ostream os(text);
  os << total << (total == 1 ? " configuration was" : " configurations were")
     << " excluded";
  size_t used = 0;
  for (const Category &category : categories)
    used += category.count > 0;
  if (used == 1) {
    for (const Category &category : categories)
      if (category.count)
        os << " " << category.why << ".";
    return text;
  }
  os << ":";
  bool first = true;
  for (const Category &category : categories) {
    if (!category.count)
      continue;
    os << (first ? " " : ", ") << category.count << " " << category.why;
    first = false;
  }
  os << ".";
  return text;
}

/// Ties in utility go to the faster configuration, then the cheaper one to
/// compile, then the earlier one; `utilities` holds U at the criteria's
/// alpha (all candidates are valid, so the figures are measured ones).
Choice mlir::gopt::chooseConfiguration(
    llvm::ArrayRef<Configuration> configurations,
    llvm::ArrayRef<ConfigurationMeasurement> measurements,
    const EffectAnalysis &analysis, const ChoiceCriteria &criteria) {
  Choice choice;
  size_t n = configurations.size();
  if (measurements.size() != n || analysis.effects.size() != n) {
    choice.reason = "No configuration can be chosen: the analysis does not "
                    "match the configurations.";
    return choice;
  }

  const std::vector<ConfigurationEffect> &effects = analysis.effects;
  // The p99 the bound applies to: under load where load-tested.
  auto boundedP99 = [&](size_t c) {
    return measurements[c].load ? measurements[c].load->p99Ms
                                : effects[c].p99Ms;
  };
  std::vector<double> utilities(n, 0);
  std::vector<size_t> valid, candidates, overLimit;
  for (size_t c = 0; c < n; ++c) {
    if (!effects[c].valid)
      continue;
    valid.push_back(c);
    utilities[c] = utility(effects[c].speedup, criteria.alpha,
                           effects[c].compileMs, effects[c].medianMs);
    bool overMemory = criteria.memoryLimitBytes > 0 &&
                      measurements[c].peakBytes > criteria.memoryLimitBytes;
    bool overP99 =
        criteria.p99BoundMs > 0 && boundedP99(c) > criteria.p99BoundMs;
    if (overMemory || overP99)
      overLimit.push_back(c);
    else
      candidates.push_back(c);
  }

  std::string excluded = describeExcluded(measurements, analysis);
  std::string limitText = formatBytes(criteria.memoryLimitBytes);
  std::string boundText = formatMsText(criteria.p99BoundMs);
  // "the memory limit of 1 MiB", "the p99 bound of 2 ms", or both.
  std::string limitsText;
  if (criteria.memoryLimitBytes > 0)
    limitsText = "the memory limit of " + limitText;
  if (criteria.p99BoundMs > 0) {
    limitsText += (limitsText.empty() ? "" : " and ") +
                  std::string("the p99 bound of ") + boundText;
    for (const ConfigurationMeasurement &m : measurements)
      if (m.load) {
        limitsText +=
            " under load at " + formatDouble("%g", m.load->qps) + " requests/s";
        break;
      }
  }
  llvm::raw_string_ostream os(choice.reason);

  if (valid.empty()) {
    os << "No configuration can be chosen: none of the " << n
       << " configurations compiled, ran and matched the baseline's outputs.";
    if (!excluded.empty())
      os << " " << excluded;
    return choice;
  }
  if (candidates.empty()) {
    os << "No configuration can be chosen: all " << valid.size()
       << " valid configuration" << (valid.size() == 1 ? "" : "s")
       << " exceed " << limitsText;
    if (criteria.memoryLimitBytes > 0) {
      size_t smallest = overLimit.front();
      for (size_t c : overLimit)
        if (measurements[c].peakBytes < measurements[smallest].peakBytes)
          smallest = c;
      os << "; the smallest peak is "
         << formatBytes(measurements[smallest].peakBytes) << ", by `"
         << configurations[smallest].name << "`";
    }
    if (criteria.p99BoundMs > 0) {
      size_t quickest = overLimit.front();
      for (size_t c : overLimit)
        if (boundedP99(c) < boundedP99(quickest))
          quickest = c;
      os << "; the lowest p99"
         << (measurements[quickest].load
                 ? " under load at " +
                       formatDouble("%g", measurements[quickest].load->qps) +
                       "/s"
                 : std::string())
         << " is " << formatMsText(boundedP99(quickest)) << ", by `"
         << configurations[quickest].name << "`";
    }
    os << ".";
    if (!excluded.empty())
      os << " " << excluded;
    return choice;
  }

  auto better = [&](size_t i, size_t j) {
    if (!nearlyEqual(utilities[i], utilities[j]))
      return utilities[i] > utilities[j];
    if (effects[i].speedup != effects[j].speedup)
      return effects[i].speedup > effects[j].speedup;
    if (effects[i].compileMs != effects[j].compileMs)
      return effects[i].compileMs < effects[j].compileMs;
    return i < j;
  };
  size_t best = candidates.front();
  for (size_t c : candidates)
    if (better(c, best))
      best = c;
  // A lead within the noise is no lead: when another candidate's speedup
  // lies inside the leader's interval, the two cannot be told apart by
  // these measurements, and the cheaper one to compile is chosen (then the
  // smaller peak, then the earlier).
  std::optional<size_t> noisyLeader;
  {
    const Interval &interval = effects[best].speedupInterval;
    bool hasInterval = interval.high > interval.low;
    size_t cheapest = best;
    if (hasInterval)
      for (size_t c : candidates) {
        if (c == best || effects[c].speedup < interval.low)
          continue;
        auto key = [&](size_t i) {
          return std::make_tuple(effects[i].compileMs,
                                 measurements[i].peakBytes, i);
        };
        if (key(c) < key(cheapest))
          cheapest = c;
      }
    if (cheapest != best) {
      noisyLeader = best;
      best = cheapest;
    }
  }
  std::optional<size_t> runnerUp = noisyLeader;
  if (!runnerUp)
    for (size_t c : candidates)
      if (c != best && (!runnerUp || better(c, *runnerUp)))
        runnerUp = c;
  choice.index = best;

  const ConfigurationEffect &chosen = effects[best];
  const Configuration &config = configurations[best];
  double level = analysis.intervalLevel;
  double baseMedian = chosen.baselineMs;
  int64_t peak = measurements[best].peakBytes;
  bool isBaseline =
      best == analysis.baseline || config.kind == ConfigurationKind::Baseline;

  if (isBaseline) {
    os << "Keep the baseline `" << config.name
       << "` (no graph pass): it runs in " << formatMsText(chosen.medianMs)
       << ", peaks at " << formatBytes(peak) << " and costs "
       << formatMsText(chosen.compileMs) << " to compile, and ";
    // The fastest candidate whose speedup is clear of the noise, if any.
    std::optional<size_t> fastest;
    for (size_t c : candidates)
      if (c != best && effects[c].speedupInterval.low > 1 &&
          (!fastest || effects[c].speedup > effects[*fastest].speedup))
        fastest = c;
    if (!fastest) {
      os << "no pass configuration beats it by more than the noise.";
    } else {
      os << "no pass configuration beats it in utility: the fastest, `"
         << configurations[*fastest].name << "`, reaches a speedup of "
         << formatSpeedup(effects[*fastest], level) << " but costs "
         << formatMsText(effects[*fastest].compileMs) << " to compile.";
    }
  } else {
    os << "Choose `" << config.name << "`";
    if (!config.pipeline.empty())
      os << " (pipeline `" << config.pipeline << "`)";
    if (!config.loweringOptions.empty())
      os << " lowered with `" << config.loweringOptions << "`";
    os << ": it runs in " << formatMsText(chosen.medianMs) << " against "
       << formatMsText(baseMedian) << " for the baseline (medians), a "
       << "speedup of "
       << formatSpeedup(chosen, level);
    if (chosen.speedupInterval.contains(1))
      os << ", which is within the noise";
    os << ", peaks at " << formatBytes(peak);
    if (std::fabs(chosen.memorySaving) < 0.005)
      os << " (the baseline's peak)";
    else
      os << llvm::format(" (%+.0f%% memory)", -chosen.memorySaving * 100);
    os << " and costs " << formatMsText(chosen.compileMs) << " to compile, which ";
    std::optional<double> requests =
        breakEvenRequests(chosen.compileMs, baseMedian, chosen.medianMs);
    if (requests) {
      double count = std::ceil(*requests);
      os << llvm::format("pays back after %.0f request%s", count,
                         count == 1 ? "" : "s");
      if (criteria.qps > 0)
        os << llvm::format(" (%.2f s at %g QPS)", *requests / criteria.qps,
                           criteria.qps);
      os << ".";
    } else {
      os << "never pays back, as it is not faster than the baseline.";
    }
  }

  // What the memory limit excluded, for either ending below.
  std::string limitNote;
  if (!overLimit.empty()) {
    llvm::raw_string_ostream note(limitNote);
    note << ((criteria.memoryLimitBytes > 0 && criteria.p99BoundMs > 0)
                 ? " (the limits exclude "
                 : " (the limit excludes ");
    if (overLimit.size() <= 3) {
      for (size_t i = 0; i < overLimit.size(); ++i)
        note << (i == 0                      ? ""
                 : i + 1 == overLimit.size() ? " and "
                                             : ", ")
             << "`" << configurations[overLimit[i]].name << "`";
    } else {
      note << overLimit.size() << " more";
    }
    note << ")";
  }
  std::string within;
  if (!limitsText.empty())
    within = " within " + limitsText;

  if (noisyLeader) {
    os << llvm::format(" At alpha = %g `", criteria.alpha)
       << configurations[*noisyLeader].name
       << llvm::format("` has the highest utility, U = %.2f, of the %zu "
                       "valid configurations",
                       utilities[*noisyLeader], candidates.size())
       << within << limitNote
       << llvm::format(", but its lead is within the noise: this "
                       "configuration's speedup %.2fx lies inside its "
                       "interval %.2f-%.2fx, so the one cheaper to compile "
                       "is chosen (U = %.2f).",
                       chosen.speedup,
                       effects[*noisyLeader].speedupInterval.low,
                       effects[*noisyLeader].speedupInterval.high,
                       utilities[best]);
    if (!excluded.empty())
      os << " " << excluded;
    return choice;
  }

  os << llvm::format(" At alpha = %g its utility U = %.2f", criteria.alpha,
                     utilities[best]);
  if (candidates.size() == 1) {
    os << "; it is the only valid configuration" << within;
  } else {
    os << " is the highest of the " << candidates.size()
       << " valid configurations" << within;
  }
  os << limitNote;
  if (runnerUp)
    os << "; the runner-up `" << configurations[*runnerUp].name
       << llvm::format("` reaches U = %.2f", utilities[*runnerUp]);
  os << ".";
  if (!excluded.empty())
    os << " " << excluded;
  return choice;
}

llvm::json::Object mlir::gopt::toJSON(const LoadMeasurement &load) {
  return llvm::json::Object{
      {"qps", load.qps},
      {"requests", load.requests},
      {"workers", load.workers},
      {"p50_ms", load.p50Ms},
      {"p90_ms", load.p90Ms},
      {"p99_ms", load.p99Ms},
      {"max_ms", load.maxMs},
      {"achieved_per_second", load.achievedPerSecond},
      {"utilization", load.utilization},
      {"sustained_qps", load.sustainedQps},
      {"stopped_because", load.stoppedBecause},
  };
}

llvm::Expected<LoadMeasurement>
mlir::gopt::parseLoadMeasurement(const llvm::json::Value &value) {
  const llvm::json::Object *object = value.getAsObject();
  if (!object)
    return makeError("a load measurement is a JSON object");
  LoadMeasurement load;
  for (auto [key, field] : {std::pair<const char *, double *>{"qps", &load.qps},
                            {"p50_ms", &load.p50Ms},
                            {"p90_ms", &load.p90Ms},
                            {"p99_ms", &load.p99Ms},
                            {"max_ms", &load.maxMs},
                            {"achieved_per_second", &load.achievedPerSecond},
                            {"utilization", &load.utilization},
                            {"sustained_qps", &load.sustainedQps}}) {
    std::optional<double> x = object->getNumber(key);
    if (!x)
      return makeError(llvm::Twine("a load measurement without \"") + key +
                       "\"");
    *field = *x;
  }
  std::optional<int64_t> requests = object->getInteger("requests");
  std::optional<int64_t> workers = object->getInteger("workers");
  if (!requests || !workers)
    return makeError("a load measurement without \"requests\" or "
                     "\"workers\"");
  load.requests = *requests;
  load.workers = static_cast<int>(*workers);
  if (std::optional<llvm::StringRef> why = object->getString("stopped_because"))
    load.stoppedBecause = why->str();
  return load;
}
