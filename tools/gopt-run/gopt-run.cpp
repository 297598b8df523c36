//===- gopt-run.cpp - Compile, run and measure a gopt graph ---------------===//
//
// Takes a module at any stage (gopt IR, optimized or not) or an ONNX model
// (imported first, lib/Import/ONNX), lowers and JITs it, feeds inputs (.npy
// files or seeded random data), runs warm-ups then timed repetitions, and
// reports latency, memory, kernels and compile time; compares outputs with
// references (docs/Runner.md). Logic: lib/Runner.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Import/ONNX/ONNXImporter.h"
#include "GOpt/InitAllDialects.h"
#include "GOpt/InitAllPasses.h"
#include "GOpt/Runner/LoadTest.h"
#include "GOpt/Runner/LocalBundle.h"
#include "GOpt/Runner/Runner.h"
#include "GOpt/Runner/ThreadsOption.h"
#include "GOpt/Support/Error.h"
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

#include <chrono>
#include <iostream>
#include <sstream>

using namespace mlir;
using namespace mlir::gopt;
namespace cl = llvm::cl;

static cl::OptionCategory category("gopt-run options");

/// What importing an .onnx model took (ms; 0 for an MLIR file).
static double importMs = 0;

static cl::opt<std::string> inputFile(cl::Positional,
                                      cl::desc("<model.mlir | model.onnx>"),
                                      cl::init("-"), cl::cat(category));
static cl::list<std::string> inputShapes(
    "input-shape",
    cl::desc("An .onnx model: the static shape of a graph input, "
             "NAME=D0xD1x... (repeatable; required for dynamic dims, as in "
             "gopt-import-onnx)"),
    cl::cat(category));
static cl::list<std::string> namedDims(
    "dim",
    cl::desc("An .onnx model: the size of a named dynamic dimension, NAME=N "
             "(every input dimension the model names NAME takes it; "
             "repeatable, as in gopt-import-onnx)"),
    cl::cat(category));
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
static cl::opt<unsigned> optLevel(
    "opt-level",
    cl::desc("LLVM optimization level of the CPU code, 0-3 (default 3; "
             "lower compiles faster, runs slower: docs/Runner.md)"),
    cl::init(3), cl::cat(category));
static cl::opt<unsigned> codegenThreads(
    "codegen-threads",
    cl::desc("Threads compiling the CPU code, the module split into as many "
             "partitions (0, the default: one per core)"),
    cl::init(0), cl::cat(category));
static cl::opt<bool> passTiming(
    "pass-timing",
    cl::desc("Print MLIR's timing report of the graph passes and of the "
             "lowering (wall time per pass) to stderr"),
    cl::init(false), cl::cat(category));
static cl::opt<std::string> cacheDir(
    "cache-dir",
    cl::desc("Compile cache folder: a program compiled before (the same IR "
             "after the graph passes, options, CPU and build) is loaded "
             "instead of lowered and compiled again (default: no cache)"),
    cl::cat(category));
static cl::opt<uint64_t> cacheLimitMiB(
    "cache-limit-mb",
    cl::desc("Bound on the --cache-dir folder, MiB: least recently used "
             "programs are removed past it (default 256)"),
    cl::init(kDefaultObjectCacheLimitBytes >> 20), cl::cat(category));
static cl::opt<unsigned> warmCompiles(
    "warm-compiles",
    cl::desc("Import and compile the model this many times first and drop "
             "the results (no compile cache): the compile reported is then "
             "a warm process's, without the one-off costs a fresh one pays "
             "(default 0; docs/Runner.md, \"Cold and warm compiles\")"),
    cl::init(0), cl::cat(category));
static cl::opt<bool> verifyEach(
    "verify-each",
    cl::desc("Verify the IR after every graph and lowering pass, so a pass "
             "that breaks it is named (default: once after each pipeline, "
             "which compiles faster)"),
    cl::init(false), cl::cat(category));
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
static cl::opt<int> steadyRuns(
    "steady-runs",
    cl::desc("Untimed runs after the warm-up: the report gives the "
             "allocator's water level (bytes held from the system) after "
             "all of them, next to the first run's"),
    cl::init(0), cl::cat(category));
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

