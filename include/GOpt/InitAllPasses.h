//===- InitAllPasses.h - Passes a GOpt tool registers -----------*- C++ -*-===//

#ifndef GOPT_INITALLPASSES_H
#define GOPT_INITALLPASSES_H

#include "GOpt/Codegen/CPU/Passes.h"
#include "GOpt/Conversion/Passes.h"
#include "GOpt/Pipelines/Pipelines.h"
#include "GOpt/Transforms/Passes.h"
#include "mlir/InitAllPasses.h"

namespace mlir {
namespace gopt {

/// GOpt's passes and pipelines plus every upstream pass.
inline void registerAllPasses() {
  registerGOptTransformsPasses();
  registerGOptConversionPasses();
  registerGOptCPUCodegenPasses();
  registerPipelines();
  mlir::registerAllPasses();
}

} // namespace gopt
} // namespace mlir

#endif // GOPT_INITALLPASSES_H
