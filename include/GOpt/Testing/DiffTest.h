//===- DiffTest.h - Differential testing of the graph passes ----*- C++ -*-===//
//
// Compiles a graph with no graph pass (the reference) and with every subset
// of {gopt-fold, gopt-dce, cse, gopt-fuse} plus gopt-optimize, runs each on
// the same seeded inputs and compares every output (docs/Testing.md). The
// reference itself is compared with the constant evaluator's outputs, which
// share no lowering code, so a lowering bug all configurations share shows;
// and every configuration's graph, after its passes, is evaluated by the
// constant evaluator too, so a pass that changes what the graph computes
// shows without compiling it (the fast mode for large runs compiles only the
// reference and gopt-optimize).
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_TESTING_DIFFTEST_H
#define GOPT_TESTING_DIFFTEST_H

#include "GOpt/Support/HostTensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace mlir {
namespace gopt {

/// One configuration of graph passes.
struct DiffConfiguration {
  /// "fold+dce", "gopt-optimize", ...
  std::string name;
  /// Textual pipeline on builtin.module; empty for the reference.
  std::string pipeline;
};

/// The reference (no pass) first, then the 15 non-empty subsets of
/// {gopt-fold, gopt-dce, cse, gopt-fuse} in gopt-optimize's order, then
/// gopt-optimize: 17 configurations.
std::vector<DiffConfiguration> getDiffConfigurations();

struct DiffTestOptions {
  /// |actual - reference| <= atol + rtol * |reference| (docs/Testing.md).
  double rtol = 1e-4;
  double atol = 1e-5;
  /// Seed of the random inputs.
  uint64_t inputSeed = 0;
  /// CompileOptions::codegenOptLevel of every compile.
  unsigned codegenOptLevel = 3;
  /// Compile and run every configuration whose IR differs from those already
  /// compiled (true), or only the reference and gopt-optimize (false: the
  /// other configurations are checked by the constant evaluator alone).
  bool compileEveryConfiguration = true;
  /// Also run the graph as the GPU pipeline maps it, its kernels emulated
  /// on the CPU thread by thread (Target::EmulatedCUDA, with
  /// `nvvmOptions`), without graph passes and after gopt-optimize, each
  /// compared with the reference: the configurations "gpu-emulated" and
  /// "gopt-optimize+gpu-emulated".
  bool emulateGPU = false;
  std::string nvvmOptions;
};

/// What testing one graph found.
struct DiffTestResult {
  /// Configurations compared with the reference (reference excluded).
  int64_t configurations = 0;
  /// Of those, how many were compiled (the others produced IR identical to
  /// a configuration already compiled, whose outputs were reused, or were
  /// left to the evaluator by compileEveryConfiguration = false).
  int64_t compiled = 0;
  /// Of those, how many graphs (after the configuration's passes) the
  /// constant evaluator computed and compared with its own outputs on the
  /// unoptimized graph.
  int64_t evaluated = 0;
  /// Whether the reference's compiled outputs were also compared with the
  /// constant evaluator's (EvaluatorReference.h), which shares no lowering
  /// code; when not, why (an op it has no kernel for, ...).
  bool checkedAgainstEvaluator = false;
  std::string evaluatorSkipped;
  /// One line per failing configuration: mismatch, compile failure or
  /// broken invariant; empty when the graph passed.
  std::vector<std::string> failures;
  bool passed() const { return failures.empty(); }
};

/// How `got` differs from `want` (matched by position) beyond the
/// tolerances: "result #I<whose> differs from <against> (M of N elements,
/// max abs error E): <first differing element>" for the first result that
/// does; empty when all match.
std::string describeFirstMismatch(llvm::ArrayRef<HostTensor> got,
                                  llvm::ArrayRef<HostTensor> want, double rtol,
                                  double atol, llvm::StringRef whose,
                                  llvm::StringRef against);

/// Tests `module` (left unchanged) under every configuration. Passes must be
/// registered (gopt::registerAllPasses). A reference that does not compile
/// or run is a failure too.
DiffTestResult runDiffTest(ModuleOp module, const DiffTestOptions &options);

/// Parses "N" or "A-B" (A <= B) into an inclusive seed range.
llvm::Expected<std::pair<uint64_t, uint64_t>>
parseSeedRange(llvm::StringRef text);

} // namespace gopt
} // namespace mlir

#endif // GOPT_TESTING_DIFFTEST_H
