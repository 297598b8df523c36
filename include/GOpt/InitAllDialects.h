//===- InitAllDialects.h - Dialects a GOpt tool loads -----------*- C++ -*-===//

#ifndef GOPT_INITALLDIALECTS_H
#define GOPT_INITALLDIALECTS_H

#include "GOpt/Registration.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

namespace mlir {
namespace gopt {

/// gopt plus every upstream dialect and extension, so pipelines can mix gopt
/// with any upstream pass and lower to any upstream target (what GOpt's tools
/// register; the gopt dialect alone: registerGOptDialect, Registration.h).
inline void registerAllDialects(DialectRegistry &registry) {
  registerGOptDialect(registry);
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary translates gpu.module ops to LLVM IR.
  mlir::registerAllToLLVMIRTranslations(registry);
}

} // namespace gopt
} // namespace mlir

#endif // GOPT_INITALLDIALECTS_H
