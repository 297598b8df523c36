//===- Roofline.cpp - Predicting run time on hardware not at hand ---------===//

#include "GOpt/Support/Roofline.h"
#include "GOpt/Support/Error.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::gopt;

llvm::json::Object mlir::gopt::toJSON(const TargetDescription &target) {
  llvm::json::Object object{
      {"name", target.name},
      {"kind", target.kind},
      {"device", target.device},
      {"peak_gflops", target.peakGflops},
      {"bandwidth_gbs", target.bandwidthGBs},
      {"launch_overhead_us", target.launchOverheadUs},
      {"source", target.source},
  };
  if (target.runOverheadUs > 0)
    object["run_overhead_us"] = target.runOverheadUs;
  if (target.cacheBytes > 0) {
    object["cache_bytes"] = target.cacheBytes;
    object["cache_bandwidth_gbs"] = target.cacheBandwidthGBs;
  }
  if (target.threads > 0)
    object["threads"] = target.threads;
  return object;
}

llvm::Expected<TargetDescription>
mlir::gopt::parseTargetDescription(const llvm::json::Value &value) {
  const llvm::json::Object *object = value.getAsObject();
  if (!object)
    return makeError("a target description is a JSON object");
  TargetDescription target;
  auto text = [&](llvm::StringRef key, std::string &out) -> llvm::Error {
    std::optional<llvm::StringRef> s = object->getString(key);
    if (!s || s->empty())
      return makeError("target description: \"" + key +
                       "\" must be a non-empty string");
    out = s->str();
    return llvm::Error::success();
  };
  auto positive = [&](llvm::StringRef key, double &out) -> llvm::Error {
    std::optional<double> x = object->getNumber(key);
    if (!x || !(*x > 0))
      return makeError("target description: \"" + key +
                       "\" must be a positive number");
    out = *x;
    return llvm::Error::success();
  };
  if (auto e = text("name", target.name))
    return std::move(e);
  if (auto e = text("kind", target.kind))
    return std::move(e);
  if (target.kind != "cpu" && target.kind != "gpu")
    return makeError("target description: \"kind\" must be \"cpu\" or "
                     "\"gpu\", not \"" +
                     target.kind + "\"");
  if (auto e = text("device", target.device))
    return std::move(e);
  if (auto e = positive("peak_gflops", target.peakGflops))
    return std::move(e);
  if (auto e = positive("bandwidth_gbs", target.bandwidthGBs))
    return std::move(e);
  std::optional<double> launch = object->getNumber("launch_overhead_us");
  if (!launch || *launch < 0)
    return makeError("target description: \"launch_overhead_us\" must be a "
                     "number of microseconds, 0 or more");
  target.launchOverheadUs = *launch;
  if (const llvm::json::Value *run = object->get("run_overhead_us")) {
    std::optional<double> us = run->getAsNumber();
    if (!us || *us < 0)
      return makeError("target description: \"run_overhead_us\" must be a "
                       "number of microseconds, 0 or more");
    target.runOverheadUs = *us;
  }
  if (object->get("cache_bytes") || object->get("cache_bandwidth_gbs")) {
    std::optional<int64_t> bytes = object->getInteger("cache_bytes");
    if (!bytes || *bytes <= 0)
      return makeError("target description: \"cache_bytes\" must be a "
                       "positive integer when a cache level is described");
    target.cacheBytes = *bytes;
    if (auto e = positive("cache_bandwidth_gbs", target.cacheBandwidthGBs))
      return std::move(e);
  }
  if (const llvm::json::Value *threads = object->get("threads")) {
    std::optional<int64_t> n = threads->getAsInteger();
    if (!n || *n <= 0)
      return makeError("target description: \"threads\" must be a positive "
                       "integer");
    target.threads = static_cast<int>(*n);
  }
  if (std::optional<llvm::StringRef> source = object->getString("source"))
    target.source = source->str();
  return target;
}

llvm::Expected<TargetDescription>
mlir::gopt::readTargetDescription(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return makeError("cannot read target description '" + path +
                     "': " + buffer.getError().message());
  llvm::Expected<llvm::json::Value> value =
      llvm::json::parse((*buffer)->getBuffer());
  if (!value)
    return makeError("target description '" + path +
                     "' is not JSON: " + llvm::toString(value.takeError()));
  auto target = parseTargetDescription(*value);
  if (!target)
    return makeError("'" + path + "': " + llvm::toString(target.takeError()));
  return target;
}

