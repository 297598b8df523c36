//===- gopt-exec.cpp - Run a compiled model's bundle on the GPU -----------===//
//
// Runs a bundle (GOpt/Deploy/Bundle.h) that `gopt-run --target=cuda
// --export-bundle=DIR` wrote, on a machine with an NVIDIA GPU and driver and
// no compiler: checks its results against the bundle's CPU reference, times
// it and reports device memory and copies (docs/GPU.md, "Bundles"). It
// links no LLVM or MLIR library. Logic: lib/Deploy.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Deploy/BundleRunner.h"
#include "GOpt/Runtime/CUDA.h"
#include "GOpt/Version.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>

using namespace gopt::deploy;
namespace cuda = gopt::runtime::cuda;

static const char *usage =
    "usage: gopt-exec [options] BUNDLE_DIR\n"
    "       gopt-exec --probe\n"
    "\n"
    "Runs a bundle written by gopt-run --target=cuda --export-bundle=DIR on\n"
    "this machine's GPU: checks the results against the bundle's reference,\n"
    "then times the model (copies to and from the device not included).\n"
    "\n"
    "  --warmup N          untimed runs first (default 3)\n"
    "  --reps N            timed runs (default 20)\n"
    "  --rtol X, --atol X  tolerances of the check (default 1e-3, 1e-5)\n"
    "  --copy-bytes N      bytes of the device copy timed as the bandwidth\n"
    "                      reference (default 268435456; 0: none)\n"
    "  --format F          text (default) or json\n"
    "  --report FILE       write the report there (default: stdout)\n"
    "  --write-results DIR write the results as DIR/result<i>.bin\n"
    "  --no-caching        device memory straight from the driver, no pool\n"
    "  --no-kernel-times   skip the runs that time each kernel with events\n"
    "  --cuda-graph        then run the model as one CUDA graph (captured\n"
    "                      once, replayed), checked and timed the same way\n"
    "  --probe             print the device, or why there is none; exit 0\n"
    "                      when a device is usable\n"
    "  --version, --help\n"
    "\n"
    "Exit status: 0 when every result matches, 1 on an error, 2 when a\n"
    "result differs from the reference.\n";

static int fail(const std::string &message) {
  std::fprintf(stderr, "gopt-exec: error: %s\n", message.c_str());
  return 1;
}

int main(int argc, char **argv) {
  BundleRunOptions options;
  std::string dir, format = "text", reportFile, resultsDir;
  bool probe = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::string value;
    auto takeValue = [&](const char *name) {
      std::string prefix = std::string(name) + "=";
      if (arg.rfind(prefix, 0) == 0) {
        value = arg.substr(prefix.size());
        return true;
      }
      if (arg == name) {
        if (i + 1 >= argc) {
          std::fprintf(stderr, "gopt-exec: error: %s needs a value\n", name);
          std::exit(1);
        }
        value = argv[++i];
        return true;
      }
      return false;
    };
    auto number = [&](const char *name) {
      char *end = nullptr;
      double v = std::strtod(value.c_str(), &end);
      if (value.empty() || *end) {
        std::fprintf(stderr, "gopt-exec: error: %s takes a number, got '%s'\n",
                     name, value.c_str());
        std::exit(1);
      }
      return v;
    };
    if (arg == "--help" || arg == "-h") {
      std::fputs(usage, stdout);
      return 0;
    }
    if (arg == "--version") {
      std::printf("gopt-exec (GOpt) %s\n", GOPT_VERSION_STRING);
      return 0;
    }
    if (arg == "--probe")
      probe = true;
    else if (arg == "--no-caching")
      cuda::setCachingAllocator(false);
    else if (arg == "--no-kernel-times")
      options.kernelTimes = false;
    else if (arg == "--cuda-graph")
      options.cudaGraph = true;
    else if (takeValue("--warmup"))
      options.warmup = static_cast<int>(number("--warmup"));
    else if (takeValue("--reps"))
      options.repetitions = static_cast<int>(number("--reps"));
    else if (takeValue("--rtol"))
      options.rtol = number("--rtol");
    else if (takeValue("--atol"))
      options.atol = number("--atol");
    else if (takeValue("--copy-bytes"))
      options.copyBandwidthBytes = static_cast<size_t>(number("--copy-bytes"));
    else if (takeValue("--format"))
      format = value;
    else if (takeValue("--report"))
      reportFile = value;
    else if (takeValue("--write-results"))
      resultsDir = value;
    else if (arg.rfind("-", 0) == 0)
      return fail("unknown option '" + arg + "' (--help lists them)");
    else if (dir.empty())
      dir = arg;
    else
      return fail("one bundle at a time ('" + dir + "' and '" + arg + "')");
  }
  if (probe) {
    std::string why = cuda::initialize();
    if (!why.empty()) {
      std::printf("no usable CUDA device: %s\n", why.c_str());
      return 1;
    }
    std::printf("%s (%s), driver %d\n", cuda::deviceName().c_str(),
                cuda::deviceChip().c_str(), cuda::driverVersion());
    return 0;
  }
  if (dir.empty()) {
    std::fputs(usage, stderr);
    return 1;
  }
  if (format != "text" && format != "json")
    return fail("unknown --format '" + format + "' (text or json)");
  if (options.repetitions < 1 || options.warmup < 0)
    return fail("--reps must be at least 1 and --warmup not negative");

  std::string error;
  std::unique_ptr<LoadedBundle> bundle = LoadedBundle::load(dir, error);
  if (!bundle)
    return fail(error);
  BundleReport report;
  if (!(error = bundle->run(options, report)).empty())
    return fail(error);
  if (!resultsDir.empty() &&
      !(error = bundle->writeResults(resultsDir)).empty())
    return fail(error);

  std::ofstream file;
  if (!reportFile.empty()) {
    file.open(reportFile);
    if (!file)
      return fail("cannot write " + reportFile);
  }
  std::ostream &os = reportFile.empty() ? std::cout : file;
  if (format == "json")
    printBundleReportJSON(report, os);
  else
    printBundleReport(report, os);
  if (!report.allMatch()) {
    std::fprintf(stderr,
                 "gopt-exec: results differ from the reference (rtol %g, "
                 "atol %g)\n",
                 options.rtol, options.atol);
    return 2;
  }
  return 0;
}
