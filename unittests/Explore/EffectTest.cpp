//===- EffectTest.cpp - Effect formulas, analysis and choice --------------===//
//
// Every figure here is computed by hand from injected measurements; nothing
// is timed.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Explore/Effect.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>
#include <random>

using namespace mlir;
using namespace mlir::gopt;

namespace {

//===----------------------------------------------------------------------===//
// Formulas
//===----------------------------------------------------------------------===//

TEST(EffectFormulas, MedianOddAndEven) {
  EXPECT_DOUBLE_EQ(median({3.0, 1.0, 2.0}), 2.0);
  EXPECT_DOUBLE_EQ(median({4.0, 1.0, 3.0, 2.0}), 2.5);
  EXPECT_DOUBLE_EQ(median({7.0}), 7.0);
  EXPECT_DOUBLE_EQ(median({}), 0.0);
}

TEST(EffectFormulas, QuantileInterpolates) {
  std::vector<double> samples = {4, 1, 3, 2};
  EXPECT_DOUBLE_EQ(quantile(samples, 0), 1.0);
  EXPECT_DOUBLE_EQ(quantile(samples, 1), 4.0);
  // pos = 0.25 * 3 = 0.75: between 1 and 2.
  EXPECT_DOUBLE_EQ(quantile(samples, 0.25), 1.75);
  EXPECT_DOUBLE_EQ(quantile(samples, 0.75), 3.25);
  EXPECT_DOUBLE_EQ(quantile({1.0, 2.0, 3.0, 4.0, 5.0}, 0.25), 2.0);
  EXPECT_DOUBLE_EQ(quantile({}, 0.5), 0.0);
  EXPECT_DOUBLE_EQ(quantile({5.0}, 0.9), 5.0);
}

TEST(EffectFormulas, CoefficientOfVariation) {
  // Mean 5, squared deviations sum to 32, sample variance 32 / 7.
  std::vector<double> samples = {2, 4, 4, 4, 5, 5, 7, 9};
  EXPECT_NEAR(coefficientOfVariation(samples), std::sqrt(32.0 / 7) / 5, 1e-12);
  EXPECT_DOUBLE_EQ(coefficientOfVariation({3.0}), 0.0);
  EXPECT_DOUBLE_EQ(coefficientOfVariation({}), 0.0);
  EXPECT_DOUBLE_EQ(coefficientOfVariation({-1.0, 1.0}), 0.0);
  EXPECT_DOUBLE_EQ(coefficientOfVariation({2.0, 2.0, 2.0}), 0.0);
}

TEST(EffectFormulas, Speedup) {
  EXPECT_DOUBLE_EQ(speedup(10, 5), 2.0);
  EXPECT_DOUBLE_EQ(speedup(5, 10), 0.5);
  // Invalid times give 0, never an infinity.
  EXPECT_DOUBLE_EQ(speedup(10, 0), 0.0);
  EXPECT_DOUBLE_EQ(speedup(10, -1), 0.0);
  EXPECT_DOUBLE_EQ(speedup(0, 5), 0.0);
}

TEST(EffectFormulas, Synergy) {
  EXPECT_DOUBLE_EQ(synergy(1.25, 2, 4), 1.6);
  EXPECT_DOUBLE_EQ(synergy(2, 2, 4), 1.0);
  EXPECT_DOUBLE_EQ(synergy(2, 2, 2), 0.5);
  EXPECT_DOUBLE_EQ(synergy(0, 2, 2), 0.0);
}

TEST(EffectFormulas, Amdahl) {
  EXPECT_DOUBLE_EQ(amdahlOverall(0.5, 2), 1 / 0.75);
  EXPECT_DOUBLE_EQ(amdahlOverall(0, 10), 1.0);
  EXPECT_DOUBLE_EQ(amdahlOverall(1, 4), 4.0);
  EXPECT_DOUBLE_EQ(amdahlOverall(0.5, 0), 0.0);
  EXPECT_DOUBLE_EQ(amdahlBound(0.5), 2.0);
  EXPECT_DOUBLE_EQ(amdahlBound(0.75), 4.0);
  EXPECT_DOUBLE_EQ(amdahlBound(0), 1.0);
  EXPECT_TRUE(std::isinf(amdahlBound(1)));
  EXPECT_GT(amdahlBound(1), 0);
  EXPECT_TRUE(std::isinf(amdahlBound(1.5)));
  // The bound is what an infinite part speedup approaches.
  EXPECT_NEAR(amdahlOverall(0.8, 1e12), amdahlBound(0.8), 1e-9);
}

TEST(EffectFormulas, MemorySaving) {
  EXPECT_DOUBLE_EQ(memorySaving(1000, 750), 0.25);
  EXPECT_DOUBLE_EQ(memorySaving(1000, 1200), -0.2);
  EXPECT_DOUBLE_EQ(memorySaving(1000, 1000), 0.0);
  EXPECT_DOUBLE_EQ(memorySaving(0, 100), 0.0);
  EXPECT_DOUBLE_EQ(memorySaving(-5, 100), 0.0);
}

TEST(EffectFormulas, BreakEvenRequests) {
  std::optional<double> n = breakEvenRequests(100, 10, 5);
  ASSERT_TRUE(n.has_value());
  EXPECT_DOUBLE_EQ(*n, 20.0);
  EXPECT_DOUBLE_EQ(*breakEvenRequests(0, 10, 5), 0.0);
  // Not faster: never pays back.
  EXPECT_FALSE(breakEvenRequests(100, 10, 10).has_value());
  EXPECT_FALSE(breakEvenRequests(100, 10, 12).has_value());
}

TEST(EffectFormulas, Utility) {
  // alpha = 0: U == S whatever the times.
  EXPECT_DOUBLE_EQ(utility(2, 0, 1e9, 1), 2.0);
  EXPECT_DOUBLE_EQ(utility(2, 0, 100, 0), 2.0);
  EXPECT_DOUBLE_EQ(utility(2, 0.01, 100, 10), 2 / 1.1);
  EXPECT_DOUBLE_EQ(utility(3, 1, 10, 10), 1.5);
  // No run time with alpha > 0: 0.
  EXPECT_DOUBLE_EQ(utility(2, 0.01, 100, 0), 0.0);
}

TEST(EffectFormulas, Names) {
  EXPECT_STREQ(getConfigurationKindName(ConfigurationKind::Baseline),
               "baseline");
  EXPECT_STREQ(getConfigurationKindName(ConfigurationKind::Single), "single");
  EXPECT_STREQ(getConfigurationKindName(ConfigurationKind::Pair), "pair");
  EXPECT_STREQ(getConfigurationKindName(ConfigurationKind::Default), "default");
  EXPECT_STREQ(getConfigurationKindName(ConfigurationKind::User), "user");
  EXPECT_STREQ(getConfigurationKindName(ConfigurationKind::Tuned), "tuned");
  EXPECT_STREQ(getConfigurationStatusName(ConfigurationStatus::Ok), "ok");
  EXPECT_STREQ(getConfigurationStatusName(ConfigurationStatus::CompileFailed),
               "compile-failed");
  EXPECT_STREQ(getConfigurationStatusName(ConfigurationStatus::RunFailed),
               "run-failed");
  EXPECT_STREQ(getConfigurationStatusName(ConfigurationStatus::Wrong), "wrong");
  EXPECT_STREQ(getSynergyVerdictName(SynergyVerdict::Synergy), "synergy");
  EXPECT_STREQ(getSynergyVerdictName(SynergyVerdict::Interference),
               "interference");
  EXPECT_STREQ(getSynergyVerdictName(SynergyVerdict::Independent),
               "independent");
}

TEST(EffectFormulas, ClassifySynergy) {
  EXPECT_EQ(classifySynergy({1.1, 1.3}), SynergyVerdict::Synergy);
  EXPECT_EQ(classifySynergy({0.7, 0.9}), SynergyVerdict::Interference);
  EXPECT_EQ(classifySynergy({0.9, 1.1}), SynergyVerdict::Independent);
  // An interval touching 1 does not exclude it.
  EXPECT_EQ(classifySynergy({1.0, 1.2}), SynergyVerdict::Independent);
  EXPECT_EQ(classifySynergy({0.8, 1.0}), SynergyVerdict::Independent);
}

//===----------------------------------------------------------------------===//
// Bootstrap
//===----------------------------------------------------------------------===//

const std::vector<double> kBase = {10.0, 10.2, 9.8, 10.1, 9.9};
const std::vector<double> kHalf = {5.0, 5.1, 4.9, 5.05, 4.95};

TEST(EffectFormulas, BootstrapIsDeterministic) {
  Interval first = bootstrapSpeedup(kBase, kHalf);
  Interval second = bootstrapSpeedup(kBase, kHalf);
  EXPECT_EQ(first.low, second.low);
  EXPECT_EQ(first.high, second.high);
  EXPECT_LE(first.low, first.high);

  Interval eta1 = bootstrapSynergy(kBase, kHalf, kHalf, kHalf);
  Interval eta2 = bootstrapSynergy(kBase, kHalf, kHalf, kHalf);
  EXPECT_EQ(eta1.low, eta2.low);
  EXPECT_EQ(eta1.high, eta2.high);
}

TEST(EffectFormulas, BootstrapSeparatedSamplesExcludeOne) {
  Interval interval = bootstrapSpeedup(kBase, kHalf);
  EXPECT_FALSE(interval.contains(1));
  EXPECT_GT(interval.low, 1.9);
  EXPECT_LT(interval.high, 2.1);
  EXPECT_TRUE(interval.contains(2.0));
}

TEST(EffectFormulas, BootstrapIdenticalSamplesContainOne) {
  Interval interval = bootstrapSpeedup(kBase, kBase);
  EXPECT_TRUE(interval.contains(1));
  EXPECT_LT(interval.low, 1);
  EXPECT_GT(interval.high, 1);
  // Constant samples have no spread at all.
  Interval constant = bootstrapSpeedup({4.0, 4.0, 4.0}, {2.0, 2.0});
  EXPECT_EQ(constant.low, 2.0);
  EXPECT_EQ(constant.high, 2.0);
}

TEST(EffectFormulas, BootstrapEdgeCases) {
  Interval empty = bootstrapSpeedup({}, kHalf);
  EXPECT_EQ(empty.low, 0.0);
  EXPECT_EQ(empty.high, 0.0);
  Interval emptyEta = bootstrapSynergy(kBase, {}, kHalf, kHalf);
  EXPECT_EQ(emptyEta.low, 1.0);
  EXPECT_EQ(emptyEta.high, 1.0);
  // No resamples: the point estimate.
  BootstrapOptions none;
  none.resamples = 0;
  Interval point = bootstrapSpeedup(kBase, kHalf, none);
  EXPECT_DOUBLE_EQ(point.low, 2.0);
  EXPECT_DOUBLE_EQ(point.high, 2.0);
  // A wider level gives a wider (or equal) interval.
  BootstrapOptions narrow;
  narrow.level = 0.5;
  Interval inner = bootstrapSpeedup(kBase, kHalf, narrow);
  Interval outer = bootstrapSpeedup(kBase, kHalf);
  EXPECT_GE(inner.low, outer.low);
  EXPECT_LE(inner.high, outer.high);
}

TEST(EffectFormulas, BootstrapSynergyVerdicts) {
  // eta = (T_a * T_b) / (T_base * T_ab) = (8 * 5) / (10 * 2.5) = 1.6.
  std::vector<double> a = {7.92, 7.96, 8.0, 8.04, 8.08};
  std::vector<double> b = {4.95, 4.98, 5.0, 5.02, 5.05};
  std::vector<double> fast = {2.475, 2.49, 2.5, 2.51, 2.525};
  Interval synergy = bootstrapSynergy(kBase, a, b, fast);
  EXPECT_TRUE(synergy.contains(1.6));
  EXPECT_EQ(classifySynergy(synergy), SynergyVerdict::Synergy);
  // (8 * 5) / (10 * 6) = 0.667.
  std::vector<double> slow = {5.94, 5.97, 6.0, 6.03, 6.06};
  EXPECT_EQ(classifySynergy(bootstrapSynergy(kBase, a, b, slow)),
            SynergyVerdict::Interference);
  // (8 * 5) / (10 * 4) = 1, within the noise.
  std::vector<double> even = {3.96, 3.98, 4.0, 4.02, 4.04};
  EXPECT_EQ(classifySynergy(bootstrapSynergy(kBase, a, b, even)),
            SynergyVerdict::Independent);
}

// Two rounds of three runs each; in the second the machine is twice as slow
// for everyone (a neighbour's load), and within a round the runs agree.
const std::vector<double> kDriftBase = {10, 10.1, 9.9, 20, 20.2, 19.8};
const std::vector<double> kDriftHalf = {5, 5.05, 4.95, 10, 10.1, 9.9};
const std::vector<size_t> kTwoRounds = {3, 3};

TEST(EffectFormulas, RoundsResampledTogetherCancelACommonDrift) {
  // Runs resampled one by one mix slow and fast runs of each sample
  // independently: the interval spans the drift.
  Interval runByRun = bootstrapSpeedup(kDriftBase, kDriftHalf);
  EXPECT_LT(runByRun.low, 1.5);
  EXPECT_GT(runByRun.high, 3.0);
  // Whole rounds, the same for both: every resample compares runs taken
  // together, and S = 2 in each round.
  Interval byRound = bootstrapSpeedup(RunSample::inRounds(kDriftBase, kTwoRounds),
                                      RunSample::inRounds(kDriftHalf, kTwoRounds));
  EXPECT_GT(byRound.low, 1.95);
  EXPECT_LT(byRound.high, 2.05);
  // eta of (a, b, ab) all taken in the same drifting rounds: (5 * 5) /
  // (10 * 2.5) = 1 in each round.
  std::vector<double> quarter = {2.5, 2.525, 2.475, 5, 5.05, 4.95};
  Interval eta = bootstrapSynergy(
      RunSample::inRounds(kDriftBase, kTwoRounds), RunSample::inRounds(kDriftHalf, kTwoRounds),
      RunSample::inRounds(kDriftHalf, kTwoRounds), RunSample::inRounds(quarter, kTwoRounds));
  EXPECT_GT(eta.low, 0.95);
  EXPECT_LT(eta.high, 1.05);
}

TEST(EffectFormulas, ARoundsRunsCountAsOneDraw) {
  // Four rounds of 50 runs, each round steady but at its own speed: runs
  // resampled one by one look like 200 independent draws and give a narrow
  // interval; rounds resampled whole show how much the rounds disagree.
  std::vector<double> base, opt;
  std::vector<size_t> rounds(4, 50);
  const double baseRound[] = {10, 10, 10, 10};
  const double optRound[] = {8, 9, 8.5, 9.5};
  for (int r = 0; r < 4; ++r)
    for (int k = 0; k < 50; ++k) {
      base.push_back(baseRound[r] + 0.001 * k);
      opt.push_back(optRound[r] + 0.001 * k);
    }
  Interval runByRun = bootstrapSpeedup(base, opt);
  Interval byRound =
      bootstrapSpeedup(RunSample::inRounds(base, rounds),
                       RunSample::inRounds(opt, rounds));
  EXPECT_GT(byRound.high - byRound.low, 2 * (runByRun.high - runByRun.low));
  EXPECT_TRUE(byRound.contains(10.0 / 8.75));
}

TEST(EffectFormulas, StudentTQuantiles) {
  // Two-sided 95% and 90% points from the tables.
  EXPECT_NEAR(studentTQuantile(0.95, 1), 12.7062, 1e-3);
  EXPECT_NEAR(studentTQuantile(0.95, 3), 3.1824, 1e-3);
  EXPECT_NEAR(studentTQuantile(0.95, 10), 2.2281, 1e-3);
  EXPECT_NEAR(studentTQuantile(0.95, 1000), 1.9623, 1e-3);
  EXPECT_NEAR(studentTQuantile(0.90, 5), 2.0150, 1e-3);
}

/// exp(sigma * z) with z standard normal, by Box-Muller on mt19937_64 (the
/// same numbers with every standard library).
struct LogNormal {
  std::mt19937_64 rng{12345};
  double operator()(double sigma) {
    double u1 = (static_cast<double>(rng() >> 11) + 0.5) * 0x1p-53;
    double u2 = (static_cast<double>(rng() >> 11) + 0.5) * 0x1p-53;
    double z = std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * u2);
    return std::exp(sigma * z);
  }
};

