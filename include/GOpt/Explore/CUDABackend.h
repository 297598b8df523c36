//===- CUDABackend.h - The explorer on an NVIDIA GPU ------------*- C++ -*-===//
//
// gopt-explore --target=cuda: each configuration compiled with
// gopt-lower-to-nvvm into a bundle (CompiledGraph with Target::CUDA), loaded
// into this process and run on the local GPU by the bundle runner
// (GOpt/Deploy/BundleRunner.h): the same figures as on the CPU, on the
// device. Library GOptExploreCUDA.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_EXPLORE_CUDABACKEND_H
#define GOPT_EXPLORE_CUDABACKEND_H

#include "GOpt/Explore/Explorer.h"

#include <memory>

namespace mlir {
namespace gopt {

/// The GPU backend for `module`: `options.loweringOptions` are
/// gopt-lower-to-nvvm's options. Fails at the first compile, with the
/// reason, when this machine has no usable CUDA device. The executable must
/// export GOpt's CUDA runtime to the bundles it loads (ENABLE_EXPORTS).
std::unique_ptr<ExploreBackend>
createCUDABackend(ModuleOp module, const ExploreOptions &options);

} // namespace gopt
} // namespace mlir

#endif // GOPT_EXPLORE_CUDABACKEND_H
