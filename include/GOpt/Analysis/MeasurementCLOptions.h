//===- MeasurementCLOptions.h - --gopt-measure for tools --------*- C++ -*-===//
//
// The command-line face of PassMeasurement, for any mlir-opt-style tool:
//
//   --gopt-measure            table on stderr
//   --gopt-measure=FILE       record in FILE (JSON unless a format is given)
//   --gopt-measure-format=json|csv|table|trace
//   --gopt-measure-runtime    also lower, JIT and time the graph after every
//                             top-level pass (a RuntimeProbe the tool plugs in)
//   --gopt-measure-runtime-reps=N, --gopt-measure-runtime-warmup=N
//   --gopt-measure-target=cpu|cuda  where the runtime probe runs the graph
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_ANALYSIS_MEASUREMENTCLOPTIONS_H
#define GOPT_ANALYSIS_MEASUREMENTCLOPTIONS_H

#include "GOpt/Analysis/PassMeasurement.h"

#include "mlir/Pass/PassManager.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir {
namespace gopt {

/// Registers the options with llvm::cl; call before parsing the command line.
void registerMeasurementCLOptions();

/// One measured run of a tool, configured by the options.
class MeasurementCLSession {
public:
  /// Whether --gopt-measure was given.
  static bool isRequested();
  /// Checks options that only make sense together; prints the error.
  static LogicalResult checkOptions();

  /// What --gopt-measure-runtime asks for.
  struct RuntimeRequest {
    bool enabled = false;
    int warmup = 2;
    int repetitions = 10;
    /// "cpu" or "cuda" (--gopt-measure-target).
    std::string target = "cpu";
  };
  static RuntimeRequest getRuntimeRequest();
  /// Measures run time after every top-level pass with `probe`.
  void setRuntimeProbe(RuntimeProbe probe);

  /// Validates the options and opens the output file now, so a bad format or
  /// an unwritable file fails before any work: prints the error and returns
  /// failure.
  static FailureOr<std::unique_ptr<MeasurementCLSession>>
  create(llvm::StringRef toolName, llvm::StringRef inputFile);

  /// Adds the instrumentation to `pm` and records its pipeline.
  void attach(PassManager &pm);

  /// Finalizes and writes the record.
  LogicalResult write();

private:
  MeasurementCLSession() = default;
  std::shared_ptr<MeasurementRecord> record;
  MeasurementFormat format = MeasurementFormat::Table;
  std::unique_ptr<llvm::ToolOutputFile> file;
};

} // namespace gopt
} // namespace mlir

#endif // GOPT_ANALYSIS_MEASUREMENTCLOPTIONS_H
