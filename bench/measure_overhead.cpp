//===- measure_overhead.cpp - Cost of --gopt-measure on gopt-optimize -----===//
//
// Runs the default pipeline on a generated graph of about 10,000 ops with and
// without the PassMeasurement instrumentation, interleaving the two so drift
// hits both alike, and prints the median compile time of each with its IQR,
// the time the instrumentation spent on statistics, the cost of one
// statistics walk alone (per op), the ratio of the medians and the median of
// the per-repeat ratios (each repeat runs both back to back, so that ratio
// cancels a noisy machine's drift). Target: ratio <= 1.05.
//
//   gopt-bench-measure-overhead [--ops=10000] [--repeats=21]
//
//===----------------------------------------------------------------------===//

#include "BenchGraphs.h"
#include "BenchStats.h"
#include "GOpt/Analysis/GraphStats.h"
#include "GOpt/Analysis/PassMeasurement.h"
#include "GOpt/Pipelines/Pipelines.h"

#include "mlir/Pass/PassManager.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace mlir;
using namespace mlir::gopt;
using namespace gopt_bench;

static llvm::cl::opt<int64_t> targetOps("ops",
                                        llvm::cl::desc("Approximate op count"),
                                        llvm::cl::init(10000));
static llvm::cl::opt<int> repeats("repeats",
                                  llvm::cl::desc("Runs of each configuration"),
                                  llvm::cl::init(21));

/// Milliseconds to run gopt-optimize on a fresh graph; measured or not.
/// `statsMs` gets the time the instrumentation spent on statistics.
static double runOnce(MLIRContext &context, bool measured, int64_t &ops,
                      size_t &rows, double &statsMs) {
  OwningOpRef<ModuleOp> module = generateGraph(context, targetOps);
  ops = countOps(*module);
  PassManager pm(&context);
  buildOptimizePipeline(pm, OptimizePipelineOptions());
  auto record = std::make_shared<MeasurementRecord>();
  if (measured)
    pm.addInstrumentation(
        std::make_unique<PassMeasurementInstrumentation>(record));
  auto start = std::chrono::steady_clock::now();
  if (failed(pm.run(*module))) {
    llvm::errs() << "error: gopt-optimize failed\n";
    std::exit(1);
  }
  auto end = std::chrono::steady_clock::now();
  rows = record->rows.size();
  statsMs = 0;
  for (const PassRecord &row : record->rows)
    statsMs += row.measureMs;
  return std::chrono::duration<double, std::milli>(end - start).count();
}

/// Median microseconds of one statistics walk (GraphStatsCache, warm) over
/// `module`, from `walks` walks.
static double walkMicroseconds(ModuleOp module, int walks) {
  GraphStatsCache cache;
  uint64_t fingerprint = 0;
  cache.compute(module, &fingerprint);
  std::vector<double> us;
  for (int i = 0; i < walks; ++i) {
    auto start = std::chrono::steady_clock::now();
    GraphStats stats = cache.compute(module, &fingerprint);
    auto end = std::chrono::steady_clock::now();
    if (stats.numOps == 0)
      std::exit(1);
    us.push_back(std::chrono::duration<double, std::micro>(end - start).count());
  }
  return quantile(us, 0.5);
}

/// Prints the cost of one walk on the generated graph, optimized or not.
static void printWalk(MLIRContext &context, const char *label, bool optimize) {
  OwningOpRef<ModuleOp> module = generateGraph(context, targetOps);
  if (optimize) {
    PassManager pm(&context);
    buildOptimizePipeline(pm, OptimizePipelineOptions());
    if (failed(pm.run(*module)))
      std::exit(1);
  }
  int64_t ops = countOps(*module);
  double us = walkMicroseconds(*module, 200);
  llvm::outs() << llvm::format(
      "    one walk, %s: %7.3f ms (%.1f ns/op over %lld ops)\n", label,
      us / 1000, us * 1000 / ops, static_cast<long long>(ops));
}

int main(int argc, char **argv) {
  llvm::cl::ParseCommandLineOptions(argc, argv,
                                    "--gopt-measure overhead benchmark\n");
  if (repeats < 3) {
    llvm::errs() << "error: --repeats must be at least 3\n";
    return 1;
  }
  DialectRegistry registry;
  registry.insert<GOptDialect, func::FuncDialect>();
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();

  int64_t ops = 0;
  size_t rows = 0;
  double statsMs = 0;
  // Warm up both paths once.
  runOnce(context, false, ops, rows, statsMs);
  runOnce(context, true, ops, rows, statsMs);
  std::vector<double> plain, measured, stats, ratios;
  for (int r = 0; r < repeats; ++r) {
    bool measuredFirst = r % 2;
    for (int k = 0; k < 2; ++k) {
      bool m = (k == 0) == measuredFirst;
      (m ? measured : plain).push_back(runOnce(context, m, ops, rows, statsMs));
      if (m)
        stats.push_back(statsMs);
    }
    ratios.push_back(measured.back() / plain.back());
  }
  double p = quantile(plain, 0.5), m = quantile(measured, 0.5);
  llvm::outs() << "gopt-optimize on a " << ops << "-op graph, single thread, "
               << repeats << " interleaved runs each (median [IQR] ms)\n";
  llvm::outs() << llvm::format("  without --gopt-measure: %8.2f [%.2f-%.2f]\n",
                               p, quantile(plain, 0.25),
                               quantile(plain, 0.75));
  llvm::outs() << llvm::format(
      "  with    --gopt-measure: %8.2f [%.2f-%.2f]  (%zu rows)\n", m,
      quantile(measured, 0.25), quantile(measured, 0.75), rows);
  llvm::outs() << llvm::format(
      "    of which statistics: %8.2f [%.2f-%.2f]\n", quantile(stats, 0.5),
      quantile(stats, 0.25), quantile(stats, 0.75));
  printWalk(context, "input graph", /*optimize=*/false);
  printWalk(context, "optimized  ", /*optimize=*/true);
  // Each repeat runs both configurations back to back, so the ratio within a
  // repeat cancels the drift of a noisy machine; its median is the figure.
  double ratio = quantile(ratios, 0.5);
  llvm::outs() << llvm::format("  ratio of medians: %.3f\n", m / p);
  llvm::outs() << llvm::format(
      "  median of paired ratios: %.3f [IQR %.3f-%.3f] (target <= 1.05): %s\n",
      ratio, quantile(ratios, 0.25), quantile(ratios, 0.75),
      ratio <= 1.05 ? "met" : "NOT met");
  return 0;
}
