//===- gopt-explore.cpp - Which passes to turn on, measured ---------------===//
//
// Measures a model compiled with no graph pass, with each pass alone, with
// each ordered pair, with the default pipeline and with the user's
// pipelines; derives speedups, synergy, memory savings, break-even and
// utility; chooses a configuration and writes the reports
// (docs/Explore.md). With no model it analyzes the bundled attention
// block. Logic: lib/Explore.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Analysis/PassMeasurement.h"
#include "GOpt/Explore/CUDABackend.h"
#include "GOpt/Explore/Explorer.h"
#include "GOpt/Explore/JITBackend.h"
#include "GOpt/Explore/ManifestCheck.h"
#include "GOpt/Explore/Report.h"
#include "GOpt/Import/ONNX/ONNXImporter.h"
#include "GOpt/InitAllDialects.h"
#include "GOpt/InitAllPasses.h"
#include "GOpt/Runner/Runner.h"
#include "GOpt/Runner/ThreadsOption.h"
#include "GOpt/Runtime/Runtime.h"
#include "GOpt/Version.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

#include <atomic>
#include <csignal>
#include <set>

#include <signal.h>

using namespace mlir;
using namespace mlir::gopt;
namespace cl = llvm::cl;

/// examples/attention_block.mlir, embedded at build time.
static const char kEmbeddedModel[] =
#include "EmbeddedModel.inc"
    ;
static const char kEmbeddedModelName[] =
    "<embedded examples/attention_block.mlir>";

static cl::OptionCategory category("gopt-explore options");

static cl::opt<std::string>
    inputFile(cl::Positional,
              cl::desc("[model.mlir | model.onnx] (default: the bundled "
                       "attention block, examples/attention_block.mlir)"),
              cl::cat(category));
static cl::list<std::string>
    passes("passes",
           cl::desc("Passes to study (default fold,dce,cse,fuse; layout "
                    "for convolution nets; plan: the CPU lowering's static "
                    "buffer planner, on only where named); short names or "
                    "pipeline elements such as "
                    "gopt-fuse{max-group-size=8}"),
           cl::CommaSeparated, cl::cat(category));
static cl::opt<bool> pairs("pairs",
                           cl::desc("Measure every ordered pair (default on)"),
                           cl::init(true), cl::cat(category));
static cl::opt<bool>
    defaultPipeline("default-pipeline",
                    cl::desc("Measure gopt-optimize (default on)"),
                    cl::init(true), cl::cat(category));
static cl::list<std::string> userPipelines(
    "pipeline",
    cl::desc("A pipeline to measure as well: LABEL=PIPELINE (repeatable)"),
    cl::cat(category));
static cl::opt<std::string>
    mode("mode",
         cl::desc("verify (check outputs, time nothing), default, or "
                  "autotune (also search orders, subsets and options)"),
         cl::init("default"), cl::cat(category));
static cl::opt<std::string> entry("entry",
                                  cl::desc("Function to run (default: main, "
                                           "or the only public function)"),
                                  cl::cat(category));
static cl::opt<std::string>
    target("target",
           cl::desc("Where the configurations run: cpu (default: JIT on this "
                    "CPU) or cuda (this machine's NVIDIA GPU, each "
                    "configuration a bundle run in process)"),
           cl::init("cpu"), cl::cat(category));
static cl::opt<std::string> exportBundlesDir(
    "export-bundles",
    cl::desc("--target=cuda without a GPU here: compile every "
             "configuration's program into a bundle under DIR/bundles and "
             "stop; scripts/gpu-explore.sh DIR runs them on a GPU machine"),
    cl::value_desc("DIR"), cl::cat(category));
static cl::opt<std::string> recordedRunsDir(
    "recorded-runs",
    cl::desc("--target=cuda: analyze the runs scripts/gpu-explore.sh "
             "recorded for the bundles of --export-bundles=DIR (the "
             "programs are compiled again here for their compile figures)"),
    cl::value_desc("DIR"), cl::cat(category));
static cl::opt<std::string>
    loweringOptions("lowering-options",
                    cl::desc("Options of gopt-lower-to-llvm (--target=cuda: "
                             "of gopt-lower-to-nvvm) for every configuration"),
                    cl::cat(category));
static cl::opt<std::string> cacheDir(
    "cache-dir",
    cl::desc("Compile cache folder (default: $XDG_CACHE_HOME/gopt or "
             "~/.cache/gopt; --cache-dir= turns it off)"),
    cl::cat(category));
