//===- Files.cpp - Small file-system helpers -------------------------------===//

#include "GOpt/Support/Files.h"

#include "llvm/Support/FileSystem.h"

#include <chrono>

namespace fs = llvm::sys::fs;

void mlir::gopt::touchFile(llvm::StringRef path) {
  int fd = -1;
  if (fs::openFileForWrite(path, fd, fs::CD_OpenExisting, fs::OF_Append))
    return;
  (void)fs::setLastAccessAndModificationTime(fd,
                                             std::chrono::system_clock::now());
  (void)fs::closeFile(fd);
}
