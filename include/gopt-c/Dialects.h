/*===- gopt-c/Dialects.h - C API: the gopt dialect and GOpt's passes ------===*\
|*                                                                            *|
|* GOpt for hosts that speak MLIR's C API (docs/Embedding.md):                *|
|*                                                                            *|
|*   MlirDialectHandle gopt = mlirGetDialectHandle__gopt__();                 *|
|*   mlirDialectHandleRegisterDialect(gopt, context);                         *|
|*   mlirGOptRegisterPasses();     // then "gopt-optimize" in a pipeline text *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef GOPT_C_DIALECTS_H
#define GOPT_C_DIALECTS_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The gopt dialect: mlirGetDialectHandle__gopt__().
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(GOpt, gopt);

/// Registers GOpt's passes (gopt-fold, gopt-fuse, ...) and pipelines
/// (gopt-optimize, gopt-lower-to-llvm, gopt-lower-to-nvvm) with the global
/// registry, so mlirParsePassPipeline and mlirOpPassManagerAddPipeline know
/// them by name. Registers no upstream pass.
MLIR_CAPI_EXPORTED void mlirGOptRegisterPasses(void);

/// Inserts gopt and everything GOpt's lowering pipelines pass through into
/// `registry`: every upstream dialect, extension and LLVM IR translation.
/// Graph passes alone need only gopt and func.
MLIR_CAPI_EXPORTED void
mlirGOptRegisterLoweringDialects(MlirDialectRegistry registry);

/// GOpt's version, e.g. "0.1.0".
MLIR_CAPI_EXPORTED MlirStringRef mlirGOptGetVersion(void);

#ifdef __cplusplus
}
#endif

#endif // GOPT_C_DIALECTS_H