static cl::opt<uint64_t> cacheLimitMiB(
    "cache-limit-mb",
    cl::desc("Bound on the compile cache, MiB: least recently used programs "
             "are removed beyond it"),
    cl::init(kDefaultObjectCacheLimitBytes >> 20), cl::cat(category));
static cl::list<std::string>
    inputShapes("input-shape",
                cl::desc("ONNX models: NAME=1x3x224x224 (repeatable)"),
                cl::cat(category));
static cl::list<int64_t> batchSizes(
    "batch-sizes",
    cl::desc("ONNX models: also measure throughput with dimension 0 of every "
             "input set to each of these sizes (e.g. 1,8,32)"),
    cl::CommaSeparated, cl::cat(category));
static cl::list<std::string> shapeSpecs(
    "shapes",
    cl::desc("ONNX models with named dynamic dimensions: analyze at every "
             "shape of a grid, NAME=V1,V2,... or NAME=A..B (powers of two), "
             "repeatable (e.g. --shapes=batch=1,8 --shapes=seq=64..512), and "
             "group the shapes whose choices agree into classes"),
    cl::cat(category));
static cl::opt<int> warmup("warmup",
                           cl::desc("Untimed runs before a configuration's "
                                    "first round"),
                           cl::init(2), cl::cat(category));
static cl::opt<int> steadyRuns(
    "steady-runs",
    cl::desc("More untimed runs in each configuration's first round, for "
             "the allocator's water level over a long run (default 0)"),
    cl::init(0), cl::cat(category));
static cl::opt<int> reps("reps", cl::desc("Timed runs per round"),
                         cl::init(5), cl::cat(category));
static cl::opt<int> minRounds(
    "min-rounds",
    cl::desc("Rounds at least (5: a t-interval over 4 degrees of freedom; "
             "with 2 it is 12.7 standard errors wide)"),
    cl::init(5), cl::cat(category));
static cl::opt<int> maxRounds("max-rounds", cl::desc("Rounds at most"),
                              cl::init(12), cl::cat(category));
static cl::opt<double> targetError(
    "target-error",
    cl::desc("Stop when every configuration's relative standard error of "
             "its round medians (CV/sqrt(rounds)) is at most this (default "
             "0.005)"),
    cl::init(0.005), cl::cat(category));
static cl::opt<double>
    roundMs("round-ms",
            cl::desc("Runs per round: enough to fill this many ms, at least "
                     "--reps (default 20)"),
            cl::init(20), cl::cat(category));
static cl::opt<double> budget("budget",
                              cl::desc("Seconds after which no new round "
                                       "starts (default 60)"),
                              cl::init(60), cl::cat(category));
static cl::opt<double> configTimeout(
    "config-timeout",
    cl::desc("Seconds a configuration's checking run may take before it is "
             "killed and reported as a failed run (default 300)"),
    cl::init(300), cl::cat(category));
static cl::opt<uint64_t> seed("seed", cl::desc("Seed of the random inputs"),
                              cl::init(1), cl::cat(category));
static cl::opt<double>
    relTolerance("rtol", cl::desc("Relative tolerance against the baseline"),
                 cl::init(1e-3), cl::cat(category));
static cl::opt<double>
    absTolerance("atol", cl::desc("Absolute tolerance against the baseline"),
                 cl::init(1e-4), cl::cat(category));
static cl::opt<double> alpha("alpha",
                             cl::desc("Sensitivity to compile time in "
                                      "U = S / (1 + alpha*T_compile/T_run)"),
                             cl::init(0), cl::cat(category));
static cl::opt<double> qps("qps",
                           cl::desc("Requests per second, for payback times"),
                           cl::init(0), cl::cat(category));
static cl::opt<std::string>
    memoryLimit("memory-limit",
                cl::desc("Peak-memory limit of the choice, e.g. 512M, 2G"),
                cl::cat(category));
static cl::opt<double>
    p99Bound("p99-ms",
             cl::desc("Choose only configurations whose p99 run time is at "
                      "most this many ms"),
             cl::init(0), cl::cat(category));
static cl::opt<bool> loadTest(
    "load-test",
    cl::desc("Also time every distinct program under load: an open-loop "
             "stream of Poisson arrivals at --qps (latency with queueing) "
             "and, with --p99-ms, the highest rate within that bound; the "
             "choice then applies the bound to the p99 under load"),
    cl::cat(category));
static cl::opt<int64_t>
    loadRequests("requests",
                 cl::desc("Requests in each load-test stream (default 200)"),
                 cl::init(200), cl::cat(category));
