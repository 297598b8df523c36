//===- RuntimeWrappers.cpp - The mgpu* ABI of MLIR's GPU lowering ---------===//
//
// The functions `gpu-to-llvm` and the translation of gpu.binary /
// gpu.launch_func to LLVM IR call (MLIR 22's signatures), over the driver
// opened in Driver.cpp. A failing driver call is fatal, with the call and
// the driver's error name: compiled code has no way to recover from it.
// While a CUDA graph is captured (GraphCapture.h), streams, synchronization
// and copies from host memory behave as that header says.
//
//===----------------------------------------------------------------------===//

#include "DevicePool.h"
#include "Driver.h"
#include "GraphCapture.h"
#include "KernelProfiler.h"

#include "GOpt/Runtime/CUDA.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

using namespace gopt::runtime::cuda;

namespace {

using gopt::runtime::cuda::check;

#define GOPT_CUDA_CHECK(call) check(#call, driver().call)

} // namespace

DeviceMemoryStats gopt::runtime::cuda::deviceMemoryStats() {
  return devicePool().stats();
}

void gopt::runtime::cuda::resetPeakDeviceMemory() { devicePool().resetPeak(); }

void gopt::runtime::cuda::setCachingAllocator(bool enabled) {
  devicePool().setCaching(enabled);
}

void gopt::runtime::cuda::emptyCache() { devicePool().emptyCache(); }

void *gopt::runtime::cuda::allocateDevice(size_t bytes) {
  return bytes ? devicePool().allocate(bytes) : nullptr;
}

void gopt::runtime::cuda::freeDevice(void *ptr) {
  if (ptr && !devicePool().release(ptr))
    check("cuMemFree_v2",
          driver().cuMemFree(reinterpret_cast<CUdeviceptr>(ptr)));
}

void gopt::runtime::cuda::copy(void *dst, const void *src, size_t bytes) {
  if (bytes == 0)
    return;
  GOPT_CUDA_CHECK(cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                                reinterpret_cast<CUdeviceptr>(src), bytes,
                                nullptr));
  GOPT_CUDA_CHECK(cuStreamSynchronize(nullptr));
}

CopyBandwidth gopt::runtime::cuda::measureCopyBandwidth(size_t bytes,
                                                        int repetitions) {
  CopyBandwidth result;
  result.bytes = bytes;
  void *a = allocateDevice(bytes), *b = allocateDevice(bytes);
  GOPT_CUDA_CHECK(cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(a), 0,
                                   bytes / 4, nullptr));
  CUevent begin = nullptr, end = nullptr;
  GOPT_CUDA_CHECK(cuEventCreate(&begin, 0));
  GOPT_CUDA_CHECK(cuEventCreate(&end, 0));
  std::vector<double> ms;
  for (int r = -1; r < repetitions; ++r) { // r = -1: warm-up
    GOPT_CUDA_CHECK(cuEventRecord(begin, nullptr));
    GOPT_CUDA_CHECK(cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(b),
                                  reinterpret_cast<CUdeviceptr>(a), bytes,
                                  nullptr));
    GOPT_CUDA_CHECK(cuEventRecord(end, nullptr));
    GOPT_CUDA_CHECK(cuEventSynchronize(end));
    float elapsed = 0;
    GOPT_CUDA_CHECK(cuEventElapsedTime(&elapsed, begin, end));
    if (r >= 0)
      ms.push_back(elapsed);
  }
  GOPT_CUDA_CHECK(cuEventDestroy(begin));
  GOPT_CUDA_CHECK(cuEventDestroy(end));
  freeDevice(a);
  freeDevice(b);
  std::sort(ms.begin(), ms.end());
  result.medianMs = ms.empty() ? 0 : ms[ms.size() / 2];
  // Bytes read plus bytes written, as copy bandwidth is usually counted.
  if (result.medianMs > 0)
    result.gbPerSecond = 2.0 * bytes / (result.medianMs * 1e6);
  return result;
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
  // The library's destructors unload its modules; at process exit they may
  // run after the driver has begun shutting down, which frees the modules
  // itself (CUDA_ERROR_DEINITIALIZED).
  CUresult result = driver().cuModuleUnload(module);
  if (result != kErrorDeinitialized)
    check("cuModuleUnload", result);
}

CUfunction mgpuModuleGetFunction(CUmodule module, const char *name) {
  CUfunction function = nullptr;
  GOPT_CUDA_CHECK(cuModuleGetFunction(&function, module, name));
  noteFunctionName(function, name);
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
  // Launches recorded into a graph are not timed (the events would be
  // recorded into it too).
  CUevent begin = capturingStream() ? nullptr : beginKernelTiming(stream);
  GOPT_CUDA_CHECK(cuLaunchKernel(function, gridX, gridY, gridZ, blockX,
                                 blockY, blockZ, sharedMemoryBytes, stream,
                                 params, extra));
  endKernelTiming(function, stream, begin);
}

