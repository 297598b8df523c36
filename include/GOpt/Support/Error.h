//===- Error.h - Errors GOpt's libraries return -----------------*- C++ -*-===//

#ifndef GOPT_SUPPORT_ERROR_H
#define GOPT_SUPPORT_ERROR_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

namespace mlir {
namespace gopt {

/// An llvm::Error carrying `message` (no error code: GOpt's errors are read
/// by people).
inline llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

} // namespace gopt
} // namespace mlir

#endif // GOPT_SUPPORT_ERROR_H