static cl::opt<int>
    loadWorkers("workers",
                cl::desc("Threads serving the load-test stream (default 1)"),
                cl::init(1), cl::cat(category));
static cl::opt<bool>
    choose("choose",
           cl::desc("Print only the choice and why, instead of the summary "
                    "(exit 1 when nothing can be chosen)"),
           cl::cat(category));
static cl::list<std::string> predictTargets(
    "predict",
    cl::desc("Also predict every configuration's run time and S on these "
             "targets with the roofline model: h100, h200 (datasheet "
             "figures), host (this CPU as gopt-probe-target measured it) or "
             "a description file (.json); comma-separated"),
    cl::CommaSeparated, cl::cat(category));
static cl::opt<std::string> jsonFile("json",
                                     cl::desc("Write the JSON record here"),
                                     cl::cat(category));
static cl::opt<std::string>
    markdownFile("markdown", cl::desc("Write the Markdown summary here"),
                 cl::cat(category));
static cl::opt<std::string> htmlFile("html",
                                     cl::desc("Write the HTML report here"),
                                     cl::cat(category));
static cl::opt<std::string>
    manifestFile("manifest",
                 cl::desc("Write the choice as a deployment manifest (JSON)"),
                 cl::cat(category));
static cl::opt<std::string> checkManifestFile(
    "check-manifest",
    cl::desc("Measure nothing: exit 0 when this manifest still holds for the "
             "model and this machine (model hash, GOpt version, CPU, cores, "
             "GEMM library), else 1 with the reasons (a CI guard)"),
    cl::cat(category));
static cl::opt<bool> quiet("quiet", cl::desc("Print nothing on stdout"),
                           cl::cat(category));
static cl::opt<bool> remeasure(
    "remeasure",
    cl::desc("Time every configuration anew even when the compile cache "
             "holds the runs of an identical earlier exploration (same "
             "model, machine, build and measurement settings), which are "
             "otherwise reused and analyzed with this run's criteria"),
    cl::cat(category));
static cl::opt<std::string> stdoutFormat(
    "format",
    cl::desc("What stdout shows: summary (default: the figures that fit 100 "
             "columns, the full tables left to --markdown/--html/--json) or "
             "markdown (the full Markdown report)"),
    cl::init("summary"), cl::cat(category));
static cl::opt<std::string>
    progressMode("progress",
                 cl::desc("Progress bar: auto (on a terminal), always, never"),
                 cl::init("auto"), cl::cat(category));

static int fail(const llvm::Twine &message) {
  llvm::errs() << "gopt-explore: error: " << message << "\n";
  return 1;
}

/// $XDG_CACHE_HOME/gopt, else ~/.cache/gopt, else no cache.
static std::string defaultCacheDir() {
  llvm::SmallString<256> dir;
  if (auto xdg = llvm::sys::Process::GetEnv("XDG_CACHE_HOME");
      xdg && !xdg->empty()) {
    dir = *xdg;
  } else if (llvm::sys::path::home_directory(dir)) {
    llvm::sys::path::append(dir, ".cache");
  } else {
    return "";
  }
  llvm::sys::path::append(dir, "gopt");
  return dir.str().str();
}

/// "512M" -> bytes; K, M, G are powers of 1024; no suffix: bytes.
static std::optional<int64_t> parseBytes(llvm::StringRef text) {
  text = text.trim();
  int64_t scale = 1;
  if (!text.empty()) {
    char last = llvm::toUpper(text.back());
    if (last == 'B')
      text = text.drop_back(), last = text.empty() ? 0 : llvm::toUpper(text.back());
    if (last == 'K' || last == 'M' || last == 'G') {
      scale = last == 'K' ? 1024 : last == 'M' ? 1024 * 1024 : 1024 * 1024 * 1024;
      text = text.drop_back();
    }
  }
  double value = 0;
  if (text.empty() || text.getAsDouble(value) || value < 0)
    return std::nullopt;
  return static_cast<int64_t>(value * static_cast<double>(scale));
}

/// A one-line progress bar on stderr, redrawn in place.
class ProgressBar {
public:
  explicit ProgressBar(bool enabled) : enabled(enabled) {}
  ~ProgressBar() { finish(); }
  void update(int done, int total, llvm::StringRef what) {
    if (!enabled)
      return;
    total = std::max(total, std::max(done, 1));
    constexpr int width = 30;
    int filled = done * width / total;
    std::string line = "\r[" + std::string(filled, '#') +
                       std::string(width - filled, '.') + "] " +
                       std::to_string(done) + "/" + std::to_string(total) +
                       " " + what.str();
    if (line.size() < lastLength)
      line += std::string(lastLength - line.size(), ' ');
    lastLength = line.size();
    llvm::errs() << line;
    llvm::errs().flush();
  }
  void finish() {
    if (enabled && lastLength) {
      llvm::errs() << "\r" << std::string(lastLength, ' ') << "\r";
      llvm::errs().flush();
      lastLength = 0;
    }
  }

private:
  bool enabled;
  size_t lastLength = 0;
};

