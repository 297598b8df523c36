//===- SupportTest.cpp - Statistics, formatting, clocks, errors -----------===//

#include "GOpt/Support/Error.h"
#include "GOpt/Support/Format.h"
#include "GOpt/Support/Statistics.h"
#include "GOpt/Support/Timing.h"

#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

using namespace mlir::gopt;

namespace {

TEST(StatisticsTest, QuantilesInterpolateLinearly) {
  std::vector<double> x = {4, 1, 3, 2};
  EXPECT_DOUBLE_EQ(median(x), 2.5);
  EXPECT_DOUBLE_EQ(quantile(x, 0.25), 1.75);
  EXPECT_DOUBLE_EQ(quantile(x, 0.75), 3.25);
  EXPECT_DOUBLE_EQ(quantile(x, 0), 1);
  EXPECT_DOUBLE_EQ(quantile(x, 1), 4);
  // q is clamped; an empty sample has quantile 0.
  EXPECT_DOUBLE_EQ(quantile(x, 2), 4);
  EXPECT_DOUBLE_EQ(quantile(x, -1), 1);
  EXPECT_DOUBLE_EQ(quantile({}, 0.5), 0);
}

TEST(StatisticsTest, MedianInPlaceMatchesMedian) {
  for (std::vector<double> x :
       {std::vector<double>{5}, {2, 1}, {3, 9, 1}, {7, 7, 1, 2, 8, 3}}) {
    double expected = median(x);
    EXPECT_DOUBLE_EQ(medianInPlace(x), expected);
  }
}

TEST(StatisticsTest, CoefficientOfVariationUsesSampleDeviation) {
  // Mean 2, sample variance 1: CV 0.5.
  EXPECT_DOUBLE_EQ(coefficientOfVariation({1, 2, 3}), 0.5);
  EXPECT_DOUBLE_EQ(coefficientOfVariation({5}), 0);
  EXPECT_DOUBLE_EQ(coefficientOfVariation({-1, 1}), 0);
}

TEST(StatisticsTest, SummaryOfASample) {
  SampleSummary s = SampleSummary::of({3, 1, 2, 4});
  EXPECT_DOUBLE_EQ(s.median, 2.5);
  EXPECT_DOUBLE_EQ(s.q1, 1.75);
  EXPECT_DOUBLE_EQ(s.q3, 3.25);
  EXPECT_DOUBLE_EQ(s.mean, 2.5);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 4);
  EXPECT_DOUBLE_EQ(s.cv, coefficientOfVariation({1, 2, 3, 4}));
  SampleSummary empty = SampleSummary::of({});
  EXPECT_EQ(empty.median, 0);
  EXPECT_EQ(empty.max, 0);
}

TEST(FormatTest, MillisecondsKeepAboutThreeSignificantFigures) {
  EXPECT_EQ(formatMs(123.4), "123");
  EXPECT_EQ(formatMs(12.34), "12.3");
  EXPECT_EQ(formatMs(2.456), "2.46");
  EXPECT_EQ(formatMs(0.1234), "0.123");
  EXPECT_EQ(formatMs(0.01654), "0.0165");
  EXPECT_EQ(formatMs(0), "0.000");
  EXPECT_EQ(formatMs(-2.5), "-2.50");
}

TEST(FormatTest, BytesUseBinaryUnits) {
  EXPECT_EQ(formatBytes(512), "512 B");
  EXPECT_EQ(formatBytes(1536), "1.5 KiB");
  EXPECT_EQ(formatBytes(2 << 20), "2.0 MiB");
  EXPECT_EQ(formatBytes(int64_t(5) << 40), "5120.0 GiB");
  EXPECT_EQ(formatBytes(-2048), "-2.0 KiB");
}

TEST(TimingTest, ClocksMoveForward) {
  double wall = nowMs();
  double cpu = threadCpuMs();
  volatile double sink = 0;
  for (int i = 0; i < 1000000; ++i)
    sink = sink + i;
  EXPECT_GE(nowMs(), wall);
  EXPECT_GE(threadCpuMs(), cpu);
}

TEST(ErrorTest, MakeErrorCarriesTheMessage) {
  llvm::Error error = makeError("no such file 'x'");
  EXPECT_EQ(llvm::toString(std::move(error)), "no such file 'x'");
}

} // namespace
