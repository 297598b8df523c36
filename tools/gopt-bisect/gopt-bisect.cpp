//===- gopt-bisect.cpp - The pass, then the rewrite, that breaks a pipeline ===//
//
// gopt-bisect MODEL.mlir [--pipeline=P] [--slower]: when the pipeline makes
// the graph compute something else (or, with --slower, run slower) than the
// graph without it, prints the first pass that does it, then the first
// pattern application within that pass, with the IR before and after it and
// the gopt-opt command that reproduces it. Exit 0 when the pipeline is fine,
// 1 when a culprit was found, 2 on errors. Logic: lib/Testing/Bisect.cpp.
//
//===----------------------------------------------------------------------===//

#include "GOpt/InitAllDialects.h"
#include "GOpt/InitAllPasses.h"
#include "GOpt/Testing/Bisect.h"
#include "GOpt/Version.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace mlir::gopt;
namespace cl = llvm::cl;

static cl::OptionCategory category("gopt-bisect options");
static cl::opt<std::string> input(cl::Positional, cl::desc("<model.mlir>"),
                                  cl::Required, cl::cat(category));
static cl::opt<std::string>
    pipeline("pipeline",
             cl::desc("The graph pipeline to bisect (default gopt-optimize)"),
             cl::init("builtin.module(gopt-optimize)"), cl::cat(category));
static cl::opt<bool> slower(
    "slower",
    cl::desc("Bisect for run time: bad when the compiled graph's median "
             "latency exceeds the unoptimized graph's by more than --margin"),
    cl::init(false), cl::cat(category));
static cl::opt<double> margin("margin",
                              cl::desc("--slower: allowed slowdown (0.05: 5%)"),
                              cl::init(0.05), cl::cat(category));
static cl::opt<int> rounds("rounds",
                           cl::desc("--slower: interleaved timing rounds"),
                           cl::init(7), cl::cat(category));
static cl::opt<int> runs("runs", cl::desc("--slower: runs per round"),
                         cl::init(30), cl::cat(category));
static cl::opt<double> relTolerance("rtol", cl::desc("Relative tolerance"),
                                    cl::init(1e-4), cl::cat(category));
static cl::opt<double> absTolerance("atol", cl::desc("Absolute tolerance"),
                                    cl::init(1e-5), cl::cat(category));
static cl::opt<uint64_t> inputSeed("input-seed",
                                   cl::desc("Seed of the random inputs"),
                                   cl::init(0), cl::cat(category));
static cl::opt<bool> quiet("quiet", cl::desc("No line per check"),
                           cl::init(false), cl::cat(category));

static int fail(const llvm::Twine &message) {
  llvm::errs() << "gopt-bisect: error: " << message << "\n";
  return 2;
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  cl::HideUnrelatedOptions(category);
  mlir::gopt::setGOptVersionPrinter("gopt-bisect");
  cl::ParseCommandLineOptions(
      argc, argv,
      "gopt-bisect: the first pass, then the first rewrite, that makes a "
      "pipeline wrong or slower\n");
  if (margin < 0)
    return fail("--margin must be non-negative");
  if (rounds < 1 || runs < 1)
    return fail("--rounds and --runs must be at least 1");

  DialectRegistry registry;
  gopt::registerAllDialects(registry);
  gopt::registerAllPasses();
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  std::string error;
  auto file = openInputFile(input, &error);
  if (!file)
    return fail(error);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return fail("cannot parse " + input);

  BisectOptions options;
  options.pipeline = pipeline;
  options.criterion = slower ? BisectCriterion::Slower : BisectCriterion::Wrong;
  options.rtol = relTolerance;
  options.atol = absTolerance;
  options.inputSeed = inputSeed;
  options.slowerMargin = margin;
  options.rounds = rounds;
  options.runsPerRound = runs;
  options.progress = quiet ? nullptr : &llvm::outs();
  auto result = bisectPipeline(*module, options);
  if (!result)
    return fail(llvm::toString(result.takeError()));
  printBisectResult(*result, input, options, llvm::outs());
  return result->bad ? 1 : 0;
}
