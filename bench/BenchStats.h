//===- BenchStats.h - Median and quantiles for benchmarks -------*- C++ -*-===//

#ifndef GOPT_BENCH_BENCHSTATS_H
#define GOPT_BENCH_BENCHSTATS_H

#include <algorithm>
#include <vector>

namespace gopt_bench {

/// Linear-interpolated quantile q in [0, 1] of `v`.
inline double quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  double pos = q * (v.size() - 1);
  size_t lo = static_cast<size_t>(pos);
  size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (v[hi] - v[lo]) * (pos - lo);
}

} // namespace gopt_bench

#endif // GOPT_BENCH_BENCHSTATS_H
