//===- gopt-probe-target.cpp - Measure this CPU for the roofline model ----===//
//
// Writes the roofline description of this CPU that `gopt-explore
// --predict=host` reads (docs/Explore.md, "Prediction for hardware not at
// hand"); scripts/setup.sh runs it once after the build. `--print=NAME`
// prints a description GOpt ships, to start a file for another target from.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Analysis/PassMeasurement.h"
#include "GOpt/InitAllDialects.h"
#include "GOpt/Runner/TargetProbe.h"
#include "GOpt/Runner/ThreadsOption.h"
#include "GOpt/Runtime/Runtime.h"
#include "GOpt/Version.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
using namespace mlir::gopt;
namespace cl = llvm::cl;

static cl::OptionCategory category("gopt-probe-target options");
static cl::opt<std::string>
    outputFile("o",
               cl::desc("Write the description here (default: where "
                        "gopt-explore --predict=host looks; - for stdout)"),
               cl::value_desc("file"), cl::cat(category));
static cl::opt<bool> ifMissing(
    "if-missing",
    cl::desc("Measure nothing when the output already describes this CPU at "
             "this thread count"),
    cl::cat(category));
static cl::opt<double>
    seconds("seconds", cl::desc("Seconds spent on each figure (default 0.3)"),
            cl::init(0.3), cl::cat(category));
static cl::opt<std::string> printTarget(
    "print", cl::desc("Print a description GOpt ships (h100, h200) and exit"),
    cl::value_desc("name"), cl::cat(category));

static int fail(const llvm::Twine &message) {
  llvm::errs() << "gopt-probe-target: error: " << message << "\n";
  return 1;
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  cl::opt<int> &threads = adoptThreadsOption(category);
  cl::HideUnrelatedOptions(category);
  setGOptVersionPrinter("gopt-probe-target");
  cl::ParseCommandLineOptions(
      argc, argv,
      "gopt-probe-target: measure this CPU's peak FLOP/s, bandwidth and cost "
      "per kernel for gopt-explore --predict\n");

  if (!printTarget.empty()) {
    std::optional<TargetDescription> builtin = getBuiltinTarget(printTarget);
    if (!builtin)
      return fail("no description named '" + printTarget +
                  "' ships with "
                  "GOpt (h100, h200); this CPU's: gopt-probe-target -o -");
    llvm::outs() << llvm::formatv("{0:2}", llvm::json::Value(toJSON(*builtin)))
                 << "\n";
    return 0;
  }
  if (!(seconds > 0))
    return fail("--seconds must be positive");
  auto usedThreads = applyThreadsOption("gopt-probe-target", threads);
  if (!usedThreads)
    return fail(llvm::toString(usedThreads.takeError()));

  std::string path =
      outputFile.empty() ? getHostTargetPath(argv[0]) : outputFile.getValue();
  if (ifMissing && path != "-" && llvm::sys::fs::exists(path)) {
    auto existing = readTargetDescription(path);
    if (existing && existing->kind == "cpu" &&
        existing->device == getHostCPUModel() &&
        existing->threads == runtime::getLibraryThreads()) {
      llvm::errs() << "gopt-probe-target: " << path
                   << " already describes this CPU\n";
      return 0;
    }
  }
  if (path != "-")
    if (std::error_code ec = llvm::sys::fs::create_directories(
            llvm::sys::path::parent_path(path)))
      return fail("cannot create the folder of " + path + ": " + ec.message());
  std::error_code ec;
  llvm::ToolOutputFile out(path, ec, llvm::sys::fs::OF_Text);
  if (ec)
    return fail("cannot write " + path + ": " + ec.message());

  DialectRegistry registry;
  gopt::registerAllDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  TargetProbeOptions options;
  options.secondsPerFigure = seconds;
  auto target = probeHostTarget(context, options, [](llvm::StringRef figure) {
    llvm::errs() << "gopt-probe-target: measuring " << figure << "\n";
  });
  if (!target)
    return fail(llvm::toString(target.takeError()));
  out.os() << llvm::formatv("{0:2}", llvm::json::Value(toJSON(*target)))
           << "\n";
  out.keep();
  llvm::errs() << llvm::formatv(
      "gopt-probe-target: {0}: {1:f1} GFLOP/s, {2:f1} GB/s ({3:f1} GB/s "
      "within {4} KiB), {5:f2} us per kernel{6}\n",
      target->device, target->peakGflops, target->bandwidthGBs,
      target->cacheBandwidthGBs, target->cacheBytes >> 10,
      target->launchOverheadUs, path == "-" ? "" : " -> " + path);
  return 0;
}