static cl::opt<std::string>
    target("target",
           cl::desc("Where the code runs: cpu (default), cuda (an NVIDIA "
                    "GPU, through a bundle: docs/GPU.md) or cuda-emulated "
                    "(the GPU's kernels run on this CPU thread by thread, "
                    "checked against the CPU; not timed)"),
           cl::init("cpu"), cl::cat(category));
static cl::opt<std::string>
    nvvmOptions("nvvm-options",
                cl::desc("Options of gopt-lower-to-nvvm (--target=cuda or "
                         "cuda-emulated), e.g. \"chip=sm_80 block-size=128\""),
                cl::cat(category));
static cl::opt<std::string>
    exportBundle("export-bundle",
                 cl::desc("--target=cuda: write the compiled model, its "
                          "inputs, weights and CPU reference results to this "
                          "folder and stop (gopt-exec runs it, also on a "
                          "machine without GOpt's compiler)"),
                 cl::cat(category));
static cl::opt<bool> generatedInputs(
    "generated-inputs",
    cl::desc("--export-bundle: write no inputs (and no reference); the "
             "runner generates them, so a bundle of large tensors stays "
             "small (for timing; docs/GPU.md)"),
    cl::init(false), cl::cat(category));
static cl::opt<bool>
    noReference("no-reference",
                cl::desc("--target=cuda or cuda-emulated: no CPU reference (by "
                         "default the graph is also compiled for this CPU "
                         "without graph passes, and its results are the "
                         "reference)"),
                cl::init(false), cl::cat(category));
static cl::opt<bool> cudaGraph(
    "cuda-graph",
    cl::desc("--target=cuda: after the stream launches, run the model as one "
             "CUDA graph (captured once, replayed: torch.compile's "
             "reduce-overhead mode), checked and timed the same way; with "
             "--export-bundle, the bundle says so and gopt-exec runs it so"),
    cl::init(false), cl::cat(category));

static cl::opt<double>
    qps("qps",
        cl::desc("Latency under load: requests arriving as a Poisson process "
                 "at this rate per second (open loop; docs/Runner.md)"),
        cl::init(0), cl::cat(category));
static cl::opt<int64_t> requests("requests",
                                 cl::desc("Requests of a --qps or --p99-ms "
                                          "stream (default 200)"),
                                 cl::init(200), cl::cat(category));
static cl::opt<int> workers("workers",
                            cl::desc("Threads serving a --qps or --p99-ms "
                                     "stream (default 1)"),
                            cl::init(1), cl::cat(category));
static cl::opt<double>
    p99Bound("p99-ms",
             cl::desc("Find the highest request rate whose p99 latency stays "
                      "within this many ms (streams of --requests)"),
             cl::init(0), cl::cat(category));

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

static llvm::Expected<std::vector<HostTensor>>
readNpyFiles(llvm::ArrayRef<std::string> paths) {
  std::vector<HostTensor> tensors;
  for (const std::string &path : paths) {
    auto tensor = readNpy(path);
    if (!tensor)
      return tensor.takeError();
    tensors.push_back(std::move(*tensor));
  }
  return std::move(tensors);
}

/// Inputs: the --inputs files, else seeded random data.
static llvm::Expected<std::vector<HostTensor>>
readInputs(const CompiledGraph &graph) {
  if (!inputs.empty())
    return readNpyFiles(inputs);
  return graph.makeRandomInputs(seed);
}

/// --output-dir (results and inputs as .npy) and --outputs (one file per
/// result), when given.
static llvm::Error writeRequestedFiles(llvm::StringRef entryName,
                                       llvm::ArrayRef<HostTensor> outputs,
                                       llvm::ArrayRef<HostTensor> args) {
  if (!outputDir.empty()) {
    if (std::error_code ec = llvm::sys::fs::create_directories(outputDir))
      return makeError("cannot create " + outputDir + ": " + ec.message());
    auto write = [&](llvm::StringRef stem, size_t i, const HostTensor &t) {
      llvm::SmallString<128> path(outputDir);
      llvm::sys::path::append(path, stem + llvm::Twine(i) + ".npy");
      return writeNpy(path, t);
    };
    for (auto [i, t] : llvm::enumerate(outputs))
      if (llvm::Error e = write("result", i, t))
        return e;
    for (auto [i, t] : llvm::enumerate(args))
      if (llvm::Error e = write("input", i, t))
        return e;
  }
  if (outputFiles.empty())
    return llvm::Error::success();
  if (outputFiles.size() != outputs.size())
    return makeError("--outputs names " + llvm::Twine(outputFiles.size()) +
                     " files; @" + entryName + " has " +
                     llvm::Twine(outputs.size()) + " results");
  for (auto [path, t] : llvm::zip(outputFiles, outputs))
    if (llvm::Error e = writeNpy(path, t))
      return e;
  return llvm::Error::success();
}

