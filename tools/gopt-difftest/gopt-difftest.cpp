//===- gopt-difftest.cpp - Differential testing of the graph passes -------===//
//
// For each seed of --seeds (a random graph of --ops ops) and each .mlir file
// given: compile with no graph pass, then with every subset of {gopt-fold,
// gopt-dce, cse, gopt-fuse} and gopt-optimize, run all on the same inputs and
// compare (docs/Testing.md). Exit 1 on any mismatch or failure. Logic:
// lib/Testing.
//
//===----------------------------------------------------------------------===//

#include "GOpt/InitAllDialects.h"
#include "GOpt/InitAllPasses.h"
#include "GOpt/Testing/DiffTest.h"
#include "GOpt/Testing/RandomGraph.h"
#include "GOpt/Version.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"

#include <chrono>
#include <random>

using namespace mlir;
using namespace mlir::gopt;
namespace cl = llvm::cl;

static cl::OptionCategory category("gopt-difftest options");
static cl::list<std::string> files(cl::Positional, cl::desc("[model.mlir...]"),
                                   cl::cat(category));
static cl::opt<std::string> seeds("seeds",
                                  cl::desc("Random graphs to test: N or A-B"),
                                  cl::cat(category));
static cl::opt<std::string>
    ops("ops",
        cl::desc("Compute ops per random graph: N, or A-B for a number drawn "
                 "per seed"),
        cl::init("40"), cl::cat(category));
static cl::opt<int64_t> maxRank("max-rank", cl::desc("Largest rank (1-6)"),
                                cl::init(4), cl::cat(category));
static cl::opt<int64_t> maxDim("max-dim", cl::desc("Largest dimension size"),
                               cl::init(8), cl::cat(category));
static cl::opt<uint64_t> inputSeed("input-seed",
                                   cl::desc("Seed of the random inputs"),
                                   cl::init(0), cl::cat(category));
static cl::opt<double> relTolerance("rtol", cl::desc("Relative tolerance"),
                                    cl::init(1e-4), cl::cat(category));
static cl::opt<double> absTolerance("atol", cl::desc("Absolute tolerance"),
                                    cl::init(1e-5), cl::cat(category));

static cl::opt<unsigned> optLevel(
    "opt-level",
    cl::desc("LLVM optimization level of the compiled code, 0-3 (lower "
             "compiles faster; the graph passes are checked the same)"),
    cl::init(3), cl::cat(category));

static cl::opt<bool> compileAll(
    "compile-all",
    cl::desc("Compile and run every configuration (default); with "
             "--compile-all=false only the reference and gopt-optimize are "
             "compiled, the others checked by the constant evaluator alone"),
    cl::init(true), cl::cat(category));

static cl::opt<bool> emulateGPU(
    "gpu-emulated",
    cl::desc("Also run each graph as the GPU pipeline maps it, its kernels "
             "emulated on the CPU thread by thread (gopt-run "
             "--target=cuda-emulated), unoptimized and after gopt-optimize"),
    cl::init(false), cl::cat(category));
static cl::opt<std::string>
    nvvmOptions("nvvm-options",
                cl::desc("--gpu-emulated: options of gopt-lower-to-nvvm, "
                         "e.g. \"block-size=32 emulate-reverse-threads\""),
                cl::cat(category));

static int fail(const llvm::Twine &message) {
  llvm::errs() << "gopt-difftest: error: " << message << "\n";
  return 2;
}

