//===- NativeTarget.h - LLVM's host target, initialized once ----*- C++ -*-===//
//
// Private to lib/Runner: what the CPU JIT and the CUDA host code compile for.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_LIB_RUNNER_NATIVETARGET_H
#define GOPT_LIB_RUNNER_NATIVETARGET_H

#include "llvm/Support/TargetSelect.h"

#include <mutex>

namespace mlir {
namespace gopt {

/// Initializes the host's target and asm printer, once per process.
inline void initializeNativeTarget() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
}

} // namespace gopt
} // namespace mlir

#endif // GOPT_LIB_RUNNER_NATIVETARGET_H