/// A graph compiled and run once on the --inputs (or seeded random
/// inputs), its --output-dir and --outputs written.
struct FirstRun {
  std::unique_ptr<CompiledGraph> graph;
  std::vector<HostTensor> args, outputs;
};

static llvm::Expected<FirstRun>
compileAndRunOnce(ModuleOp module, const CompileOptions &options) {
  auto graph = CompiledGraph::compile(module, options);
  if (!graph)
    return graph.takeError();
  auto args = readInputs(**graph);
  if (!args)
    return args.takeError();
  // Code that traps on these inputs is reported, not run in this process.
  if (llvm::Error error = (*graph)->checkRunsWithoutTrapping(*args))
    return std::move(error);
  auto outputs = (*graph)->run(*args);
  if (!outputs)
    return outputs.takeError();
  if (llvm::Error error =
          writeRequestedFiles((*graph)->getEntry(), *outputs, *args))
    return std::move(error);
  return FirstRun{std::move(*graph), std::move(*args), std::move(*outputs)};
}

/// The options of a GPU compile (--target=cuda or cuda-emulated).
static CompileOptions gpuCompileOptions(Target gpuTarget) {
  CompileOptions options;
  options.target = gpuTarget;
  options.entry = entry;
  options.graphPipeline = pipeline;
  options.nvvmOptions = nvvmOptions;
  options.passTiming = passTiming;
  options.verifyEachPass = verifyEach;
  options.objectCacheDir = cacheDir;
  options.objectCacheLimitBytes = cacheLimitMiB << 20;
  options.importMs = importMs;
  return options;
}

/// The results of `entry` compiled for this CPU without graph passes on
/// `args`: what the GPU's results are compared with.
static llvm::Expected<std::vector<HostTensor>>
computeCPUReference(ModuleOp module, llvm::StringRef entry,
                    llvm::ArrayRef<HostTensor> args) {
  CompileOptions cpuOptions;
  cpuOptions.entry = entry.str();
  auto cpu = CompiledGraph::compile(module, cpuOptions);
  if (!cpu)
    return makeError("the CPU reference: " + llvm::toString(cpu.takeError()));
  if (llvm::Error error = (*cpu)->checkRunsWithoutTrapping(args))
    return makeError("the CPU reference: " + llvm::toString(std::move(error)));
  auto outputs = (*cpu)->run(args);
  if (!outputs)
    return makeError("the CPU reference: " +
                     llvm::toString(outputs.takeError()));
  return std::move(*outputs);
}

/// The --expect files, one per result of `graph` (`results` of them).
static llvm::Expected<std::vector<HostTensor>>
readExpectFiles(const CompiledGraph &graph, size_t results) {
  if (expect.size() != results)
    return makeError("--expect names " + llvm::Twine(expect.size()) +
                     " files; @" + graph.getEntry() + " has " +
                     llvm::Twine(results) + " results");
  return readNpyFiles(expect);
}

/// Compares `outputs` with `references` (named `names`), one line each on
/// stderr; whether all match.
static bool reportComparison(llvm::ArrayRef<HostTensor> outputs,
                             llvm::ArrayRef<HostTensor> references,
                             llvm::ArrayRef<std::string> names) {
  bool allMatch = true;
  for (auto [i, reference] : llvm::enumerate(references)) {
    TensorComparison c =
        compareTensors(outputs[i], reference, relTolerance, absTolerance);
    llvm::errs() << "result #" << i << " vs " << names[i] << ": "
                 << (c.matches ? "match" : "MISMATCH") << " (" << c.mismatches
                 << " of " << outputs[i].getNumElements()
                 << llvm::format(" elements outside rtol=%g atol=%g, max abs "
                                 "error %g)",
                                 relTolerance.getValue(),
                                 absTolerance.getValue(), c.maxAbsError);
    if (!c.matches)
      llvm::errs() << ": " << c.detail;
    llvm::errs() << "\n";
    allMatch &= c.matches;
  }
  return allMatch;
}

