//===- compile_scaling.cpp - gopt-optimize time per op vs graph size ------===//
//
// Generates graphs of about 1k, 10k and 100k ops that give every pass of the
// default pipeline work (constant subgraphs to fold, duplicates for CSE, dead
// ops, fusible chains and matmul epilogues), runs gopt-optimize on each
// several times, and prints the median time per op with its spread, and the
// ratio of time per op to the smallest graph's. Target: the ratio from 1k to
// 100k ops stays at or below 1.5 (passes run in linear time).
//
//   gopt-bench-compile-scaling [--sizes=1000,10000,100000] [--repeats=5]
//
//===----------------------------------------------------------------------===//

#include "BenchGraphs.h"
#include "BenchStats.h"
#include "GOpt/Pipelines/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>

using namespace mlir;
using namespace mlir::gopt;
using namespace gopt_bench;

static llvm::cl::list<int64_t>
    sizes("sizes", llvm::cl::desc("Approximate op counts of the graphs"),
          llvm::cl::CommaSeparated);
static llvm::cl::opt<int> repeats("repeats",
                                  llvm::cl::desc("Runs per graph size"),
                                  llvm::cl::init(5));

struct Measurement {
  int64_t ops;
  double median, q1, q3;
};

int main(int argc, char **argv) {
  llvm::cl::ParseCommandLineOptions(argc, argv,
                                    "gopt-optimize compile-time scaling\n");
  std::vector<int64_t> targets(sizes.begin(), sizes.end());
  if (targets.empty())
    targets = {1000, 10000, 100000};
  if (repeats < 1) {
    llvm::errs() << "error: --repeats must be at least 1\n";
    return 1;
  }

  DialectRegistry registry;
  registry.insert<GOptDialect, func::FuncDialect>();
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();

  llvm::outs() << "gopt-optimize compile time per op (single thread, "
               << repeats << " runs per size; median [IQR])\n";
  llvm::outs() << llvm::format("%10s %14s %22s %10s\n", "ops", "total ms",
                               "us/op median [IQR]", "vs first");
  std::vector<Measurement> results;
  for (int64_t target : targets) {
    std::vector<double> perOp;
    int64_t ops = 0;
    for (int r = 0; r < repeats; ++r) {
      OwningOpRef<ModuleOp> module = generateGraph(context, target);
      ops = countOps(*module);
      PassManager pm(&context);
      buildOptimizePipeline(pm, OptimizePipelineOptions());
      auto start = std::chrono::steady_clock::now();
      if (failed(pm.run(*module))) {
        llvm::errs() << "error: gopt-optimize failed on the " << target
                     << "-op graph\n";
        return 1;
      }
      auto end = std::chrono::steady_clock::now();
      if (failed(verify(*module))) {
        llvm::errs() << "error: gopt-optimize produced invalid IR\n";
        return 1;
      }
      double us = std::chrono::duration<double, std::micro>(end - start).count();
      perOp.push_back(us / ops);
    }
    Measurement m{ops, quantile(perOp, 0.5), quantile(perOp, 0.25),
                  quantile(perOp, 0.75)};
    results.push_back(m);
    llvm::outs() << llvm::format(
        "%10lld %14.1f %10.3f [%.3f-%.3f] %9.2fx\n", (long long)m.ops,
        m.median * m.ops / 1000.0, m.median, m.q1, m.q3,
        m.median / results.front().median);
    llvm::outs().flush();
  }
  double ratio = results.back().median / results.front().median;
  llvm::outs() << llvm::format(
      "time per op, largest vs smallest graph: %.2fx (target <= 1.5x): %s\n",
      ratio, ratio <= 1.5 ? "met" : "NOT met");
  return 0;
}
