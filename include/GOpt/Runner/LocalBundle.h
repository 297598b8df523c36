//===- LocalBundle.h - A bundle run on this machine's GPU -------*- C++ -*-===//
//
// What CompiledGraph::loadOnLocalGPU returns (GOpt/Runner/Runner.h): a CUDA
// graph's bundle in a temporary folder, loaded into this process by the
// bundle runner. Apart from Runner.h, whose users need not see the runner.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_RUNNER_LOCALBUNDLE_H
#define GOPT_RUNNER_LOCALBUNDLE_H

#include "GOpt/Deploy/BundleRunner.h"

#include <memory>
#include <string>

namespace mlir {
namespace gopt {

/// The folder goes when this does, after the bundle is unloaded.
struct LocalBundle {
  std::string dir;
  std::unique_ptr<::gopt::deploy::LoadedBundle> bundle;
  ~LocalBundle();
};

} // namespace gopt
} // namespace mlir

#endif // GOPT_RUNNER_LOCALBUNDLE_H
