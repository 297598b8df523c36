//===- BenchStats.h - Median and quantiles for benchmarks -------*- C++ -*-===//
//
// The benchmarks print the same statistics as the tools: GOpt/Support.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_BENCH_BENCHSTATS_H
#define GOPT_BENCH_BENCHSTATS_H

#include "GOpt/Support/Statistics.h"

namespace gopt_bench {

using mlir::gopt::quantile;

} // namespace gopt_bench

#endif // GOPT_BENCH_BENCHSTATS_H