TEST(EffectFormulas, RoundIntervalsCoverTheTrueRatio) {
  // 200 simulated explorations of a configuration 1.25x faster than the
  // baseline: every round slows both by a common drift (sigma 0.2), each
  // configuration also varies from round to round on its own (0.03), and
  // runs within a round by 0.01. A 95% interval must contain 1.25 in about
  // 95% of them, at any number of rounds; more rounds, narrower intervals.
  LogNormal draw;
  double previousWidth = 1e9;
  for (int k : {2, 4, 8}) {
    int covered = 0;
    double width = 0;
    for (int experiment = 0; experiment < 200; ++experiment) {
      std::vector<double> base, opt;
      for (int round = 0; round < k; ++round) {
        double drift = draw(0.2), baseRound = draw(0.03),
               optRound = draw(0.03);
        for (int run = 0; run < 5; ++run) {
          base.push_back(10 * drift * baseRound * draw(0.01));
          opt.push_back(8 * drift * optRound * draw(0.01));
        }
      }
      std::vector<size_t> sizes(k, 5);
      Interval interval = bootstrapSpeedup(RunSample::inRounds(base, sizes),
                                           RunSample::inRounds(opt, sizes));
      EXPECT_EQ(interval.method, IntervalMethod::RoundT);
      EXPECT_EQ(interval.rounds, k);
      covered += interval.contains(1.25);
      width += interval.high - interval.low;
    }
    std::printf("%d rounds: %d of 200 intervals contain the true ratio, "
                "mean width %.3f\n",
                k, covered, width / 200);
    EXPECT_GE(covered, 180) << k << " rounds";
    EXPECT_LT(width, previousWidth) << k << " rounds";
    previousWidth = width;
  }
}

