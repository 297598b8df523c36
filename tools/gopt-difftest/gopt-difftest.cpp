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

using namespace mlir;
using namespace mlir::gopt;
namespace cl = llvm::cl;

static cl::OptionCategory category("gopt-difftest options");
static cl::list<std::string> files(cl::Positional, cl::desc("[model.mlir...]"),
                                   cl::cat(category));
static cl::opt<std::string> seeds("seeds",
                                  cl::desc("Random graphs to test: N or A-B"),
                                  cl::cat(category));
static cl::opt<int64_t> ops("ops", cl::desc("Compute ops per random graph"),
                            cl::init(40), cl::cat(category));
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

static int fail(const llvm::Twine &message) {
  llvm::errs() << "gopt-difftest: error: " << message << "\n";
  return 2;
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
  int64_t graphs = 0, failed = 0, configurations = 0, compiled = 0,
          evaluated = 0;
  auto start = std::chrono::steady_clock::now();
  auto report = [&](const std::string &what, const DiffTestResult &r) {
    ++graphs;
    configurations += r.configurations;
    compiled += r.compiled;
    evaluated += r.checkedAgainstEvaluator;
    llvm::outs() << what << ": " << (r.passed() ? "ok" : "FAIL") << " ("
                 << r.configurations << " configurations, " << r.compiled
                 << " compiled; "
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
      gen.numOps = ops;
      gen.maxRank = maxRank;
      gen.maxDimSize = maxDim;
      OwningOpRef<ModuleOp> module = generateRandomGraph(context, gen);
      std::string what = "seed " + std::to_string(seed);
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
               << " configurations (" << compiled << " compiled), " << failed
               << " failed, " << llvm::format("%.1f", seconds) << " s\n";
  return failed ? 1 : 0;
}
