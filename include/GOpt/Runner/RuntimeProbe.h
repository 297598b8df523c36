//===- RuntimeProbe.h - Run time after every pass ---------------*- C++ -*-===//
//
// The RuntimeProbe behind --gopt-measure-runtime: lowers a copy of the module
// a pass left, JITs it, runs it on seeded random inputs and reports the
// median run time with its spread and the measured peak memory.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_RUNNER_RUNTIMEPROBE_H
#define GOPT_RUNNER_RUNTIMEPROBE_H

#include "GOpt/Analysis/PassMeasurement.h"

#include <string>

namespace mlir {
namespace gopt {

struct RuntimeProbeOptions {
  /// Function to run (default: main, or the only public function).
  std::string entry;
  /// Options of gopt-lower-to-llvm.
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
