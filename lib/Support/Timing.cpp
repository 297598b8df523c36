//===- Timing.cpp - Clocks GOpt measures with -----------------------------===//

#include "GOpt/Support/Timing.h"

#include <chrono>
#include <ctime>

double mlir::gopt::nowMs() {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

double mlir::gopt::threadCpuMs() {
  struct timespec ts;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
    return 0;
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}
