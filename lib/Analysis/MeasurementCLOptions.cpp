//===- MeasurementCLOptions.cpp - --gopt-measure for tools ----------------===//

#include "GOpt/Analysis/MeasurementCLOptions.h"
#include "GOpt/Version.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ManagedStatic.h"

using namespace mlir;
using namespace mlir::gopt;

namespace {
struct Options {
  llvm::cl::opt<std::string> measure{
      "gopt-measure", llvm::cl::ValueOptional,
      llvm::cl::desc("Record graph size and time after every pass: a table "
                     "on stderr, or the record in =FILE"),
      llvm::cl::value_desc("file")};
  llvm::cl::opt<std::string> format{
      "gopt-measure-format",
      llvm::cl::desc("Format of the --gopt-measure record: json, csv, table "
                     "or trace (default: table on stderr, json in a file)"),
      llvm::cl::value_desc("format")};
  llvm::cl::opt<bool> runtime{
      "gopt-measure-runtime",
      llvm::cl::desc("With --gopt-measure: lower, JIT and time the graph "
                     "before the first and after every top-level pass")};
  llvm::cl::opt<std::string> runtimeTarget{
      "gopt-measure-target",
      llvm::cl::desc("Where --gopt-measure-runtime runs the graph: cpu "
                     "(default: JIT) or cuda (this machine's NVIDIA GPU)"),
      llvm::cl::init("cpu")};
  llvm::cl::opt<int> runtimeReps{
      "gopt-measure-runtime-reps",
      llvm::cl::desc("Timed runs per point of --gopt-measure-runtime"),
      llvm::cl::init(10)};
  llvm::cl::opt<int> runtimeWarmup{
      "gopt-measure-runtime-warmup",
      llvm::cl::desc("Untimed runs first, per point of --gopt-measure-runtime"),
      llvm::cl::init(2)};
};
} // namespace

static llvm::ManagedStatic<Options> options;

void mlir::gopt::registerMeasurementCLOptions() { *options; }

bool MeasurementCLSession::isRequested() {
  return options.isConstructed() && options->measure.getNumOccurrences() > 0;
}

LogicalResult MeasurementCLSession::checkOptions() {
  if (!options.isConstructed())
    return success();
  bool runtimeFlags = options->runtime.getNumOccurrences() ||
                      options->runtimeReps.getNumOccurrences() ||
                      options->runtimeWarmup.getNumOccurrences() ||
                      options->runtimeTarget.getNumOccurrences();
  if (runtimeFlags && !isRequested()) {
    llvm::errs() << "error: --gopt-measure-runtime and its options need "
                    "--gopt-measure\n";
    return failure();
  }
  if (options->runtimeTarget != "cpu" && options->runtimeTarget != "cuda") {
    llvm::errs() << "error: unknown --gopt-measure-target '"
                 << options->runtimeTarget << "' (cpu or cuda)\n";
    return failure();
  }
  if (options->runtimeReps < 1 || options->runtimeWarmup < 0) {
    llvm::errs() << "error: --gopt-measure-runtime-reps must be at least 1 "
                    "and --gopt-measure-runtime-warmup at least 0\n";
    return failure();
  }
  return success();
}

MeasurementCLSession::RuntimeRequest
MeasurementCLSession::getRuntimeRequest() {
  RuntimeRequest request;
  if (!options.isConstructed())
    return request;
  request.enabled = options->runtime;
  request.warmup = options->runtimeWarmup;
  request.repetitions = options->runtimeReps;
  request.target = options->runtimeTarget;
  return request;
}

void MeasurementCLSession::setRuntimeProbe(RuntimeProbe probe) {
  record->runtimeProbe = std::move(probe);
}

FailureOr<std::unique_ptr<MeasurementCLSession>>
MeasurementCLSession::create(llvm::StringRef toolName,
                             llvm::StringRef inputFile) {
  std::unique_ptr<MeasurementCLSession> session(new MeasurementCLSession());
  llvm::StringRef path = options->measure;
  session->format =
      path.empty() ? MeasurementFormat::Table : MeasurementFormat::JSON;
  if (options->format.getNumOccurrences()) {
    auto parsed = parseMeasurementFormat(options->format);
    if (!parsed) {
      llvm::errs() << "error: unknown --gopt-measure-format '"
                   << options->format
                   << "'; expected json, csv, table or trace\n";
      return failure();
    }
    session->format = *parsed;
  }
  if (!path.empty()) {
    std::string error;
    session->file = openOutputFile(path, &error);
    if (!session->file) {
      llvm::errs() << "error: cannot write the --gopt-measure record to '"
                   << path << "': " << error << "\n";
      return failure();
    }
  }
  session->record = std::make_shared<MeasurementRecord>();
  session->record->toolName = toolName.str();
  session->record->toolVersion = GOPT_VERSION_STRING;
  session->record->inputFile = inputFile.str();
  return session;
}

void MeasurementCLSession::attach(PassManager &pm) {
  attachGOptMeasurement(pm, record);
}

LogicalResult MeasurementCLSession::write() {
  record->finalize();
  if (file) {
    writeMeasurement(*record, format, file->os());
    file->keep();
    return success();
  }
  writeMeasurement(*record, format, llvm::errs());
  return success();
}
