//===- DiagnosticCollector.h - A stage's diagnostics, for its error -*- C++ -*-===//
//
// Private to lib/Runner.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_LIB_RUNNER_DIAGNOSTICCOLLECTOR_H
#define GOPT_LIB_RUNNER_DIAGNOSTICCOLLECTOR_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace mlir {
namespace gopt {

/// Collects the diagnostics a stage emits, to return them in its error.
class DiagnosticCollector {
public:
  explicit DiagnosticCollector(MLIRContext *context)
      : handler(context, [this](Diagnostic &diag) {
          llvm::raw_string_ostream os(text);
          os << "\n  " << diag.getLocation() << ": " << diag;
          for (Diagnostic &note : diag.getNotes())
            os << "\n    note: " << note;
          return success();
        }) {}
  const std::string &str() const { return text; }

private:
  std::string text;
  ScopedDiagnosticHandler handler;
};

} // namespace gopt
} // namespace mlir

#endif // GOPT_LIB_RUNNER_DIAGNOSTICCOLLECTOR_H
