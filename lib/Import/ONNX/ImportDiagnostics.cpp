//===- ImportDiagnostics.cpp - The importer's diagnostics, by node --------===//
//
// The importer locates every op at a NameLoc of its ONNX node around the
// model's file location; MLIR's default printers show that as
// `model.onnx:0:0`, losing the node. This prints
// `model.onnx: node 'conv1': error: message` instead, for every tool that
// imports (gopt-import-onnx, and gopt-run and gopt-explore on an .onnx).
//
//===----------------------------------------------------------------------===//

#include "GOpt/Import/ONNX/ONNXImporter.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

/// Prints one diagnostic (without its notes).
static void printDiagnostic(Diagnostic &diag, llvm::raw_ostream &os) {
  Location loc = diag.getLocation();
  if (auto name = dyn_cast<NameLoc>(loc)) {
    if (auto file = dyn_cast<FileLineColLoc>(name.getChildLoc()))
      os << file.getFilename().getValue() << ": ";
    os << "node '" << name.getName().getValue() << "': ";
  } else if (auto file = dyn_cast<FileLineColLoc>(loc)) {
    os << file.getFilename().getValue() << ": ";
  } else {
    os << loc << ": ";
  }
  switch (diag.getSeverity()) {
  case DiagnosticSeverity::Error:
    os << "error: ";
    break;
  case DiagnosticSeverity::Warning:
    os << "warning: ";
    break;
  case DiagnosticSeverity::Note:
    os << "note: ";
    break;
  case DiagnosticSeverity::Remark:
    os << "remark: ";
    break;
  }
  os << diag.str() << "\n";
}

gopt::ONNXDiagnosticPrinter::ONNXDiagnosticPrinter(MLIRContext *context,
                                                   llvm::raw_ostream &os)
    : ScopedDiagnosticHandler(context) {
  setHandler([&os](Diagnostic &diag) {
    printDiagnostic(diag, os);
    for (Diagnostic &note : diag.getNotes())
      printDiagnostic(note, os);
    os.flush();
    return success();
  });
}
