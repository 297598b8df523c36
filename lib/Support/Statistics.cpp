//===- Statistics.cpp - Sample statistics every measurement uses ----------===//

#include "GOpt/Support/Statistics.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::gopt;

double mlir::gopt::quantileOfSorted(llvm::ArrayRef<double> sorted, double q) {
  if (sorted.empty())
    return 0;
  q = std::min(1.0, std::max(0.0, q));
  double pos = q * static_cast<double>(sorted.size() - 1);
  size_t lo = static_cast<size_t>(std::floor(pos));
  size_t hi = std::min(lo + 1, sorted.size() - 1);
  double frac = pos - static_cast<double>(lo);
  return sorted[lo] + frac * (sorted[hi] - sorted[lo]);
}

double mlir::gopt::quantile(llvm::ArrayRef<double> samples, double q) {
  std::vector<double> sorted(samples.begin(), samples.end());
  std::sort(sorted.begin(), sorted.end());
  return quantileOfSorted(sorted, q);
}

double mlir::gopt::median(llvm::ArrayRef<double> samples) {
  return quantile(samples, 0.5);
}

double mlir::gopt::medianInPlace(std::vector<double> &values) {
  size_t n = values.size();
  size_t mid = n / 2;
  std::nth_element(values.begin(), values.begin() + mid, values.end());
  double upper = values[mid];
  if (n % 2 == 1)
    return upper;
  double lower = *std::max_element(values.begin(), values.begin() + mid);
  return lower + 0.5 * (upper - lower);
}

double mlir::gopt::coefficientOfVariation(llvm::ArrayRef<double> samples) {
  size_t n = samples.size();
  if (n < 2)
    return 0;
  double mean = 0;
  for (double x : samples)
    mean += x;
  mean /= static_cast<double>(n);
  if (mean == 0)
    return 0;
  double sumSquares = 0;
  for (double x : samples)
    sumSquares += (x - mean) * (x - mean);
  double stddev = std::sqrt(sumSquares / static_cast<double>(n - 1));
  return stddev / std::fabs(mean);
}

SampleSummary SampleSummary::of(llvm::ArrayRef<double> samples) {
  SampleSummary s;
  if (samples.empty())
    return s;
  std::vector<double> sorted(samples.begin(), samples.end());
  std::sort(sorted.begin(), sorted.end());
  s.median = quantileOfSorted(sorted, 0.5);
  s.q1 = quantileOfSorted(sorted, 0.25);
  s.q3 = quantileOfSorted(sorted, 0.75);
  s.min = sorted.front();
  s.max = sorted.back();
  double sum = 0;
  for (double x : sorted)
    sum += x;
  s.mean = sum / static_cast<double>(sorted.size());
  s.cv = coefficientOfVariation(sorted);
  return s;
}
