//===- gopt-run.cpp - Compile, run and measure a gopt graph ---------------===//
//
// Takes a module at any stage (gopt IR, optimized or not), lowers and JITs
// it, feeds inputs (.npy files or seeded random data), runs warm-ups then
// timed repetitions, and reports latency, memory, kernels and compile time;
// compares outputs with references (docs/Runner.md). Logic: lib/Runner.
//
//===----------------------------------------------------------------------===//

#include "GOpt/InitAllDialects.h"
#include "GOpt/InitAllPasses.h"
#include "GOpt/Runner/Runner.h"
#include "GOpt/Runner/ThreadsOption.h"
#include "GOpt/Version.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

#include <iostream>

using namespace mlir;
using namespace mlir::gopt;
namespace cl = llvm::cl;

static cl::OptionCategory category("gopt-run options");

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<model.mlir>"),
                                      cl::init("-"), cl::cat(category));
static cl::opt<std::string> entry("entry",
                                  cl::desc("Function to run (default: main, "
                                           "or the only public function)"),
                                  cl::cat(category));
static cl::opt<std::string>
    pipeline("pipeline",
             cl::desc("Graph pass pipeline to run before lowering, e.g. "
                      "gopt-optimize (default: none, run the IR as given)"),
             cl::cat(category));
static cl::opt<std::string>
    loweringOptions("lowering-options",
                    cl::desc("Options of gopt-lower-to-llvm, e.g. "
                             "\"vectorize=false\""),
                    cl::cat(category));
static cl::opt<bool> kernelTimers("kernel-timers",
                                  cl::desc("Time every kernel (default on)"),
                                  cl::init(true), cl::cat(category));
static cl::list<std::string>
    inputs("inputs", cl::desc("Input .npy files, one per argument"),
           cl::CommaSeparated, cl::cat(category));
static cl::opt<uint64_t> seed("seed",
                              cl::desc("Seed of the random inputs used when "
                                       "no --inputs are given"),
                              cl::init(0), cl::cat(category));
static cl::opt<int> warmup("warmup", cl::desc("Untimed runs first"),
                           cl::init(3), cl::cat(category));
static cl::opt<int> reps("reps",
                         cl::desc("Timed runs (0: run once, no timing)"),
                         cl::init(20), cl::cat(category));
static cl::list<std::string>
    expect("expect", cl::desc("Reference .npy files, one per result"),
           cl::CommaSeparated, cl::cat(category));
static cl::opt<double> relTolerance("rtol", cl::desc("Relative tolerance of --expect"),
                            cl::init(1e-4), cl::cat(category));
static cl::opt<double> absTolerance("atol", cl::desc("Absolute tolerance of --expect"),
                            cl::init(1e-5), cl::cat(category));
static cl::opt<std::string>
    outputDir("output-dir",
              cl::desc("Write the results as <dir>/result<i>.npy (and the "
                       "inputs used as <dir>/input<i>.npy)"),
              cl::cat(category));
static cl::list<std::string>
    outputFiles("outputs",
                cl::desc("Write the results to these .npy files, one per "
                         "result"),
                cl::CommaSeparated, cl::cat(category));
static cl::opt<std::string>
    format("format", cl::desc("Report format: table or json"),
           cl::init("table"), cl::cat(category));
static cl::opt<std::string> reportFile("report",
                                       cl::desc("Write the report here "
                                                "(default: stdout)"),
                                       cl::init("-"), cl::cat(category));

static cl::opt<bool>
    serve("serve",
          cl::desc("After compiling (and --outputs/--expect), keep the graph "
                   "loaded and answer timing requests on stdin: 'run N' "
                   "prints one JSON line of N run times, 'quit' ends "
                   "(docs/Runner.md)"),
          cl::init(false), cl::cat(category));

