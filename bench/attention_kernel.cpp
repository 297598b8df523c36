//===- attention_kernel.cpp - What the attention kernel buys --------------===//
//
// Compiles a model (default: examples/attention_block.mlir) with
// gopt-optimize twice, with and without gopt-fuse's attention kernel
// (`gopt-optimize{attention=false}`: the chain is then three kernels),
// checks both compute the same outputs, and prints for each the median run
// time with its IQR (interleaved rounds, on --threads threads), the kernel
// count and the peak bytes; then the ratios attention / three kernels, the
// time's with a 95% bootstrap interval.
//
//   gopt-bench-attention-kernel [model.mlir] [--rounds=41] [--threads=1]
//
//===----------------------------------------------------------------------===//

#include "BenchRunner.h"

#include "GOpt/Runner/ThreadsOption.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"

using namespace gopt_bench;

static llvm::cl::opt<std::string>
    model(llvm::cl::Positional, llvm::cl::desc("[model.mlir]"),
          llvm::cl::init(GOPT_SOURCE_DIR "/examples/attention_block.mlir"));
static llvm::cl::opt<int> rounds("rounds",
                                 llvm::cl::desc("Interleaved timed rounds"),
                                 llvm::cl::init(41));

/// Kernels of `graph` that call the runtime's gopt_attention.
static int64_t attentionKernels(const CompiledGraph &graph) {
  int64_t count = 0;
  for (const KernelInfo &kernel : graph.getKernels())
    count += llvm::StringRef(kernel.libraryCalls).contains("gopt_attention");
  return count;
}

int main(int argc, char **argv) {
  static llvm::cl::OptionCategory category("gopt-bench-attention-kernel");
  llvm::cl::opt<int> &threadsOption = mlir::gopt::adoptThreadsOption(category);
  llvm::cl::ParseCommandLineOptions(argc, argv,
                                    "what the attention kernel buys\n");
  if (rounds < 5) {
    llvm::errs() << "error: --rounds must be at least 5\n";
    return 1;
  }
  // One thread unless asked (--threads=0: the library default, every core).
  int asked = threadsOption.getNumOccurrences() ? int(threadsOption) : 1;
  auto applied =
      mlir::gopt::applyThreadsOption("gopt-bench-attention-kernel", asked);
  if (!applied) {
    llvm::errs() << "error: " << llvm::toString(applied.takeError()) << "\n";
    return 1;
  }
  int threads = *applied;
  auto file = readModelOrDie(model);
  auto context = makeContext();
  llvm::StringRef source = file->getBuffer();
  auto split = compileOrDie(*context, source,
                            "builtin.module(gopt-optimize{attention=false})");
  auto fused = compileOrDie(*context, source, "gopt-optimize");
  std::vector<HostTensor> inputs = split->makeRandomInputs(1);
  checkSameOutputsOrDie(*split, *fused, inputs, "the attention kernel", 1e-4,
                        1e-5);
  int64_t peakSplit = measureAloneOrDie(*split, inputs, 3).peakBytes;
  int64_t peakFused = measureAloneOrDie(*fused, inputs, 3).peakBytes;
  auto samples = interleave({[&] { return timeGraphOnce(*split, inputs); },
                             [&] { return timeGraphOnce(*fused, inputs); }},
                            rounds);

  llvm::outs() << model << ", gopt-optimize, " << threads << " thread"
               << (threads == 1 ? "" : "s") << ", " << rounds
               << " interleaved rounds (median [IQR] ms)\n";
  auto row = [&](const char *name, const std::vector<double> &ms,
                 const CompiledGraph &graph, int64_t peak) {
    llvm::outs() << llvm::format(
        "  %-20s %9.4f [%.4f-%.4f]  %3zu kernels (%lld attention), peak "
        "%lld B\n",
        name, quantile(ms, 0.5), quantile(ms, 0.25), quantile(ms, 0.75),
        graph.getKernels().size(), (long long)attentionKernels(graph),
        (long long)peak);
  };
  row("attention=false", samples[0], *split, peakSplit);
  row("attention kernel", samples[1], *fused, peakFused);
  if (attentionKernels(*fused) == 0)
    llvm::outs() << "note: no attention chain in this model; both builds are "
                    "the same\n";
  auto [lo, hi] = bootstrapRatio(samples[1], samples[0]);
  llvm::outs() << llvm::format(
      "attention kernel / three kernels: time %.3f (95%% bootstrap "
      "%.3f-%.3f)%s, peak %.3f\n",
      quantile(samples[1], 0.5) / quantile(samples[0], 0.5), lo, hi,
      hi < 1 ? ": faster" : (lo > 1 ? ": slower" : ": within noise"),
      double(peakFused) / double(peakSplit));
  return 0;
}
