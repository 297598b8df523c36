//===- Driver.cpp - Open and initialize the CUDA driver -------------------===//

#include "Driver.h"

#include "GOpt/Runtime/CUDA.h"

#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>

namespace gopt {
namespace runtime {
namespace cuda {
namespace {

struct State {
  Driver driver{};
  CUcontext context = nullptr;
  std::string failure; // empty: usable
  std::string deviceName;
  std::string chip;
  int driverVersion = 0;
  /// Empty when the driver has CUDA graphs' entry points.
  std::string graphsMissing;
};

/// Looks `name` up in `library` into `slot`; false when it is missing.
template <typename Fn>
bool bind(void *library, const char *name, Fn &slot) {
  slot = reinterpret_cast<Fn>(dlsym(library, name));
  return slot != nullptr;
}

/// "cuName failed with CUDA_ERROR_..." using `d`'s error names.
std::string describe(const Driver &d, const char *call, CUresult result) {
  const char *name = nullptr;
  if (d.cuGetErrorName)
    d.cuGetErrorName(result, &name);
  return std::string(call) + " failed with " +
         (name ? name : "CUDA error " + std::to_string(result));
}

State load() {
  State state;
  const char *path = std::getenv("GOPT_LIBCUDA");
  if (!path || !*path)
    path = "libcuda.so.1";
  void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *reason = dlerror();
    state.failure = std::string("no CUDA driver: cannot open ") + path +
                    " (" + (reason ? reason : "unknown reason") +
                    "); an NVIDIA driver is needed to run GPU code";
    return state;
  }
  Driver &d = state.driver;
  const char *missing = nullptr;
#define GOPT_BIND(field, symbol)                                               \
  if (!missing && !bind(library, symbol, d.field))                             \
    missing = symbol;
  GOPT_BIND(cuInit, "cuInit")
  GOPT_BIND(cuDriverGetVersion, "cuDriverGetVersion")
  GOPT_BIND(cuDeviceGet, "cuDeviceGet")
  GOPT_BIND(cuDeviceGetName, "cuDeviceGetName")
  GOPT_BIND(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain")
  GOPT_BIND(cuCtxSetCurrent, "cuCtxSetCurrent")
  GOPT_BIND(cuGetErrorName, "cuGetErrorName")
  GOPT_BIND(cuModuleLoadData, "cuModuleLoadData")
  GOPT_BIND(cuModuleUnload, "cuModuleUnload")
  GOPT_BIND(cuModuleGetFunction, "cuModuleGetFunction")
  GOPT_BIND(cuLaunchKernel, "cuLaunchKernel")
  GOPT_BIND(cuStreamCreate, "cuStreamCreate")
  GOPT_BIND(cuStreamDestroy, "cuStreamDestroy_v2")
  GOPT_BIND(cuStreamSynchronize, "cuStreamSynchronize")
  GOPT_BIND(cuStreamWaitEvent, "cuStreamWaitEvent")
  GOPT_BIND(cuEventCreate, "cuEventCreate")
  GOPT_BIND(cuEventDestroy, "cuEventDestroy_v2")
  GOPT_BIND(cuEventRecord, "cuEventRecord")
  GOPT_BIND(cuEventSynchronize, "cuEventSynchronize")
  // CUDA 13's cuda.h maps the name to _v2; older drivers have only the
  // first version, with the same signature.
  if (!missing && !bind(library, "cuEventElapsedTime_v2", d.cuEventElapsedTime))
    GOPT_BIND(cuEventElapsedTime, "cuEventElapsedTime")
  GOPT_BIND(cuMemAlloc, "cuMemAlloc_v2")
  GOPT_BIND(cuMemAllocManaged, "cuMemAllocManaged")
  GOPT_BIND(cuMemFree, "cuMemFree_v2")
  GOPT_BIND(cuMemcpyAsync, "cuMemcpyAsync")
  GOPT_BIND(cuMemsetD32Async, "cuMemsetD32Async")
  GOPT_BIND(cuMemsetD16Async, "cuMemsetD16Async")
  GOPT_BIND(cuDeviceGetAttribute, "cuDeviceGetAttribute")
  if (missing) {
    state.failure = std::string(path) + " has no " + missing +
                    ": not a CUDA driver this runtime can use";
    return state;
  }
  // Optional: CUDA graphs (CUDA 11.4 and later have all of them).
  GOPT_BIND(cuStreamBeginCapture, "cuStreamBeginCapture_v2")
  GOPT_BIND(cuStreamEndCapture, "cuStreamEndCapture")
  GOPT_BIND(cuGraphInstantiateWithFlags, "cuGraphInstantiateWithFlags")
  GOPT_BIND(cuGraphLaunch, "cuGraphLaunch")
  GOPT_BIND(cuGraphExecDestroy, "cuGraphExecDestroy")
  GOPT_BIND(cuGraphDestroy, "cuGraphDestroy")
  GOPT_BIND(cuGraphGetNodes, "cuGraphGetNodes")
  GOPT_BIND(cuGraphNodeGetType, "cuGraphNodeGetType")
  GOPT_BIND(cuPointerGetAttribute, "cuPointerGetAttribute")
#undef GOPT_BIND
  if (missing)
    state.graphsMissing = std::string("the driver has no ") + missing;
  CUresult result = d.cuInit(0);
  if (result != 0) {
    state.failure = describe(d, "cuInit", result) +
                    (result == 34 ? " (the toolkit's stub library, not a "
                                    "driver)"
                                  : "") +
                    ": no usable CUDA device";
    return state;
  }
  d.cuDriverGetVersion(&state.driverVersion);
  CUdevice device = 0;
  if ((result = d.cuDeviceGet(&device, 0)) != 0) {
    state.failure = describe(d, "cuDeviceGet", result) + ": no CUDA device";
    return state;
  }
  char name[256] = {};
  if (d.cuDeviceGetName(name, sizeof(name) - 1, device) == 0)
    state.deviceName = name;
  // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR / _MINOR.
  int major = 0, minor = 0;
  if (d.cuDeviceGetAttribute(&major, 75, device) == 0 &&
      d.cuDeviceGetAttribute(&minor, 76, device) == 0)
    state.chip = "sm_" + std::to_string(major * 10 + minor);
  if ((result = d.cuDevicePrimaryCtxRetain(&state.context, device)) != 0) {
    state.failure = describe(d, "cuDevicePrimaryCtxRetain", result);
    return state;
  }
  return state;
}

/// The process's driver state, loaded once, thread-safely (a State whose
/// `failure` says why it is not usable, when it is not).
State &state() {
  static State *loaded = new State(load());
  return *loaded;
}

} // namespace

std::string describeError(const char *call, CUresult result) {
  return describe(state().driver, call, result);
}

void fatal(const std::string &message) {
  std::fprintf(stderr, "GOpt CUDA runtime: %s\n", message.c_str());
  std::fflush(stderr);
  std::abort();
}

void check(const char *call, CUresult result) {
  if (result != 0)
    fatal(describeError(call, result));
}

const Driver &driver() {
  State &s = state();
  if (!s.failure.empty())
    fatal(s.failure);
  // Compiled code may run on any thread: make the context current on each.
  thread_local bool current = false;
  if (!current) {
    check("cuCtxSetCurrent", s.driver.cuCtxSetCurrent(s.context));
    current = true;
  }
  return s.driver;
}

std::string initialize() { return state().failure; }

std::string graphsUnavailableReason() {
  State &s = state();
  return s.failure.empty() ? s.graphsMissing : s.failure;
}

bool isAvailable() { return state().failure.empty(); }

std::string deviceName() { return state().deviceName; }

std::string describeDevice(const std::string &chip, const std::string &name) {
  return "cuda-" + chip + " (" + name + ")";
}

std::string describeDevice() { return describeDevice(deviceChip(), deviceName()); }

int driverVersion() { return state().driverVersion; }

std::string deviceChip() { return state().chip; }

} // namespace cuda
} // namespace runtime
} // namespace gopt