TEST(EffectFormulas, RoundIntervalsCarryTheEstimateAtTheirCentre) {
  // Rounds that drift apart (the machine slows down in the second): the
  // ratio of the medians over all runs (10 / 6) mixes the rounds; the
  // estimate is the geometric mean of the rounds' ratios (2, 1.2, 10/6),
  // the centre of the interval, so the figure printed lies inside it.
  std::vector<double> base = {10, 10, 10, 10, 10, 30, 30, 30, 30, 30,
                              10, 10, 10, 10, 10};
  std::vector<double> opt = {5, 5, 5, 5, 5, 25, 25, 25, 25, 25, 6, 6, 6, 6, 6};
  std::vector<size_t> rounds = {5, 5, 5};
  RunSample b = RunSample::inRounds(base, rounds);
  RunSample o = RunSample::inRounds(opt, rounds);
  Interval s = bootstrapSpeedup(b, o);
  EXPECT_EQ(s.method, IntervalMethod::RoundT);
  EXPECT_NEAR(s.estimate, std::cbrt(2.0 * 1.2 * (10.0 / 6.0)), 1e-9);
  EXPECT_NEAR(std::sqrt(s.low * s.high), s.estimate, 1e-9);
  EXPECT_TRUE(s.contains(s.estimate));
  // eta of a pair timed exactly as its passes' product: 1 in every round.
  Interval eta = bootstrapSynergy(b, o, b, o);
  EXPECT_NEAR(eta.estimate, 1.0, 1e-12);
  // Without rounds: the ratio of the medians over all runs.
  EXPECT_NEAR(bootstrapSpeedup(base, opt).estimate, 10.0 / 6.0, 1e-12);
}

TEST(EffectFormulas, IntervalsSayHowTheyWereMade) {
  // Rounds shared: t over rounds; runs without rounds: the run bootstrap;
  // no resampling: a point.
  Interval byRound = bootstrapSpeedup(RunSample::inRounds(kDriftBase, kTwoRounds),
                                      RunSample::inRounds(kDriftHalf, kTwoRounds));
  EXPECT_EQ(byRound.method, IntervalMethod::RoundT);
  EXPECT_EQ(byRound.rounds, 2);
  Interval byRun = bootstrapSpeedup(kDriftBase, kDriftHalf);
  EXPECT_EQ(byRun.method, IntervalMethod::RunBootstrap);
  EXPECT_EQ(byRun.rounds, 0);
  BootstrapOptions none;
  none.resamples = 0;
  EXPECT_EQ(bootstrapSpeedup(kDriftBase, kDriftHalf, none).method,
            IntervalMethod::None);
  EXPECT_STREQ(getIntervalMethodName(IntervalMethod::RoundT), "t-rounds");
}

