//===- FuzzManifests.cpp - Fuzz the readers of GOpt's own files -----------===//
//
// The first byte picks the reader: even, gopt-explore's deployment manifest
// (JSON, checkManifest); odd, a bundle's manifest.txt (parseBundleManifest).
// Both answer with reasons or an error, never a crash.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Deploy/Bundle.h"
#include "GOpt/Explore/ManifestCheck.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  std::string text(reinterpret_cast<const char *>(data) + 1, size - 1);
  if (data[0] % 2 == 0) {
    mlir::gopt::ManifestContext current{"hash", "0.1.0", "CPU", 2, "onednn"};
    auto reasons = mlir::gopt::checkManifest(text, current);
    if (!reasons)
      llvm::consumeError(reasons.takeError());
  } else {
    gopt::deploy::Bundle bundle;
    (void)gopt::deploy::parseBundleManifest(text, "fuzz/manifest.txt", bundle);
  }
  return 0;
}
