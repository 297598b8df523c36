//===- Runner.h - Compile a gopt graph, run it, measure it ------*- C++ -*-===//
//
// The measuring runner behind gopt-run (docs/Runner.md), as a library:
//
//   auto graph = gopt::CompiledGraph::compile(module, options);
//   auto outputs = (*graph)->run(inputs);
//   auto report = gopt::measureGraph(**graph, inputs, runOptions);
//
// compile() clones the module, runs the graph pipeline it is given (if any),
// lowers with gopt-lower-to-llvm, compiles at O3 for the host CPU (the
// module split into partitions compiled on several threads) and links the
// objects with an ORC JIT; the compiled code allocates through the runtime's
// tracking allocator and, with kernel timers, reports each kernel's time.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_RUNNER_RUNNER_H
#define GOPT_RUNNER_RUNNER_H

#include "GOpt/Runner/ObjectCache.h"
#include "GOpt/Runtime/Runtime.h"
#include "GOpt/Support/BufferPlan.h"
#include "GOpt/Support/HostTensor.h"
#include "GOpt/Support/Statistics.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
namespace orc {
class LLJIT;
} // namespace orc
} // namespace llvm

namespace mlir {
class OpPassManager;
namespace gopt {

/// What compiled code runs on.
enum class Target {
  /// This CPU: gopt-lower-to-llvm, JIT-compiled in the process.
  CPU,
  /// NVIDIA GPUs: gopt-lower-to-nvvm; the host code is compiled
  /// position-independent for any x86-64 CPU and runs from a bundle
  /// (CompiledGraph::exportBundle, GOpt/Deploy/BundleRunner.h), in this
  /// process or on another machine.
  CUDA,
  /// The kernels as gopt-lower-to-nvvm maps them for NVIDIA GPUs (blocks,
  /// threads, shared memory, barriers, block reductions), run on this CPU
  /// thread after thread (gopt-lower-to-nvvm{emulate}), the GEMMs through
  /// the CPU's library: what the GPU code computes, checked without a
  /// GPU. Runs like CPU code; not for timing.
  EmulatedCUDA,
};

struct CompileOptions {
  Target target = Target::CPU;
  /// Options of gopt-lower-to-nvvm (targets CUDA and EmulatedCUDA), e.g.
  /// "chip=sm_80" or "block-size=64 elements-per-thread=4".
  std::string nvvmOptions;
  /// Function to run; empty: `main` if there is one, else the module's only
  /// public function.
  std::string entry;
  /// Textual pass pipeline run on the module before lowering, e.g.
  /// "gopt-optimize" or "builtin.module(gopt-fold,gopt-fuse)"; empty: none.
  std::string graphPipeline;
  /// Options of gopt-lower-to-llvm, e.g. "vectorize=false tile-sizes=1,64".
  std::string loweringOptions;
  /// Time every kernel (gopt-lower-to-llvm{kernel-timers}).
  bool kernelTimers = false;
  /// Print MLIR's pass timing report (wall time per pass, nested as the
  /// pipelines nest) of the graph passes and of the lowering to stderr.
  bool passTiming = false;
  /// Verify the IR after every pass of the graph pipeline and of the
  /// lowering, as mlir-opt does by default, so a pass that breaks it is
  /// named. Off, each pipeline's result is verified once: broken IR is
  /// still an error, and the lowering takes about a third less time.
  bool verifyEachPass = false;
  /// LLVM optimization and code generation level of the CPU code, 0-3.
  /// Below 3 the code is slower but compiles faster: for tools that check
  /// what a graph computes (gopt-difftest), not how fast it runs.
  unsigned codegenOptLevel = 3;
  /// Threads compiling the CPU code (the module split into as many
  /// partitions, up to four times as many when it is large; 0: one per
  /// core). The machine code does not depend on it beyond the order of
  /// functions.
  unsigned codegenThreads = 0;
  /// A folder for compiled code (empty: no cache). The machine code of a
  /// program is stored under a content hash of (the IR after the graph
  /// pipeline, lowering options, kernel timers, host CPU and features, GOpt
  /// version and build; for Target::CUDA also the NVVM options and the CUDA
  /// toolkit); a later compile of the same program loads it instead of
  /// lowering and generating code again (on the GPU: the host object with
  /// the kernels' binaries in it, which a bundle links).
  std::string objectCacheDir;
  /// After storing a program, the cache's least recently used entries are
  /// removed until its entries hold at most this many bytes
  /// (docs/Runner.md, "The object cache").
  uint64_t objectCacheLimitBytes = kDefaultObjectCacheLimitBytes;
  /// What making the module took before this compile (an ONNX import, in
  /// ms): reported as the first part of the compile time (CompileTimes).
  double importMs = 0;
  /// The module's computeProgramHash, when the caller already has it (and
  /// graphPipeline is empty): the object cache's key uses it instead of
  /// printing the IR once more.
  std::string programHash;
};

/// SHA-256 (hex) of the module's IR in generic form: equal exactly when the
/// programs are, up to collisions.
std::string computeProgramHash(ModuleOp module);

/// Where compile time went.
struct CompileTimes {
  /// The import that made the module (CompileOptions::importMs; 0 for a
  /// module read as MLIR).
  double importMs = 0;
  double graphPassesMs = 0;
  /// The weights copied out into the block the code is passed (ViT-B/16:
  /// 0.08 s for 330 MB), a cache lookup that missed, and the pipeline to
  /// the LLVM dialect (or to NVVM).
  double loweringMs = 0;
  /// Translation to LLVM IR, O3, machine code (partitions in parallel),
  /// linking.
  double codegenMs = 0;
  /// Loaded from the object cache: loweringMs and codegenMs are those of
  /// the compile that filled the cache entry, and loadMs what finding and
  /// loading it took (hashing the program, reading and linking its
  /// objects).
  bool fromCache = false;
  double loadMs = 0;
  /// CompiledGraph::compile calls this process made before this one. A
  /// fresh process's first compile (0) pays one-off costs the later ones
  /// do not: MLIR's and LLVM's first use of each pass and of the target,
  /// memory the process takes from the system for the first time
  /// (docs/Runner.md, "Cold and warm compiles").
  unsigned processCompilesBefore = 0;
  /// What a compile costs: from the cache, what the stored one cost.
  double totalMs() const {
    return importMs + graphPassesMs + loweringMs + codegenMs;
  }
  /// What this compile took: the import, the graph passes and the load
  /// when it came from the cache, else totalMs().
  double wallMs() const {
    return fromCache ? importMs + graphPassesMs + loadMs : totalMs();
  }
  /// {"import", "graph_passes", "lowering", "codegen", "total", "wall",
  /// "from_cache", "load", "process_compiles_before"}, times in ms.
  llvm::json::Object toJSON() const;
};

struct KernelInfo {
  int64_t id;
  std::string name;
  /// A library call (cuBLAS on the GPU) rather than generated code.
  bool library = false;
  /// CPU: the runtime's library entry points the kernel calls
  /// (`gopt_sgemm`, `gopt_conv2d_nhwc`, ..., comma-separated); empty when
  /// it is generated loops only (the general path).
  std::string libraryCalls;
  /// Target::EmulatedCUDA: the kernel's launches as the GPU would run them
  /// ("5 blocks of 256 threads", ...; gopt-gpu-emulate-launches), in
  /// program order.
  std::vector<std::string> launches;
  /// The id of the kernel whose function this one calls when
  /// gopt-deduplicate-kernels found them the same (compiled once); -1: a
  /// function of its own.
  int64_t sameCodeAs = -1;
};

/// What compiled code depends on besides its IR: the host CPU and its
/// features, GOpt's version and this build of it (the running executable's
/// size and time stamp). Part of the compile cache's keys, and of anything
/// else keyed by what this build would compile.
std::string describeCodegenContext();

/// "5 kernels" or "5 kernels (2 cuBLAS calls)".
std::string describeKernelCount(const std::vector<KernelInfo> &kernels);

/// A bundle loaded from a temporary folder (CompiledGraph::loadOnLocalGPU,
/// defined in GOpt/Runner/LocalBundle.h).
struct LocalBundle;

/// A graph compiled for this CPU, ready to run.
class CompiledGraph {
public:
  ~CompiledGraph();

