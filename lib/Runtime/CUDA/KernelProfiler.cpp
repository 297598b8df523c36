//===- KernelProfiler.cpp - Per-kernel times from CUDA events -------------===//

#include "KernelProfiler.h"

#include "GOpt/Runtime/CUDA.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace gopt {
namespace runtime {
namespace cuda {
namespace {

struct Pending {
  CUfunction function;
  CUevent begin, end;
};

struct Profiler {
  std::atomic<bool> enabled{false};
  std::mutex mutex;
  std::unordered_map<CUfunction, std::string> names;
  std::vector<Pending> pending;
  /// Timing events to reuse (creating one per launch costs microseconds).
  std::vector<CUevent> spare;

  CUevent takeEvent() {
    if (!spare.empty()) {
      CUevent event = spare.back();
      spare.pop_back();
      return event;
    }
    CUevent event = nullptr;
    check("cuEventCreate", driver().cuEventCreate(&event, /*default=*/0));
    return event;
  }
};

Profiler &profiler() {
  static Profiler *p = new Profiler();
  return *p;
}

} // namespace

void noteFunctionName(CUfunction function, const char *name) {
  // Only while profiling: the lowered code looks a kernel up before each of
  // its launches, so the names of the kernels timed are always seen, and
  // launches that are not timed take no lock.
  Profiler &p = profiler();
  if (!p.enabled.load())
    return;
  std::lock_guard<std::mutex> lock(p.mutex);
  auto it = p.names.find(function);
  if (it == p.names.end())
    p.names.emplace(function, name);
}

CUevent beginKernelTiming(CUstream stream) {
  Profiler &p = profiler();
  if (!p.enabled.load())
    return nullptr;
  CUevent begin;
  {
    std::lock_guard<std::mutex> lock(p.mutex);
    begin = p.takeEvent();
  }
  check("cuEventRecord", driver().cuEventRecord(begin, stream));
  return begin;
}

void endKernelTiming(CUfunction function, CUstream stream, CUevent begin) {
  if (!begin)
    return;
  Profiler &p = profiler();
  CUevent end;
  {
    std::lock_guard<std::mutex> lock(p.mutex);
    end = p.takeEvent();
  }
  check("cuEventRecord", driver().cuEventRecord(end, stream));
  std::lock_guard<std::mutex> lock(p.mutex);
  p.pending.push_back({function, begin, end});
}

void setKernelProfiling(bool enabled) { profiler().enabled.store(enabled); }

std::vector<KernelTime> collectKernelTimes() {
  Profiler &p = profiler();
  std::lock_guard<std::mutex> lock(p.mutex);
  std::map<std::string, KernelTime> byName;
  std::vector<std::string> order;
  for (const Pending &launch : p.pending) {
    check("cuEventSynchronize", driver().cuEventSynchronize(launch.end));
    float ms = 0;
    check("cuEventElapsedTime",
          driver().cuEventElapsedTime(&ms, launch.begin, launch.end));
    auto it = p.names.find(launch.function);
    std::string name = it == p.names.end() ? "(unnamed)" : it->second;
    auto [entry, inserted] = byName.try_emplace(name);
    if (inserted) {
      entry->second.name = name;
      order.push_back(name);
    }
    ++entry->second.launches;
    entry->second.totalMs += ms;
    p.spare.push_back(launch.begin);
    p.spare.push_back(launch.end);
  }
  p.pending.clear();
  std::vector<KernelTime> times;
  for (const std::string &name : order)
    times.push_back(byName[name]);
  return times;
}

} // namespace cuda
} // namespace runtime
} // namespace gopt
