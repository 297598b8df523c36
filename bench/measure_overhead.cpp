//===- measure_overhead.cpp - Cost of --gopt-measure on gopt-optimize -----===//
//
// Runs the default pipeline on a generated graph of about 10,000 ops with and
// without the PassMeasurement instrumentation, interleaving the two so drift
// hits both alike, and prints the median compile time of each with its IQR
// and the ratio of the medians. Target: ratio <= 1.05.
//
//   gopt-bench-measure-overhead [--ops=10000] [--repeats=21]
//
//===----------------------------------------------------------------------===//

#include "BenchGraphs.h"
#include "BenchStats.h"
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
  std::vector<double> plain, measured, stats;
  for (int r = 0; r < repeats; ++r) {
    bool measuredFirst = r % 2;
    for (int k = 0; k < 2; ++k) {
      bool m = (k == 0) == measuredFirst;
      (m ? measured : plain).push_back(runOnce(context, m, ops, rows, statsMs));
      if (m)
        stats.push_back(statsMs);
    }
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
  double ratio = m / p;
  llvm::outs() << llvm::format(
      "  ratio of medians: %.3f (target <= 1.05): %s\n", ratio,
      ratio <= 1.05 ? "met" : "NOT met");
  return 0;
}
