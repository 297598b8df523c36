//===- Dialects.cpp - C API: the gopt dialect and GOpt's passes -----------===//

#include "gopt-c/Dialects.h"

#include "GOpt/InitAllDialects.h"
#include "GOpt/Registration.h"
#include "GOpt/Version.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(GOpt, gopt, mlir::gopt::GOptDialect)

void mlirGOptRegisterPasses(void) {
  mlir::gopt::registerGOptPasses();
  mlir::gopt::registerGOptPipelines();
}

void mlirGOptRegisterLoweringDialects(MlirDialectRegistry registry) {
  mlir::gopt::registerAllDialects(*unwrap(registry));
}

MlirStringRef mlirGOptGetVersion(void) {
  return wrap(llvm::StringRef(GOPT_VERSION_STRING));
}
