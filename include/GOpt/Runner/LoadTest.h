//===- LoadTest.h - Latency under load: an open-loop request stream -*- C++ -*-===//
//
// `gopt-run --qps=R` (docs/Runner.md, "Latency under load"): requests arrive
// as a Poisson process at R per second, whether or not earlier ones are
// done (open loop), and `workers` threads serve them first come, first
// served. A request's latency runs from its arrival to the end of its run,
// so it includes the time it waited in the queue; a rate above what the
// workers sustain shows as latencies that grow with the request's number.
// A worker sleeps until 200 µs before an arrival and spins the rest, so
// the thread's wake-up does not count as latency (a spinning worker holds
// a core).
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_RUNNER_LOADTEST_H
#define GOPT_RUNNER_LOADTEST_H

#include "GOpt/Runner/Runner.h"

#include <iosfwd>

namespace mlir {
namespace gopt {

struct LoadTestOptions {
  /// Mean arrival rate, requests per second (> 0).
  double qps = 100;
  /// Requests in the stream (>= 1).
  int64_t requests = 200;
  /// Threads serving the queue (>= 1).
  int workers = 1;
  /// Seed of the arrival times.
  uint64_t seed = 0;
};

struct LoadTestReport {
  LoadTestOptions options;
  /// Per request, in arrival order: arrival to completion, and the run
  /// alone (ms).
  std::vector<double> latencyMs, serviceMs;
  SampleSummary latency, service;
  double p90Ms = 0, p99Ms = 0, maxMs = 0;
  /// First arrival to last completion, s; requests / that.
  double durationSeconds = 0;
  double achievedPerSecond = 0;
  /// Share of the time the workers were running requests.
  double utilization = 0;

  llvm::json::Object toJSON() const;
};

/// Runs one stream of `options.requests` requests against `graph`.
llvm::Expected<LoadTestReport> runLoadTest(CompiledGraph &graph,
                                           llvm::ArrayRef<HostTensor> inputs,
                                           const LoadTestOptions &options);

/// The highest rate whose stream keeps p99 latency within `p99BoundMs`:
/// from a quarter of what the workers sustain at the median run time, rates
/// double while the bound holds (or halve while it does not), then
/// bisection narrows the last interval (`steps` streams). Each stream is
/// `options` at that rate.
struct SustainedRate {
  double qps = 0;
  /// The stream at that rate (empty requests when none met the bound).
  LoadTestReport atRate;
  /// Every rate tried, with its p99 and whether it met the bound.
  struct Trial {
    double qps, p99Ms;
    bool met;
  };
  std::vector<Trial> trials;
  /// Why the search stopped short of bracketing the highest rate (the
  /// median run alone exceeds the bound, or a stream at a lower rate would
  /// take too long); empty otherwise.
  std::string stoppedBecause;
  llvm::json::Object toJSON() const;
};
llvm::Expected<SustainedRate>
findSustainedRate(CompiledGraph &graph, llvm::ArrayRef<HostTensor> inputs,
                  LoadTestOptions options, double p99BoundMs, int steps = 4);

void printLoadTestReport(const LoadTestReport &report, llvm::raw_ostream &os);
void printSustainedRate(const SustainedRate &rate, double p99BoundMs,
                        llvm::raw_ostream &os);

} // namespace gopt
} // namespace mlir

#endif // GOPT_RUNNER_LOADTEST_H
