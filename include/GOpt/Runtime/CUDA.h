//===- CUDA.h - GOpt's CUDA runtime: the mgpu* ABI over the driver -*- C++ -*-===//
//
// Code lowered by gopt-lower-to-nvvm (docs/GPU.md) calls the mgpu*
// functions of MLIR's CUDA runtime wrappers: streams, device memory, module
// loading, kernel launches. Debian does not ship that library; this one
// implements the same ABI over the CUDA driver API, opened at run time with
// dlopen("libcuda.so.1") (or $GOPT_LIBCUDA), so GOpt links and its tests run
// on machines with no driver or GPU. Device memory goes through a tracking
// allocator (live and peak bytes), as host memory does on the CPU.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_RUNTIME_CUDA_H
#define GOPT_RUNTIME_CUDA_H

#include <cstdint>
#include <string>

namespace gopt {
namespace runtime {
namespace cuda {

/// Opens the driver, initializes it and makes device 0's primary context
/// current. Returns an empty string on success, else why there is no usable
/// device (no driver library, a stub library, no device, ...). Later calls
/// return the first call's answer.
std::string initialize();

/// Whether initialize() succeeded.
bool isAvailable();

/// Device 0's name and the driver's version (e.g. 13000), once initialized.
std::string deviceName();
int driverVersion();

/// Device memory allocated through mgpuMemAlloc and not yet freed.
struct DeviceMemoryStats {
  int64_t liveBytes = 0;
  int64_t peakBytes = 0;
  int64_t allocations = 0;
};
DeviceMemoryStats deviceMemoryStats();
/// Starts a new peak from the current live bytes.
void resetPeakDeviceMemory();

} // namespace cuda
} // namespace runtime
} // namespace gopt

#endif // GOPT_RUNTIME_CUDA_H
