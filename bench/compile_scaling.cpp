//===- compile_scaling.cpp - gopt-optimize time per op vs graph size ------===//
//
// Generates graphs of about 1k, 10k and 100k ops that give every pass of the
// default pipeline work (constant subgraphs to fold, duplicates for CSE, dead
// ops, fusible chains and matmul epilogues), runs gopt-optimize on each
// several times, and prints the median time per op with its spread, and the
// ratio of time per op to the smallest graph's. Target: the ratio from 1k to
// 100k ops stays at or below 1.5 (passes run in linear time).
//
// With --lower, the optimized graph then goes through the CPU lowering
// (gopt-lower-to-llvm, up to the LLVM dialect; no machine code) once per
// size, timed per kernel: a pass whose cost grows with the kernel count
// shows as a growing time per kernel.
//
// With --codegen, the optimized graph is compiled whole, as gopt-run does
// (CompiledGraph::compile: lowering, LLVM O3 and machine code, JIT-loaded),
// once per size, with the lowering and code generation time per kernel.
// Both compile every kernel on its own (dedup-kernels=false): the graphs
// repeat their patterns, and the cost per kernel is what is measured.
//
//   gopt-bench-compile-scaling [--sizes=1000,10000,100000] [--repeats=5]
//                              [--lower] [--codegen]
//
//===----------------------------------------------------------------------===//

#include "BenchGraphs.h"
#include "BenchStats.h"
#include "GOpt/Codegen/CPU/Pipeline.h"
#include "GOpt/InitAllDialects.h"
#include "GOpt/Pipelines/Pipelines.h"
#include "GOpt/Runner/Runner.h"

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
static llvm::cl::opt<bool>
    lower("lower", llvm::cl::desc("Also time gopt-lower-to-llvm per kernel"),
          llvm::cl::init(false));
static llvm::cl::opt<bool> passTiming(
    "pass-timing",
    llvm::cl::desc("Print MLIR's per-pass timing of the last gopt-optimize "
                   "run of each size and, with --lower, of each lowering "
                   "(which pass grows with the graph)"),
    llvm::cl::init(false));
static llvm::cl::opt<bool> codegen(
    "codegen",
    llvm::cl::desc("Also compile the optimized graph to machine code "
                   "(CompiledGraph::compile), timed per kernel"),
    llvm::cl::init(false));
static llvm::cl::opt<int> repeats("repeats",
                                  llvm::cl::desc("Runs per graph size"),
                                  llvm::cl::init(5));

struct Measurement {
  int64_t ops;
  double median, q1, q3;
};

static LogicalResult timeLowering(MLIRContext &context,
                                  llvm::ArrayRef<int64_t> targets);
static LogicalResult timeCompile(MLIRContext &context,
                                 llvm::ArrayRef<int64_t> targets);

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
  gopt::registerAllDialects(registry);
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
      if (passTiming && r == repeats - 1)
        pm.enableTiming();
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
  if (lower && failed(timeLowering(context, targets)))
    return 1;
  if (codegen && failed(timeCompile(context, targets)))
    return 1;
  return 0;
}

/// Kernels (functions carrying gopt.kernel) in `module`.
static int64_t countKernels(ModuleOp module) {
  int64_t kernels = 0;
  module->walk([&](Operation *op) {
    if (op->hasAttr("gopt.kernel"))
      ++kernels;
  });
  return kernels;
}

/// The generated graph of about `target` ops (their count in `ops`), after
/// gopt-optimize; null after printing why when the pipeline fails.
static OwningOpRef<ModuleOp> generateOptimized(MLIRContext &context,
                                               int64_t target, int64_t &ops) {
  OwningOpRef<ModuleOp> module = generateGraph(context, target);
  ops = countOps(*module);
  PassManager optimize(&context);
  buildOptimizePipeline(optimize, OptimizePipelineOptions());
  if (failed(optimize.run(*module))) {
    llvm::errs() << "error: gopt-optimize failed on the " << target
                 << "-op graph\n";
    return nullptr;
  }
  return module;
}

static LogicalResult timeLowering(MLIRContext &context,
                                  llvm::ArrayRef<int64_t> targets) {
  llvm::outs() << "\ngopt-optimize then gopt-lower-to-llvm (to the LLVM "
                  "dialect), once per size\n";
  llvm::outs() << llvm::format("%10s %8s %14s %14s %10s\n", "ops", "kernels",
                               "lowering ms", "ms/kernel", "vs first");
  double firstPerKernel = 0;
  for (int64_t target : targets) {
    int64_t ops = 0;
    OwningOpRef<ModuleOp> module = generateOptimized(context, target, ops);
    if (!module)
      return failure();
    PassManager pm(&context);
    if (passTiming)
      pm.enableTiming();
    // Every kernel lowered on its own: the graphs repeat one block, and the
    // cost per kernel is what is measured.
    LowerToLLVMOptions lowering;
    lowering.deduplicateKernels = false;
    buildLowerToLLVMPipeline(pm, lowering);
    auto start = std::chrono::steady_clock::now();
    if (failed(pm.run(*module))) {
      llvm::errs() << "error: gopt-lower-to-llvm failed on the " << target
                   << "-op graph\n";
      return failure();
    }
    double ms = std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - start)
                    .count();
    int64_t kernels = countKernels(*module);
    double perKernel = ms / std::max<int64_t>(kernels, 1);
    if (firstPerKernel == 0)
      firstPerKernel = perKernel;
    llvm::outs() << llvm::format("%10lld %8lld %14.1f %14.3f %9.2fx\n",
                                 (long long)ops, (long long)kernels, ms,
                                 perKernel, perKernel / firstPerKernel);
    llvm::outs().flush();
  }
  return success();
}

static LogicalResult timeCompile(MLIRContext &context,
                                 llvm::ArrayRef<int64_t> targets) {
  llvm::outs() << "\ngopt-optimize, then compiled to machine code "
                  "(CompiledGraph::compile, LLVM O3), once per size\n";
  llvm::outs() << llvm::format("%10s %8s %12s %12s %12s %10s\n", "ops",
                               "kernels", "lowering ms", "codegen ms",
                               "ms/kernel", "vs first");
  double firstPerKernel = 0;
  for (int64_t target : targets) {
    int64_t ops = 0;
    OwningOpRef<ModuleOp> module = generateOptimized(context, target, ops);
    if (!module)
      return failure();
    CompileOptions options;
    options.loweringOptions = "dedup-kernels=false";
    auto graph = CompiledGraph::compile(*module, options);
    if (!graph) {
      llvm::errs() << "error: the " << target << "-op graph does not compile: "
                   << llvm::toString(graph.takeError()) << "\n";
      return failure();
    }
    const CompileTimes &times = (*graph)->getCompileTimes();
    int64_t kernels = std::max<size_t>((*graph)->getKernels().size(), 1);
    double perKernel = (times.loweringMs + times.codegenMs) / kernels;
    if (firstPerKernel == 0)
      firstPerKernel = perKernel;
    llvm::outs() << llvm::format("%10lld %8lld %12.1f %12.1f %12.3f %9.2fx\n",
                                 (long long)ops, (long long)kernels,
                                 times.loweringMs, times.codegenMs, perKernel,
                                 perKernel / firstPerKernel);
    llvm::outs().flush();
  }
  return success();
}
