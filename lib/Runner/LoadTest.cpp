//===- LoadTest.cpp - Latency under load: an open-loop request stream -----===//

#include "GOpt/Runner/LoadTest.h"
#include "GOpt/Support/Error.h"
#include "SummaryJSON.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <random>
#include <thread>

using namespace mlir;
using namespace mlir::gopt;

using Clock = std::chrono::steady_clock;

llvm::Expected<LoadTestReport>
mlir::gopt::runLoadTest(CompiledGraph &graph, llvm::ArrayRef<HostTensor> inputs,
                        const LoadTestOptions &options) {
  if (!(options.qps > 0))
    return makeError("--qps must be positive");
  if (options.requests < 1 || options.workers < 1)
    return makeError("a load test needs at least one request and one worker");
  LoadTestReport report;
  report.options = options;
  int64_t n = options.requests;

  // Arrival offsets: exponential gaps of mean 1/qps (a Poisson process).
  std::mt19937_64 rng(options.seed);
  std::exponential_distribution<double> gap(options.qps);
  std::vector<double> arrivalSeconds(n);
  double t = 0;
  for (int64_t i = 0; i < n; ++i) {
    t += gap(rng);
    arrivalSeconds[i] = t;
  }

  report.latencyMs.assign(n, 0);
  report.serviceMs.assign(n, 0);
  std::atomic<int64_t> next{0};
  std::mutex errorMutex;
  std::string firstError;
  Clock::time_point start = Clock::now();
  auto worker = [&] {
    std::vector<int64_t> resultWords;
    while (true) {
      int64_t i = next.fetch_add(1);
      if (i >= n)
        return;
      Clock::time_point arrival =
          start + std::chrono::duration_cast<Clock::duration>(
                      std::chrono::duration<double>(arrivalSeconds[i]));
      // Sleep until just before the arrival, then spin: a sleeping thread
      // wakes tens of microseconds late, which would count as latency.
      std::this_thread::sleep_until(arrival - std::chrono::microseconds(200));
      while (Clock::now() < arrival)
        ;
      Clock::time_point begin = Clock::now();
      if (llvm::Error error = graph.invoke(inputs, resultWords)) {
        std::lock_guard<std::mutex> lock(errorMutex);
        if (firstError.empty())
          firstError = llvm::toString(std::move(error));
        else
          llvm::consumeError(std::move(error));
        next.store(n);
        return;
      }
      graph.takeResults(resultWords, /*copy=*/false);
      Clock::time_point end = Clock::now();
      report.serviceMs[i] =
          std::chrono::duration<double, std::milli>(end - begin).count();
      report.latencyMs[i] =
          std::chrono::duration<double, std::milli>(end - arrival).count();
    }
  };
  std::vector<std::thread> threads;
  for (int w = 1; w < options.workers; ++w)
    threads.emplace_back(worker);
  worker();
  for (std::thread &thread : threads)
    thread.join();
  Clock::time_point finish = Clock::now();
  if (!firstError.empty())
    return makeError(firstError);

  report.latency = SampleSummary::of(report.latencyMs);
  report.service = SampleSummary::of(report.serviceMs);
  report.p90Ms = quantile(report.latencyMs, 0.90);
  report.p99Ms = quantile(report.latencyMs, 0.99);
  report.maxMs = report.latency.max;
  report.durationSeconds =
      std::chrono::duration<double>(finish - start).count() -
      arrivalSeconds.front();
  if (report.durationSeconds > 0)
    report.achievedPerSecond = n / report.durationSeconds;
  double busyMs = 0;
  for (double ms : report.serviceMs)
    busyMs += ms;
  if (report.durationSeconds > 0)
    report.utilization =
        busyMs / (1000.0 * report.durationSeconds * options.workers);
  return std::move(report);
}

