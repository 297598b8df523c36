//===- ConfigurationProgram.h - A configuration's program -------*- C++ -*-===//
//
// What every compiling backend of the explorer does first (the JIT's and the
// GPU's): the configuration's graph passes on a clone of the model, the
// static figures, and the program's content hash, by which configurations
// that end with the same program share one compile and one set of runs.
// Library GOptExploreJIT.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_EXPLORE_CONFIGURATIONPROGRAM_H
#define GOPT_EXPLORE_CONFIGURATIONPROGRAM_H

#include "GOpt/Explore/Effect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir {
namespace gopt {

struct ConfigurationProgram {
  OwningOpRef<ModuleOp> module;
  /// computeProgramHash of `module`.
  std::string hash;
};

/// The model after `config`'s graph passes, on a clone; fills
/// `m.graphPassesMs`, `m.ops`, `m.staticPeakBytes` and `m.kernelCosts`
/// (GraphStats).
llvm::Expected<ConfigurationProgram>
buildConfigurationProgram(ModuleOp model, const Configuration &config,
                          ConfigurationMeasurement &m);

/// `m` shares the program of configuration `first` (named `firstName`):
/// its compile figures are that compile's.
void shareProgram(llvm::StringRef firstName,
                  const ConfigurationMeasurement &first,
                  ConfigurationMeasurement &m);

} // namespace gopt
} // namespace mlir

#endif // GOPT_EXPLORE_CONFIGURATIONPROGRAM_H