TEST(EffectFormulas, NumberedRoundsPairOnlyTheRoundsBothHave) {
  // The baseline was timed in rounds 0-3, the configuration in rounds 2-3
  // only; in rounds 0-1 the machine was twice as fast.
  std::vector<double> base = {5, 5, 5, 5, 10, 10.1, 10, 9.9};
  std::vector<double> opt = {5, 5.05, 5, 4.95};
  Interval paired = bootstrapSpeedup(
      RunSample::inRounds(base, {2, 2, 2, 2}, {0, 1, 2, 3}),
      RunSample::inRounds(opt, {2, 2}, {2, 3}));
  EXPECT_GT(paired.low, 1.95);
  EXPECT_LT(paired.high, 2.05);
  // Fewer than two rounds in common: run by run.
  Interval unpaired = bootstrapSpeedup(
      RunSample::inRounds(base, {2, 2, 2, 2}, {0, 1, 2, 3}),
      RunSample::inRounds(opt, {2, 2}, {3, 4}));
  Interval plain = bootstrapSpeedup(base, opt);
  EXPECT_EQ(unpaired.low, plain.low);
  EXPECT_EQ(unpaired.high, plain.high);
}

TEST(EffectFormulas, RoundsThatDoNotMatchAreResampledRunByRun) {
  Interval plain = bootstrapSpeedup(kDriftBase, kDriftHalf);
  // One round, rounds of different counts, or sizes that do not cover the
  // runs: no common rounds, so the runs are resampled one by one.
  const std::vector<size_t> one = {6}, three = {2, 2, 2}, short_ = {3, 2};
  for (auto [baseRounds, optRounds] :
       {std::pair{one, one}, std::pair{kTwoRounds, three},
        std::pair{short_, short_}}) {
    Interval interval =
        bootstrapSpeedup(RunSample::inRounds(kDriftBase, baseRounds),
                         RunSample::inRounds(kDriftHalf, optRounds));
    EXPECT_EQ(interval.low, plain.low);
    EXPECT_EQ(interval.high, plain.high);
  }
}

//===----------------------------------------------------------------------===//
// Pareto
//===----------------------------------------------------------------------===//

TEST(EffectFormulas, Dominates) {
  ParetoPoint fast{2, 100, 10}, slow{1, 100, 10}, cheap{1, 50, 10};
  EXPECT_TRUE(dominates(fast, slow));
  EXPECT_FALSE(dominates(slow, fast));
  // Exact ties dominate neither way.
  EXPECT_FALSE(dominates(fast, fast));
  // A trade-off dominates neither way.
  EXPECT_FALSE(dominates(fast, cheap));
  EXPECT_FALSE(dominates(cheap, fast));
  EXPECT_TRUE(dominates(cheap, slow));
  EXPECT_TRUE(dominates(ParetoPoint{1, 100, 5}, slow));
}

TEST(EffectFormulas, ParetoFrontierWithTies) {
  std::vector<ParetoPoint> points = {
      {2, 100, 10}, // On the frontier,
      {2, 100, 10}, // and so is its equal.
      {1, 200, 20}, // Dominated by both.
      {3, 300, 5},  // A trade-off.
  };
  std::vector<bool> frontier = paretoFrontier(points);
  EXPECT_EQ(frontier, (std::vector<bool>{true, true, false, true}));
  EXPECT_TRUE(paretoFrontier({}).empty());
  EXPECT_EQ(paretoFrontier({ParetoPoint{1, 1, 1}}), std::vector<bool>{true});
}

//===----------------------------------------------------------------------===//
// The analysis
//===----------------------------------------------------------------------===//

/// baseline, fold, fuse, fold+fuse (eta 1.6), fuse+fold (eta 0.67) and a
/// fast but wrong cse.
struct Experiment {
  std::vector<Configuration> configurations;
  std::vector<ConfigurationMeasurement> measurements;

  void add(std::string name, ConfigurationKind kind,
           std::vector<std::string> passes, std::vector<double> runMs,
           double graphPassesMs, int64_t peakBytes,
           ConfigurationStatus status = ConfigurationStatus::Ok) {
    Configuration config;
    config.name = name;
    config.kind = kind;
    config.passes = passes;
    if (!passes.empty()) {
      config.pipeline = "builtin.module(";
      for (size_t i = 0; i < passes.size(); ++i)
        config.pipeline += (i ? ",gopt-" : "gopt-") + passes[i];
      config.pipeline += ")";
    }
    ConfigurationMeasurement m;
    m.status = status;
    if (status != ConfigurationStatus::Ok)
      m.error = "outputs differ at element 0";
    m.runMs = runMs;
    m.peakBytes = peakBytes;
    m.staticPeakBytes = 2 * peakBytes;
    m.graphPassesMs = graphPassesMs;
    m.loweringMs = 60;
    m.codegenMs = 40;
    configurations.push_back(config);
    measurements.push_back(m);
  }
};

enum { kBaseline, kFold, kFuse, kFoldFuse, kFuseFold, kCse };

Experiment makeExperiment() {
  Experiment e;
  using K = ConfigurationKind;
  e.add("baseline", K::Baseline, {}, {9.9, 9.95, 10.0, 10.05, 10.1}, 0, 1000);
  e.add("fold", K::Single, {"fold"}, {7.92, 7.96, 8.0, 8.04, 8.08}, 10, 1000);
  e.add("fuse", K::Single, {"fuse"}, {4.95, 4.98, 5.0, 5.02, 5.05}, 20, 800);
  e.add("fold+fuse", K::Pair, {"fold", "fuse"}, {2.475, 2.49, 2.5, 2.51, 2.525},
        30, 900);
  e.add("fuse+fold", K::Pair, {"fuse", "fold"}, {5.94, 5.97, 6.0, 6.03, 6.06},
        30, 800);
  e.add("cse", K::Single, {"cse"}, {1.0, 1.0, 1.0}, 5, 100,
        ConfigurationStatus::Wrong);

  e.measurements[kBaseline].kernelTimes = {{"main_k0_matmul", 6, 0.6},
                                           {"main_k1_add", 2, 0.2},
                                           {"main_k2_relu", 1, 0.1},
                                           {"main_k3_add", 1, 0.1}};
  e.measurements[kFoldFuse].kernelTimes = {{"main_k0_matmul", 2, 0.5},
                                           {"main_k1_add", 1, 0.25},
                                           {"main_k2_add_relu", 0.5, 0.125},
                                           {"main_k3_add", 0.5, 0.125}};
  return e;
}

