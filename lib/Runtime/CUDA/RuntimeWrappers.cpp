//===- RuntimeWrappers.cpp - The mgpu* ABI of MLIR's GPU lowering ---------===//
//
// The functions `gpu-to-llvm` and the translation of gpu.binary /
// gpu.launch_func to LLVM IR call (MLIR 22's signatures), over the driver
// opened in Driver.cpp. A failing driver call is fatal, with the call and
// the driver's error name: compiled code has no way to recover from it.
//
//===----------------------------------------------------------------------===//

#include "Driver.h"

#include "GOpt/Runtime/CUDA.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <unordered_map>

using namespace gopt::runtime::cuda;

namespace {

void check(const char *call, CUresult result) {
  if (result == 0)
    return;
  std::fprintf(stderr, "GOpt CUDA runtime: %s\n",
               describeError(call, result).c_str());
  std::abort();
}

#define GOPT_CUDA_CHECK(call) check(#call, driver().call)

/// Sizes of live device allocations, for live and peak bytes.
struct DeviceMemoryTracker {
  std::mutex mutex;
  std::unordered_map<void *, size_t> sizes;
  DeviceMemoryStats stats;

  void allocated(void *ptr, size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex);
    sizes[ptr] = bytes;
    stats.liveBytes += static_cast<int64_t>(bytes);
    ++stats.allocations;
    if (stats.liveBytes > stats.peakBytes)
      stats.peakBytes = stats.liveBytes;
  }
  void freed(void *ptr) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = sizes.find(ptr);
    if (it == sizes.end())
      return;
    stats.liveBytes -= static_cast<int64_t>(it->second);
    sizes.erase(it);
  }
};

DeviceMemoryTracker &tracker() {
  static DeviceMemoryTracker *t = new DeviceMemoryTracker();
  return *t;
}

} // namespace

DeviceMemoryStats gopt::runtime::cuda::deviceMemoryStats() {
  DeviceMemoryTracker &t = tracker();
  std::lock_guard<std::mutex> lock(t.mutex);
  return t.stats;
}

void gopt::runtime::cuda::resetPeakDeviceMemory() {
  DeviceMemoryTracker &t = tracker();
  std::lock_guard<std::mutex> lock(t.mutex);
  t.stats.peakBytes = t.stats.liveBytes;
}

extern "C" {

CUmodule mgpuModuleLoad(void *data, size_t /*size*/) {
  CUmodule module = nullptr;
  GOPT_CUDA_CHECK(cuModuleLoadData(&module, data));
  return module;
}

/// PTX (format=isa): cuModuleLoadData compiles it for the device too.
CUmodule mgpuModuleLoadJIT(void *data, int /*optLevel*/) {
  return mgpuModuleLoad(data, /*size=*/0);
}

void mgpuModuleUnload(CUmodule module) {
  GOPT_CUDA_CHECK(cuModuleUnload(module));
}

CUfunction mgpuModuleGetFunction(CUmodule module, const char *name) {
  CUfunction function = nullptr;
  GOPT_CUDA_CHECK(cuModuleGetFunction(&function, module, name));
  return function;
}

void mgpuLaunchKernel(CUfunction function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t sharedMemoryBytes,
                      CUstream stream, void **params, void **extra,
                      size_t /*paramsCount*/) {
  // A grid of no blocks (an empty tensor) launches nothing.
  if (gridX == 0 || gridY == 0 || gridZ == 0)
    return;
  GOPT_CUDA_CHECK(cuLaunchKernel(function, gridX, gridY, gridZ, blockX,
                                 blockY, blockZ, sharedMemoryBytes, stream,
                                 params, extra));
}

CUstream mgpuStreamCreate() {
  CUstream stream = nullptr;
  GOPT_CUDA_CHECK(cuStreamCreate(&stream, /*CU_STREAM_NON_BLOCKING=*/1));
  return stream;
}

void mgpuStreamDestroy(CUstream stream) {
  GOPT_CUDA_CHECK(cuStreamDestroy(stream));
}

void mgpuStreamSynchronize(CUstream stream) {
  GOPT_CUDA_CHECK(cuStreamSynchronize(stream));
}

void mgpuStreamWaitEvent(CUstream stream, CUevent event) {
  GOPT_CUDA_CHECK(cuStreamWaitEvent(stream, event, 0));
}

CUevent mgpuEventCreate() {
  CUevent event = nullptr;
  GOPT_CUDA_CHECK(cuEventCreate(&event, /*CU_EVENT_DISABLE_TIMING=*/2));
  return event;
}

void mgpuEventDestroy(CUevent event) {
  GOPT_CUDA_CHECK(cuEventDestroy(event));
}

void mgpuEventSynchronize(CUevent event) {
  GOPT_CUDA_CHECK(cuEventSynchronize(event));
}

void mgpuEventRecord(CUevent event, CUstream stream) {
  GOPT_CUDA_CHECK(cuEventRecord(event, stream));
}

void *mgpuMemAlloc(uint64_t bytes, CUstream /*stream*/, bool hostShared) {
  // The driver rejects empty allocations; an empty tensor needs no memory.
  if (bytes == 0)
    return nullptr;
  CUdeviceptr ptr = 0;
  if (hostShared)
    GOPT_CUDA_CHECK(
        cuMemAllocManaged(&ptr, bytes, /*CU_MEM_ATTACH_GLOBAL=*/1));
  else
    GOPT_CUDA_CHECK(cuMemAlloc(&ptr, bytes));
  void *result = reinterpret_cast<void *>(ptr);
  tracker().allocated(result, bytes);
  return result;
}

void mgpuMemFree(void *ptr, CUstream /*stream*/) {
  if (!ptr)
    return;
  tracker().freed(ptr);
  GOPT_CUDA_CHECK(cuMemFree(reinterpret_cast<CUdeviceptr>(ptr)));
}

void mgpuMemcpy(void *dst, void *src, size_t bytes, CUstream stream) {
  if (bytes == 0)
    return;
  GOPT_CUDA_CHECK(cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                                reinterpret_cast<CUdeviceptr>(src), bytes,
                                stream));
}

void mgpuMemset32(void *dst, unsigned value, size_t count, CUstream stream) {
  GOPT_CUDA_CHECK(cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(dst), value,
                                   count, stream));
}

void mgpuMemset16(void *dst, unsigned short value, size_t count,
                  CUstream stream) {
  GOPT_CUDA_CHECK(cuMemsetD16Async(reinterpret_cast<CUdeviceptr>(dst), value,
                                   count, stream));
}

} // extern "C"