/// NVIDIA's datasheets (H100 Tensor Core GPU, SXM5; H200 Tensor Core GPU,
/// SXM): f32 on the CUDA cores (GOpt computes f32 without TF32, so the
/// tensor cores' figures do not apply) and HBM bandwidth. The launch
/// overhead is not a datasheet figure: 3 us is the usual cost of a small
/// kernel launched back to back on one stream through the driver.
static TargetDescription makeNvidiaTarget(llvm::StringRef name,
                                          llvm::StringRef device,
                                          double bandwidthGBs,
                                          llvm::StringRef datasheet) {
  TargetDescription target;
  target.name = name.str();
  target.kind = "gpu";
  target.device = device.str();
  target.peakGflops = 67000;
  target.bandwidthGBs = bandwidthGBs;
  target.launchOverheadUs = 3;
  target.source = (datasheet + ": 67 TFLOP/s f32 (CUDA cores, no TF32), " +
                   llvm::Twine(static_cast<int>(bandwidthGBs)) +
                   " GB/s HBM; 3 us per launch is typical, not a datasheet "
                   "figure")
                      .str();
  return target;
}

std::optional<TargetDescription>
mlir::gopt::getBuiltinTarget(llvm::StringRef name) {
  if (name == "h100")
    return makeNvidiaTarget("h100", "NVIDIA H100 SXM5 80GB", 3350,
                            "NVIDIA H100 Tensor Core GPU datasheet (SXM5)");
  if (name == "h200")
    return makeNvidiaTarget("h200", "NVIDIA H200 SXM 141GB", 4800,
                            "NVIDIA H200 Tensor Core GPU datasheet (SXM)");
  return std::nullopt;
}

std::vector<std::string> mlir::gopt::getBuiltinTargetNames() {
  return {"h100", "h200"};
}

llvm::Expected<TargetDescription>
mlir::gopt::resolveTargetDescription(llvm::StringRef spec,
                                     llvm::StringRef hostPath) {
  if (std::optional<TargetDescription> builtin = getBuiltinTarget(spec))
    return *builtin;
  if (spec == "host") {
    if (!llvm::sys::fs::exists(hostPath))
      return makeError("no description of this CPU at '" + hostPath +
                       "': measure one with `gopt-probe-target -o " + hostPath +
                       "` (scripts/setup.sh does after the build)");
    auto host = readTargetDescription(hostPath);
    if (!host)
      return host.takeError();
    if (host->kind != "cpu")
      return makeError("'" + hostPath + "' describes a " + host->kind +
                       ", not this CPU");
    host->name = "host";
    return host;
  }
  if (spec.ends_with(".json") || spec.contains('/'))
    return readTargetDescription(spec);
  std::string names;
  for (const std::string &name : getBuiltinTargetNames())
    names += name + ", ";
  return makeError("unknown target '" + spec + "' (" + names +
                   "host, or a description file ending in .json)");
}

std::string mlir::gopt::getHostTargetPath(const char *argv0) {
  if (std::optional<std::string> env =
          llvm::sys::Process::GetEnv("GOPT_HOST_TARGET"))
    if (!env->empty())
      return *env;
  static int anchor;
  std::string executable =
      llvm::sys::fs::getMainExecutable(argv0, static_cast<void *>(&anchor));
  llvm::SmallString<256> path(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(executable)));
  llvm::sys::path::append(path, "share", "gopt", "host-target.json");
  return std::string(path);
}

/// The bandwidth a kernel moving `bytes` sees on `target`.
static double bandwidthFor(int64_t bytes, const TargetDescription &target) {
  if (target.cacheBytes > 0 && bytes <= target.cacheBytes)
    return target.cacheBandwidthGBs;
  return target.bandwidthGBs;
}

double mlir::gopt::predictKernelMs(const KernelCost &kernel,
                                   const TargetDescription &target) {
  double computeMs =
      static_cast<double>(kernel.flops) / (target.peakGflops * 1e6);
  double memoryMs = static_cast<double>(kernel.bytes) /
                    (bandwidthFor(kernel.bytes, target) * 1e6);
  return std::max(computeMs, memoryMs) + target.launchOverheadUs * 1e-3;
}

double mlir::gopt::predictProgramMs(llvm::ArrayRef<KernelCost> kernels,
                                    const TargetDescription &target) {
  double ms = target.runOverheadUs * 1e-3;
  for (const KernelCost &kernel : kernels)
    ms += predictKernelMs(kernel, target);
  return ms;
}

bool mlir::gopt::isComputeBound(const KernelCost &kernel,
                                const TargetDescription &target) {
  return static_cast<double>(kernel.flops) / target.peakGflops >
         static_cast<double>(kernel.bytes) / bandwidthFor(kernel.bytes, target);
}