llvm::Expected<SustainedRate>
mlir::gopt::findSustainedRate(CompiledGraph &graph,
                              llvm::ArrayRef<HostTensor> inputs,
                              LoadTestOptions options, double p99BoundMs,
                              int steps) {
  if (!(p99BoundMs > 0))
    return makeError("--p99-ms must be positive");
  SustainedRate result;
  // What the workers sustain at the median run time, from a short stream
  // at a low rate.
  LoadTestOptions probe = options;
  probe.requests = std::min<int64_t>(options.requests, 20);
  probe.qps = 1e9; // all at once: back-to-back runs
  auto backToBack = runLoadTest(graph, inputs, probe);
  if (!backToBack)
    return backToBack.takeError();
  double capacity = options.workers * 1000.0 /
                    std::max(backToBack->service.median, 1e-6);
  // The median run of the last stream (back-to-back runs are slower than
  // runs apart, so the probe's does not tell what a low rate sees).
  double lastServiceMs = 0;
  auto attempt = [&](double qps) -> llvm::Expected<bool> {
    LoadTestOptions at = options;
    at.qps = qps;
    auto stream = runLoadTest(graph, inputs, at);
    if (!stream)
      return stream.takeError();
    lastServiceMs = stream->service.median;
    bool met = stream->p99Ms <= p99BoundMs;
    result.trials.push_back({qps, stream->p99Ms, met});
    if (met && qps > result.qps) {
      result.qps = qps;
      result.atRate = std::move(*stream);
    }
    return met;
  };
  // From a quarter of the capacity: double while the bound holds (at most
  // up to 256 times the capacity), or halve while it does not (at most 10
  // times); then bisect between the last rate that met it and the first
  // that did not.
  double low = 0, high = 0;
  double qps = capacity / 4;
  auto first = attempt(qps);
  if (!first)
    return first.takeError();
  if (*first) {
    low = qps;
    for (qps *= 2; qps <= capacity * 256; qps *= 2) {
      auto met = attempt(qps);
      if (!met)
        return met.takeError();
      if (!*met) {
        high = qps;
        break;
      }
      low = qps;
    }
  } else {
    high = qps;
    for (int i = 0; i < 10 && low == 0; ++i) {
      // A request takes at least its run: when the median run at this low
      // rate alone exceeds the bound, so does the p99 at any lower one.
      if (lastServiceMs > p99BoundMs) {
        result.stoppedBecause = llvm::formatv(
            "lower rates were not tried: at {1:f1}/s the median run alone "
            "took {0:f4} ms, more than the bound",
            lastServiceMs, qps);
        break;
      }
      // Streams at lower rates take longer: none over a minute.
      if (static_cast<double>(options.requests) / (qps / 2) > 60) {
        result.stoppedBecause = llvm::formatv(
            "rates below {0:f1}/s were not tried: a stream of {1} requests "
            "would take over a minute",
            qps, options.requests);
        break;
      }
      qps /= 2;
      auto met = attempt(qps);
      if (!met)
        return met.takeError();
      (*met ? low : high) = qps;
    }
  }
  if (high == 0 || low == 0)
    return std::move(result); // never missed, or never met
  for (int s = 0; s < steps; ++s) {
    double mid = (low + high) / 2;
    auto met = attempt(mid);
    if (!met)
      return met.takeError();
    (*met ? low : high) = mid;
  }
  return std::move(result);
}

llvm::json::Object LoadTestReport::toJSON() const {
  return llvm::json::Object{
      {"qps", options.qps},
      {"requests", options.requests},
      {"workers", options.workers},
      {"seed", static_cast<int64_t>(options.seed)},
      {"latency_ms", summaryJSON(latency)},
      {"p90_ms", p90Ms},
      {"p99_ms", p99Ms},
      {"max_ms", maxMs},
      {"service_ms", summaryJSON(service)},
      {"duration_s", durationSeconds},
      {"achieved_per_s", achievedPerSecond},
      {"utilization", utilization},
  };
}

llvm::json::Object SustainedRate::toJSON() const {
  llvm::json::Array list;
  for (const Trial &t : trials)
    list.push_back(llvm::json::Object{
        {"qps", t.qps}, {"p99_ms", t.p99Ms}, {"met", t.met}});
  llvm::json::Object out{{"qps", qps}, {"trials", std::move(list)}};
  if (!stoppedBecause.empty())
    out["stopped_because"] = stoppedBecause;
  if (qps > 0)
    out["at_rate"] = atRate.toJSON();
  return out;
}

void mlir::gopt::printLoadTestReport(const LoadTestReport &r,
                                     llvm::raw_ostream &os) {
  os << llvm::format("load        %lld requests, Poisson arrivals at %.1f/s, "
                     "%d worker%s (open loop, first come first served)\n",
                     (long long)r.options.requests, r.options.qps,
                     r.options.workers, r.options.workers == 1 ? "" : "s");
  os << llvm::format("  latency   p50 %.4f, p90 %.4f, p99 %.4f, max %.4f ms "
                     "(arrival to completion, queueing included)\n",
                     r.latency.median, r.p90Ms, r.p99Ms, r.maxMs);
  os << llvm::format("  service   %.4f ms median run [IQR %.4f-%.4f]\n",
                     r.service.median, r.service.q1, r.service.q3);
  os << llvm::format("  achieved  %.1f requests/s over %.3f s; workers busy "
                     "%.1f%% of the time\n",
                     r.achievedPerSecond, r.durationSeconds,
                     100 * r.utilization);
}

void mlir::gopt::printSustainedRate(const SustainedRate &rate,
                                    double p99BoundMs, llvm::raw_ostream &os) {
  os << llvm::format("sustained   rates tried against p99 <= %.4f ms:\n",
                     p99BoundMs);
  for (const SustainedRate::Trial &t : rate.trials)
    os << llvm::format("  %12.1f/s  p99 %.4f ms  %s\n", t.qps, t.p99Ms,
                       t.met ? "met" : "missed");
  if (rate.qps > 0)
    os << llvm::format("  highest rate within the bound: %.1f/s (p99 %.4f "
                       "ms, %.1f achieved/s)\n",
                       rate.qps, rate.atRate.p99Ms,
                       rate.atRate.achievedPerSecond);
  else
    os << "  no rate tried kept p99 within the bound\n";
  if (!rate.stoppedBecause.empty())
    os << "  " << rate.stoppedBecause << "\n";
}
