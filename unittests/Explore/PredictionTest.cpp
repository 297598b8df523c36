//===- PredictionTest.cpp - Configurations predicted on other hardware ----===//

#include "GOpt/Explore/Prediction.h"

#include <gtest/gtest.h>

using namespace mlir::gopt;

namespace {

/// 1 GFLOP/s, 1 GB/s, 1 us per kernel: a kernel of B bytes (B >= F) takes
/// B / 1e6 + 0.001 ms.
TargetDescription makeToyTarget(llvm::StringRef kind = "cpu") {
  TargetDescription t;
  t.name = "toy";
  t.kind = kind.str();
  t.device = "toy device";
  t.peakGflops = 1;
  t.bandwidthGBs = 1;
  t.launchOverheadUs = 1;
  return t;
}

struct Fixture {
  std::vector<Configuration> configurations;
  std::vector<ConfigurationMeasurement> measurements;
  EffectAnalysis analysis;

  void add(llvm::StringRef name, ConfigurationKind kind,
           std::vector<KernelCost> costs, ConfigurationStatus status,
           double measuredSpeedup, double medianMs) {
    Configuration c;
    c.name = name.str();
    c.kind = kind;
    configurations.push_back(c);
    ConfigurationMeasurement m;
    m.status = status;
    m.kernelCosts = std::move(costs);
    measurements.push_back(m);
    ConfigurationEffect e;
    e.valid = status == ConfigurationStatus::Ok;
    e.speedup = measuredSpeedup;
    e.medianMs = medianMs;
    analysis.effects.push_back(e);
  }
};

Fixture makeFixture() {
  Fixture f;
  // Baseline: three kernels of 9 KB, 27 + 3 us = 0.030 ms.
  f.add("baseline", ConfigurationKind::Baseline,
        {{0, 9000}, {0, 9000}, {0, 9000}}, ConfigurationStatus::Ok, 1, 0.060);
  // One kernel of 9 KB: 0.010 ms, S = 3; measured 2 (error +50%).
  f.add("fuse", ConfigurationKind::Single, {{0, 9000}}, ConfigurationStatus::Ok,
        2, 0.030);
  // Two kernels: 0.020 ms, S = 1.5; measured 1.5 (error 0).
  f.add("cse", ConfigurationKind::Single, {{0, 9000}, {0, 9000}},
        ConfigurationStatus::Ok, 1.5, 0.040);
  // Predicted fastest of all, but its outputs are wrong: never the fastest.
  f.add("wrong", ConfigurationKind::Single, {{0, 1}},
        ConfigurationStatus::Wrong, 0, 0);
  // Its graph passes failed: no costs, no prediction.
  f.add("broken", ConfigurationKind::Single, {},
        ConfigurationStatus::CompileFailed, 0, 0);
  f.analysis.baseline = 0;
  return f;
}

TEST(PredictionTest, PredictsTimeAndSpeedupFromTheKernelsCosts) {
  Fixture f = makeFixture();
  TargetPrediction p =
      predictOnTarget(makeToyTarget(), /*measuredHere=*/false, f.configurations,
                      f.measurements, f.analysis);
  ASSERT_EQ(p.configurations.size(), 5u);
  EXPECT_NEAR(p.configurations[0].predictedMs, 0.030, 1e-12);
  EXPECT_NEAR(p.configurations[0].speedup, 1, 1e-12);
  EXPECT_NEAR(p.configurations[1].predictedMs, 0.010, 1e-12);
  EXPECT_NEAR(p.configurations[1].speedup, 3, 1e-9);
  EXPECT_NEAR(p.configurations[1].launchShare, 0.1, 1e-9);
  EXPECT_EQ(p.configurations[1].computeBoundShare, 0);
  EXPECT_NEAR(p.configurations[2].speedup, 1.5, 1e-9);
  EXPECT_TRUE(p.configurations[3].predicted);
  EXPECT_FALSE(p.configurations[4].predicted);
  // The wrong configuration is not a candidate.
  ASSERT_TRUE(p.fastest.has_value());
  EXPECT_EQ(*p.fastest, 1u);
  // Not measured here: nothing measured beside the predictions.
  EXPECT_FALSE(p.configurations[1].measuredSpeedup.has_value());
  EXPECT_FALSE(p.meanAbsSpeedupError.has_value());
  EXPECT_FALSE(p.measuredFastest.has_value());
}

TEST(PredictionTest, OnTheMeasuredHardwareTheErrorStandsBeside) {
  Fixture f = makeFixture();
  TargetPrediction p =
      predictOnTarget(makeToyTarget(), /*measuredHere=*/true, f.configurations,
                      f.measurements, f.analysis);
  EXPECT_NEAR(*p.configurations[1].measuredSpeedup, 2, 1e-12);
  EXPECT_NEAR(*p.configurations[1].speedupError, 0.5, 1e-9);
  EXPECT_NEAR(*p.configurations[2].speedupError, 0, 1e-9);
  // The baseline's error is 0 by construction: not in the mean.
  EXPECT_NEAR(*p.meanAbsSpeedupError, 0.25, 1e-9);
  // Predicted / measured time: 0.5, 1/3, 0.5.
  EXPECT_NEAR(*p.configurations[0].timeRatio, 0.5, 1e-9);
  EXPECT_NEAR(*p.meanTimeRatio, std::cbrt(0.5 * (1.0 / 3) * 0.5), 1e-9);
  EXPECT_EQ(*p.measuredFastest, 1u);
  // Invalid configurations have no measured figures.
  EXPECT_FALSE(p.configurations[3].measuredSpeedup.has_value());
}

TEST(PredictionTest, TheFixedCostPerRunIsInEveryConfiguration) {
  Fixture f = makeFixture();
  TargetDescription t = makeToyTarget();
  t.runOverheadUs = 10;
  TargetPrediction p =
      predictOnTarget(t, false, f.configurations, f.measurements, f.analysis);
  // 0.040 / 0.020: a fixed cost per run pulls S towards 1.
  EXPECT_NEAR(p.configurations[1].speedup, 2, 1e-9);
  EXPECT_NEAR(p.configurations[1].launchShare, 0.011 / 0.020, 1e-9);
}

TEST(PredictionTest, WhichDescriptionIsTheMeasuredHardware) {
  TargetDescription cpu = makeToyTarget();
  cpu.device = "AMD EPYC";
  cpu.threads = 2;
  EXPECT_TRUE(isMeasuredTarget(cpu, "cpu-znver5", "AMD EPYC", 2));
  EXPECT_FALSE(isMeasuredTarget(cpu, "cpu-znver5", "AMD EPYC", 1));
  EXPECT_FALSE(isMeasuredTarget(cpu, "cpu-znver5", "Intel Xeon", 2));
  EXPECT_FALSE(isMeasuredTarget(cpu, "cuda-sm_90 (NVIDIA H100 80GB HBM3)",
                                "AMD EPYC", 2));
  TargetDescription gpu = makeToyTarget("gpu");
  gpu.name = "h100";
  EXPECT_TRUE(isMeasuredTarget(gpu, "cuda-sm_90 (NVIDIA H100 80GB HBM3)",
                               "AMD EPYC", 2));
  EXPECT_FALSE(
      isMeasuredTarget(gpu, "cuda-sm_90 (NVIDIA H200)", "AMD EPYC", 2));
  EXPECT_FALSE(isMeasuredTarget(gpu, "cpu-znver5", "AMD EPYC", 2));
}

} // namespace