EffectAnalysisResult analyze(const Experiment &e, ChoiceCriteria criteria) {
  AnalysisOptions options;
  options.criteria = criteria;
  return analyzeEffects(e.configurations, e.measurements, options);
}

TEST(EffectAnalysis, ConfigurationFigures) {
  Experiment e = makeExperiment();
  EffectAnalysisResult result = analyze(e, {});
  ASSERT_EQ(result.error, "");
  const EffectAnalysis &a = result.analysis;
  EXPECT_EQ(a.baseline, size_t(kBaseline));
  ASSERT_EQ(a.effects.size(), e.configurations.size());

  const ConfigurationEffect &base = a.effects[kBaseline];
  EXPECT_DOUBLE_EQ(base.medianMs, 10.0);
  EXPECT_DOUBLE_EQ(base.q1Ms, 9.95);
  EXPECT_DOUBLE_EQ(base.q3Ms, 10.05);
  EXPECT_GT(base.cv, 0);
  EXPECT_DOUBLE_EQ(base.speedup, 1.0);
  EXPECT_TRUE(base.speedupInterval.contains(1));
  EXPECT_DOUBLE_EQ(base.compileMs, 100.0);
  EXPECT_FALSE(base.breakEvenRequests.has_value());
  EXPECT_TRUE(base.valid);

  EXPECT_DOUBLE_EQ(a.effects[kFold].speedup, 1.25);
  EXPECT_DOUBLE_EQ(a.effects[kFuse].speedup, 2.0);
  EXPECT_DOUBLE_EQ(a.effects[kFoldFuse].speedup, 4.0);
  EXPECT_NEAR(a.effects[kFuseFold].speedup, 10.0 / 6, 1e-12);
  EXPECT_FALSE(a.effects[kFoldFuse].speedupInterval.contains(1));
  EXPECT_TRUE(a.effects[kFoldFuse].speedupInterval.contains(4));

  const ConfigurationEffect &foldFuse = a.effects[kFoldFuse];
  EXPECT_DOUBLE_EQ(foldFuse.compileMs, 130.0);
  EXPECT_DOUBLE_EQ(foldFuse.memorySaving, 0.1);
  EXPECT_DOUBLE_EQ(foldFuse.staticMemorySaving, 0.1);
  EXPECT_DOUBLE_EQ(a.effects[kFuse].memorySaving, 0.2);
  ASSERT_TRUE(foldFuse.breakEvenRequests.has_value());
  EXPECT_DOUBLE_EQ(*foldFuse.breakEvenRequests, 130.0 / 7.5);
  // No QPS, no payback time.
  EXPECT_FALSE(foldFuse.paybackSeconds.has_value());
  // alpha = 0: U == S.
  EXPECT_DOUBLE_EQ(foldFuse.utility, 4.0);

  // The wrong configuration ran, but is neither valid, useful nor Pareto.
  const ConfigurationEffect &cse = a.effects[kCse];
  EXPECT_FALSE(cse.valid);
  EXPECT_FALSE(cse.pareto);
  EXPECT_DOUBLE_EQ(cse.utility, 0.0);
}

TEST(EffectAnalysis, ParetoOverValidConfigurations) {
  EffectAnalysisResult result = analyze(makeExperiment(), {});
  ASSERT_EQ(result.error, "");
  const std::vector<ConfigurationEffect> &effects = result.analysis.effects;
  // baseline: cheapest compile; fold: cheaper than every faster one; fuse:
  // least memory among the fast; fold+fuse: fastest. fuse+fold is slower,
  // dearer and no smaller than fuse.
  EXPECT_TRUE(effects[kBaseline].pareto);
  EXPECT_TRUE(effects[kFold].pareto);
  EXPECT_TRUE(effects[kFuse].pareto);
  EXPECT_TRUE(effects[kFoldFuse].pareto);
  EXPECT_FALSE(effects[kFuseFold].pareto);
  EXPECT_FALSE(effects[kCse].pareto);
}

TEST(EffectAnalysis, PairsAndVerdicts) {
  EffectAnalysisResult result = analyze(makeExperiment(), {});
  ASSERT_EQ(result.error, "");
  const std::vector<PairEffect> &pairs = result.analysis.pairs;
  ASSERT_EQ(pairs.size(), 2u);

  const PairEffect &foldFuse = pairs[0];
  EXPECT_EQ(foldFuse.a, size_t(kFold));
  EXPECT_EQ(foldFuse.b, size_t(kFuse));
  EXPECT_EQ(foldFuse.ab, size_t(kFoldFuse));
  EXPECT_DOUBLE_EQ(foldFuse.speedupA, 1.25);
  EXPECT_DOUBLE_EQ(foldFuse.speedupB, 2.0);
  EXPECT_DOUBLE_EQ(foldFuse.speedupAB, 4.0);
  EXPECT_NEAR(foldFuse.eta, 1.6, 1e-12);
  EXPECT_TRUE(foldFuse.etaInterval.contains(1.6));
  EXPECT_EQ(foldFuse.verdict, SynergyVerdict::Synergy);

  const PairEffect &fuseFold = pairs[1];
  EXPECT_EQ(fuseFold.a, size_t(kFuse));
  EXPECT_EQ(fuseFold.b, size_t(kFold));
  EXPECT_EQ(fuseFold.ab, size_t(kFuseFold));
  EXPECT_NEAR(fuseFold.eta, 2.0 / 3, 1e-12);
  EXPECT_EQ(fuseFold.verdict, SynergyVerdict::Interference);
}

TEST(EffectAnalysis, PairWithInvalidPartIsSkipped) {
  Experiment e = makeExperiment();
  e.measurements[kFold].status = ConfigurationStatus::RunFailed;
  EffectAnalysisResult result = analyze(e, {});
  ASSERT_EQ(result.error, "");
  EXPECT_TRUE(result.analysis.pairs.empty());
}