/// --target=cuda-emulated: the kernels as the GPU pipeline maps them, run
/// on this CPU, compared with the --expect files or the CPU reference.
static int runEmulated(ModuleOp module) {
  if (serve || kernelTimers.getNumOccurrences() || reps.getNumOccurrences() ||
      qps.getNumOccurrences() || p99Bound.getNumOccurrences())
    return fail("--target=cuda-emulated checks what the GPU code computes; "
                "it does not time it (no --reps, --kernel-timers, --serve, "
                "--qps or --p99-ms)");
  if (!exportBundle.empty() || cudaGraph || generatedInputs)
    return fail("--export-bundle, --cuda-graph and --generated-inputs are "
                "for --target=cuda");
  CompileOptions compileOptions = gpuCompileOptions(Target::EmulatedCUDA);
  compileOptions.codegenOptLevel = optLevel;
  compileOptions.codegenThreads = codegenThreads;
  compileOptions.passTiming = passTiming;
  compileOptions.verifyEachPass = verifyEach;
  auto first = compileAndRunOnce(module, compileOptions);
  if (!first)
    return fail(llvm::toString(first.takeError()));
  std::unique_ptr<CompiledGraph> &graph = first->graph;
  std::vector<HostTensor> &args = first->args, &outputs = first->outputs;

  std::vector<HostTensor> references;
  std::vector<std::string> names;
  if (!expect.empty()) {
    auto files = readExpectFiles(*graph, outputs.size());
    if (!files)
      return fail(llvm::toString(files.takeError()));
    references = std::move(*files);
    names.assign(expect.begin(), expect.end());
  } else if (!noReference) {
    auto cpu = computeCPUReference(module, graph->getEntry(), args);
    if (!cpu)
      return fail(llvm::toString(cpu.takeError()));
    references = std::move(*cpu);
    names.assign(references.size(), "the CPU without graph passes");
  }
  const std::vector<KernelInfo> &kernels = graph->getKernels();
  size_t gemms = llvm::count_if(kernels, [](const KernelInfo &k) {
    return llvm::StringRef(k.libraryCalls).contains("gopt_sgemm");
  });
  llvm::outs() << "gopt-run: @" << graph->getEntry()
               << " emulated on this CPU as gopt-lower-to-nvvm maps it: "
               << kernels.size()
               << (kernels.size() == 1 ? " kernel" : " kernels");
  if (gemms)
    llvm::outs() << " (" << gemms
                 << " with GEMMs, the CPU's library in place of cuBLAS)";
  llvm::outs() << "\n";
  for (const KernelInfo &k : kernels) {
    llvm::outs() << "  " << k.name;
    if (!k.libraryCalls.empty())
      llvm::outs() << "  [" << k.libraryCalls << "]";
    llvm::outs() << "\n";
    for (const std::string &launch : k.launches)
      llvm::outs() << "      launch: " << launch << "\n";
  }
  llvm::outs().flush();
  if (!reportComparison(outputs, references, names))
    return fail("results differ from the reference");
  return 0;
}

