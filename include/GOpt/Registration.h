//===- Registration.h - Register GOpt, and only GOpt ------------*- C++ -*-===//
//
// For a compiler that embeds GOpt beside its own dialects and passes:
//
//   DialectRegistry registry;
//   gopt::registerGOptDialect(registry);   // the gopt dialect alone
//   gopt::registerGOptPasses();            // gopt-fold, gopt-fuse, ... alone
//   gopt::registerGOptPipelines();         // gopt-optimize, gopt-lower-to-*
//
// None of these registers an upstream dialect or pass. The graph passes need
// only the dialects of the IR they run on (gopt, func); the lowering
// pipelines also need the upstream dialects it lowers through and their external
// models (bufferization, conversion to LLVM): a host either registers them
// itself or calls gopt::registerAllDialects (InitAllDialects.h), which GOpt's
// own tools use together with gopt::registerAllPasses (InitAllPasses.h).
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_REGISTRATION_H
#define GOPT_REGISTRATION_H

#include "GOpt/Codegen/CPU/Passes.h"
#include "GOpt/Codegen/Common/Passes.h"
#include "GOpt/Codegen/GPU/Passes.h"
#include "GOpt/Conversion/Passes.h"
#include "GOpt/Dialect/GOpt/IR/GOptDialect.h"
#include "GOpt/Pipelines/Pipelines.h"
#include "GOpt/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"

namespace mlir {
namespace gopt {

/// The gopt dialect.
inline void registerGOptDialect(DialectRegistry &registry) {
  registry.insert<GOptDialect>();
}

/// GOpt's passes: the graph passes (include/GOpt/Transforms/Passes.td), the
/// lowering to linalg and the code generation passes (shared, CPU, GPU).
inline void registerGOptPasses() {
  registerGOptTransformsPasses();
  registerGOptConversionPasses();
  registerGOptCodegenCommonPasses();
  registerGOptCPUCodegenPasses();
  registerGOptGPUCodegenPasses();
}

/// GOpt's pipelines: gopt-optimize, gopt-lower-to-llvm and
/// gopt-lower-to-nvvm.
inline void registerGOptPipelines() { registerPipelines(); }

} // namespace gopt
} // namespace mlir

#endif // GOPT_REGISTRATION_H
