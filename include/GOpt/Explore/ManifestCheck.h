//===- ManifestCheck.h - Is a deployment manifest still valid? --*- C++ -*-===//
//
// `gopt-explore --check-manifest=deploy.json MODEL` (docs/Explore.md, "The
// manifest as a CI guard"): a choice holds for the model and the machine it
// was measured on. The check compares the manifest's model hash, GOpt
// version and host (CPU model, cores, GEMM library) with the model and the
// machine at hand.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_EXPLORE_MANIFESTCHECK_H
#define GOPT_EXPLORE_MANIFESTCHECK_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir {
namespace gopt {

/// What a manifest is checked against.
struct ManifestContext {
  std::string modelHash;
  std::string toolVersion;
  std::string cpuModel;
  int64_t cores = 0;
  std::string gemmLibrary;
};

/// Why the manifest (its JSON text) does not hold for `current`, one
/// sentence each; empty when it holds. An error when the text is no
/// gopt-explore manifest (bad JSON, another schema, fields missing).
llvm::Expected<std::vector<std::string>>
checkManifest(llvm::StringRef manifestText, const ManifestContext &current);

} // namespace gopt
} // namespace mlir

#endif // GOPT_EXPLORE_MANIFESTCHECK_H
