//===- SummaryJSON.h - A sample summary as JSON -----------------*- C++ -*-===//
//
// Private to lib/Runner: the one layout of a SampleSummary in gopt-run's
// JSON reports (latency of timed runs, of a load test, service times).
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_LIB_RUNNER_SUMMARYJSON_H
#define GOPT_LIB_RUNNER_SUMMARYJSON_H

#include "GOpt/Support/Statistics.h"

#include "llvm/Support/JSON.h"

namespace mlir {
namespace gopt {

/// {"median", "q1", "q3", "mean", "cv", "min", "max"}.
inline llvm::json::Object summaryJSON(const SampleSummary &s) {
  return llvm::json::Object{{"median", s.median}, {"q1", s.q1},
                            {"q3", s.q3},         {"mean", s.mean},
                            {"cv", s.cv},         {"min", s.min},
                            {"max", s.max}};
}

} // namespace gopt
} // namespace mlir

#endif // GOPT_LIB_RUNNER_SUMMARYJSON_H
