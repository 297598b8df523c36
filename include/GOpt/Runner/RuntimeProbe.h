//===- RuntimeProbe.h - Run time after every pass ---------------*- C++ -*-===//
//
// The RuntimeProbe behind --gopt-measure-runtime: lowers a copy of the module
// a pass left, JITs it (or, --gopt-measure-target=cuda, compiles it for the
// GPU and runs it there), runs it on seeded random inputs and reports the
// median run time with its spread and the measured peak memory.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_RUNNER_RUNTIMEPROBE_H
#define GOPT_RUNNER_RUNTIMEPROBE_H

#include "GOpt/Analysis/PassMeasurement.h"
#include "GOpt/Runner/Runner.h"

#include <string>

namespace mlir {
namespace gopt {

struct RuntimeProbeOptions {
  /// Function to run (default: main, or the only public function).
  std::string entry;
  /// Where the graph runs: JIT on this CPU, or this machine's NVIDIA GPU
  /// (a bundle loaded in process; the executable exports GOpt's CUDA
  /// runtime). The figures of a GPU run are the device's: latency of a
  /// call on device-resident inputs, device bytes above them.
  Target target = Target::CPU;
  /// Options of gopt-lower-to-llvm (on the GPU: of gopt-lower-to-nvvm).
  std::string loweringOptions;
  int warmup = 2;
  int repetitions = 10;
  uint64_t seed = 0;
};

/// A probe that compiles and times the module it is given; a graph that
/// cannot be compiled or run gives figures with an error, never a failure.
RuntimeProbe makeRuntimeProbe(const RuntimeProbeOptions &options);

} // namespace gopt
} // namespace mlir

#endif // GOPT_RUNNER_RUNTIMEPROBE_H
