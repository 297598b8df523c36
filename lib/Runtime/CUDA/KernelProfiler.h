//===- KernelProfiler.h - Per-kernel times from CUDA events -----*- C++ -*-===//
//
// Private to lib/Runtime/CUDA. When profiling is on (setKernelProfiling),
// every launch is bracketed by two timing events on its stream; collecting
// waits for the pending events and adds each kernel's elapsed time to its
// name (the name the code looked the function up by).
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_LIB_RUNTIME_CUDA_KERNELPROFILER_H
#define GOPT_LIB_RUNTIME_CUDA_KERNELPROFILER_H

#include "Driver.h"

namespace gopt {
namespace runtime {
namespace cuda {

/// Remembers the name `function` was looked up by, while profiling.
void noteFunctionName(CUfunction function, const char *name);
/// Events around one launch: `begin` before it is enqueued, `end` after.
/// Null when profiling is off.
CUevent beginKernelTiming(CUstream stream);
void endKernelTiming(CUfunction function, CUstream stream, CUevent begin);

} // namespace cuda
} // namespace runtime
} // namespace gopt

#endif // GOPT_LIB_RUNTIME_CUDA_KERNELPROFILER_H
