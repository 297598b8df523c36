//===- FakeCUDADriver.cpp - A CUDA driver stand-in for tests
//---------------===//
//
// A shared library with the driver entry points GOpt's CUDA runtime opens
// (lib/Runtime/CUDA/Driver.cpp), for machines with no GPU: tests point
// $GOPT_LIBCUDA at it (lit: %fake_cuda_driver). It tests what runs around
// the kernels: the driver is opened (device "Fake", sm_90), a bundle's
// library loads its modules in its constructors (cuModuleGetFunction takes
// only a handle cuModuleLoadData returned), buffers come from the pool,
// every launch takes 0.01 ms by the events. "Device" memory is host memory;
// copies and memsets run (on the host) when their stream is not being captured,
// and are recorded when it is; kernels run nothing (there is no device to run
// PTX on) but their launches are counted. Stream capture follows the driver's
// rules that matter to the runtime, and is stricter where a real driver
// would silently do the wrong thing:
//
//  - synchronizing a capturing stream fails with
//    CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED and invalidates the capture, as
//    the driver does;
//  - a captured copy that reads or writes host memory, freeing device
//    memory during a capture, destroying a capturing stream, and any
//    launch, copy or memset on the legacy (null) stream during a capture
//    fail the same way (a driver may allow some of them in relaxed mode,
//    but they would escape the graph or make its replay read host memory);
//  - work on other streams during a capture runs at once, as on a driver,
//    and is counted in `eagerOpsDuringCapture`.
//
// gopt_fake_cuda_stats() tells a test what ran.
//
//===----------------------------------------------------------------------===//

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace {

constexpr int kSuccess = 0, kInvalidValue = 1, kInvalidHandle = 400,
              kCaptureUnsupported = 900, kCaptureInvalidated = 901;

struct Function {
  std::string name;
};

struct Op {
  enum Kind { Launch = 0, Copy = 1, Memset = 2, Other = 3 } kind;
  void *dst = nullptr;
  const void *src = nullptr;
  size_t bytes = 0;
  unsigned value = 0;
  int width = 0; // memset: 4 or 2 bytes per element
  Function *function = nullptr;
};

struct Stream {
  bool capturing = false;
  bool invalidated = false;
  std::vector<Op> recorded;
};

struct Graph {
  std::vector<Op> nodes;
};

struct Stats {
  int64_t kernelsRun = 0;
  int64_t copiesRun = 0;
  int64_t memsetsRun = 0;
  int64_t graphLaunches = 0;
  int64_t liveAllocations = 0;
  int64_t eagerOpsDuringCapture = 0;
  int64_t capturesBegun = 0;
};

struct Fake {
  std::mutex mutex;
  /// Device allocations: start -> bytes.
  std::map<uintptr_t, size_t> allocations;
  std::map<std::string, Function *> functions;
  int capturing = 0;
  Stats stats;

  bool isDevice(const void *ptr) const {
    auto p = reinterpret_cast<uintptr_t>(ptr);
    auto it = allocations.upper_bound(p);
    if (it == allocations.begin())
      return false;
    --it;
    return p < it->first + it->second;
  }

  void run(const Op &op) {
    switch (op.kind) {
    case Op::Launch:
      ++stats.kernelsRun;
      break;
    case Op::Copy:
      std::memmove(op.dst, op.src, op.bytes);
      ++stats.copiesRun;
      break;
    case Op::Memset:
      for (size_t i = 0; i < op.bytes / op.width; ++i)
        std::memcpy(static_cast<char *>(op.dst) + i * op.width, &op.value,
                    op.width);
      ++stats.memsetsRun;
      break;
    case Op::Other:
      break;
    }
  }

  /// Runs `op` on `stream`, or records it when the stream is capturing.
  int submit(Stream *stream, const Op &op) {
    if (stream && stream->capturing) {
      if (stream->invalidated)
        return kCaptureInvalidated;
      stream->recorded.push_back(op);
      return kSuccess;
    }
    if (capturing) {
      if (!stream)
        return kCaptureUnsupported;
      ++stats.eagerOpsDuringCapture;
    }
    run(op);
    return kSuccess;
  }
};

Fake &fake() {
  static Fake *f = new Fake();
  return *f;
}

int invalidate(Stream *stream) {
  if (stream && stream->capturing)
    stream->invalidated = true;
  return kCaptureUnsupported;
}

char contextTag, moduleTag, eventTag;

int submitMemset(uintptr_t dst, unsigned value, size_t count, int width,
                 Stream *stream) {
  Fake &f = fake();
  std::lock_guard<std::mutex> lock(f.mutex);
  Op op{Op::Memset};
  op.dst = reinterpret_cast<void *>(dst);
  op.bytes = count * width;
  op.value = value;
  op.width = width;
  return f.submit(stream, op);
}

} // namespace