  /// Compiles `module` (left unchanged). Errors name the stage that failed
  /// and carry its diagnostics.
  static llvm::Expected<std::unique_ptr<CompiledGraph>>
  compile(ModuleOp module, const CompileOptions &options);

  const std::string &getEntry() const { return entry; }
  /// The entry's signature after the graph pipeline (tensor types): the
  /// inputs a caller passes (the weights are passed by the graph itself).
  FunctionType getFunctionType() const { return functionType; }
  /// Bytes of the weights handed to the compiled code on each call instead
  /// of being compiled into it.
  size_t getWeightBytes() const;
  const std::vector<KernelInfo> &getKernels() const { return kernels; }
  /// Object files the CPU code was compiled into (one per partition
  /// compiled in parallel: one or a few per thread,
  /// CompileOptions::codegenThreads).
  size_t getObjectCount() const { return objectCount; }
  /// Loops of the generated code that run on the runtime's threads
  /// (gopt_parallel_for calls; 0 when lowered with parallel-loops=false).
  int64_t getParallelLoopCount() const { return parallelLoops; }
  /// The static plan of the entry's intermediates (CPU).
  const BufferPlan &getBufferPlan() const { return bufferPlan; }
  const CompileTimes &getCompileTimes() const { return times; }

  Target getTarget() const { return target; }
  /// The GPU architecture of a CUDA graph ("sm_90").
  const std::string &getChip() const { return chip; }