TEST(EffectAnalysis, KernelsMatchedByOps) {
  EffectAnalysisResult result = analyze(makeExperiment(), {});
  ASSERT_EQ(result.error, "");
  const EffectAnalysis &a = result.analysis;
  ASSERT_EQ(a.kernels.size(), 6u);

  const std::vector<KernelEffect> &base = a.kernels[kBaseline];
  ASSERT_EQ(base.size(), 4u);
  EXPECT_DOUBLE_EQ(base[0].share, 0.6);
  EXPECT_DOUBLE_EQ(base[0].amdahlBound, 2.5);
  ASSERT_TRUE(base[0].speedupOverBaseline.has_value());
  EXPECT_DOUBLE_EQ(*base[0].speedupOverBaseline, 1.0);

  const std::vector<KernelEffect> &fused = a.kernels[kFoldFuse];
  ASSERT_EQ(fused.size(), 4u);
  EXPECT_EQ(fused[0].name, "main_k0_matmul");
  EXPECT_DOUBLE_EQ(fused[0].msPerRun, 2.0);
  EXPECT_DOUBLE_EQ(fused[0].amdahlBound, 2.0);
  ASSERT_TRUE(fused[0].speedupOverBaseline.has_value());
  EXPECT_DOUBLE_EQ(*fused[0].speedupOverBaseline, 3.0);
  // The first add against the baseline's first add, the second against
  // the second.
  ASSERT_TRUE(fused[1].speedupOverBaseline.has_value());
  EXPECT_DOUBLE_EQ(*fused[1].speedupOverBaseline, 2.0);
  ASSERT_TRUE(fused[3].speedupOverBaseline.has_value());
  EXPECT_DOUBLE_EQ(*fused[3].speedupOverBaseline, 2.0);
  // The baseline has no add_relu kernel.
  EXPECT_FALSE(fused[2].speedupOverBaseline.has_value());

  // Configurations without kernel timers, and invalid ones, have none.
  EXPECT_TRUE(a.kernels[kFuse].empty());
  EXPECT_TRUE(a.kernels[kCse].empty());
}

TEST(EffectAnalysis, KernelEntryNamesMayContainK) {
  Experiment e = makeExperiment();
  e.measurements[kBaseline].kernelTimes = {{"net_k9x_k0_add", 4, 1}};
  e.measurements[kFuse].kernelTimes = {{"net_k9x_k7_add", 1, 1}};
  EffectAnalysisResult result = analyze(e, {});
  ASSERT_EQ(result.error, "");
  const std::vector<KernelEffect> &kernels = result.analysis.kernels[kFuse];
  ASSERT_EQ(kernels.size(), 1u);
  ASSERT_TRUE(kernels[0].speedupOverBaseline.has_value());
  EXPECT_DOUBLE_EQ(*kernels[0].speedupOverBaseline, 4.0);
  EXPECT_TRUE(std::isinf(kernels[0].amdahlBound));
}

TEST(EffectAnalysis, UtilityTable) {
  ChoiceCriteria criteria;
  criteria.alpha = 0.01;
  criteria.qps = 100;
  EffectAnalysisResult result = analyze(makeExperiment(), criteria);
  ASSERT_EQ(result.error, "");
  const EffectAnalysis &a = result.analysis;
  EXPECT_EQ(a.alphaTable, (std::vector<double>{0, 0.001, 0.01, 0.1, 1}));
  ASSERT_EQ(a.utilityTable.size(), 5u);
  for (const std::vector<double> &row : a.utilityTable) {
    ASSERT_EQ(row.size(), 6u);
    EXPECT_DOUBLE_EQ(row[kCse], 0.0);
  }
  EXPECT_DOUBLE_EQ(a.utilityTable[0][kFoldFuse], 4.0);
  EXPECT_DOUBLE_EQ(a.utilityTable[0][kFold], 1.25);
  EXPECT_DOUBLE_EQ(a.utilityTable[2][kFoldFuse], 4 / (1 + 0.01 * 130 / 2.5));
  EXPECT_DOUBLE_EQ(a.utilityTable[4][kBaseline], 1 / (1 + 100 / 10.0));
  // The effects hold U at the criteria's alpha.
  EXPECT_DOUBLE_EQ(a.effects[kFoldFuse].utility, a.utilityTable[2][kFoldFuse]);
  EXPECT_DOUBLE_EQ(a.criteria.alpha, 0.01);
  EXPECT_DOUBLE_EQ(a.intervalLevel, 0.95);
  ASSERT_TRUE(a.effects[kFoldFuse].paybackSeconds.has_value());
  EXPECT_DOUBLE_EQ(*a.effects[kFoldFuse].paybackSeconds, 130.0 / 7.5 / 100);
}

TEST(EffectAnalysis, ChoosesTheBestValidConfiguration) {
  ChoiceCriteria criteria;
  criteria.alpha = 0.01;
  criteria.qps = 100;
  EffectAnalysisResult result = analyze(makeExperiment(), criteria);
  ASSERT_EQ(result.error, "");
  const Choice &choice = result.analysis.choice;
  // cse is ten times faster but wrong.
  ASSERT_EQ(choice.index, std::optional<size_t>(kFoldFuse));
  const std::string &reason = choice.reason;
  EXPECT_NE(reason.find("Choose `fold+fuse`"), std::string::npos) << reason;
  EXPECT_NE(reason.find("`builtin.module(gopt-fold,gopt-fuse)`"),
            std::string::npos)
      << reason;
  EXPECT_NE(reason.find("2.50 ms against 10.0 ms"), std::string::npos)
      << reason;
  EXPECT_NE(reason.find("a speedup of 4.00x (95% interval"), std::string::npos)
      << reason;
  EXPECT_NE(reason.find("(-10% memory)"), std::string::npos) << reason;
  EXPECT_NE(reason.find("costs 130 ms to compile"), std::string::npos)
      << reason;
  EXPECT_NE(reason.find("pays back after 18 requests (0.17 s at 100 QPS)"),
            std::string::npos)
      << reason;
  EXPECT_NE(reason.find("At alpha = 0.01 its utility U = 2.63 is the highest "
                        "of the 5 valid configurations"),
            std::string::npos)
      << reason;
  EXPECT_NE(reason.find("the runner-up `fuse` reaches U = 1.61"),
            std::string::npos)
      << reason;
  EXPECT_NE(reason.find("1 configuration was excluded for wrong outputs."),
            std::string::npos)
      << reason;
  EXPECT_EQ(reason.find('\n'), std::string::npos) << reason;
}

TEST(EffectAnalysis, MissingOrInvalidBaseline) {
  Experiment noBase = makeExperiment();
  noBase.configurations[kBaseline].kind = ConfigurationKind::Single;
  EXPECT_NE(analyze(noBase, {}).error, "");

  Experiment twoBases = makeExperiment();
  twoBases.configurations[kFold].kind = ConfigurationKind::Baseline;
  EXPECT_NE(analyze(twoBases, {}).error.find("2 baseline configurations"),
            std::string::npos);

  Experiment failed = makeExperiment();
  failed.measurements[kBaseline].status = ConfigurationStatus::CompileFailed;
  failed.measurements[kBaseline].error = "lowering failed";
  EXPECT_EQ(analyze(failed, {}).error, "the baseline failed: lowering failed");

  Experiment wrong = makeExperiment();
  wrong.measurements[kBaseline].status = ConfigurationStatus::RunFailed;
  wrong.measurements[kBaseline].error.clear();
  EXPECT_EQ(analyze(wrong, {}).error, "the baseline failed: run-failed");

  Experiment unmeasured = makeExperiment();
  unmeasured.measurements[kBaseline].runMs.clear();
  EXPECT_NE(analyze(unmeasured, {}).error, "");

  Experiment mismatched = makeExperiment();
  mismatched.measurements.pop_back();
  EXPECT_NE(analyze(mismatched, {}).error, "");
}