extern "C" {

struct GoptFakeCUDAStats {
  int64_t kernelsRun, copiesRun, memsetsRun, graphLaunches, liveAllocations,
      eagerOpsDuringCapture, capturesBegun;
};

/// What ran so far (a snapshot).
GoptFakeCUDAStats gopt_fake_cuda_stats() {
  Fake &f = fake();
  std::lock_guard<std::mutex> lock(f.mutex);
  const Stats &s = f.stats;
  return {s.kernelsRun,    s.copiesRun,       s.memsetsRun,
          s.graphLaunches, s.liveAllocations, s.eagerOpsDuringCapture,
          s.capturesBegun};
}

int cuInit(unsigned) { return kSuccess; }
int cuDriverGetVersion(int *version) {
  *version = 13000;
  return kSuccess;
}
int cuDeviceGet(int *device, int ordinal) {
  *device = ordinal;
  return ordinal == 0 ? kSuccess : kInvalidValue;
}
int cuDeviceGetName(char *name, int length, int) {
  std::snprintf(name, length, "Fake");
  return kSuccess;
}
int cuDeviceGetAttribute(int *value, int attribute, int) {
  // Compute capability 9.0.
  *value = attribute == 75 ? 9 : 0;
  return kSuccess;
}
int cuDevicePrimaryCtxRetain(void **context, int) {
  *context = &contextTag;
  return kSuccess;
}
int cuCtxSetCurrent(void *) { return kSuccess; }
int cuGetErrorName(int result, const char **name) {
  switch (result) {
  case kSuccess:
    *name = "CUDA_SUCCESS";
    break;
  case kInvalidValue:
    *name = "CUDA_ERROR_INVALID_VALUE";
    break;
  case kInvalidHandle:
    *name = "CUDA_ERROR_INVALID_HANDLE";
    break;
  case kCaptureUnsupported:
    *name = "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED";
    break;
  case kCaptureInvalidated:
    *name = "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED";
    break;
  default:
    *name = "CUDA_ERROR_UNKNOWN";
  }
  return kSuccess;
}

int cuModuleLoadData(void **module, const void *image) {
  *module = &moduleTag;
  return image ? kSuccess : kInvalidValue;
}
int cuModuleUnload(void *) { return kSuccess; }
int cuModuleGetFunction(Function **function, void *module, const char *name) {
  if (module != &moduleTag)
    return kInvalidHandle; // only a handle cuModuleLoadData returned
  Fake &f = fake();
  std::lock_guard<std::mutex> lock(f.mutex);
  Function *&slot = f.functions[name];
  if (!slot)
    slot = new Function{name};
  *function = slot;
  return kSuccess;
}
int cuLaunchKernel(Function *function, unsigned, unsigned, unsigned, unsigned,
                   unsigned, unsigned, unsigned, Stream *stream, void **,
                   void **) {
  Fake &f = fake();
  std::lock_guard<std::mutex> lock(f.mutex);
  Op op{Op::Launch};
  op.function = function;
  return f.submit(stream, op);
}

int cuStreamCreate(Stream **stream, unsigned) {
  *stream = new Stream();
  return kSuccess;
}
int cuStreamDestroy_v2(Stream *stream) {
  if (stream && stream->capturing)
    return invalidate(stream);
  delete stream;
  return kSuccess;
}
int cuStreamSynchronize(Stream *stream) {
  Fake &f = fake();
  std::lock_guard<std::mutex> lock(f.mutex);
  if (stream && stream->capturing)
    return invalidate(stream);
  return !stream && f.capturing ? kCaptureUnsupported : kSuccess;
}
int cuStreamWaitEvent(Stream *, void *, unsigned) { return kSuccess; }
int cuEventCreate(void **event, unsigned) {
  *event = &eventTag;
  return kSuccess;
}
int cuEventDestroy_v2(void *) { return kSuccess; }
int cuEventRecord(void *, Stream *stream) {
  Fake &f = fake();
  std::lock_guard<std::mutex> lock(f.mutex);
  return f.submit(stream, Op{Op::Other});
}
int cuEventSynchronize(void *) { return kSuccess; }
int cuEventElapsedTime(float *ms, void *, void *) {
  *ms = 0.01f; // per launch, so per-kernel tables have known values
  return kSuccess;
}

int cuMemAlloc_v2(uintptr_t *ptr, size_t bytes) {
  if (bytes == 0)
    return kInvalidValue;
  Fake &f = fake();
  std::lock_guard<std::mutex> lock(f.mutex);
  void *memory = std::calloc(1, bytes);
  *ptr = reinterpret_cast<uintptr_t>(memory);
  f.allocations[*ptr] = bytes;
  ++f.stats.liveAllocations;
  return kSuccess;
}
int cuMemGetInfo_v2(size_t *free, size_t *total) {
  *free = *total = size_t(1) << 30;
  return kSuccess;
}
int cuMemAllocManaged(uintptr_t *ptr, size_t bytes, unsigned) {
  return cuMemAlloc_v2(ptr, bytes);
}
int cuMemFree_v2(uintptr_t ptr) {
  Fake &f = fake();
  std::lock_guard<std::mutex> lock(f.mutex);
  if (f.capturing)
    return kCaptureUnsupported;
  if (!f.allocations.erase(ptr))
    return kInvalidValue;
  std::free(reinterpret_cast<void *>(ptr));
  --f.stats.liveAllocations;
  return kSuccess;
}
int cuMemcpyAsync(uintptr_t dst, uintptr_t src, size_t bytes, Stream *stream) {
  Fake &f = fake();
  std::lock_guard<std::mutex> lock(f.mutex);
  Op op{Op::Copy};
  op.dst = reinterpret_cast<void *>(dst);
  op.src = reinterpret_cast<const void *>(src);
  op.bytes = bytes;
  if (stream && stream->capturing &&
      (!f.isDevice(op.dst) || !f.isDevice(op.src)))
    return invalidate(stream);
  return f.submit(stream, op);
}
int cuMemsetD32Async(uintptr_t dst, unsigned value, size_t count,
                     Stream *stream) {
  return submitMemset(dst, value, count, 4, stream);
}
int cuMemsetD16Async(uintptr_t dst, unsigned short value, size_t count,
                     Stream *stream) {
  return submitMemset(dst, value, count, 2, stream);
}
int cuPointerGetAttribute(void *data, int attribute, uintptr_t ptr) {
  Fake &f = fake();
  std::lock_guard<std::mutex> lock(f.mutex);
  // CU_POINTER_ATTRIBUTE_MEMORY_TYPE: CU_MEMORYTYPE_DEVICE, or an error
  // for memory the driver does not know (pageable host memory).
  if (attribute != 2 || !f.isDevice(reinterpret_cast<void *>(ptr)))
    return kInvalidValue;
  *static_cast<unsigned *>(data) = 2;
  return kSuccess;
}

int cuStreamBeginCapture_v2(Stream *stream, int) {
  Fake &f = fake();
  std::lock_guard<std::mutex> lock(f.mutex);
  if (!stream || stream->capturing)
    return kInvalidValue;
  stream->capturing = true;
  stream->invalidated = false;
  stream->recorded.clear();
  ++f.capturing;
  ++f.stats.capturesBegun;
  return kSuccess;
}
int cuStreamEndCapture(Stream *stream, Graph **graph) {
  Fake &f = fake();
  std::lock_guard<std::mutex> lock(f.mutex);
  if (!stream || !stream->capturing)
    return kInvalidValue;
  stream->capturing = false;
  --f.capturing;
  *graph = nullptr;
  if (stream->invalidated)
    return kCaptureInvalidated;
  *graph = new Graph{std::move(stream->recorded)};
  stream->recorded.clear();
  return kSuccess;
}
int cuGraphGetNodes(Graph *graph, Op **nodes, size_t *count) {
  if (!graph)
    return kInvalidHandle;
  if (nodes)
    for (size_t i = 0; i < *count && i < graph->nodes.size(); ++i)
      nodes[i] = &graph->nodes[i];
  *count = graph->nodes.size();
  return kSuccess;
}
int cuGraphNodeGetType(Op *node, int *type) {
  *type = node->kind;
  return kSuccess;
}
int cuGraphInstantiateWithFlags(Graph **exec, Graph *graph,
                                unsigned long long) {
  if (!graph)
    return kInvalidHandle;
  *exec = new Graph(*graph);
  return kSuccess;
}
int cuGraphLaunch(Graph *exec, Stream *stream) {
  Fake &f = fake();
  std::lock_guard<std::mutex> lock(f.mutex);
  if (!exec)
    return kInvalidHandle;
  if (stream && stream->capturing)
    return invalidate(stream);
  ++f.stats.graphLaunches;
  for (const Op &op : exec->nodes)
    f.run(op);
  return kSuccess;
}
int cuGraphExecDestroy(Graph *exec) {
  delete exec;
  return kSuccess;
}
int cuGraphDestroy(Graph *graph) {
  delete graph;
  return kSuccess;
}

} // extern "C"
