//===- BundleRunner.h - Load a bundle, run it on the GPU, measure it -*- C++ -*-===//
//
// What `gopt-exec DIR` and `gopt-run --target=cuda` do with a bundle
// (Bundle.h): open the CUDA driver, dlopen the bundle's library (its
// constructors load the kernels' binaries), copy the inputs and weights to
// the device once, then time calls of the entry: a call launches the
// kernels on a stream and returns once they are done, so its wall time is
// the model's latency on the device. Copies to and from the device are
// outside the timed region and reported apart. Results are copied back and
// compared with the bundle's reference (the CPU's results).
//
// The library's undefined symbols (mgpu*, malloc) resolve against the
// process: the executable must export GOpt's CUDA runtime (-rdynamic).
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_DEPLOY_BUNDLERUNNER_H
#define GOPT_DEPLOY_BUNDLERUNNER_H

#include "GOpt/Deploy/Bundle.h"
#include "GOpt/Runtime/CUDA.h"
#include "GOpt/Support/Statistics.h"

#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace gopt {
namespace deploy {

struct BundleRunOptions {
  int warmup = 3;
  int repetitions = 20;
  /// |got - want| <= atol + rtol * |want| for every element.
  double rtol = 1e-3;
  double atol = 1e-5;
  /// Bytes of the device-to-device copy timed for the bandwidth reference
  /// (0: none).
  size_t copyBandwidthBytes = size_t(256) << 20;
  /// After the timed runs, as many runs again with every launch timed by
  /// CUDA events (kept apart: the events cost microseconds per launch).
  bool kernelTimes = true;
  /// After those, the model as one CUDA graph (torch.compile's
  /// "reduce-overhead"): one call captured, its results checked after a
  /// replay, then as many timed replays as timed calls. Also when the
  /// bundle's manifest says "launch cuda-graph".
  bool cudaGraph = false;
};

/// One kernel's time on the device, from the profiled runs.
struct KernelShare {
  std::string name;
  double launchesPerRun = 0;
  double msPerRun = 0;
  /// Of the sum of all kernels' times.
  double share = 0;
};

struct ResultCheck {
  std::string describe;
  bool hasReference = false;
  bool matches = true;
  int64_t mismatches = 0;
  double maxAbsError = 0;
  double maxRelError = 0;
  /// "element 17: got 0.5, want 0.25" for the first mismatch.
  std::string firstMismatch;
};

/// The model run as one CUDA graph (BundleRunOptions::cudaGraph): the
/// graph's figures (its nodes, the device bytes it holds for as long as it
/// lives: every buffer of the call, its results included), then these.
struct GraphReport : gopt::runtime::cuda::GraphFigures {
  bool measured = false;
  std::vector<double> latencyMs;
  mlir::gopt::SampleSummary latency;
  /// Capturing the call and instantiating the graph, once (outside the
  /// latency).
  double captureMs = 0;
  /// The results of the first replay against the reference.
  std::vector<ResultCheck> results;
};

struct BundleReport {
  std::string dir;
  std::string deviceName, deviceChip;
  int driverVersion = 0;
  int warmup = 0, repetitions = 0;
  std::vector<double> latencyMs;
  mlir::gopt::SampleSummary latency;
  /// Loading the library (its binaries onto the device), copies of weights
  /// and inputs to the device, of the results back: not in the latency.
  double loadMs = 0, weightCopyMs = 0, inputCopyMs = 0, resultCopyMs = 0;
  /// Device bytes the entry held at once during a run (above the inputs and
  /// weights already resident), allocations per run and those the driver
  /// served, and the pool's reserved bytes at the end.
  int64_t peakBytes = 0;
  int64_t allocationsPerRun = 0;
  int64_t driverAllocationsPerRun = 0;
  int64_t reservedBytes = 0;
  int64_t residentBytes = 0;
  /// Bytes of inputs, weights and results: what any implementation moves
  /// at least once, for the effective bandwidth.
  int64_t movedBytes = 0;
  gopt::runtime::cuda::CopyBandwidth copy;
  /// Per kernel, from `profiledRuns` runs with events; their sum per run,
  /// and what of the median latency it leaves (launches, host code,
  /// allocation, synchronization: 1 - kernelMsPerRun / median).
  std::vector<KernelShare> kernels;
  int profiledRuns = 0;
  double kernelMsPerRun = 0;
  double overheadShare() const;
  std::vector<ResultCheck> results;
  GraphReport graph;
  /// Every result matches, the graph's too when it ran.
  bool allMatch() const;
  /// Kernel launches (and cuBLAS calls) per run, from the profiled runs.
  double launchesPerRun() const;
  /// What a launch costs beyond its kernel's time, per launch: (latency -
  /// kernel time) / launches, for stream launches and for the graph's
  /// replays (0 without profiled runs).
  double overheadPerLaunchMs() const;
  double graphOverheadPerLaunchMs() const;
  /// movedBytes / median latency, GB/s.
  double effectiveGBPerSecond() const;
};

class LoadedBundle {
public:
  ~LoadedBundle();
  /// Reads the bundle, opens the driver, loads the library and copies the
  /// weights to the device. Null with `error` set when any of it fails.
  static std::unique_ptr<LoadedBundle> load(const std::string &dir,
                                            std::string &error);
  const Bundle &getBundle() const { return bundle; }

