//===- Measurement.cpp - C API: per-pass measurement ----------------------===//

#include "gopt-c/Measurement.h"

#include "GOpt/Analysis/PassMeasurement.h"

#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Utils.h"

using namespace mlir;

/// The host's handle: a share of the record the instrumentation fills.
using RecordHandle = std::shared_ptr<gopt::MeasurementRecord>;

static RecordHandle &unwrap(MlirGOptMeasurement measurement) {
  return *static_cast<RecordHandle *>(measurement.ptr);
}

MlirGOptMeasurement mlirGOptMeasurementAttach(MlirPassManager passManager,
                                              MlirStringRef toolName) {
  gopt::MeasurementOptions options;
  options.toolName = unwrap(toolName).str();
  auto *handle =
      new RecordHandle(gopt::attachGOptMeasurement(*unwrap(passManager),
                                                   options));
  return MlirGOptMeasurement{handle};
}

intptr_t
mlirGOptMeasurementGetNumPassExecutions(MlirGOptMeasurement measurement) {
  gopt::MeasurementRecord &record = *unwrap(measurement);
  std::lock_guard<std::mutex> lock(record.mutex);
  return static_cast<intptr_t>(record.rows.size());
}

MlirLogicalResult mlirGOptMeasurementPrint(MlirGOptMeasurement measurement,
                                           MlirStringRef format,
                                           MlirStringCallback callback,
                                           void *userData) {
  std::optional<gopt::MeasurementFormat> parsed =
      gopt::parseMeasurementFormat(unwrap(format));
  if (!parsed)
    return mlirLogicalResultFailure();
  gopt::MeasurementRecord &record = *unwrap(measurement);
  record.finalize();
  detail::CallbackOstream stream(callback, userData);
  gopt::writeMeasurement(record, *parsed, stream);
  stream.flush();
  return mlirLogicalResultSuccess();
}

void mlirGOptMeasurementDestroy(MlirGOptMeasurement measurement) {
  delete static_cast<RecordHandle *>(measurement.ptr);
}
