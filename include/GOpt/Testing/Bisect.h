//===- Bisect.h - The pass, then the rewrite, that breaks a pipeline -*- C++ -*-===//
//
// When a graph pipeline makes a graph compute something else, or run slower,
// than the graph without it, bisectPipeline finds the first pass of the
// pipeline that does it, then, within that pass, the first pattern
// application that does it: the way LLVM's opt-bisect-limit does, through
// MLIR's action framework. Every pattern application in MLIR (greedy and
// walk drivers, dialect conversion) is an `apply-pattern` action
// (mlir/Rewrite/PatternApplicator.h); an action handler lets the first N run
// and skips the rest, exactly what `--mlir-debug-counter=apply-pattern-count=N`
// does in gopt-opt, and N is bisected (docs/Testing.md, "Bisection").
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_TESTING_BISECT_H
#define GOPT_TESTING_BISECT_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir {
namespace gopt {

/// What makes a pipeline's result bad.
enum class BisectCriterion {
  /// An output differs from the unoptimized graph's beyond the tolerances,
  /// or the graph no longer compiles or runs.
  Wrong,
  /// The compiled graph's median latency exceeds the unoptimized graph's by
  /// more than `slowerMargin` (rounds of the two interleaved).
  Slower,
};

struct BisectOptions {
  /// The pipeline to bisect (builtin.module(...) or its passes).
  std::string pipeline = "builtin.module(gopt-optimize)";
  BisectCriterion criterion = BisectCriterion::Wrong;
  /// Wrong: |actual - reference| <= atol + rtol * |reference|.
  double rtol = 1e-4;
  double atol = 1e-5;
  uint64_t inputSeed = 0;
  /// Slower: bad when candidate / reference median > 1 + slowerMargin.
  double slowerMargin = 0.05;
  /// Slower: rounds of `runsPerRound` runs of each graph, interleaved.
  int rounds = 7;
  int runsPerRound = 30;
  /// A line per check on this stream, when set.
  llvm::raw_ostream *progress = nullptr;
};

struct BisectResult {
  /// The pipeline's passes, as textual pipeline elements, in order.
  std::vector<std::string> passes;
  /// Whether the whole pipeline is bad, and how.
  bool bad = false;
  std::string difference;
  /// The first pass whose prefix of the pipeline is bad (index into
  /// `passes`), and how that prefix differs.
  int firstBadPass = -1;
  std::string passDifference;
  /// `apply-pattern` actions (pattern applications tried, matched or not)
  /// the first bad pass runs; 0 when it applies no rewrite patterns (CSE,
  /// gopt-fuse's planner), where bisection stops at the pass.
  int64_t attempts = 0;
  /// The first application (1-based) such that allowing applications 1..N
  /// of that pass is bad while 1..N-1 is not; -1 when none alone is (the
  /// pass is bad only with applications the limit skips undone).
  int64_t firstBadAttempt = -1;
  /// The pattern of that application and the op it was applied to.
  std::string pattern;
  std::string anchor;
  /// The IR (the function holding the anchor, around the first changed line)
  /// with N-1 and with N applications allowed.
  std::string irBefore, irAfter;
  /// Checks (compile + run) done.
  int checks = 0;
};

/// Bisects `options.pipeline` on `module` (left unchanged). Errors: a bad
/// pipeline, an unoptimized graph that does not compile or run.
llvm::Expected<BisectResult> bisectPipeline(ModuleOp module,
                                            const BisectOptions &options);

/// The text of `result` for a terminal, with the commands that reproduce the
/// rewrite (`model` is the input's path, as the user gave it).
void printBisectResult(const BisectResult &result, llvm::StringRef model,
                       const BisectOptions &options, llvm::raw_ostream &os);

} // namespace gopt
} // namespace mlir

#endif // GOPT_TESTING_BISECT_H