/// The op count of seed `seed` within [first, last]: a function of the seed
/// alone, so one seed is reproduced with the same --ops range.
static int64_t pickOpCount(uint64_t seed,
                           std::pair<uint64_t, uint64_t> range) {
  if (range.first == range.second)
    return range.first;
  std::mt19937_64 rng(seed ^ 0x9e3779b97f4a7c15ull);
  return range.first + rng() % (range.second - range.first + 1);
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  cl::HideUnrelatedOptions(category);
  mlir::gopt::setGOptVersionPrinter("gopt-difftest");
  cl::ParseCommandLineOptions(
      argc, argv,
      "gopt-difftest: graph passes must not change what a graph computes\n");
  if (seeds.empty() && files.empty())
    return fail("nothing to test: give --seeds=A-B and/or .mlir files");
  if (optLevel > 3)
    return fail("--opt-level=" + llvm::Twine(optLevel) + " is not one of 0-3");
  auto opsRange = parseSeedRange(ops);
  if (!opsRange)
    llvm::consumeError(opsRange.takeError()); // reported in --ops's terms
  if (!opsRange || opsRange->first < 1)
    return fail("bad --ops '" + ops + "': expected N or A-B with 1 <= A <= B");
  std::optional<std::pair<uint64_t, uint64_t>> range;
  if (!seeds.empty()) {
    auto parsed = parseSeedRange(seeds);
    if (!parsed)
      return fail(llvm::toString(parsed.takeError()));
    range = *parsed;
  }

  DialectRegistry registry;
  gopt::registerAllDialects(registry);
  gopt::registerAllPasses();
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  context.disableMultithreading();

  DiffTestOptions options;
  options.rtol = relTolerance;
  options.atol = absTolerance;
  options.inputSeed = inputSeed;
  options.codegenOptLevel = optLevel;
  options.compileEveryConfiguration = compileAll;
  options.emulateGPU = emulateGPU;
  options.nvvmOptions = nvvmOptions;
  int64_t graphs = 0, failed = 0, configurations = 0, compiled = 0,
          evaluated = 0, evaluatedConfigurations = 0;
  auto start = std::chrono::steady_clock::now();
  auto report = [&](const std::string &what, const DiffTestResult &r) {
    ++graphs;
    configurations += r.configurations;
    compiled += r.compiled;
    evaluatedConfigurations += r.evaluated;
    evaluated += r.checkedAgainstEvaluator;
    llvm::outs() << what << ": " << (r.passed() ? "ok" : "FAIL") << " ("
                 << r.configurations << " configurations, " << r.compiled
                 << " compiled, " << r.evaluated << " evaluated; "
                 << (r.checkedAgainstEvaluator
                         ? std::string("checked against the evaluator")
                         : "no evaluator reference: " + r.evaluatorSkipped)
                 << ")\n";
    for (const std::string &f : r.failures)
      llvm::outs() << "  MISMATCH " << what << " " << f << "\n";
    failed += !r.passed();
    llvm::outs().flush();
  };

  if (range) {
    for (uint64_t seed = range->first;; ++seed) {
      RandomGraphOptions gen;
      gen.seed = seed;
      gen.numOps = pickOpCount(seed, *opsRange);
      gen.maxRank = maxRank;
      gen.maxDimSize = maxDim;
      OwningOpRef<ModuleOp> module = generateRandomGraph(context, gen);
      std::string what = "seed " + std::to_string(seed);
      if (opsRange->first != opsRange->second)
        what += " (" + std::to_string(gen.numOps) + " ops)";
      if (!module) {
        DiffTestResult r;
        r.failures.push_back("generator: no valid module");
        report(what, r);
      } else {
        report(what, runDiffTest(*module, options));
      }
      if (seed == range->second)
        break;
    }
  }
  for (const std::string &path : files) {
    std::string error;
    auto file = openInputFile(path, &error);
    if (!file)
      return fail(error);
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
    SourceMgrDiagnosticHandler handler(sourceMgr, &context);
    OwningOpRef<ModuleOp> module =
        parseSourceFile<ModuleOp>(sourceMgr, &context);
    if (!module)
      return fail("cannot parse " + path);
    report(path, runDiffTest(*module, options));
  }
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  llvm::outs() << "difftest: " << graphs << " graphs (" << evaluated
               << " checked against the evaluator), " << configurations
               << " configurations (" << compiled << " compiled, "
               << evaluatedConfigurations << " evaluated), " << failed
               << " failed, " << llvm::format("%.1f", seconds) << " s\n";
  return failed ? 1 : 0;
}
