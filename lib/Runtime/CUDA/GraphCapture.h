//===- GraphCapture.h - What the runtime does while a graph is captured -*- C++
//-*-===//
//
// Private to lib/Runtime/CUDA: the hooks RuntimeWrappers.cpp and CuBLAS.cpp
// consult so that one call of compiled code, between beginGraphCapture()
// and endGraphCapture() (GOpt/Runtime/CUDA.h), becomes one CUDA graph.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_LIB_RUNTIME_CUDA_GRAPHCAPTURE_H
#define GOPT_LIB_RUNTIME_CUDA_GRAPHCAPTURE_H

#include "Driver.h"

#include <cstddef>

namespace gopt {
namespace runtime {
namespace cuda {

/// The stream being captured, or null when no capture is going on. While
/// one is, every stream compiled code creates is this one (so its launches,
/// copies and library calls are recorded in program order), its
/// synchronizations and stream destructions are skipped, and kernels are
/// not timed.
CUstream capturingStream();

/// A copy from host memory during a capture: the bytes are copied to a
/// device buffer of the graph now, and the graph records a copy from that
/// buffer (host data compiled code copies are constants, so replaying from
/// the staged copy is the same; a captured copy must not read pageable
/// host memory on replay). Returns the device source to record.
const void *stageHostSource(const void *src, size_t bytes);

/// Whether `ptr` is device memory (false for host memory, pageable or not).
bool isDevicePointer(const void *ptr);

} // namespace cuda
} // namespace runtime
} // namespace gopt

#endif // GOPT_LIB_RUNTIME_CUDA_GRAPHCAPTURE_H