/// Ctrl-C during the measurement: the first one asks the exploration to stop
/// and report what it measured; a second one ends the process as LLVM's
/// handler would (partial output files removed).
static std::atomic<bool> interruptRequested{false};

extern "C" void onInterrupt(int sig) {
  if (interruptRequested.exchange(true)) {
    llvm::sys::RunInterruptHandlers();
    std::signal(sig, SIG_DFL);
    std::raise(sig);
  }
}

/// Installs onInterrupt for SIGINT while alive, then puts back the handler
/// it replaced (LLVM's, which removes unfinished outputs).
struct InterruptScope {
  InterruptScope() {
    struct sigaction action = {};
    action.sa_handler = onInterrupt;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &previous);
  }
  ~InterruptScope() { sigaction(SIGINT, &previous, nullptr); }
  struct sigaction previous = {};
};

/// --export-bundles=DIR: every configuration's program compiled for the
/// GPU into DIR/bundles/<hash> (what scripts/gpu-explore.sh runs), a line
/// per configuration on stdout.
static int exportBundles(ModuleOp module, const ExploreOptions &options,
                         const std::string &modelName) {
  auto configs = buildConfigurations(options);
  if (!configs)
    return fail(llvm::toString(configs.takeError()));
  if (std::error_code ec = llvm::sys::fs::create_directories(exportBundlesDir))
    return fail("cannot create " + exportBundlesDir + ": " + ec.message());
  auto backend = createCUDABackend(module, options, CUDABackendMode::Export,
                                   exportBundlesDir);
  std::string list;
  int compiled = 0, failed = 0;
  for (size_t i = 0; i < configs->size(); ++i) {
    const Configuration &config = (*configs)[i];
    ConfigurationMeasurement m;
    if (llvm::Error error = backend->compile(i, config, m)) {
      ++failed;
      llvm::outs() << "  " << config.name << ": compile failed: "
                   << llvm::toString(std::move(error)) << "\n";
      continue;
    }
    if (m.sameProgramAs.empty())
      ++compiled;
    llvm::outs() << "  " << config.name
                 << (m.sameProgramAs.empty()
                         ? ": " + std::to_string(m.kernels) + " kernels"
                         : ": same program as " + m.sameProgramAs)
                 << "\n";
  }
  llvm::outs() << "gopt-explore: " << modelName << ": " << configs->size()
               << " configurations, " << compiled
               << " distinct programs in " << exportBundlesDir
               << "/bundles" << (failed ? ", " + std::to_string(failed) +
                                              " failed to compile"
                                        : std::string())
               << "\n"
               << "gopt-explore: next, on the GPU machine: "
                  "scripts/gpu-explore.sh "
               << exportBundlesDir << "\n"
               << "gopt-explore: then here, with the same model and options: "
                  "--recorded-runs="
               << exportBundlesDir << "\n";
  return failed ? 1 : 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  cl::opt<int> &threads = adoptThreadsOption(category);
  cl::HideUnrelatedOptions(category);
  mlir::gopt::setGOptVersionPrinter("gopt-explore");
  cl::ParseCommandLineOptions(
      argc, argv,
      "gopt-explore: which graph passes to turn on for a model on this "
      "machine, measured\n");

  DialectRegistry registry;
  gopt::registerAllDialects(registry);
  registerONNXImportDialects(registry);
  gopt::registerAllPasses();
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  // Flags first: nothing is measured before every flag is known good.
  auto usedThreads = applyThreadsOption("gopt-explore", threads);
  if (!usedThreads)
    return fail(llvm::toString(usedThreads.takeError()));
  ExploreOptions options;
  auto parsedMode = parseExploreMode(mode);
  if (!parsedMode)
    return fail("unknown --mode '" + mode + "' (verify, default or autotune)");
  options.mode = *parsedMode;
  if (passes.getNumOccurrences()) {
    // "--passes=" names no pass: the empty set, an error below.
    options.passes.clear();
    for (const std::string &pass : passes)
      if (!pass.empty())
        options.passes.push_back(pass);
  }
  options.pairs = pairs;
  options.defaultPipeline = defaultPipeline;
  for (const std::string &text : userPipelines) {
    auto [label, pipeline] = llvm::StringRef(text).split('=');
    if (label.empty() || pipeline.empty())
      return fail("--pipeline='" + text + "' must be LABEL=PIPELINE");
    options.userPipelines.push_back({label.str(), pipeline.str()});
  }
  options.entry = entry;
  options.loweringOptions = loweringOptions;
  options.cacheDir = cacheDir.getNumOccurrences() ? cacheDir.getValue()
                                                  : defaultCacheDir();
  options.cacheLimitBytes = cacheLimitMiB << 20;
  // A --max-rounds below the default minimum lowers the minimum with it; a
  // --min-rounds given above --max-rounds is an error.
  int effectiveMinRounds = minRounds;
  if (!minRounds.getNumOccurrences() && maxRounds < effectiveMinRounds)
    effectiveMinRounds = maxRounds;
  if (reps < 1 || warmup < 0 || effectiveMinRounds < 1 ||
      maxRounds < effectiveMinRounds)
    return fail("need --reps >= 1, --warmup >= 0 and 1 <= --min-rounds <= "
                "--max-rounds");
  if (steadyRuns < 0)
    return fail("--steady-runs must not be negative");
  if (budget <= 0 || configTimeout <= 0 || targetError < 0 || roundMs < 0 ||
      alpha < 0 || qps < 0 || relTolerance < 0 || absTolerance < 0)
    return fail("--budget and --config-timeout must be positive; "
                "--target-error, --round-ms, --alpha, --qps, --rtol and "
                "--atol must not be negative");
  options.warmup = warmup;
  options.steadyRuns = steadyRuns;
  options.repetitionsPerRound = reps;
  options.minRounds = effectiveMinRounds;
  options.maxRounds = maxRounds;
  options.targetRelativeError = targetError;
  options.roundMilliseconds = roundMs;
  options.budgetSeconds = budget;
  options.configTimeoutSeconds = configTimeout;
  options.seed = seed;
  options.rtol = relTolerance;
  options.atol = absTolerance;
  options.analysis.criteria.alpha = alpha;
  options.analysis.criteria.qps = qps;
  if (!memoryLimit.empty()) {
    auto bytes = parseBytes(memoryLimit);
    if (!bytes)
      return fail("--memory-limit='" + memoryLimit +
                  "' is not a size (e.g. 512M, 2G, 1048576)");
    options.analysis.criteria.memoryLimitBytes = *bytes;
  }
  if (p99Bound.getNumOccurrences() && !(p99Bound > 0))
    return fail("--p99-ms must be positive");
  options.analysis.criteria.p99BoundMs = p99Bound;
  if (loadTest && !(qps > 0) && !(p99Bound > 0))
    return fail("--load-test needs --qps=R (a stream at that rate) or "
                "--p99-ms=B (the highest rate within it)");
  if (loadRequests < 1 || loadWorkers < 1)
    return fail("--requests and --workers must be at least 1");
  options.loadTest = loadTest;
  options.loadRequests = loadRequests;
  options.loadWorkers = loadWorkers;
  if (stdoutFormat != "summary" && stdoutFormat != "markdown")
    return fail("unknown --format '" + stdoutFormat +
                "' (summary or markdown)");
  if (progressMode != "auto" && progressMode != "always" &&
      progressMode != "never")
    return fail("unknown --progress '" + progressMode +
                "' (auto, always or never)");
  if (auto configs = buildConfigurations(options); !configs)
    return fail(llvm::toString(configs.takeError()));
  std::vector<TargetDescription> predictions;
  for (const std::string &spec : predictTargets) {
    auto described = resolveTargetDescription(spec, getHostTargetPath(argv[0]));
    if (!described)
      return fail("--predict: " + llvm::toString(described.takeError()));
    for (const TargetDescription &earlier : predictions)
      if (earlier.name == described->name)
        return fail("--predict names target '" + earlier.name + "' twice");
    predictions.push_back(std::move(*described));
  }

  // Output files are opened now, so an unwritable path fails before the
  // measurements; they are kept only when the run succeeds.
  std::string error;
  auto open = [&](const std::string &path)
      -> std::optional<std::unique_ptr<llvm::ToolOutputFile>> {
    if (path.empty())
      return std::unique_ptr<llvm::ToolOutputFile>();
    auto file = openOutputFile(path, &error);
    if (!file)
      return std::nullopt;
    return file;
  };
  auto jsonOut = open(jsonFile);
  auto markdownOut = jsonOut ? open(markdownFile) : std::nullopt;
  auto htmlOut = markdownOut ? open(htmlFile) : std::nullopt;
  auto manifestOut = htmlOut ? open(manifestFile) : std::nullopt;
  if (!manifestOut)
    return fail(error);

  if (target != "cpu" && target != "cuda")
    return fail("unknown --target '" + target + "' (cpu or cuda)");
  if (target == "cuda" && options.mode == ExploreMode::Autotune)
    return fail("--mode=autotune searches the CPU lowering's options: not "
                "with --target=cuda");
  if (target == "cuda" && loadTest)
    return fail("--load-test runs on the CPU: not with --target=cuda");
  if (target == "cuda" && !batchSizes.empty())
    return fail("--batch-sizes runs on the CPU: not with --target=cuda");
  for (const std::string &pass : options.passes)
    if (llvm::StringRef passTarget = getLoweringPassTarget(pass);
        !passTarget.empty() && passTarget != target)
      return fail("'" + pass + "' is " +
                  (passTarget == "cpu" ? "a pass of the CPU lowering"
                                       : "a way of launching GPU code") +
                  ": not with --target=" + target);
  if ((!exportBundlesDir.empty() || !recordedRunsDir.empty()) &&
      target != "cuda")
    return fail("--export-bundles and --recorded-runs need --target=cuda");
  if (!exportBundlesDir.empty() && !recordedRunsDir.empty())
    return fail("--export-bundles and --recorded-runs are two steps: one "
                "at a time");

  bool isONNX = llvm::StringRef(inputFile).ends_with(".onnx");
  std::vector<ShapePoint> shapes;
  if (!shapeSpecs.empty()) {
    auto grid = parseShapeGrid(shapeSpecs);
    if (!grid)
      return fail(llvm::toString(grid.takeError()));
    shapes = std::move(*grid);
    if (!isONNX)
      return fail("--shapes needs an ONNX model with named dynamic "
                  "dimensions: gopt IR has static shapes");
    if (!batchSizes.empty())
      return fail("--shapes and --batch-sizes: one at a time (--shapes "
                  "covers batch sizes as the dimension 'batch' names them)");
    if (options.mode == ExploreMode::Verify)
      return fail("--shapes compares the choices at each shape: not with "
                  "--mode=verify");
    if (target == "cuda")
      return fail("--shapes runs on the CPU: not with --target=cuda");
  }
  for (int64_t size : batchSizes)
    if (size < 1)
      return fail("--batch-sizes must be positive");
  if (!batchSizes.empty() && !isONNX)
    return fail("--batch-sizes needs an ONNX model: gopt IR has static "
                "shapes (export the model once per batch size instead)");
  if (!batchSizes.empty() && options.mode == ExploreMode::Verify)
    return fail("--batch-sizes measures throughput: not with --mode=verify");

  // The model.
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module;
  std::string modelName =
      inputFile.empty() ? std::string(kEmbeddedModelName) : inputFile.getValue();
  if (isONNX) {
    ONNXImportOptions importOptions;
    for (const std::string &shape : inputShapes)
      if (!parseInputShapeOverride(shape, importOptions, error))
        return fail(error);
    // With a sweep, the analysis runs at its first batch size (or shape).
    if (!batchSizes.empty())
      importOptions.batchSize = batchSizes.front();
    if (!shapes.empty())
      for (const auto &[name, size] : shapes.front().dims)
        importOptions.namedDims[name] = size;
    {
      // `model.onnx: node 'conv1': error: ...`, as gopt-import-onnx.
      ONNXDiagnosticPrinter diagnostics(&context);
      module = importONNXModel(&context, inputFile, importOptions);
    }
    if (!module)
      return fail("cannot import " + inputFile);
  } else {
    if (!inputShapes.empty())
      return fail("--input-shape applies to ONNX models only");
    std::unique_ptr<llvm::MemoryBuffer> buffer;
    if (inputFile.empty()) {
      buffer = llvm::MemoryBuffer::getMemBuffer(kEmbeddedModel,
                                                kEmbeddedModelName);
    } else {
      buffer = openInputFile(inputFile, &error);
      if (!buffer)
        return fail(error);
    }
    sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
    module = parseSourceFile<ModuleOp>(sourceMgr, &context);
    if (!module)
      return fail("cannot parse " + modelName);
  }
  std::string modelHash = computeProgramHash(*module);

  if (!checkManifestFile.empty()) {
    auto text = llvm::MemoryBuffer::getFile(checkManifestFile);
    if (!text)
      return fail("cannot read " + checkManifestFile + ": " +
                  text.getError().message());
    ManifestContext current{modelHash, GOPT_VERSION_STRING, getHostCPUModel(),
                            static_cast<int64_t>(getHostCoreCount()),
                            gopt_sgemm_backend()};
    auto reasons = checkManifest((*text)->getBuffer(), current);
    if (!reasons)
      return fail(checkManifestFile + ": " +
                  llvm::toString(reasons.takeError()));
    if (reasons->empty()) {
      llvm::outs() << "gopt-explore: " << checkManifestFile
                   << " holds for " << modelName << " on this machine\n";
      return 0;
    }
    llvm::errs() << "gopt-explore: " << checkManifestFile
                 << " no longer holds for " << modelName
                 << " on this machine; run the analysis again:\n";
    for (const std::string &reason : *reasons)
      llvm::errs() << "  - " << reason << "\n";
    return 1;
  }

  if (!exportBundlesDir.empty())
    return exportBundles(*module, options, modelName);
  if (!recordedRunsDir.empty()) {
    // Every recorded round is one round of the analysis, whatever the
    // budget and the stopping rule.
    auto recorded = readRecordedRuns(recordedRunsDir);
    if (!recorded)
      return fail(llvm::toString(recorded.takeError()));
    options.minRounds = options.maxRounds = recorded->rounds;
    options.repetitionsPerRound = std::max(1, recorded->repetitions);
    options.warmup = recorded->warmup;
    options.budgetSeconds = 1e9;
    options.roundMilliseconds = 0;
  }

  // Measure. On the CPU, the runs of an identical earlier exploration,
  // kept next to the compile cache, are analyzed again instead of timed
  // again (timed modes; exploreWithStoredRuns).
  bool showProgress =
      progressMode == "always" ||
      (progressMode == "auto" && llvm::sys::Process::StandardErrIsDisplayed());
  ProgressBar bar(showProgress);
  ExploreProgress progress = [&](int done, int total, llvm::StringRef what) {
    bar.update(done, total, what);
  };
  options.interrupted = &interruptRequested;
  std::optional<InterruptScope> interruptScope(std::in_place);
  std::string storeWarning;
  auto report = target == "cuda"
                    ? explore(*createCUDABackend(*module, options,
                                                 recordedRunsDir.empty()
                                                     ? CUDABackendMode::Run
                                                     : CUDABackendMode::Replay,
                                                 recordedRunsDir),
                              options, progress)
                    : exploreWithStoredRuns(*module, options, remeasure,
                                            progress, modelHash, &storeWarning);
  interruptScope.reset();
  bar.finish();
  if (!report) {
    std::string error = llvm::toString(report.takeError());
    if (error == kInterruptedBeforeBaseline) {
      // Nothing to report: the outputs opened for the reports are removed.
      llvm::errs() << "gopt-explore: " << error << "\n";
      return 130;
    }
    return fail(error);
  }
  if (!storeWarning.empty())
    llvm::errs() << "gopt-explore: warning: " << storeWarning
                 << " (the next run times them again)\n";
  // The ONNX model imported again at other sizes (the sweeps below); the
  // importer's diagnostics become the error.
  auto importResized =
      [&](llvm::function_ref<void(ONNXImportOptions &)> resize,
          const std::string &at) -> llvm::Expected<OwningOpRef<ModuleOp>> {
    ONNXImportOptions importOptions;
    for (const std::string &text : inputShapes)
      parseInputShapeOverride(text, importOptions, error);
    resize(importOptions);
    std::string diagnostics;
    ScopedDiagnosticHandler collect(&context, [&](Diagnostic &diag) {
      diagnostics += (diagnostics.empty() ? "" : "; ") + diag.str();
      return success();
    });
    OwningOpRef<ModuleOp> resized =
        importONNXModel(&context, inputFile, importOptions);
    if (!resized)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "cannot import at " + at + ": " +
                                         diagnostics);
    return std::move(resized);
  };
  if (!batchSizes.empty() && !report->setup.interrupted) {
    // The baseline, the choice and the default pipeline at every size.
    std::vector<Configuration> swept;
    std::set<std::string> names;
    auto add = [&](std::optional<size_t> index) {
      if (index && *index < report->configurations.size() &&
          names.insert(report->configurations[*index].name).second)
        swept.push_back(report->configurations[*index]);
    };
    add(report->analysis.baseline);
    add(report->analysis.choice.index);
    for (auto [i, c] : llvm::enumerate(report->configurations))
      if (c.kind == ConfigurationKind::Default)
        add(i);
    ModelAtBatchSize modelAt = [&](int64_t batch) {
      return importResized([&](ONNXImportOptions &o) { o.batchSize = batch; },
                           "batch size " + std::to_string(batch));
    };
    report->batchSweep =
        sweepBatchSizes(modelAt, batchSizes, swept, options, progress);
    bar.finish();
  }
  if (!shapes.empty() && !report->setup.interrupted) {
    ModelAtShape modelAt = [&](const ShapePoint &shape) {
      return importResized(
          [&](ONNXImportOptions &o) {
            for (const auto &[name, size] : shape.dims)
              o.namedDims[name] = size;
          },
          shape.label());
    };
    interruptScope.emplace();
    report->shapeClasses =
        exploreShapes(modelAt, shapes, options, remeasure, &*report, progress);
    interruptScope.reset();
    bar.finish();
    if (interruptRequested)
      report->setup.interrupted = true;
  }
  report->setup.model = modelName;
  report->setup.modelHash = modelHash;
  report->setup.cpuModel = getHostCPUModel();
  report->setup.cores = static_cast<int>(getHostCoreCount());
  report->setup.gemmLibrary = gopt_sgemm_backend();
  report->setup.libraryThreads = runtime::getLibraryThreads();
  report->setup.recordedRunsDir = recordedRunsDir;
  addPredictions(*report, predictions);

  // Reports.
  if (*jsonOut) {
    (*jsonOut)->os() << llvm::formatv("{0:2}", toJSON(*report)) << "\n";
    (*jsonOut)->keep();
  }
  if (*markdownOut) {
    writeExploreMarkdown(*report, (*markdownOut)->os());
    (*markdownOut)->keep();
  }
  if (*htmlOut) {
    writeExploreHTML(*report, (*htmlOut)->os());
    (*htmlOut)->keep();
  }
  // What stdout shows: the summary, with where the full tables went, or the
  // whole Markdown report.
  auto printReport = [&] {
    if (quiet)
      return;
    if (stdoutFormat == "markdown") {
      writeExploreMarkdown(*report, llvm::outs());
      return;
    }
    writeExploreSummary(*report, llvm::outs());
    std::vector<std::string> written;
    for (const std::string *file : {&markdownFile.getValue(),
                                    &htmlFile.getValue(), &jsonFile.getValue()})
      if (!file->empty() && *file != "-")
        written.push_back(*file);
    std::string footer =
        written.empty() ? "Full tables (tail latency, every pair, utility, "
                          "kernels): --markdown=FILE, --html=FILE, --json=FILE"
                        : "Full tables: " + llvm::join(written, ", ");
    // Within the summary's 100 columns: one file a line when they do not fit.
    if (footer.size() > 100)
      footer = "Full tables:\n  " + llvm::join(written, "\n  ");
    llvm::outs() << "\n" << footer << "\n";
  };
  if (report->setup.interrupted) {
    // No manifest and no choice from a partial run: a deployment would take
    // them for the real ones.
    printReport();
    llvm::errs() << "gopt-explore: interrupted: the reports cover what was "
                    "measured before it"
                 << (*manifestOut ? "; no manifest was written" : "") << "\n";
    return 130;
  }
  bool timed = options.mode != ExploreMode::Verify;
  if (*manifestOut) {
    if (!timed)
      return fail("--manifest needs timings: --mode=verify measures none");
    (*manifestOut)->os() << llvm::formatv("{0:2}", toManifestJSON(*report))
                         << "\n";
    (*manifestOut)->keep();
  }
  if (choose) {
    if (!timed)
      return fail("--choose needs timings: --mode=verify measures none");
    llvm::outs() << report->analysis.choice.reason << "\n";
    return report->analysis.choice.index ? 0 : 1;
  }
  printReport();
  // In verify mode a configuration that computes something else, or does
  // not compile or run, is the finding: exit 1 and name them.
  if (!timed) {
    std::vector<std::string> failed;
    for (auto [config, m] :
         llvm::zip(report->configurations, report->measurements))
      if (m.status != ConfigurationStatus::Ok &&
          m.status != ConfigurationStatus::Skipped)
        failed.push_back(config.name + " (" +
                         getConfigurationStatusName(m.status) + ")");
    if (!failed.empty()) {
      llvm::errs() << "gopt-explore: " << failed.size() << " of "
                   << report->configurations.size()
                   << " configurations failed verification: "
                   << llvm::join(failed, ", ") << "\n";
      return 1;
    }
  }
  return 0;
}
