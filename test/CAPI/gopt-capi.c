/* GOpt's C API from a C host: the dialect handle, GOpt's passes and
 * pipelines by name, the measurement instrumentation and its record.
 *
 * RUN: gopt-capi-test 2>&1 | FileCheck %s
 */

#include "gopt-c/Dialects.h"
#include "gopt-c/Measurement.h"
#include "mlir-c/Dialect/Func.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#include <stdio.h>
#include <string.h>

static void printToStdout(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stdout);
}

static void countBytes(MlirStringRef text, void *userData) {
  *(size_t *)userData += text.length;
}

static const char *kModel =
    "func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {\n"
    "  %a = gopt.relu %x : tensor<4x8xf32>\n"
    "  %b = gopt.exp %a : tensor<4x8xf32>\n"
    "  %dead = gopt.tanh %x : tensor<4x8xf32>\n"
    "  return %b : tensor<4x8xf32>\n"
    "}\n";

int main(void) {
  MlirStringRef version = mlirGOptGetVersion();
  // CHECK: GOpt version {{[0-9]+\.[0-9]+\.[0-9]+}}
  printf("GOpt version %.*s\n", (int)version.length, version.data);

  MlirContext context = mlirContextCreate();
  MlirDialectHandle gopt = mlirGetDialectHandle__gopt__();
  MlirStringRef ns = mlirDialectHandleGetNamespace(gopt);
  // CHECK: dialect namespace: gopt
  printf("dialect namespace: %.*s\n", (int)ns.length, ns.data);
  mlirDialectHandleRegisterDialect(gopt, context);
  mlirDialectHandleRegisterDialect(mlirGetDialectHandle__func__(), context);
  mlirGOptRegisterPasses();

  MlirModule module =
      mlirModuleCreateParse(context, mlirStringRefCreateFromCString(kModel));
  if (mlirModuleIsNull(module)) {
    fprintf(stderr, "parse failed\n");
    return 1;
  }

  // Pipelines are known by name once registered; a bad name is an error.
  MlirPassManager pm = mlirPassManagerCreate(context);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  MlirLogicalResult bad = mlirOpPassManagerAddPipeline(
      opm, mlirStringRefCreateFromCString("gopt-no-such-pass"), printToStdout,
      NULL);
  // CHECK: 'gopt-no-such-pass' does not refer to a registered pass or pass pipeline
  // CHECK: unknown pipeline rejected: 1
  printf("\nunknown pipeline rejected: %d\n", mlirLogicalResultIsFailure(bad));
  MlirLogicalResult added = mlirOpPassManagerAddPipeline(
      opm, mlirStringRefCreateFromCString("gopt-optimize"), printToStdout,
      NULL);
  if (mlirLogicalResultIsFailure(added))
    return 1;

  MlirGOptMeasurement measurement = mlirGOptMeasurementAttach(
      pm, mlirStringRefCreateFromCString("capi-host"));
  // CHECK: before run: 0 pass executions
  printf("before run: %ld pass executions\n",
         (long)mlirGOptMeasurementGetNumPassExecutions(measurement));
  MlirLogicalResult ran =
      mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  // CHECK: run: ok, 6 pass executions
  printf("run: %s, %ld pass executions\n",
         mlirLogicalResultIsSuccess(ran) ? "ok" : "failed",
         (long)mlirGOptMeasurementGetNumPassExecutions(measurement));

  // The dead tanh is gone, relu and exp are one kernel.
  // CHECK: func.func @f
  // CHECK-NOT: gopt.tanh
  // CHECK: gopt.fusion
  // CHECK: gopt.relu
  // CHECK: gopt.exp
  // CHECK: gopt.yield
  mlirOperationPrint(mlirModuleGetOperation(module), printToStdout, NULL);
  printf("\n");

  // CHECK: "argument": "gopt-fold"
  // CHECK: "argument": "gopt-fuse"
  // CHECK: "name": "capi-host"
  MlirLogicalResult printed = mlirGOptMeasurementPrint(
      measurement, mlirStringRefCreateFromCString("json"), printToStdout,
      NULL);
  // CHECK: json: ok
  printf("\njson: %s\n", mlirLogicalResultIsSuccess(printed) ? "ok" : "failed");

  size_t bytes = 0;
  MlirLogicalResult yaml = mlirGOptMeasurementPrint(
      measurement, mlirStringRefCreateFromCString("yaml"), countBytes, &bytes);
  // CHECK: yaml: failed, 0 bytes
  printf("yaml: %s, %zu bytes\n",
         mlirLogicalResultIsFailure(yaml) ? "failed" : "ok", bytes);

  // The record outlives the pass manager, and the reverse.
  mlirPassManagerDestroy(pm);
  bytes = 0;
  mlirGOptMeasurementPrint(measurement, mlirStringRefCreateFromCString("csv"),
                           countBytes, &bytes);
  // CHECK: csv after the pass manager is gone: nonempty
  printf("csv after the pass manager is gone: %s\n",
         bytes > 0 ? "nonempty" : "empty");
  mlirGOptMeasurementDestroy(measurement);

  mlirModuleDestroy(module);
  mlirContextDestroy(context);
  return 0;
}
