//===- Statistics.h - Sample statistics every measurement uses --*- C++ -*-===//
//
// One definition of the quantiles, median, CV and summaries that gopt-run's
// report, --gopt-measure-runtime, gopt-explore's figures and the benchmarks
// print, so the same samples give the same figures everywhere.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_SUPPORT_STATISTICS_H
#define GOPT_SUPPORT_STATISTICS_H

#include "llvm/ADT/ArrayRef.h"

#include <vector>

namespace mlir {
namespace gopt {

/// Linear-interpolated quantile q (clamped to [0, 1]) of an already sorted
/// sample; 0 for an empty one.
double quantileOfSorted(llvm::ArrayRef<double> sorted, double q);
/// The same of any sample.
double quantile(llvm::ArrayRef<double> samples, double q);
/// quantile(samples, 0.5).
double median(llvm::ArrayRef<double> samples);
/// The median of a non-empty sample that may be reordered: a partial
/// selection, cheaper than a sort in a bootstrap's inner loop; the same
/// value as median().
double medianInPlace(std::vector<double> &values);
/// Sample standard deviation (n - 1) over |mean|; 0 for fewer than two
/// samples or a zero mean.
double coefficientOfVariation(llvm::ArrayRef<double> samples);

/// Median, quartiles, mean, CV and range of a sample (all 0 when empty).
struct SampleSummary {
  double median = 0, q1 = 0, q3 = 0, mean = 0, cv = 0, min = 0, max = 0;
  static SampleSummary of(llvm::ArrayRef<double> samples);
};

} // namespace gopt
} // namespace mlir

#endif // GOPT_SUPPORT_STATISTICS_H