TEST(EffectAnalysis, Deterministic) {
  ChoiceCriteria criteria;
  criteria.alpha = 0.001;
  criteria.qps = 50;
  Experiment e = makeExperiment();
  EffectAnalysisResult first = analyze(e, criteria);
  EffectAnalysisResult second = analyze(e, criteria);
  ASSERT_EQ(first.error, "");
  EXPECT_EQ(first.analysis.choice.index, second.analysis.choice.index);
  EXPECT_EQ(first.analysis.choice.reason, second.analysis.choice.reason);
  for (size_t c = 0; c < e.configurations.size(); ++c) {
    EXPECT_EQ(first.analysis.effects[c].speedupInterval.low,
              second.analysis.effects[c].speedupInterval.low);
    EXPECT_EQ(first.analysis.effects[c].speedupInterval.high,
              second.analysis.effects[c].speedupInterval.high);
  }
  for (size_t p = 0; p < first.analysis.pairs.size(); ++p) {
    EXPECT_EQ(first.analysis.pairs[p].etaInterval.low,
              second.analysis.pairs[p].etaInterval.low);
    EXPECT_EQ(first.analysis.pairs[p].etaInterval.high,
              second.analysis.pairs[p].etaInterval.high);
  }
}

//===----------------------------------------------------------------------===//
// The choice
//===----------------------------------------------------------------------===//

TEST(EffectChoice, MemoryLimitExcludesTheFastest) {
  Experiment e = makeExperiment();
  ChoiceCriteria criteria;
  criteria.memoryLimitBytes = 850;
  EffectAnalysisResult result = analyze(e, criteria);
  ASSERT_EQ(result.error, "");
  // baseline, fold (1000 B) and fold+fuse (900 B) are over the limit; fuse
  // beats fuse+fold.
  const Choice &choice = result.analysis.choice;
  ASSERT_EQ(choice.index, std::optional<size_t>(kFuse));
  EXPECT_NE(choice.reason.find("within the memory limit of 850 B"),
            std::string::npos)
      << choice.reason;
  EXPECT_NE(choice.reason.find("`fold+fuse`"), std::string::npos)
      << choice.reason;

  // The same from chooseConfiguration directly.
  Choice direct = chooseConfiguration(e.configurations, e.measurements,
                                      result.analysis, criteria);
  EXPECT_EQ(direct.index, choice.index);
  EXPECT_EQ(direct.reason, choice.reason);
}

TEST(EffectChoice, AllOverTheMemoryLimit) {
  Experiment e = makeExperiment();
  ChoiceCriteria criteria;
  criteria.memoryLimitBytes = 500;
  EffectAnalysisResult result = analyze(e, criteria);
  ASSERT_EQ(result.error, "");
  const Choice &choice = result.analysis.choice;
  EXPECT_FALSE(choice.index.has_value());
  // The smallest valid peak is 800 B, first reached by fuse (the wrong cse's
  // 100 B does not count).
  EXPECT_NE(choice.reason.find("800 B, by `fuse`"), std::string::npos)
      << choice.reason;
  EXPECT_NE(choice.reason.find("500 B"), std::string::npos) << choice.reason;
}

TEST(EffectChoice, KeepsTheBaselineWhenNothingBeatsIt) {
  Experiment e;
  e.add("baseline", ConfigurationKind::Baseline, {},
        {9.9, 9.95, 10.0, 10.05, 10.1}, 0, 1 << 20);
  e.add("fold", ConfigurationKind::Single, {"fold"},
        {9.92, 9.97, 10.02, 10.07, 10.12}, 10, 1 << 20);
  e.add("fuse", ConfigurationKind::Single, {"fuse"}, {}, 10, 0,
        ConfigurationStatus::CompileFailed);
  EffectAnalysisResult result = analyze(e, {});
  ASSERT_EQ(result.error, "");
  const Choice &choice = result.analysis.choice;
  ASSERT_EQ(choice.index, std::optional<size_t>(0));
  EXPECT_EQ(choice.reason.rfind("Keep the baseline `baseline`", 0), 0u)
      << choice.reason;
  EXPECT_NE(choice.reason.find("by more than the noise"), std::string::npos)
      << choice.reason;
  EXPECT_NE(choice.reason.find("1.0 MiB"), std::string::npos) << choice.reason;
  EXPECT_NE(choice.reason.find("excluded for failing to compile"),
            std::string::npos)
      << choice.reason;
  // The failed configuration has no run figures.
  EXPECT_DOUBLE_EQ(result.analysis.effects[2].speedup, 0.0);
  EXPECT_FALSE(result.analysis.effects[2].valid);
}

/// A hand-made analysis: configuration 0 is the baseline; each entry is
/// {speedup, median ms, compile ms}, all valid with 1 KiB peaks.
struct HandMade {
  std::vector<Configuration> configurations;
  std::vector<ConfigurationMeasurement> measurements;
  EffectAnalysis analysis;

  void add(double speedup, double medianMs, double compileMs,
           bool valid = true) {
    Configuration config;
    config.name = configurations.empty()
                      ? "baseline"
                      : "c" + std::to_string(configurations.size());
    config.kind = configurations.empty() ? ConfigurationKind::Baseline
                                         : ConfigurationKind::Tuned;
    ConfigurationMeasurement m;
    m.status = valid ? ConfigurationStatus::Ok : ConfigurationStatus::Wrong;
    m.runMs = {medianMs};
    m.peakBytes = 1024;
    ConfigurationEffect effect;
    effect.speedup = speedup;
    effect.speedupInterval = {speedup, speedup};
    effect.medianMs = medianMs;
    effect.baselineMs = medianMs * speedup;
    effect.compileMs = compileMs;
    effect.valid = valid;
    configurations.push_back(config);
    measurements.push_back(m);
    analysis.effects.push_back(effect);
  }

  Choice choose(double alpha) const {
    ChoiceCriteria criteria;
    criteria.alpha = alpha;
    return chooseConfiguration(configurations, measurements, analysis,
                               criteria);
  }
};

TEST(EffectChoice, TiesGoToTheFasterConfiguration) {
  HandMade h;
  h.add(1, 10, 1000);
  // U = 1.5 / (1 + 0.05 * 50 / 5) = 1, one ulp above with the nudge.
  h.add(std::nextafter(1.5, 2.0), 5, 50);
  // U = 2 / (1 + 0.05 * 100 / 5) = 1: a tie within rounding, and faster.
  h.add(2, 5, 100);
  Choice choice = h.choose(0.05);
  EXPECT_EQ(choice.index, std::optional<size_t>(2));
}

