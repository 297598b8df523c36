//===- Files.h - Small file-system helpers ----------------------*- C++ -*-===//

#ifndef GOPT_SUPPORT_FILES_H
#define GOPT_SUPPORT_FILES_H

#include "llvm/ADT/StringRef.h"

namespace mlir {
namespace gopt {

/// Sets an existing file's access and modification time to now (what the
/// caches' trimming reads as its last use); does nothing when the file
/// cannot be opened.
void touchFile(llvm::StringRef path);

} // namespace gopt
} // namespace mlir

#endif // GOPT_SUPPORT_FILES_H
