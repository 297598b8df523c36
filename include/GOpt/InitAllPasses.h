//===- InitAllPasses.h - Passes a GOpt tool registers -----------*- C++ -*-===//

#ifndef GOPT_INITALLPASSES_H
#define GOPT_INITALLPASSES_H

#include "GOpt/Registration.h"
#include "mlir/InitAllPasses.h"

namespace mlir {
namespace gopt {

/// GOpt's passes and pipelines plus every upstream pass (what GOpt's tools
/// register; an embedding compiler may want GOpt alone: Registration.h).
inline void registerAllPasses() {
  registerGOptPasses();
  registerGOptPipelines();
  mlir::registerAllPasses();
}

} // namespace gopt
} // namespace mlir

#endif // GOPT_INITALLPASSES_H
