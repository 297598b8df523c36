//===- Timing.h - Clocks GOpt measures with ---------------------*- C++ -*-===//

#ifndef GOPT_SUPPORT_TIMING_H
#define GOPT_SUPPORT_TIMING_H

namespace mlir {
namespace gopt {

/// Monotonic wall clock, in milliseconds from an arbitrary origin.
double nowMs();
/// CPU time of the calling thread, in milliseconds; 0 when unavailable.
double threadCpuMs();

} // namespace gopt
} // namespace mlir

#endif // GOPT_SUPPORT_TIMING_H