static int fail(const llvm::Twine &message) {
  llvm::errs() << "gopt-run: error: " << message << "\n";
  return 1;
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  cl::opt<int> &threads = adoptThreadsOption(category);
  cl::HideUnrelatedOptions(category);
  mlir::gopt::setGOptVersionPrinter("gopt-run");
  cl::ParseCommandLineOptions(argc, argv,
                              "gopt-run: compile, run and measure a gopt "
                              "graph on this CPU\n");
  if (format != "table" && format != "json")
    return fail("unknown --format '" + format + "' (table or json)");
  if (reps < 0 || warmup < 0)
    return fail("--reps and --warmup must not be negative");

  auto usedThreads = applyThreadsOption("gopt-run", threads);
  if (!usedThreads)
    return fail(llvm::toString(usedThreads.takeError()));

  DialectRegistry registry;
  gopt::registerAllDialects(registry);
  gopt::registerAllPasses();
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  std::string error;
  auto file = openInputFile(inputFile, &error);
  if (!file)
    return fail(error);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return fail("cannot parse " + inputFile);

  CompileOptions compileOptions;
  compileOptions.entry = entry;
  compileOptions.graphPipeline = pipeline;
  compileOptions.loweringOptions = loweringOptions;
  compileOptions.kernelTimers = kernelTimers;
  auto graph = CompiledGraph::compile(*module, compileOptions);
  if (!graph)
    return fail(llvm::toString(graph.takeError()));

  // Inputs: the files given, else seeded random data.
  std::vector<HostTensor> args;
  if (!inputs.empty()) {
    for (const std::string &path : inputs) {
      auto tensor = readNpy(path);
      if (!tensor)
        return fail(llvm::toString(tensor.takeError()));
      args.push_back(std::move(*tensor));
    }
  } else {
    args = (*graph)->makeRandomInputs(seed);
  }

  // Code that traps on these inputs is reported, not run in this process.
  if (llvm::Error error = (*graph)->checkRunsWithoutTrapping(args))
    return fail(llvm::toString(std::move(error)));
  auto outputs = (*graph)->run(args);
  if (!outputs)
    return fail(llvm::toString(outputs.takeError()));

  if (!outputDir.empty()) {
    if (std::error_code ec = llvm::sys::fs::create_directories(outputDir))
      return fail("cannot create " + outputDir + ": " + ec.message());
    auto write = [&](llvm::StringRef stem, size_t i, const HostTensor &t) {
      llvm::SmallString<128> path(outputDir);
      llvm::sys::path::append(path, stem + llvm::Twine(i) + ".npy");
      return writeNpy(path, t);
    };
    for (auto [i, t] : llvm::enumerate(*outputs))
      if (llvm::Error e = write("result", i, t))
        return fail(llvm::toString(std::move(e)));
    for (auto [i, t] : llvm::enumerate(args))
      if (llvm::Error e = write("input", i, t))
        return fail(llvm::toString(std::move(e)));
  }

  if (!outputFiles.empty()) {
    if (outputFiles.size() != outputs->size())
      return fail("--outputs names " + llvm::Twine(outputFiles.size()) +
                  " files; @" + (*graph)->getEntry() + " has " +
                  llvm::Twine(outputs->size()) + " results");
    for (auto [path, t] : llvm::zip(outputFiles, *outputs))
      if (llvm::Error e = writeNpy(path, t))
        return fail(llvm::toString(std::move(e)));
  }

  bool mismatch = false;
  if (!expect.empty()) {
    if (expect.size() != outputs->size())
      return fail("--expect names " + llvm::Twine(expect.size()) +
                  " files; @" + (*graph)->getEntry() + " has " +
                  llvm::Twine(outputs->size()) + " results");
    for (auto [i, path] : llvm::enumerate(expect)) {
      auto reference = readNpy(path);
      if (!reference)
        return fail(llvm::toString(reference.takeError()));
      TensorComparison c = compareTensors((*outputs)[i], *reference, relTolerance, absTolerance);
      llvm::errs() << "result #" << i << " vs " << path << ": "
                   << (c.matches ? "match" : "MISMATCH") << " ("
                   << c.mismatches << " of "
                   << (*outputs)[i].getNumElements()
                   << llvm::format(" elements outside rtol=%g atol=%g, max abs "
                                   "error %g)",
                                   relTolerance.getValue(),
                                   absTolerance.getValue(), c.maxAbsError);
      if (!c.matches)
        llvm::errs() << ": " << c.detail;
      llvm::errs() << "\n";
      mismatch |= !c.matches;
    }
  }

  if (serve) {
    if (mismatch)
      return fail("results differ from the references");
    if (llvm::Error error = serveGraph(**graph, args, std::cin, llvm::outs()))
      return fail(llvm::toString(std::move(error)));
    return 0;
  }

  if (reps > 0) {
    MeasureOptions measureOptions;
    measureOptions.warmup = warmup;
    measureOptions.repetitions = reps;
    auto report = measureGraph(**graph, args, measureOptions);
    if (!report)
      return fail(llvm::toString(report.takeError()));
    auto out = openOutputFile(reportFile, &error);
    if (!out)
      return fail(error);
    if (format == "json")
      out->os() << llvm::formatv("{0:2}",
                                 llvm::json::Value(report->toJSON()))
                << "\n";
    else
      printRunReport(*report, out->os());
    out->keep();
  }
  if (mismatch)
    return fail("results differ from the references");
  return 0;
}
