//===- buffer_plan.cpp - What the static buffer planner buys --------------===//
//
// Compiles a model (default: examples/transformer_block.mlir) after a graph
// pipeline (default gopt-optimize) twice, lowered with plan-buffers=false and
// =true, checks both compute the same outputs, and prints for each: the
// median run time with its IQR (interleaved rounds, one thread), the peak
// bytes, the bytes the runtime's allocator held at that peak, allocations
// per run and the arena; then the ratios planned / unplanned, the time's
// with a 95% bootstrap interval.
//
//   gopt-bench-buffer-plan [model.mlir] [--rounds=41] [--pipeline=...]
//
//===----------------------------------------------------------------------===//

#include "BenchRunner.h"

#include "GOpt/Runtime/Runtime.h"

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
    pipeline("pipeline", llvm::cl::desc("Graph pipeline of both builds"),
             llvm::cl::init("gopt-optimize"));

int main(int argc, char **argv) {
  llvm::cl::ParseCommandLineOptions(argc, argv,
                                    "what the static buffer planner buys\n");
  if (rounds < 5) {
    llvm::errs() << "error: --rounds must be at least 5\n";
    return 1;
  }
  mlir::gopt::runtime::setLibraryThreads(1);
  auto file = readModelOrDie(model);
  auto context = makeContext();
  llvm::StringRef source = file->getBuffer();
  auto plain = compileOrDie(*context, source, pipeline, /*kernelTimers=*/false,
                            "plan-buffers=false");
  auto planned = compileOrDie(*context, source, pipeline,
                              /*kernelTimers=*/false, "plan-buffers=true");
  std::vector<HostTensor> inputs = plain->makeRandomInputs(1);
  checkSameOutputsOrDie(*plain, *planned, inputs, "the planned build", 1e-5,
                        1e-6);

  RunReport memoryPlain = measureAloneOrDie(*plain, inputs, 5);
  RunReport memoryPlanned = measureAloneOrDie(*planned, inputs, 5);
  auto samples = interleave({[&] { return timeGraphOnce(*plain, inputs); },
                             [&] { return timeGraphOnce(*planned, inputs); }},
                            rounds);

  llvm::outs() << model << ", " << pipeline << ", single thread, " << rounds
               << " interleaved rounds (median [IQR] ms)\n";
  auto row = [&](const char *name, const std::vector<double> &ms,
                 const RunReport &r) {
    llvm::outs() << llvm::format(
        "  %-18s %9.4f [%.4f-%.4f]  peak %lld B, held %lld B, %lld "
        "allocations/run\n",
        name, quantile(ms, 0.5), quantile(ms, 0.25), quantile(ms, 0.75),
        (long long)r.peakBytes, (long long)r.reservedAtPeak,
        (long long)r.allocationsPerRun);
  };
  row("plan-buffers=false", samples[0], memoryPlain);
  row("plan-buffers=true", samples[1], memoryPlanned);
  const BufferPlan &plan = planned->getBufferPlan();
  llvm::outs() << llvm::format(
      "  arena %lld B for %lld intermediates of %lld B in all (reuse %.1f%%)\n",
      (long long)plan.arenaBytes, (long long)plan.plannedBuffers,
      (long long)plan.plannedBytes, 100.0 * plan.reuse());
  double tPlain = quantile(samples[0], 0.5),
         tPlanned = quantile(samples[1], 0.5);
  auto [lo, hi] = bootstrapRatio(samples[1], samples[0]);
  llvm::outs() << llvm::format(
      "planned / unplanned: time %.3f (95%% bootstrap %.3f-%.3f)%s, peak "
      "%.3f, held %.3f\n",
      tPlanned / tPlain, lo, hi,
      hi < 1 ? ": faster" : (lo > 1 ? ": slower" : ": within noise"),
      double(memoryPlanned.peakBytes) / double(memoryPlain.peakBytes),
      double(memoryPlanned.reservedAtPeak) /
          double(memoryPlain.reservedAtPeak));
  return 0;
}
