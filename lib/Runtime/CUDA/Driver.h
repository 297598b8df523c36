//===- Driver.h - The CUDA driver API, opened at run time -------*- C++ -*-===//
//
// The few driver entry points the runtime needs, looked up with dlsym so
// nothing links against libcuda. Types are the driver's (opaque handles,
// CUresult as int), declared here so no CUDA header is needed to build.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_LIB_RUNTIME_CUDA_DRIVER_H
#define GOPT_LIB_RUNTIME_CUDA_DRIVER_H

#include <cstddef>
#include <string>

namespace gopt {
namespace runtime {
namespace cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;
using CUgraph = struct CUgraph_st *;
using CUgraphNode = struct CUgraphNode_st *;
using CUgraphExec = struct CUgraphExec_st *;

// Driver constants the runtime uses (cuda.h's values).
constexpr CUresult kErrorDeinitialized = 4;
constexpr int kStreamCaptureModeRelaxed = 2; // CU_STREAM_CAPTURE_MODE_RELAXED
constexpr int kGraphNodeKernel = 0, kGraphNodeMemcpy = 1, kGraphNodeMemset = 2;
constexpr int kPointerAttributeMemoryType =
    2;                                    // CU_POINTER_ATTRIBUTE_MEMORY_TYPE
constexpr unsigned kMemoryTypeDevice = 2; // CU_MEMORYTYPE_DEVICE

/// The driver's entry points (the versioned names cuda.h maps to).
struct Driver {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDriverGetVersion)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetName)(char *, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuGetErrorName)(CUresult, const char **);
  CUresult (*cuModuleLoadData)(CUmodule *, const void *);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, unsigned, CUstream,
                             void **, void **);
  CUresult (*cuStreamCreate)(CUstream *, unsigned);
  CUresult (*cuStreamDestroy)(CUstream);
  CUresult (*cuStreamSynchronize)(CUstream);
  CUresult (*cuStreamWaitEvent)(CUstream, CUevent, unsigned);
  CUresult (*cuEventCreate)(CUevent *, unsigned);
  CUresult (*cuEventDestroy)(CUevent);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemAllocManaged)(CUdeviceptr *, size_t, unsigned);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
  CUresult (*cuMemsetD32Async)(CUdeviceptr, unsigned, size_t, CUstream);
  CUresult (*cuMemsetD16Async)(CUdeviceptr, unsigned short, size_t,
                               CUstream);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);

  // CUDA graphs (stream capture and replay) and pointer queries: optional,
  // null when the driver lacks them (graphsAvailable() says why).
  CUresult (*cuStreamBeginCapture)(CUstream, int);
  CUresult (*cuStreamEndCapture)(CUstream, CUgraph *);
  CUresult (*cuGraphInstantiateWithFlags)(CUgraphExec *, CUgraph,
                                          unsigned long long);
  CUresult (*cuGraphLaunch)(CUgraphExec, CUstream);
  CUresult (*cuGraphExecDestroy)(CUgraphExec);
  CUresult (*cuGraphDestroy)(CUgraph);
  CUresult (*cuGraphGetNodes)(CUgraph, CUgraphNode *, size_t *);
  CUresult (*cuGraphNodeGetType)(CUgraphNode, int *);
  CUresult (*cuPointerGetAttribute)(void *, int, CUdeviceptr);
};

/// The driver, loaded and initialized with device 0's primary context
/// current on the calling thread; aborts with the reason when there is
/// none (compiled GPU code cannot go on without it).
const Driver &driver();

/// Empty when the driver has every entry point CUDA graphs need, else the
/// first one it lacks ("the driver has no cuGraphLaunch").
std::string graphsUnavailableReason();

/// "cuName failed with CUDA_ERROR_..." for a failed call.
std::string describeError(const char *call, CUresult result);

/// Stops the process with "GOpt CUDA runtime: <message>" on stderr:
/// compiled code cannot recover from a failed runtime call.
[[noreturn]] void fatal(const std::string &message);

/// Stops the process with describeError's message when `result` is an
/// error: compiled code cannot recover from a failed driver call.
void check(const char *call, CUresult result);

} // namespace cuda
} // namespace runtime
} // namespace gopt

#endif // GOPT_LIB_RUNTIME_CUDA_DRIVER_H