  /// Writes a bundle of a CUDA graph into `dir` (created if needed;
  /// GOpt/Deploy/Bundle.h): the host code linked into a shared library with
  /// the system's C compiler driver (`cc`, or $CC), the inputs, the weights
  /// and, when `expected` is not empty, the reference results.
  /// `graphPipeline` and `reference` are recorded in the manifest. With
  /// `inputs` empty, the bundle holds no inputs: the runner generates them
  /// (gopt::deploy::generateInput), and `expected` must be empty too.
  /// `cudaGraph`: the manifest says the model runs as one CUDA graph
  /// ("launch cuda-graph"; gopt-exec then runs it so).
  llvm::Error exportBundle(llvm::StringRef dir,
                           llvm::ArrayRef<HostTensor> inputs,
                           llvm::ArrayRef<HostTensor> expected,
                           llvm::StringRef graphPipeline,
                           llvm::StringRef reference, bool cudaGraph = false);

  /// The bundle of a CUDA graph (exportBundle) in a fresh temporary folder,
  /// loaded into this process: what runs it on this machine's GPU (the
  /// executable must export GOpt's CUDA runtime). Destroying the result
  /// unloads the bundle and removes the folder.
  llvm::Expected<std::unique_ptr<LocalBundle>>
  loadOnLocalGPU(llvm::ArrayRef<HostTensor> inputs,
                 llvm::ArrayRef<HostTensor> expected = {},
                 llvm::StringRef graphPipeline = "",
                 llvm::StringRef reference = "none");

  /// Runs the entry once. Inputs must match the signature.
  llvm::Expected<std::vector<HostTensor>>
  run(llvm::ArrayRef<HostTensor> inputs);

  /// Runs the entry once in a child process (fork) and reports how it ended,
  /// so a caller can refuse to run code in its own process that would take
  /// it down or never return: an error naming the signal when the compiled
  /// code trapped (an integer division by zero, a bad access), the exit
  /// status when the run failed otherwise, and a timeout (the child is
  /// killed) when it ran longer than `timeoutSeconds`; also an error when no
  /// child could be started. Outputs of the child run are discarded.
  llvm::Error checkRunsWithoutTrapping(llvm::ArrayRef<HostTensor> inputs,
                                       double timeoutSeconds = 300);

  /// Seeded random inputs matching the signature (input i uses seed + i).
  std::vector<HostTensor> makeRandomInputs(uint64_t seed) const;

  /// Calls the entry and leaves its result descriptors in `resultWords`
  /// (what run() does without copying the outputs, for timing).
  llvm::Error invoke(llvm::ArrayRef<HostTensor> inputs,
                     std::vector<int64_t> &resultWords);
  /// Copies the outputs out of their descriptors (with `copy`) and frees
  /// them.
  std::vector<HostTensor> takeResults(const std::vector<int64_t> &resultWords,
                                      bool copy);

private:
  CompiledGraph() = default;
  /// Loads the entry from a cached object file; false when there is none
  /// usable (the caller then compiles).
  bool loadFromCache(const ObjectCacheEntry &cacheEntry);
  /// Stores the object files (Target::CPU: `objects`, the partitions the
  /// JIT linked; Target::CUDA: the host object) and what loading needs
  /// beside them. Returns whether the entry was written.
  bool storeInCache(const ObjectCacheEntry &cacheEntry,
                    llvm::ArrayRef<std::string> objects = {});
  /// compile() for Target::CUDA, from the module after the graph pipeline
  /// with its weights hoisted (CompiledGraphCUDA.cpp).
  static llvm::Expected<std::unique_ptr<CompiledGraph>>
  compileForCUDA(std::unique_ptr<CompiledGraph> graph,
                 OwningOpRef<ModuleOp> module, const CompileOptions &options);