  /// Checks the results against the reference, then times the entry.
  /// Returns an error message or an empty string.
  std::string run(const BundleRunOptions &options, BundleReport &report);

  /// Runs the entry once more (replays its graph, when one was captured)
  /// and writes each result to DIR/resultN.bin.
  std::string writeResults(const std::string &dir);

  // The steps of run(), for drivers that check and time on their own
  // (gopt-explore --target=cuda).

  /// One call; each result's row-major bytes on the host.
  std::vector<std::vector<char>> runToHost();
  /// `warmup` untimed calls, then `repetitions` timed ones: each call's
  /// wall time (ms, appended to `ms`), the most device bytes a call held
  /// above what was live before it (`peakBytes`), and the allocations of
  /// the last call, all and those the driver served.
  void timeCalls(int warmup, int repetitions, std::vector<double> &ms,
                 int64_t &peakBytes, int64_t &allocations,
                 int64_t &driverAllocations);
  /// `warmup` untimed calls, then `repetitions` calls with every launch
  /// (and cuBLAS call) timed by CUDA events: per kernel its launches and ms
  /// per call, and its share of their sum, which is returned in
  /// `kernelMsPerRun`.
  std::vector<KernelShare> profileKernels(int warmup, int repetitions,
                                          double &kernelMsPerRun);
  /// Captures one call as a CUDA graph (call it after a call outside the
  /// capture, so cuBLAS and the device pool are warm), replacing any graph
  /// captured before. Returns an error message or an empty string.
  std::string captureGraph(GraphReport &report);
  /// One replay of the captured graph; its results on the host.
  std::vector<std::vector<char>> replayToHost();
  /// `warmup` untimed replays, then `repetitions` timed ones (ms appended).
  void timeReplays(int warmup, int repetitions, std::vector<double> &ms);
  /// Device bytes the captured graph holds (0 without one).
  int64_t graphMemoryBytes() const { return graph ? graph->memoryBytes : 0; }

private:
  LoadedBundle() = default;
  /// One call on the device-resident inputs; results' descriptors in
  /// `resultWords` (device memory, the caller frees them).
  void call(std::vector<int64_t> &resultWords);
  std::vector<std::vector<char>> copyResultsToHost(
      const std::vector<int64_t> &resultWords);
  void freeResults(const std::vector<int64_t> &resultWords);
  /// The checks of `results` against the bundle's references.
  std::string checkResults(const std::vector<std::vector<char>> &results,
                           const BundleRunOptions &options,
                           std::vector<ResultCheck> &checks);

  std::string dir;
  Bundle bundle;
  void *library = nullptr;
  void (*packedEntry)(void **) = nullptr;
  /// Device buffers of the inputs then the weights, in call order.
  std::vector<void *> deviceArguments;
  double loadMs = 0, weightCopyMs = 0, inputCopyMs = 0;
  /// The captured graph, and the descriptors of the results its replays
  /// write (device memory of the graph).
  std::unique_ptr<gopt::runtime::cuda::CapturedGraph> graph;
  std::vector<int64_t> graphResultWords;
};

/// The report as text (100 columns) or as one JSON object.
void printBundleReport(const BundleReport &report, std::ostream &os);
void printBundleReportJSON(const BundleReport &report, std::ostream &os);

} // namespace deploy
} // namespace gopt

#endif // GOPT_DEPLOY_BUNDLERUNNER_H
