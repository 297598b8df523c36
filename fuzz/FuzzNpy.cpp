//===- FuzzNpy.cpp - Fuzz the .npy reader ---------------------------------===//
//
// Any bytes given to parseNpy are a tensor or an error, never a crash, a
// hang or an allocation the header alone asked for.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Support/HostTensor.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  auto tensor = mlir::gopt::parseNpy(bytes, "fuzz.npy");
  if (!tensor)
    llvm::consumeError(tensor.takeError());
  return 0;
}
