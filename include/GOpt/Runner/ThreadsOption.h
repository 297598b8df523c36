//===- ThreadsOption.h - The --threads flag of GOpt's tools -----*- C++ -*-===//
//
// gopt-run and gopt-explore take `--threads=N`: the threads the library
// GEMM behind the library path may use (generated loops run on the calling
// thread). libLLVM already registers a hidden, undocumented `--threads=<int>`
// option, so a second registration under that name aborts at start-up; the
// tools adopt the registered one (description, category) instead.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_RUNNER_THREADSOPTION_H
#define GOPT_RUNNER_THREADSOPTION_H

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"

namespace mlir {
namespace gopt {

/// The `--threads` option, described and put in `category`; call before
/// parsing the command line. Its value 0 means "the library's default".
llvm::cl::opt<int> &adoptThreadsOption(llvm::cl::OptionCategory &category);

/// Applies a `--threads` value: 0 leaves the library's default; more than
/// this machine's cores is clamped, with a warning on stderr naming `tool`.
/// Returns the thread count in use, or an error for a negative value.
llvm::Expected<int> applyThreadsOption(llvm::StringRef tool, int threads);

} // namespace gopt
} // namespace mlir

#endif // GOPT_RUNNER_THREADSOPTION_H