TEST(EffectChoice, TiesThenGoToTheCheaperThenTheEarlier) {
  HandMade cheaper;
  cheaper.add(1, 10, 100);
  cheaper.add(2, 5, 200);
  cheaper.add(2, 5, 100);
  EXPECT_EQ(cheaper.choose(0).index, std::optional<size_t>(2));

  HandMade earlier;
  earlier.add(1, 10, 100);
  earlier.add(2, 5, 100);
  earlier.add(2, 5, 100);
  EXPECT_EQ(earlier.choose(0).index, std::optional<size_t>(1));
  // And the choice and its reason are the same every time.
  EXPECT_EQ(earlier.choose(0).reason, earlier.choose(0).reason);
}

TEST(EffectChoice, ALeadWithinTheNoiseGoesToTheCheaperConfiguration) {
  HandMade h;
  h.add(1, 10, 100);
  h.add(1.10, 10 / 1.10, 300);
  h.add(1.05, 10 / 1.05, 150);
  // c1 leads at alpha = 0, but c2's speedup lies inside c1's interval.
  h.analysis.effects[1].speedupInterval = {1.02, 1.18};
  Choice choice = h.choose(0);
  EXPECT_EQ(choice.index, std::optional<size_t>(2));
  EXPECT_NE(choice.reason.find("`c1` has the highest utility, U = 1.10"),
            std::string::npos)
      << choice.reason;
  EXPECT_NE(choice.reason.find("its lead is within the noise: this "
                               "configuration's speedup 1.05x lies inside "
                               "its interval 1.02-1.18x, so the one cheaper "
                               "to compile is chosen (U = 1.05)."),
            std::string::npos)
      << choice.reason;

  // Outside the interval the lead stands.
  h.analysis.effects[1].speedupInterval = {1.07, 1.13};
  EXPECT_EQ(h.choose(0).index, std::optional<size_t>(1));
  // And the baseline, cheapest and inside a wide interval, is kept.
  h.analysis.effects[1].speedupInterval = {0.95, 1.25};
  Choice keep = h.choose(0);
  EXPECT_EQ(keep.index, std::optional<size_t>(0));
  EXPECT_NE(keep.reason.find("Keep the baseline"), std::string::npos)
      << keep.reason;
}

TEST(EffectChoice, CompileCostCanOutweighSpeed) {
  HandMade h;
  h.add(1, 10, 10);
  h.add(3, 10.0 / 3, 10000);
  // alpha = 0: U = S, the fast one.
  EXPECT_EQ(h.choose(0).index, std::optional<size_t>(1));
  // alpha = 1: U = 3 / (1 + 3000) against 1 / (1 + 1).
  Choice choice = h.choose(1);
  EXPECT_EQ(choice.index, std::optional<size_t>(0));
  EXPECT_NE(choice.reason.find("beats it in utility"), std::string::npos)
      << choice.reason;
}

TEST(EffectChoice, NoValidConfiguration) {
  HandMade h;
  h.add(1, 10, 100, /*valid=*/false);
  h.add(2, 5, 100, /*valid=*/false);
  Choice choice = h.choose(0);
  EXPECT_FALSE(choice.index.has_value());
  EXPECT_NE(choice.reason.find("No configuration can be chosen"),
            std::string::npos)
      << choice.reason;
  EXPECT_NE(choice.reason.find("2 configurations were excluded for wrong "
                               "outputs"),
            std::string::npos)
      << choice.reason;
}

} // namespace

namespace {

TEST(EffectChoice, UnderLoadTheBoundAppliesToTheP99UnderLoad) {
  // Three configurations whose timed runs all meet a 5 ms bound; under
  // load at 200/s the fastest queues past it.
  std::vector<Configuration> configurations(3);
  std::vector<ConfigurationMeasurement> measurements(3);
  EffectAnalysis analysis;
  const char *names[] = {"baseline", "fast", "steady"};
  const double speedups[] = {1, 2, 1.5}, loadP99[] = {9, 7, 4};
  for (size_t i = 0; i < 3; ++i) {
    configurations[i].name = names[i];
    configurations[i].kind =
        i == 0 ? ConfigurationKind::Baseline : ConfigurationKind::Single;
    measurements[i].runMs = {2.0 / speedups[i]};
    measurements[i].peakBytes = 1024;
    ConfigurationEffect effect;
    effect.valid = true;
    effect.speedup = speedups[i];
    effect.speedupInterval = {speedups[i], speedups[i]};
    effect.medianMs = 2.0 / speedups[i];
    effect.p99Ms = 2.5 / speedups[i];
    analysis.effects.push_back(effect);
  }
  ChoiceCriteria criteria;
  criteria.p99BoundMs = 5;
  // Without a load test: the fastest.
  EXPECT_EQ(
      chooseConfiguration(configurations, measurements, analysis, criteria)
          .index,
      std::optional<size_t>(1));
  for (size_t i = 0; i < 3; ++i) {
    LoadMeasurement load;
    load.qps = 200;
    load.requests = 100;
    load.p99Ms = loadP99[i];
    measurements[i].load = load;
  }
  Choice choice =
      chooseConfiguration(configurations, measurements, analysis, criteria);
  EXPECT_EQ(choice.index, std::optional<size_t>(2));
  EXPECT_NE(choice.reason.find("the p99 bound of 5.00 ms under load at 200 "
                               "requests/s"),
            std::string::npos)
      << choice.reason;
  // Nothing meets it: the lowest p99 under load is named.
  criteria.p99BoundMs = 3;
  choice =
      chooseConfiguration(configurations, measurements, analysis, criteria);
  EXPECT_FALSE(choice.index.has_value());
  EXPECT_NE(choice.reason.find(
                "the lowest p99 under load at 200/s is 4.00 ms, by `steady`"),
            std::string::npos)
      << choice.reason;
}

TEST(EffectChoice, LoadMeasurementsRoundTripThroughJSON) {
  LoadMeasurement load;
  load.qps = 150;
  load.requests = 300;
  load.workers = 2;
  load.p50Ms = 1;
  load.p90Ms = 2;
  load.p99Ms = 3;
  load.maxMs = 4;
  load.achievedPerSecond = 149;
  load.utilization = 0.25;
  load.sustainedQps = 400;
  load.stoppedBecause = "too slow";
  auto back = parseLoadMeasurement(llvm::json::Value(toJSON(load)));
  ASSERT_TRUE(static_cast<bool>(back)) << llvm::toString(back.takeError());
  EXPECT_EQ(back->qps, 150);
  EXPECT_EQ(back->requests, 300);
  EXPECT_EQ(back->workers, 2);
  EXPECT_EQ(back->p99Ms, 3);
  EXPECT_EQ(back->utilization, 0.25);
  EXPECT_EQ(back->sustainedQps, 400);
  EXPECT_EQ(back->stoppedBecause, "too slow");
  llvm::json::Object broken = toJSON(load);
  broken.erase("p99_ms");
  auto bad = parseLoadMeasurement(llvm::json::Value(std::move(broken)));
  ASSERT_FALSE(static_cast<bool>(bad));
  EXPECT_NE(llvm::toString(bad.takeError()).find("\"p99_ms\""),
            std::string::npos);
}

} // namespace
