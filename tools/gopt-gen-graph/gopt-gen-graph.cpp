//===- gopt-gen-graph.cpp - Write a seeded random gopt graph --------------===//
//
// gopt-gen-graph --seed=N --ops=K -o file.mlir: the graph gopt-difftest
// tests for that seed (docs/Testing.md). Logic: lib/Testing/RandomGraph.cpp.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Dialect/GOpt/IR/GOptDialect.h"
#include "GOpt/Testing/RandomGraph.h"
#include "GOpt/Version.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory category("gopt-gen-graph options");
static cl::opt<uint64_t> seed("seed", cl::desc("Generator seed"), cl::init(0),
                              cl::cat(category));
static cl::opt<int64_t> ops("ops", cl::desc("Compute ops to generate"),
                            cl::init(40), cl::cat(category));
static cl::opt<int64_t> maxRank("max-rank", cl::desc("Largest rank (1-6)"),
                                cl::init(4), cl::cat(category));
static cl::opt<int64_t> maxDim("max-dim", cl::desc("Largest dimension size"),
                               cl::init(8), cl::cat(category));
static cl::opt<std::string> output("o", cl::desc("Output file"),
                                   cl::value_desc("file"), cl::init("-"),
                                   cl::cat(category));

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  cl::HideUnrelatedOptions(category);
  mlir::gopt::setGOptVersionPrinter("gopt-gen-graph");
  cl::ParseCommandLineOptions(argc, argv,
                              "gopt-gen-graph: a seeded random gopt graph\n");
  MLIRContext context;
  context.loadDialect<gopt::GOptDialect, func::FuncDialect>();
  gopt::RandomGraphOptions options;
  options.seed = seed;
  options.numOps = ops;
  options.maxRank = maxRank;
  options.maxDimSize = maxDim;
  OwningOpRef<ModuleOp> module = gopt::generateRandomGraph(context, options);
  if (!module)
    return 1;
  std::string error;
  auto out = openOutputFile(output, &error);
  if (!out) {
    llvm::errs() << "gopt-gen-graph: error: " << error << "\n";
    return 1;
  }
  out->os() << "// gopt-gen-graph --seed=" << seed << " --ops=" << ops
            << " --max-rank=" << maxRank << " --max-dim=" << maxDim << "\n";
  module->print(out->os());
  out->os() << "\n";
  out->keep();
  return 0;
}
