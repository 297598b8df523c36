//===- Roofline.h - Predicting run time on hardware not at hand -*- C++ -*-===//
//
// A small roofline model (docs/Explore.md, "Prediction for hardware not at
// hand"): a target is described by its peak f32 FLOP/s, its memory
// bandwidth (and, optionally, a cache level's size and bandwidth) and the
// fixed cost of one kernel launch; a kernel with F FLOPs moving B bytes
// takes max(F / peak, B / bandwidth) + launch overhead, and a run of a
// program the sum over its kernels (no overlap between kernels) plus the
// target's fixed cost per run. gopt-explore predicts
// every configuration's run time and speedup from GraphStats' per-kernel
// cost on such a description; gopt-probe-target measures one of this CPU.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_SUPPORT_ROOFLINE_H
#define GOPT_SUPPORT_ROOFLINE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace gopt {

/// What one kernel costs by the cost interface (docs/Analysis.md, "Cost").
struct KernelCost {
  int64_t flops = 0;
  /// Bytes the kernel reads and writes (operands and results, once each).
  int64_t bytes = 0;
  bool operator==(const KernelCost &o) const {
    return flops == o.flops && bytes == o.bytes;
  }
};

/// A target for the roofline model. Every figure is for f32 on the whole
/// target (a CPU: at `threads` threads).
struct TargetDescription {
  /// Short name, as `--predict=` takes it: "h100", "host".
  std::string name;
  /// "cpu" or "gpu".
  std::string kind;
  /// What it is: the CPU model, or the GPU product name.
  std::string device;
  /// Peak f32 GFLOP/s.
  double peakGflops = 0;
  /// Main-memory bandwidth, GB/s (10^9 bytes per second), reads and
  /// writes together.
  double bandwidthGBs = 0;
  /// A cache level: kernels moving at most cacheBytes run at
  /// cacheBandwidthGBs (0: no cache level modelled).
  int64_t cacheBytes = 0;
  double cacheBandwidthGBs = 0;
  /// Fixed cost of one kernel, microseconds: a launch on a GPU, the call
  /// and loop set-up of a kernel function on a CPU.
  double launchOverheadUs = 0;
  /// Fixed cost of one run beside its kernels, microseconds: the call of
  /// the entry, its arena, its results (0: not modelled).
  double runOverheadUs = 0;
  /// CPU: the threads the figures were measured with (0: not a CPU).
  int threads = 0;
  /// Where the figures come from (a datasheet, or the probe and when).
  std::string source;
};

/// The JSON form (docs/Explore.md has the schema).
llvm::json::Object toJSON(const TargetDescription &target);
/// Reads a description; the error names the missing or bad field.
llvm::Expected<TargetDescription>
parseTargetDescription(const llvm::json::Value &value);
/// Reads a description file; errors name the file.
llvm::Expected<TargetDescription> readTargetDescription(llvm::StringRef path);

/// The descriptions GOpt ships, from public specifications: "h100" and
/// "h200". nullopt for another name.
std::optional<TargetDescription> getBuiltinTarget(llvm::StringRef name);
/// Their names.
std::vector<std::string> getBuiltinTargetNames();

/// The description `spec` names, as `--predict=` takes it: a builtin name
/// ("h100", "h200"), "host" (the description of this CPU at `hostPath`,
/// written by gopt-probe-target), or the path of a description file.
/// Errors say which names exist and how to measure this CPU.
llvm::Expected<TargetDescription>
resolveTargetDescription(llvm::StringRef spec, llvm::StringRef hostPath);

/// Where the description of this CPU lives: $GOPT_HOST_TARGET when set,
/// else `share/gopt/host-target.json` beside the folder of the running
/// executable (`build/bin/..`). `argv0` locates the executable.
std::string getHostTargetPath(const char *argv0);

/// Predicted time of one kernel / of a run of a program of these kernels
/// (with the fixed cost per run), ms.
double predictKernelMs(const KernelCost &kernel,
                       const TargetDescription &target);
double predictProgramMs(llvm::ArrayRef<KernelCost> kernels,
                        const TargetDescription &target);
/// Whether the kernel is limited by arithmetic rather than by memory on
/// the target (its arithmetic intensity lies beyond the ridge point).
bool isComputeBound(const KernelCost &kernel, const TargetDescription &target);

} // namespace gopt
} // namespace mlir

#endif // GOPT_SUPPORT_ROOFLINE_H