/// --target=cuda: compile for the GPU, compute the CPU reference, write a
/// bundle, then (without --export-bundle) run it on this machine's GPU.
static int runOnCUDA(ModuleOp module) {
  if (serve || !outputFiles.empty() || !outputDir.empty())
    return fail("--serve, --outputs and --output-dir are for --target=cpu; "
                "gopt-exec --write-results writes a bundle's results");
  if (generatedInputs && (!inputs.empty() || !expect.empty()))
    return fail("--generated-inputs writes no inputs or reference: drop "
                "--inputs and --expect");
  CompileOptions compileOptions = gpuCompileOptions(Target::CUDA);
  auto graph = CompiledGraph::compile(module, compileOptions);
  if (!graph)
    return fail(llvm::toString(graph.takeError()));

  // Inputs: none with --generated-inputs (the runner makes them).
  std::vector<HostTensor> args;
  if (!generatedInputs) {
    auto read = readInputs(**graph);
    if (!read)
      return fail(llvm::toString(read.takeError()));
    args = std::move(*read);
  }

  // The reference: the files given, else the CPU's results of the graph as
  // given (no graph passes).
  std::vector<HostTensor> reference;
  std::string referenceName = "none";
  if (!expect.empty()) {
    auto files = readNpyFiles(expect);
    if (!files)
      return fail(llvm::toString(files.takeError()));
    reference = std::move(*files);
    referenceName = "files";
  } else if (!noReference && !generatedInputs) {
    auto outputs = computeCPUReference(module, (*graph)->getEntry(), args);
    if (!outputs)
      return fail(llvm::toString(outputs.takeError()));
    reference = std::move(*outputs);
    referenceName = "cpu-unoptimized";
  }

  const CompileTimes &times = (*graph)->getCompileTimes();
  // The total counts an .onnx model's import: so does the breakdown.
  std::string imported =
      times.importMs > 0
          ? llvm::formatv("ONNX import {0:f1}, ", times.importMs).str()
          : std::string();
  std::string compiled = llvm::formatv(
      "{0:f1} ms ({1}graph passes {2:f1}, lowering to NVVM and cubins {3:f1}, "
      "host code {4:f1})",
      times.totalMs(), imported, times.graphPassesMs, times.loweringMs,
      times.codegenMs);
  if (!exportBundle.empty()) {
    if (llvm::Error error = (*graph)->exportBundle(
            exportBundle, args, reference, pipeline, referenceName, cudaGraph))
      return fail(llvm::toString(std::move(error)));
    llvm::outs() << "gopt-run: wrote " << exportBundle << ": @"
                 << (*graph)->getEntry() << " for " << (*graph)->getChip()
                 << ", " << describeKernelCount((*graph)->getKernels()) << ", "
                 << (generatedInputs ? "generated" : std::to_string(args.size()))
                 << " inputs, reference " << referenceName
                 << "; compiled in " << compiled << "\n"
                 << "gopt-run: run it with: gopt-exec " << exportBundle << "\n";
    return 0;
  }

  auto local =
      (*graph)->loadOnLocalGPU(args, reference, pipeline, referenceName);
  if (!local)
    return fail(llvm::toString(local.takeError()) +
                "\ngopt-run: note: without a GPU, --target=cuda-emulated runs "
                "the same kernels on this CPU, thread by thread, against the "
                "CPU's results; --export-bundle writes them for a GPU "
                "machine");
  ::gopt::deploy::BundleRunOptions runOptions;
  runOptions.warmup = warmup;
  runOptions.repetitions = std::max(1, reps.getValue());
  runOptions.rtol = relTolerance;
  runOptions.atol = absTolerance;
  runOptions.cudaGraph = cudaGraph;
  ::gopt::deploy::BundleReport report;
  std::string error = (*local)->bundle->run(runOptions, report);
  if (!error.empty())
    return fail(error);
  std::ostringstream text;
  if (format == "json")
    ::gopt::deploy::printBundleReportJSON(report, text);
  else
    ::gopt::deploy::printBundleReport(report, text);
  auto out = openOutputFile(reportFile, &error);
  if (!out)
    return fail(error);
  out->os() << text.str();
  if (format != "json")
    out->os() << "  compile     " << compiled << "\n";
  out->keep();
  if (!report.allMatch())
    return fail("results differ from the reference");
  return 0;
}

/// The model named on the command line: an MLIR module (text or bytecode)
/// parsed through `sourceMgr`, or an .onnx model imported as
/// gopt-import-onnx would (--input-shape, --dim), its import timed into
/// importMs as the first part of the compile.
static llvm::Expected<OwningOpRef<ModuleOp>>
readModel(MLIRContext &context, llvm::SourceMgr &sourceMgr) {
  std::string error;
  if (!llvm::StringRef(inputFile).ends_with(".onnx")) {
    if (!inputShapes.empty() || !namedDims.empty())
      return makeError("--input-shape and --dim apply to ONNX models "
                       "(.onnx) only");
    auto file = openInputFile(inputFile, &error);
    if (!file)
      return makeError(error);
    sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
    OwningOpRef<ModuleOp> module =
        parseSourceFile<ModuleOp>(sourceMgr, &context);
    if (!module)
      return makeError("cannot parse " + inputFile);
    return std::move(module);
  }
  ONNXImportOptions importOptions;
  for (const std::string &shape : inputShapes)
    if (!parseInputShapeOverride(shape, importOptions, error))
      return makeError("--input-shape: " + error);
  for (const std::string &dim : namedDims)
    if (!parseNamedDimOverride(dim, importOptions, error))
      return makeError("--dim: " + error);
  auto start = std::chrono::steady_clock::now();
  OwningOpRef<ModuleOp> module;
  {
    // `model.onnx: node 'conv1': error: ...`, as gopt-import-onnx.
    ONNXDiagnosticPrinter diagnostics(&context);
    module = importONNXModel(&context, inputFile, importOptions);
  }
  if (!module)
    return makeError("cannot import " + inputFile);
  importMs = std::chrono::duration<double, std::milli>(
                 std::chrono::steady_clock::now() - start)
                 .count();
  return std::move(module);
}

