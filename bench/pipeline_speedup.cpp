//===- pipeline_speedup.cpp - What gopt-optimize buys on a model ----------===//
//
// Compiles a model (default: examples/transformer_block.mlir) without graph
// passes and with gopt-optimize, times both interleaved on the same seeded
// inputs, and prints each median with its IQR, the kernel counts, and the
// speedup S = T_base / T_opt with a 95% bootstrap interval.
//
//   gopt-bench-pipeline-speedup [model.mlir] [--rounds=41] [--pipeline=...]
//
//===----------------------------------------------------------------------===//

#include "BenchRunner.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"

using namespace gopt_bench;

static llvm::cl::opt<std::string>
    model(llvm::cl::Positional, llvm::cl::desc("[model.mlir]"),
          llvm::cl::init(GOPT_SOURCE_DIR "/examples/transformer_block.mlir"));
static llvm::cl::opt<int> rounds("rounds",
                                 llvm::cl::desc("Interleaved timed rounds"),
                                 llvm::cl::init(41));
static llvm::cl::opt<std::string>
    pipeline("pipeline", llvm::cl::desc("Optimized configuration"),
             llvm::cl::init("gopt-optimize"));

int main(int argc, char **argv) {
  llvm::cl::ParseCommandLineOptions(argc, argv,
                                    "speedup of a graph pipeline\n");
  if (rounds < 5) {
    llvm::errs() << "error: --rounds must be at least 5\n";
    return 1;
  }
  // One thread, as the report says: the library calls and the generated
  // parallel loops share the runtime's pool, which defaults to every core.
  mlir::gopt::runtime::setLibraryThreads(1);
  auto file = readModelOrDie(model);
  auto context = makeContext();
  auto base = compileOrDie(*context, file->getBuffer(), "");
  auto opt = compileOrDie(*context, file->getBuffer(), pipeline);
  std::vector<HostTensor> inputs = base->makeRandomInputs(1);
  checkSameOutputsOrDie(*base, *opt, inputs, "the optimized graph", 1e-4, 1e-5);
  auto samples = interleave({[&] { return timeGraphOnce(*base, inputs); },
                             [&] { return timeGraphOnce(*opt, inputs); }},
                            rounds);
  double tb = quantile(samples[0], 0.5), to = quantile(samples[1], 0.5);
  auto [lo, hi] = bootstrapRatio(samples[0], samples[1]);
  llvm::outs() << model << ", single thread, " << rounds
               << " interleaved rounds (median [IQR] ms)\n";
  llvm::outs() << llvm::format("  no graph pass   %9.4f [%.4f-%.4f]  %3zu "
                               "kernels\n",
                               tb, quantile(samples[0], 0.25),
                               quantile(samples[0], 0.75),
                               base->getKernels().size());
  llvm::outs() << llvm::format("  %-15s %9.4f [%.4f-%.4f]  %3zu kernels\n",
                               pipeline.c_str(), to, quantile(samples[1], 0.25),
                               quantile(samples[1], 0.75),
                               opt->getKernels().size());
  llvm::outs() << llvm::format(
      "speedup S = T_base / T_opt = %.3f (95%% bootstrap %.3f-%.3f)%s\n",
      tb / to, lo, hi,
      lo > 1 ? ": a real win" : (hi < 1 ? ": a slowdown" : ": within noise"));
  return 0;
}
