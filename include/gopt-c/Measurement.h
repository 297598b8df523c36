/*===- gopt-c/Measurement.h - C API: per-pass measurement -----------------===*\
|*                                                                            *|
|* GOpt's measurement instrumentation on any MlirPassManager: graph size and  *|
|* time after every pass, as a record in JSON, CSV, a table or a Chrome trace *|
|* (docs/Measurement.md).                                                     *|
|*                                                                            *|
|*   MlirGOptMeasurement m = mlirGOptMeasurementAttach(pm,                    *|
|*                               mlirStringRefCreateFromCString("my-tool"));  *|
|*   mlirPassManagerRunOnOp(pm, module);                                      *|
|*   mlirGOptMeasurementPrint(m, mlirStringRefCreateFromCString("json"),      *|
|*                            callback, userData);                            *|
|*   mlirGOptMeasurementDestroy(m);                                           *|
|*                                                                            *|
|* Measuring is on for a pass manager once a measurement is attached, and off *|
|* for one that has none.                                                     *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef GOPT_C_MEASUREMENT_H
#define GOPT_C_MEASUREMENT_H

#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The record of one pass manager's runs. The instrumentation attached to
/// the pass manager shares it, so destroying either side first is safe.
typedef struct MlirGOptMeasurement {
  void *ptr;
} MlirGOptMeasurement;

/// Attaches the instrumentation to `passManager`, after its passes are
/// added; `toolName` names the host in the record.
MLIR_CAPI_EXPORTED MlirGOptMeasurement
mlirGOptMeasurementAttach(MlirPassManager passManager, MlirStringRef toolName);

/// Pass executions recorded so far (nested pipelines' passes included).
MLIR_CAPI_EXPORTED intptr_t
mlirGOptMeasurementGetNumPassExecutions(MlirGOptMeasurement measurement);

/// Writes the record through `callback`, in `format`: "json", "csv", "table"
/// or "trace". Fails, writing nothing, on another format.
MLIR_CAPI_EXPORTED MlirLogicalResult
mlirGOptMeasurementPrint(MlirGOptMeasurement measurement, MlirStringRef format,
                         MlirStringCallback callback, void *userData);

/// Releases the host's handle on the record.
MLIR_CAPI_EXPORTED void
mlirGOptMeasurementDestroy(MlirGOptMeasurement measurement);

#ifdef __cplusplus
}
#endif

#endif // GOPT_C_MEASUREMENT_H