/// --warm-compiles: compiles `module` that many times without the cache
/// and drops the results, then imports (or parses) the model again into
/// `module`, so that both the import and the compile that follow are a
/// warm process's.
/// Their compile times go to `times`.
static llvm::Error compileToWarmUp(MLIRContext &context,
                                   llvm::SourceMgr &sourceMgr,
                                   OwningOpRef<ModuleOp> &module,
                                   const CompileOptions &options,
                                   std::vector<CompileTimes> &times) {
  CompileOptions warm = options;
  warm.objectCacheDir.clear();
  warm.passTiming = false;
  for (unsigned i = 0; i < warmCompiles; ++i) {
    auto graph = CompiledGraph::compile(*module, warm);
    if (!graph)
      return graph.takeError();
    times.push_back((*graph)->getCompileTimes());
  }
  auto again = readModel(context, sourceMgr);
  if (!again)
    return again.takeError();
  module = std::move(*again);
  return llvm::Error::success();
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  cl::opt<int> &threads = adoptThreadsOption(category);
  cl::HideUnrelatedOptions(category);
  mlir::gopt::setGOptVersionPrinter("gopt-run");
  cl::ParseCommandLineOptions(argc, argv,
                              "gopt-run: compile, run and measure a gopt "
                              "graph (MLIR, or an ONNX model) on this CPU or "
                              "an NVIDIA GPU\n");
  if (format != "table" && format != "json")
    return fail("unknown --format '" + format + "' (table or json)");
  if (target != "cpu" && target != "cuda" && target != "cuda-emulated")
    return fail("unknown --target '" + target +
                "' (cpu, cuda or cuda-emulated)");
  if (target == "cpu" &&
      (!exportBundle.empty() || !nvvmOptions.empty() || cudaGraph))
    return fail("--export-bundle, --nvvm-options and --cuda-graph need "
                "--target=cuda");
  if (target == "cuda-emulated" && loweringOptions.getNumOccurrences())
    return fail("--lowering-options are gopt-lower-to-llvm's (the CPU); "
                "--target=cuda-emulated takes --nvvm-options");
  if (reps < 0 || warmup < 0 || steadyRuns < 0)
    return fail("--reps, --warmup and --steady-runs must not be negative");
  // A cache that cannot be written would be skipped without a word.
  if (!cacheDir.empty()) {
    if (std::error_code ec =
            llvm::sys::fs::create_directories(cacheDir.getValue()))
      return fail("--cache-dir: cannot create '" + cacheDir +
                  "': " + ec.message());
    if (!llvm::sys::fs::is_directory(cacheDir.getValue()))
      return fail("--cache-dir: '" + cacheDir + "' is not a folder");
    if (llvm::sys::fs::access(cacheDir.getValue(),
                              llvm::sys::fs::AccessMode::Write))
      return fail("--cache-dir: '" + cacheDir + "' is not writable");
  }

  auto usedThreads = applyThreadsOption("gopt-run", threads);
  if (!usedThreads)
    return fail(llvm::toString(usedThreads.takeError()));

  DialectRegistry registry;
  mlir::gopt::registerAllDialects(registry);
  registerONNXImportDialects(registry);
  mlir::gopt::registerAllPasses();
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);
  auto read = readModel(context, sourceMgr);
  if (!read)
    return fail(llvm::toString(read.takeError()));
  OwningOpRef<ModuleOp> module = std::move(*read);
  // Why an output file could not be opened (below).
  std::string error;

  if (optLevel > 3)
    return fail("--opt-level=" + llvm::Twine(optLevel) + " is not one of 0-3");
  if (target != "cpu" && warmCompiles.getNumOccurrences())
    return fail("--warm-compiles is for --target=cpu");
  if (target == "cuda") {
    if (optLevel.getNumOccurrences())
      return fail("--opt-level is for --target=cpu (the GPU pipeline's is "
                  "--nvvm-options=opt-level=N)");
    if (qps.getNumOccurrences() || p99Bound.getNumOccurrences())
      return fail("--qps and --p99-ms are for --target=cpu");
    return runOnCUDA(*module);
  }
  if (target == "cuda-emulated")
    return runEmulated(*module);
  bool loadTest = qps.getNumOccurrences() || p99Bound.getNumOccurrences();
  if (loadTest && serve)
    return fail("--qps and --p99-ms do not go with --serve");

  CompileOptions compileOptions;
  compileOptions.entry = entry;
  compileOptions.graphPipeline = pipeline;
  compileOptions.loweringOptions = loweringOptions;
  compileOptions.codegenOptLevel = optLevel;
  compileOptions.codegenThreads = codegenThreads;
  compileOptions.passTiming = passTiming;
  compileOptions.verifyEachPass = verifyEach;
  compileOptions.objectCacheDir = cacheDir;
  compileOptions.objectCacheLimitBytes = cacheLimitMiB << 20;
  compileOptions.importMs = importMs;
  // Kernel timers would add their lock to every kernel of every worker.
  compileOptions.kernelTimers = kernelTimers && !loadTest;
  std::vector<CompileTimes> warmUpTimes;
  if (warmCompiles > 0) {
    if (llvm::Error error = compileToWarmUp(context, sourceMgr, module,
                                            compileOptions, warmUpTimes))
      return fail(llvm::toString(std::move(error)));
    compileOptions.importMs = importMs;
  }
  auto first = compileAndRunOnce(*module, compileOptions);
  if (!first)
    return fail(llvm::toString(first.takeError()));
  std::unique_ptr<CompiledGraph> &graph = first->graph;
  std::vector<HostTensor> &args = first->args, &outputs = first->outputs;

  bool mismatch = false;
  if (!expect.empty()) {
    auto references = readExpectFiles(*graph, outputs.size());
    if (!references)
      return fail(llvm::toString(references.takeError()));
    mismatch = !reportComparison(
        outputs, *references,
        std::vector<std::string>(expect.begin(), expect.end()));
  }

  if (serve) {
    if (mismatch)
      return fail("results differ from the references");
    if (llvm::Error error =
            serveGraph(*graph, args, std::cin, llvm::outs(), warmUpTimes))
      return fail(llvm::toString(std::move(error)));
    return 0;
  }

  if (loadTest) {
    if (mismatch)
      return fail("results differ from the references");
    LoadTestOptions load;
    load.qps = qps;
    load.requests = requests;
    load.workers = workers;
    load.seed = seed;
    auto out = openOutputFile(reportFile, &error);
    if (!out)
      return fail(error);
    llvm::json::Object json;
    if (qps.getNumOccurrences()) {
      auto report = runLoadTest(*graph, args, load);
      if (!report)
        return fail(llvm::toString(report.takeError()));
      if (format == "json")
        json["load"] = report->toJSON();
      else
        printLoadTestReport(*report, out->os());
    }
    if (p99Bound.getNumOccurrences()) {
      auto rate = findSustainedRate(*graph, args, load, p99Bound);
      if (!rate)
        return fail(llvm::toString(rate.takeError()));
      if (format == "json")
        json["sustained"] = rate->toJSON();
      else
        printSustainedRate(*rate, p99Bound, out->os());
    }
    if (format == "json") {
      json["gopt_version"] = GOPT_VERSION_STRING;
      json["entry"] = graph->getEntry();
      out->os() << llvm::formatv("{0:2}", llvm::json::Value(std::move(json)))
                << "\n";
    }
    out->keep();
    return 0;
  }

  if (reps > 0) {
    MeasureOptions measureOptions;
    measureOptions.warmup = warmup;
    measureOptions.repetitions = reps;
    measureOptions.steadyRuns = steadyRuns;
    auto report = measureGraph(*graph, args, measureOptions);
    if (!report)
      return fail(llvm::toString(report.takeError()));
    auto out = openOutputFile(reportFile, &error);
    if (!out)
      return fail(error);
    report->warmUpCompiles = warmUpTimes;
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