  /// The JIT holding the linked code (compiled or loaded from the cache).
  std::unique_ptr<llvm::orc::LLJIT> jit;
  /// Target::CPU: how many relocatable objects the JIT linked.
  size_t objectCount = 0;
  /// The entry's packed interface: void(void **args).
  void (*packedEntry)(void **) = nullptr;
  std::string entry;
  Target target = Target::CPU;
  std::string chip;
  /// Target::CUDA: the host code's relocatable object (ELF).
  std::string hostObject;
  FunctionType functionType;
  std::vector<KernelInfo> kernels;
  int64_t parallelLoops = 0;
  BufferPlan bufferPlan;
  CompileTimes times;
  /// Where the weights' values are (a block they were copied into, and
  /// the blobs of those the graph passes wrote, kept alive), and a tensor
  /// over each: the entry's large constants, passed after the inputs on
  /// every call (lib/Runner/WeightArguments.h).
  std::unique_ptr<void, void (*)(void *)> weightStorage{nullptr, std::free};
  std::vector<std::shared_ptr<const char>> retainedWeights;
  std::vector<HostTensor> weights;
};

/// Runs a graph pipeline (as parseGraphPipeline reads it) on `module` in
/// place and returns its wall time in ms; errors carry the parse error or
/// the diagnostics of the failing pass. With `passTiming`, MLIR's pass
/// timing report goes to stderr; `verifyEachPass` as in CompileOptions.
llvm::Expected<double> runGraphPipeline(ModuleOp module,
                                        llvm::StringRef pipeline,
                                        bool passTiming = false,
                                        bool verifyEachPass = false);

struct KernelReport {
  int64_t id;
  std::string name;
  int64_t callsPerRun;
  /// Median over the timed runs of the kernel's time in one run.
  double msPerRun;
  /// Share of the sum of kernel times (the Amdahl f of the kernel).
  double share;
  /// KernelInfo::libraryCalls: empty for generated loops only.
  std::string libraryCalls;
};

struct MeasureOptions {
  int warmup = 3;
  int repetitions = 20;
  /// Untimed runs after the warm-up, for the allocator's water level over
  /// a long run (RunReport::reservedByRun).
  int steadyRuns = 0;
};

/// What measureGraph found.
struct RunReport {
  std::string entry;
  int warmup = 0, repetitions = 0;
  std::vector<double> latencyMs;
  SampleSummary latency;
  /// Runs per second at the median latency.
  double throughput = 0;
  /// Peak bytes the compiled code held at once during a run (intermediates
  /// and outputs), and allocations per run.
  int64_t peakBytes = 0;
  int64_t allocationsPerRun = 0;
  /// The entry's static buffer plan (CompiledGraph::getBufferPlan).
  BufferPlan bufferPlan;
  /// The water level: bytes the runtime's allocator holds from the system
  /// (live and cached free blocks) after each run — warm-ups, steady runs,
  /// timed runs, in order.
  std::vector<int64_t> reservedByRun;
  /// At the peak of the last timed run: bytes held from the system, free
  /// (cached) bytes among them, the largest free block, and the external
  /// fragmentation 1 - largest / free.
  int64_t reservedAtPeak = 0, freeAtPeak = 0, largestFreeAtPeak = 0;
  double externalFragmentation = 0;
  int64_t inputBytes = 0;
  int64_t numKernels = 0;
  /// Kernels that call the runtime's libraries (the rest are generated
  /// loops only).
  int64_t libraryKernels = 0;
  /// Kernels of generated code (all but the GPU's cuBLAS calls), and the
  /// functions compiled for them: fewer when some are the same function
  /// (gopt-deduplicate-kernels).
  int64_t generatedKernels = 0, kernelFunctions = 0;
  std::vector<KernelReport> kernels;
  CompileTimes compile;
  /// Compiles of the same graph this process made and dropped before
  /// `compile` (gopt-run --warm-compiles), oldest first.
  std::vector<CompileTimes> warmUpCompiles;
  /// The GEMM library behind the library path ("onednn", "openblas",
  /// "loops") and the threads it and the generated code's parallel loops
  /// may use (one OpenMP pool).
  std::string gemmLibrary;
  int libraryThreads = 1;
  /// Loops of the generated code that run on those threads.
  int64_t parallelLoops = 0;

  llvm::json::Object toJSON() const;
};

/// Warms up, then times `repetitions` runs; peak memory and kernel times
/// come from the runtime.
llvm::Expected<RunReport> measureGraph(CompiledGraph &graph,
                                       llvm::ArrayRef<HostTensor> inputs,
                                       const MeasureOptions &options);

/// A readable report (latency, memory, kernels, compile time).
void printRunReport(const RunReport &report, llvm::raw_ostream &os);

/// Keeps `graph` loaded and answers timing requests read from `in`, one per
/// line, with one JSON line each on `out` (docs/Runner.md, "Serving timing
/// requests"): first `{"ready": true, "entry", "kernels", "peak_bytes",
/// "compile_ms": {...}}`; then `run N` answers `{"times_ms": [N runs],
/// "peak_bytes"}` (no warm-up: the caller decides), an unknown command
/// `{"error": ...}`; `quit` or the end of `in` returns. Errors of a run end
/// the loop. `warmUpCompiles`, the compiles of the graph made and dropped
/// before (gopt-run --warm-compiles), go to the ready line as
/// `"warm_up_compile_ms": [...]` when there are any.
llvm::Error serveGraph(CompiledGraph &graph, llvm::ArrayRef<HostTensor> inputs,
                       std::istream &in, llvm::raw_ostream &out,
                       llvm::ArrayRef<CompileTimes> warmUpCompiles = {});

} // namespace gopt
} // namespace mlir

#endif // GOPT_RUNNER_RUNNER_H
