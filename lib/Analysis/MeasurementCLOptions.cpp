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
};
} // namespace

static llvm::ManagedStatic<Options> options;

void mlir::gopt::registerMeasurementCLOptions() { *options; }

bool MeasurementCLSession::isRequested() {
  return options.isConstructed() && options->measure.getNumOccurrences() > 0;
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
  if (record->pipeline.empty()) {
    llvm::raw_string_ostream os(record->pipeline);
    pm.printAsTextualPipeline(os);
  }
  record->threading = pm.getContext()->isMultithreadingEnabled();
  pm.addInstrumentation(
      std::make_unique<PassMeasurementInstrumentation>(record));
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
