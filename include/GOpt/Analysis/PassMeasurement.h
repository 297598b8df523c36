//===- PassMeasurement.h - Per-pass size and time record --------*- C++ -*-===//
//
// A PassInstrumentation that records, for every pass execution (upstream
// passes and nested pipelines included), what the pass cost and what the
// graph looks like after it: one versioned record, written as JSON, CSV, a
// table or a Chrome trace (docs/Measurement.md). Attach it to any
// PassManager, after its passes are added:
//
//   gopt::MeasurementOptions options;
//   options.toolName = "my-compiler";
//   std::shared_ptr<gopt::MeasurementRecord> record =
//       gopt::attachGOptMeasurement(pm, options);
//   if (failed(pm.run(module))) ...;   // the record shows a failing pass too
//   record->finalize();
//   gopt::writeMeasurement(*record, gopt::MeasurementFormat::JSON, os);
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_ANALYSIS_PASSMEASUREMENT_H
#define GOPT_ANALYSIS_PASSMEASUREMENT_H

#include "GOpt/Analysis/GraphStats.h"

#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <memory>
#include <optional>
#include <mutex>
#include <string>
#include <vector>

namespace mlir {
namespace gopt {

/// Version of the record's schema (docs/Measurement.md).
constexpr int kMeasurementSchemaVersion = 1;

/// The compiled graph's run time and memory at one point of the pipeline,
/// measured by a RuntimeProbe.
struct RuntimeFigures {
  /// Why the graph could not be compiled or run (then nothing else is set).
  std::string error;
  /// Where the graph ran: "cpu-<host cpu>" or "cuda-<chip> (<device>)".
  std::string target;
  double medianMs = 0, q1Ms = 0, q3Ms = 0, cv = 0;
  int repetitions = 0;
  /// Peak bytes the compiled code held during a run.
  int64_t peakBytes = 0;
  int64_t kernels = 0;
  double compileMs = 0;
  bool ok() const { return error.empty(); }
};

/// Lowers, JITs and times a copy of the IR under `op` (the module a top-level
/// pass ran on). Analysis does not compile code itself: tools plug in one,
/// e.g. gopt::makeRuntimeProbe from GOpt/Runner/RuntimeProbe.h.
using RuntimeProbe = std::function<RuntimeFigures(Operation *op)>;

/// One execution of one pass on one op.
struct PassRecord {
  /// Position in the record (rows are sorted by nesting and program order, so
  /// the order does not depend on threading).
  int64_t index = 0;
  /// Index of the row of the pass that ran the nested pipeline, or -1.
  int64_t parent = -1;
  int64_t depth = 0;
  std::string name;      ///< pass name, e.g. "GOptFold"
  std::string argument;  ///< pass argument, e.g. "gopt-fold"
  std::string pipeline;  ///< as in a pipeline, options included
  std::string opName;    ///< op the pass ran on, e.g. "func.func"
  std::string opSymbol;  ///< its symbol name, if any
  std::string path;      ///< nesting path, e.g. "builtin.module/func.func@f"
  double wallMs = 0;
  double cpuMs = 0;
  /// Wall time spent computing this row's statistics and runtime figures
  /// (not in wallMs).
  double measureMs = 0;
  /// Start time relative to the first pass, for traces.
  double startMs = 0;
  uint64_t threadId = 0;
  bool failed = false;
  bool changed = false;
  int64_t opsAdded = 0;
  int64_t opsRemoved = 0;
  int64_t fusionGroupsAdded = 0;
  int64_t fusionGroupsRemoved = 0;
  /// Statistics of the op the pass ran on, after the pass.
  GraphStats after;
  /// Statistics of the same op before the pass.
  GraphStats before;
  /// With a runtime probe, the graph's run time after the pass (top-level
  /// rows of passes that did not fail).
  std::optional<RuntimeFigures> runtime;
  /// Sort key: nesting and program order.
  std::vector<int64_t> key;
};

/// Everything recorded in one run of a pass manager.
struct MeasurementRecord {
  std::string toolName = "gopt-opt";
  std::string toolVersion;
  std::string pipeline;
  std::string inputFile;
  bool threading = false;
  /// Statistics of the top-level op before the first pass.
  GraphStats baseline;
  bool hasBaseline = false;
  /// Called after every top-level pass and on the baseline, when set.
  RuntimeProbe runtimeProbe;
  std::optional<RuntimeFigures> baselineRuntime;
  std::vector<PassRecord> rows;
  /// Next sort key of a top-level pass execution.
  int64_t nextTopLevelOrdinal = 0;

  /// Sorts rows into their deterministic order and fills index/parent.
  void finalize();
  /// Statistics of the top-level op after the last top-level pass.
  const GraphStats &final() const;
  /// Sum of the wall and CPU times of the top-level rows.
  double totalWallMs() const;
  double totalCpuMs() const;

  std::mutex mutex;
};

/// Records every pass execution into a shared MeasurementRecord. Thread-safe:
/// nested pipelines running on several threads keep per-thread stacks.
class PassMeasurementInstrumentation : public PassInstrumentation {
public:
  explicit PassMeasurementInstrumentation(
      std::shared_ptr<MeasurementRecord> record);
  ~PassMeasurementInstrumentation() override;

  void runBeforePipeline(std::optional<OperationName> name,
                         const PipelineParentInfo &parentInfo) override;
  void runAfterPipeline(std::optional<OperationName> name,
                        const PipelineParentInfo &parentInfo) override;
  void runBeforePass(Pass *pass, Operation *op) override;
  void runAfterPass(Pass *pass, Operation *op) override;
  void runAfterPassFailed(Pass *pass, Operation *op) override;

  struct Impl;

private:
  void finishPass(Pass *pass, Operation *op, bool failed);
  std::unique_ptr<Impl> impl;
};

/// What attachGOptMeasurement records besides the passes.
struct MeasurementOptions {
  /// The embedding tool, as named in the record.
  std::string toolName = "gopt";
  /// Its version; GOpt's own when empty.
  std::string toolVersion;
  /// The input the pipeline runs on, as named in the record.
  std::string inputFile;
  /// When set, also the graph's run time before the first and after every
  /// top-level pass (e.g. gopt::makeRuntimeProbe, GOpt/Runner/RuntimeProbe.h).
  RuntimeProbe runtimeProbe;
};

/// Adds the measurement instrumentation to `pm` and returns the record it
/// fills while `pm` runs. Call it once the passes are added: the record keeps
/// `pm`'s textual pipeline and whether its context is multithreaded.
std::shared_ptr<MeasurementRecord>
attachGOptMeasurement(PassManager &pm, const MeasurementOptions &options = {});

/// The same into an existing record (e.g. one whose probe is set later).
void attachGOptMeasurement(PassManager &pm,
                           std::shared_ptr<MeasurementRecord> record);

enum class MeasurementFormat { JSON, CSV, Table, Trace };

/// Parses "json", "csv", "table" or "trace".
std::optional<MeasurementFormat> parseMeasurementFormat(llvm::StringRef name);

/// Writes a finalized record (MeasurementRecord::finalize).
void writeMeasurement(const MeasurementRecord &record,
                      MeasurementFormat format, llvm::raw_ostream &os);

/// CPU model and core count of this machine, as recorded.
std::string getHostCPUModel();
unsigned getHostCoreCount();

} // namespace gopt
} // namespace mlir

#endif // GOPT_ANALYSIS_PASSMEASUREMENT_H
