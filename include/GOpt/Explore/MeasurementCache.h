//===- MeasurementCache.h - Reusing an exploration's measurements -*- C++ -*-===//
//
// A rerun of gopt-explore on the same model, machine, build and measurement
// settings reuses the runs the first one timed, as Inductor's autotuning
// cache and TVM's tuning records reuse timings: the configurations'
// measurements are stored next to the compile cache, keyed by everything
// they depend on, and the analysis (intervals, synergy, the choice) is
// computed afresh from them, so a rerun with another --alpha, --qps,
// --memory-limit or --p99-ms answers at once. --remeasure times anew.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_EXPLORE_MEASUREMENTCACHE_H
#define GOPT_EXPLORE_MEASUREMENTCACHE_H

#include "GOpt/Explore/Explorer.h"
#include "GOpt/Explore/Report.h"

#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace mlir {
namespace gopt {

/// Version of the stored measurements' format (2: the buffer plan and the
/// allocator's fragmentation; 3: the kernels' costs, for predictions, and
/// the water level;
/// records of another version are measured anew).
constexpr int kMeasurementRecordVersion = 3;

/// The key of an exploration's measurements (hex SHA-256): the model's IR
/// hash, the target, every option that shapes what is compiled and timed
/// (passes, pairs, pipelines, entry, lowering options, warm-up,
/// repetitions, rounds, stop rule, budget, tolerances, seed, kernel
/// profiling) and `context` (the machine and the build: the caller's
/// description of what its compiled code depends on). The choice's criteria
/// (alpha, QPS, memory limit, p99 bound) are not in it.
std::string computeMeasurementKey(llvm::StringRef modelHash,
                                  llvm::StringRef target,
                                  const ExploreOptions &options,
                                  llvm::StringRef context);

/// `<dir>/<key>.measurements.json`.
std::string measurementRecordPath(llvm::StringRef dir, llvm::StringRef key);

/// Stores the report's configurations, their measurements and the setup of
/// the rounds (written to a temporary file and renamed: a reader never sees
/// half a record).
llvm::Error storeMeasurements(llvm::StringRef path, const ExploreReport &report);

/// The stored report without its analysis, or nullopt when there is no
/// record at `path`. A record of another format version, or one that does
/// not parse, is an error naming the file (--remeasure replaces it).
llvm::Expected<std::optional<ExploreReport>>
loadMeasurements(llvm::StringRef path);

/// The stored report analyzed afresh with `options` (this run's criteria:
/// alpha, QPS, memory limit, p99 bound); its setup says the runs were
/// reused from `path`, and the elapsed time is this analysis'.
llvm::Expected<ExploreReport>
analyzeStoredMeasurements(ExploreReport stored, llvm::StringRef path,
                          const AnalysisOptions &options);

} // namespace gopt
} // namespace mlir

#endif // GOPT_EXPLORE_MEASUREMENTCACHE_H
