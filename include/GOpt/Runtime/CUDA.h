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

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

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

/// Device 0's name, its architecture ("sm_90") and the driver's version
/// (e.g. 13000), once initialized.
std::string deviceName();
std::string deviceChip();
/// How a report names a device: "cuda-<chip> (<name>)"; describeDevice()
/// names device 0.
std::string describeDevice(const std::string &chip, const std::string &name);
std::string describeDevice();
int driverVersion();

/// Device memory of mgpuMemAlloc/mgpuMemFree (and allocateDevice): a caching
/// pool (RuntimeWrappers.cpp). Live bytes are those of blocks in use
/// (rounded up to 512 bytes), reserved bytes those held from the driver
/// (live plus cached).
struct DeviceMemoryStats {
  int64_t liveBytes = 0;
  int64_t peakBytes = 0;
  /// Allocations asked for, and those the driver served (cache misses).
  int64_t allocations = 0;
  int64_t driverAllocations = 0;
  int64_t cacheHits = 0;
  int64_t reservedBytes = 0;
  int64_t peakReservedBytes = 0;
  /// Free blocks held in the cache: their bytes and the largest one.
  int64_t cachedBytes = 0;
  int64_t largestCachedBlock = 0;
  /// Free blocks that CUDA graphs hold (their replays write them; see
  /// CapturedGraph): neither live nor in the cache.
  int64_t graphHeldBytes = 0;
};
DeviceMemoryStats deviceMemoryStats();
/// Starts new peaks (live and reserved) from the current values.
void resetPeakDeviceMemory();
/// Caching on (the default; GOPT_CUDA_CACHING=0 starts with it off) or off:
/// off, every free goes back to the driver and the cache is emptied.
void setCachingAllocator(bool enabled);
/// Returns the cached free blocks to the driver.
void emptyCache();

/// Device memory for a caller (inputs, weights): the pool's, freed with
/// freeDevice. Null for 0 bytes.
void *allocateDevice(size_t bytes);
void freeDevice(void *ptr);
/// A synchronous copy between any two of host and device memory (unified
/// addressing tells the direction).
void copy(void *dst, const void *src, size_t bytes);

/// A device-to-device copy of `bytes`, timed with CUDA events: median of
/// `repetitions` after a warm-up, and the bandwidth counting bytes read and
/// written (what an elementwise kernel moving the same bytes is compared
/// to).
struct CopyBandwidth {
  size_t bytes = 0;
  double medianMs = 0;
  double gbPerSecond = 0;
};
CopyBandwidth measureCopyBandwidth(size_t bytes, int repetitions);

/// Per-kernel times from CUDA events: with profiling on, every launch is
/// bracketed by two timing events on its stream (a few microseconds per
/// launch, so time runs with it off, and profile in runs of their own).
/// collectKernelTimes() waits for the launches since the last collection and
/// returns each kernel's launches and total time, in order of first launch.
struct KernelTime {
  std::string name;
  int64_t launches = 0;
  double totalMs = 0;
};
void setKernelProfiling(bool enabled);
std::vector<KernelTime> collectKernelTimes();

/// CUDA graphs: torch.compile's "reduce-overhead" mode. Between
/// beginGraphCapture() and endGraphCapture(), one call of compiled code is
/// recorded instead of run: every stream it creates is one capturing
/// stream, its synchronizations are skipped, its cuBLAS calls join that
/// stream, copies from host memory are staged on the device, and the device
/// memory it allocates becomes the graph's. replay() then runs all of it
/// again with one cuGraphLaunch, on the same buffers: the call's arguments
/// must stay where they were, and its results (device buffers of the graph)
/// are rewritten in place by each replay. The captured call itself runs
/// nothing: replay once before reading its results.
/// What a captured graph is made of and holds (CapturedGraph's figures).
struct GraphFigures {
  /// The graph's nodes: kernel launches (cuBLAS's kernels among them),
  /// copies, memsets, anything else.
  int64_t kernelNodes = 0, copyNodes = 0, memsetNodes = 0, otherNodes = 0;
  /// Device bytes the graph owns (every block its capture allocated, the
  /// staged host copies included) and host bytes it staged.
  int64_t memoryBytes = 0;
  int64_t stagedBytes = 0;
};

class CapturedGraph : public GraphFigures {
public:
  ~CapturedGraph();
  CapturedGraph(const CapturedGraph &) = delete;
  CapturedGraph &operator=(const CapturedGraph &) = delete;

  /// Runs the graph once and waits for it.
  void replay();

  struct State;

private:
  friend std::unique_ptr<CapturedGraph> endGraphCapture(std::string &error);
  CapturedGraph();
  std::unique_ptr<State> state;
};

/// Starts recording (one capture at a time, on any thread). Returns why not
/// (no device, a driver without CUDA graphs, a capture already going on),
/// or an empty string.
std::string beginGraphCapture();
/// Ends the recording and instantiates the graph; null with `error` set
/// when the driver rejects it (e.g. an operation the capture could not
/// record). Every capture begun must be ended.
std::unique_ptr<CapturedGraph> endGraphCapture(std::string &error);

/// The cuBLAS library gopt_cuda_sgemm (contractions on the GPU) opened:
/// $GOPT_CUBLAS_LIBRARY, else the first of libcublas.so.13, .12, .so the
/// loader finds. Opens it (aborting with the reason when there is none).
const char *cublasLibrary();

/// Name and address of every mgpu* function and of gopt_cuda_sgemm, for a
/// JIT's symbol table.
std::vector<std::pair<std::string, void *>> getCUDARuntimeSymbols();

} // namespace cuda
} // namespace runtime
} // namespace gopt

#endif // GOPT_RUNTIME_CUDA_H