CUstream mgpuStreamCreate() {
  if (CUstream captured = capturingStream())
    return captured;
  CUstream stream = nullptr;
  GOPT_CUDA_CHECK(cuStreamCreate(&stream, /*CU_STREAM_NON_BLOCKING=*/1));
  return stream;
}

void mgpuStreamDestroy(CUstream stream) {
  if (stream && stream == capturingStream())
    return; // the capture's stream lives as long as its graph
  GOPT_CUDA_CHECK(cuStreamDestroy(stream));
}

void mgpuStreamSynchronize(CUstream stream) {
  // The graph orders what follows; synchronizing a capturing stream is an
  // error (CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED).
  if (stream && stream == capturingStream())
    return;
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
  if (hostShared) {
    // Managed memory is not pooled (GOpt's lowering never asks for it).
    CUdeviceptr ptr = 0;
    GOPT_CUDA_CHECK(
        cuMemAllocManaged(&ptr, bytes, /*CU_MEM_ATTACH_GLOBAL=*/1));
    return reinterpret_cast<void *>(ptr);
  }
  return devicePool().allocate(bytes);
}

void mgpuMemFree(void *ptr, CUstream /*stream*/) {
  gopt::runtime::cuda::freeDevice(ptr);
}

/// What gopt-gpu-device-buffers makes of a deallocation under a condition:
/// the block back to the pool at once, with no stream (the compiled code
/// has synchronized its stream before).
void gopt_cuda_free(void *ptr) { gopt::runtime::cuda::freeDevice(ptr); }

void mgpuMemcpy(void *dst, void *src, size_t bytes, CUstream stream) {
  if (bytes == 0)
    return;
  if (stream && stream == capturingStream()) {
    if (!isDevicePointer(dst))
      fatal("compiled code copies into host memory while a CUDA graph is "
            "captured; a graph cannot replay that");
    if (!isDevicePointer(src))
      src = const_cast<void *>(stageHostSource(src, bytes));
  }
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

extern "C" void gopt_cuda_sgemm(int64_t, int64_t, int64_t, int64_t, float,
                                const float *, int64_t, int64_t, int64_t,
                                const float *, int64_t, int64_t, int64_t,
                                float, float *, int64_t, int64_t, int64_t);
extern "C" void gopt_cuda_sgemm_epilogue(int64_t, int64_t, int64_t, int64_t,
                                         float, const float *, int64_t, int64_t,
                                         int64_t, const float *, int64_t,
                                         int64_t, int64_t, float *, int64_t,
                                         int64_t, int64_t, const float *,
                                         int32_t);
extern "C" void gopt_cuda_sgemm_async(CUstream, int64_t, int64_t, int64_t,
                                      int64_t, float, const float *, int64_t,
                                      int64_t, int64_t, const float *, int64_t,
                                      int64_t, int64_t, float, float *, int64_t,
                                      int64_t, int64_t);
extern "C" void gopt_cuda_sgemm_epilogue_async(
    CUstream, int64_t, int64_t, int64_t, int64_t, float, const float *, int64_t,
    int64_t, int64_t, const float *, int64_t, int64_t, int64_t, float *,
    int64_t, int64_t, int64_t, const float *, int32_t);

std::vector<std::pair<std::string, void *>>
gopt::runtime::cuda::getCUDARuntimeSymbols() {
#define GOPT_SYMBOL(name) {#name, reinterpret_cast<void *>(&name)}
  return {GOPT_SYMBOL(mgpuModuleLoad),
          GOPT_SYMBOL(mgpuModuleLoadJIT),
          GOPT_SYMBOL(mgpuModuleUnload),
          GOPT_SYMBOL(mgpuModuleGetFunction),
          GOPT_SYMBOL(mgpuLaunchKernel),
          GOPT_SYMBOL(mgpuStreamCreate),
          GOPT_SYMBOL(mgpuStreamDestroy),
          GOPT_SYMBOL(mgpuStreamSynchronize),
          GOPT_SYMBOL(mgpuStreamWaitEvent),
          GOPT_SYMBOL(mgpuEventCreate),
          GOPT_SYMBOL(mgpuEventDestroy),
          GOPT_SYMBOL(mgpuEventSynchronize),
          GOPT_SYMBOL(mgpuEventRecord),
          GOPT_SYMBOL(mgpuMemAlloc),
          GOPT_SYMBOL(mgpuMemFree),
          GOPT_SYMBOL(mgpuMemcpy),
          GOPT_SYMBOL(mgpuMemset32),
          GOPT_SYMBOL(mgpuMemset16),
          GOPT_SYMBOL(gopt_cuda_free),
          GOPT_SYMBOL(gopt_cuda_sgemm),
          GOPT_SYMBOL(gopt_cuda_sgemm_epilogue),
          GOPT_SYMBOL(gopt_cuda_sgemm_async),
          GOPT_SYMBOL(gopt_cuda_sgemm_epilogue_async)};
#undef GOPT_SYMBOL
}
