//===- KernelTimers.cpp - Time spent in each kernel -----------------------===//
//
// `gopt-lower-to-llvm{kernel-timers}` brackets every kernel call with
// gopt_kernel_begin(id) / gopt_kernel_end(id). Kernels of one graph run one
// after the other on the calling thread; the timers keep one start time per
// id and add up the intervals.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Runtime/Runtime.h"

#include <chrono>
#include <mutex>

using namespace mlir::gopt::runtime;

namespace {

struct KernelSlot {
  std::chrono::steady_clock::time_point start;
  int64_t calls = 0;
  double totalMs = 0;
  bool running = false;
};

struct KernelTimers {
  std::mutex mutex;
  std::vector<KernelSlot> slots;

  KernelSlot &slot(int64_t id) {
    if (id >= static_cast<int64_t>(slots.size()))
      slots.resize(id + 1);
    return slots[id];
  }
};

KernelTimers &timers() {
  static KernelTimers *instance = new KernelTimers();
  return *instance;
}

} // namespace

extern "C" void gopt_kernel_begin(int64_t id) {
  if (id < 0)
    return;
  KernelTimers &t = timers();
  std::lock_guard<std::mutex> lock(t.mutex);
  KernelSlot &slot = t.slot(id);
  slot.running = true;
  slot.start = std::chrono::steady_clock::now();
}

extern "C" void gopt_kernel_end(int64_t id) {
  auto end = std::chrono::steady_clock::now();
  if (id < 0)
    return;
  KernelTimers &t = timers();
  std::lock_guard<std::mutex> lock(t.mutex);
  KernelSlot &slot = t.slot(id);
  if (!slot.running)
    return;
  slot.running = false;
  ++slot.calls;
  slot.totalMs +=
      std::chrono::duration<double, std::milli>(end - slot.start).count();
}

std::vector<KernelTime> mlir::gopt::runtime::getKernelTimes() {
  KernelTimers &t = timers();
  std::lock_guard<std::mutex> lock(t.mutex);
  std::vector<KernelTime> times;
  for (size_t id = 0; id < t.slots.size(); ++id)
    if (t.slots[id].calls)
      times.push_back({static_cast<int64_t>(id), t.slots[id].calls,
                       t.slots[id].totalMs});
  return times;
}

void mlir::gopt::runtime::resetKernelTimes() {
  KernelTimers &t = timers();
  std::lock_guard<std::mutex> lock(t.mutex);
  for (KernelSlot &slot : t.slots)
    slot = KernelSlot();
}

std::vector<std::pair<std::string, void *>>
mlir::gopt::runtime::getRuntimeSymbols() {
  return {
      {"_mlir_memref_to_llvm_alloc",
       reinterpret_cast<void *>(&_mlir_memref_to_llvm_alloc)},
      {"_mlir_memref_to_llvm_aligned_alloc",
       reinterpret_cast<void *>(&_mlir_memref_to_llvm_aligned_alloc)},
      {"_mlir_memref_to_llvm_free",
       reinterpret_cast<void *>(&_mlir_memref_to_llvm_free)},
      {"gopt_kernel_begin", reinterpret_cast<void *>(&gopt_kernel_begin)},
      {"gopt_kernel_end", reinterpret_cast<void *>(&gopt_kernel_end)},
      {"memrefCopy", reinterpret_cast<void *>(&memrefCopy)},
      {"gopt_sgemm", reinterpret_cast<void *>(&gopt_sgemm)},
      {"gopt_sgemm_epilogue", reinterpret_cast<void *>(&gopt_sgemm_epilogue)},
      {"gopt_conv2d", reinterpret_cast<void *>(&gopt_conv2d)},
      {"gopt_conv2d_nhwc", reinterpret_cast<void *>(&gopt_conv2d_nhwc)},
      {"gopt_pool2d", reinterpret_cast<void *>(&gopt_pool2d)},
      {"gopt_pool2d_nhwc", reinterpret_cast<void *>(&gopt_pool2d_nhwc)},
      {"gopt_parallel_for", reinterpret_cast<void *>(&gopt_parallel_for)},
      {"gopt_attention", reinterpret_cast<void *>(&gopt_attention)},
  };
}
