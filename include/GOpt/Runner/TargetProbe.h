//===- TargetProbe.h - A roofline description of this CPU -------*- C++ -*-===//
//
// What gopt-probe-target measures (docs/Explore.md, "Prediction for hardware
// not at hand"): the figures of the roofline model (GOpt/Support/Roofline.h)
// for this CPU, as GOpt's compiled code sees them —
//  - peak f32 FLOP/s: the library GEMM behind the library path
//    (gopt_sgemm) on square matrices, the best of a few sizes;
//  - bandwidth: a copy between two buffers far larger than the last-level
//    cache (bytes read plus bytes written, as the cost interface counts);
//  - the last-level cache: its size (sysconf) and the same copy within it;
//  - the fixed cost per kernel: a chain of one-element kernels compiled by
//    GOpt and timed, (T(33 kernels) - T(1 kernel)) / 32, and per run: the
//    rest of T(1 kernel).
// Every figure is the best (shortest time) of repeated runs, as peaks are.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_RUNNER_TARGETPROBE_H
#define GOPT_RUNNER_TARGETPROBE_H

#include "GOpt/Support/Roofline.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/Error.h"

#include <functional>

namespace mlir {
namespace gopt {

struct TargetProbeOptions {
  /// Seconds to spend on each figure, at least one run each.
  double secondsPerFigure = 0.3;
  /// Bytes of each of the two buffers of the main-memory copy.
  int64_t memoryCopyBytes = int64_t(64) << 20;
};

/// Called before each figure is measured, with what it is.
using TargetProbeProgress = std::function<void(llvm::StringRef figure)>;

/// Measures this CPU at the library's current thread count (the threads
/// --threads set) and returns its description, named "host". `context`
/// must have GOpt's dialects loaded (the per-kernel cost compiles a graph).
llvm::Expected<TargetDescription>
probeHostTarget(MLIRContext &context, const TargetProbeOptions &options = {},
                const TargetProbeProgress &progress = {});

} // namespace gopt
} // namespace mlir

#endif // GOPT_RUNNER_TARGETPROBE_H
