//===- CUDABackend.h - The explorer on an NVIDIA GPU ------------*- C++ -*-===//
//
// gopt-explore --target=cuda: each configuration compiled with
// gopt-lower-to-nvvm into a bundle (CompiledGraph with Target::CUDA), loaded
// into this process and run on the local GPU by the bundle runner
// (GOpt/Deploy/BundleRunner.h): the same figures as on the CPU, on the
// device. Library GOptExploreCUDA.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_EXPLORE_CUDABACKEND_H
#define GOPT_EXPLORE_CUDABACKEND_H

#include "GOpt/Explore/Explorer.h"

#include <memory>

namespace mlir {
namespace gopt {

/// How the GPU backend runs the configurations.
enum class CUDABackendMode {
  /// On this machine's GPU, in process.
  Run,
  /// Nowhere: compile() writes each distinct program's bundle into
  /// `<dir>/bundles/<program hash, 16 hex digits>/` (no GPU needed); the
  /// runs happen on a GPU machine (scripts/gpu-explore.sh).
  Export,
  /// From what scripts/gpu-explore.sh recorded for those bundles in
  /// `<dir>/runs/<hash>/`: `round<k>.json` (gopt-exec's report of round
  /// k), `kernels.json` (a profiled run), `results/result<i>.bin` (the
  /// outputs). compile() compiles again here for the compile figures and
  /// the program hash; the k-th measure() of a configuration returns
  /// round k's runs, whatever it asks for.
  Replay,
};

/// The GPU backend for `module`: `options.loweringOptions` are
/// gopt-lower-to-nvvm's options. In Run mode it fails at the first
/// compile, with the reason, when this machine has no usable CUDA device;
/// the executable must export GOpt's CUDA runtime to the bundles it loads
/// (ENABLE_EXPORTS). `dir` is the exchange folder of Export and Replay.
std::unique_ptr<ExploreBackend>
createCUDABackend(ModuleOp module, const ExploreOptions &options,
                  CUDABackendMode mode = CUDABackendMode::Run,
                  llvm::StringRef dir = "");

/// What scripts/gpu-explore.sh recorded in `<dir>/runs`: the rounds (the
/// fewest over its programs) and, from a first round's report, the timed
/// calls per round and the warm-up calls before them.
struct RecordedRuns {
  int rounds = 0;
  int repetitions = 0;
  int warmup = 0;
};
llvm::Expected<RecordedRuns> readRecordedRuns(llvm::StringRef dir);

} // namespace gopt
} // namespace mlir

#endif // GOPT_EXPLORE_CUDABACKEND_H
