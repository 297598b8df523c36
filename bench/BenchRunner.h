//===- BenchRunner.h - Compile and time graphs for benchmarks ---*- C++ -*-===//
//
// Shared by the run-time benchmarks: a context with every dialect, graphs
// compiled through the runner, interleaved timing of several contenders, and
// a bootstrap interval for a ratio of medians.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_BENCH_BENCHRUNNER_H
#define GOPT_BENCH_BENCHRUNNER_H

#include "BenchStats.h"
#include "GOpt/InitAllDialects.h"
#include "GOpt/InitAllPasses.h"
#include "GOpt/Runner/Runner.h"
#include "GOpt/Runtime/Runtime.h"

#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <functional>
#include <random>

namespace gopt_bench {
using namespace mlir;
using namespace mlir::gopt;

inline std::unique_ptr<MLIRContext> makeContext() {
  static bool registered = [] {
    gopt::registerAllPasses();
    return true;
  }();
  (void)registered;
  DialectRegistry registry;
  gopt::registerAllDialects(registry);
  auto context = std::make_unique<MLIRContext>(registry);
  context->loadAllAvailableDialects();
  return context;
}

/// Compiles `source` with `pipeline` (empty: no graph pass) and
/// gopt-lower-to-llvm `loweringOptions`; exits with the error on failure.
inline std::unique_ptr<CompiledGraph>
compileOrDie(MLIRContext &context, llvm::StringRef source,
             llvm::StringRef pipeline, bool kernelTimers = false,
             llvm::StringRef loweringOptions = "") {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &context);
  if (!module) {
    llvm::errs() << "error: cannot parse the benchmark graph\n";
    std::exit(1);
  }
  CompileOptions options;
  options.graphPipeline = pipeline.str();
  options.kernelTimers = kernelTimers;
  options.loweringOptions = loweringOptions.str();
  auto graph = CompiledGraph::compile(*module, options);
  if (!graph) {
    llvm::errs() << "error: " << llvm::toString(graph.takeError()) << "\n";
    std::exit(1);
  }
  return std::move(*graph);
}

/// The text of the model file `path`; exits with the error when it cannot
/// be read.
inline std::unique_ptr<llvm::MemoryBuffer>
readModelOrDie(llvm::StringRef path) {
  auto file = llvm::MemoryBuffer::getFile(path);
  if (!file) {
    llvm::errs() << "error: cannot read " << path << ": "
                 << file.getError().message() << "\n";
    std::exit(1);
  }
  return std::move(*file);
}

/// Runs `reference` and `other` once on `inputs` and exits with an error
/// naming `other` (`what`) unless every result matches within the
/// tolerances.
inline void checkSameOutputsOrDie(CompiledGraph &reference,
                                  CompiledGraph &other,
                                  llvm::ArrayRef<HostTensor> inputs,
                                  llvm::StringRef what, double rtol,
                                  double atol) {
  auto a = reference.run(inputs), b = other.run(inputs);
  if (!a || !b) {
    llvm::errs() << "error: a build failed to run\n";
    if (!a)
      llvm::consumeError(a.takeError());
    if (!b)
      llvm::consumeError(b.takeError());
    std::exit(1);
  }
  for (size_t i = 0; i < a->size(); ++i)
    if (!compareTensors((*b)[i], (*a)[i], rtol, atol).matches) {
      llvm::errs() << "error: result #" << i << " of " << what << " differs\n";
      std::exit(1);
    }
}

/// Milliseconds of one call of the graph (outputs freed, not copied).
inline double timeGraphOnce(CompiledGraph &graph,
                            llvm::ArrayRef<HostTensor> inputs) {
  std::vector<int64_t> results;
  auto start = std::chrono::steady_clock::now();
  if (llvm::Error error = graph.invoke(inputs, results)) {
    llvm::errs() << "error: " << llvm::toString(std::move(error)) << "\n";
    std::exit(1);
  }
  auto end = std::chrono::steady_clock::now();
  graph.takeResults(results, /*copy=*/false);
  return std::chrono::duration<double, std::milli>(end - start).count();
}

/// The memory figures of one build, measured alone (`repetitions` runs
/// after two warm-ups): the allocator's cached blocks are dropped first, so
/// what it holds is this build's. Exits with the error on failure.
inline RunReport measureAloneOrDie(CompiledGraph &graph,
                                   llvm::ArrayRef<HostTensor> inputs,
                                   int repetitions) {
  mlir::gopt::runtime::releaseCachedMemory();
  MeasureOptions options;
  options.warmup = 2;
  options.repetitions = repetitions;
  auto report = measureGraph(graph, inputs, options);
  if (!report) {
    llvm::errs() << "error: " << llvm::toString(report.takeError()) << "\n";
    std::exit(1);
  }
  return std::move(*report);
}

/// Runs every contender once per round, in an order that alternates between
/// rounds, after one warm-up round; returns each contender's samples (ms).
inline std::vector<std::vector<double>>
interleave(std::vector<std::function<double()>> contenders, int rounds) {
  for (auto &run : contenders)
    run();
  std::vector<std::vector<double>> samples(contenders.size());
  for (int r = 0; r < rounds; ++r)
    for (size_t k = 0; k < contenders.size(); ++k) {
      size_t i = r % 2 ? contenders.size() - 1 - k : k;
      samples[i].push_back(contenders[i]());
    }
  return samples;
}

/// 95% bootstrap interval of median(a) / median(b).
inline std::pair<double, double> bootstrapRatio(const std::vector<double> &a,
                                                const std::vector<double> &b,
                                                int resamples = 2000) {
  std::mt19937_64 rng(42);
  std::vector<double> ratios;
  std::vector<double> ra(a.size()), rb(b.size());
  for (int i = 0; i < resamples; ++i) {
    for (double &x : ra)
      x = a[rng() % a.size()];
    for (double &x : rb)
      x = b[rng() % b.size()];
    ratios.push_back(quantile(ra, 0.5) / quantile(rb, 0.5));
  }
  return {quantile(ratios, 0.025), quantile(ratios, 0.975)};
}

} // namespace gopt_bench

#endif // GOPT_BENCH_BENCHRUNNER_H
