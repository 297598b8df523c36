//===- ONNXImporter.h - Import ONNX models as gopt IR -----------*- C++ -*-===//
//
// Reads an ONNX ModelProto (opsets 13-17) and builds one `func.func @main`
// of gopt ops with static shapes. docs/Import.md lists the supported ops,
// their gopt mapping and the limits.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_IMPORT_ONNX_ONNXIMPORTER_H
#define GOPT_IMPORT_ONNX_ONNXIMPORTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <optional>
#include <string>

namespace mlir {
class DialectRegistry;

namespace gopt {

/// Options of one import.
struct ONNXImportOptions {
  /// Static shapes for graph inputs, by input name; they replace the shape
  /// the model declares (and are required for inputs with dynamic dims).
  llvm::StringMap<llvm::SmallVector<int64_t>> inputShapes;
  /// Name of the function that holds the graph.
  std::string functionName = "main";
  /// When set, the size of dimension 0 (the batch) of every graph input of
  /// rank >= 1 that `inputShapes` does not name, whatever the model declares
  /// there (a number or a symbol): how gopt-explore sweeps batch sizes.
  std::optional<int64_t> batchSize;
  /// Sizes of dynamic dimensions by the name the model gives them (ONNX
  /// `dim_param`, e.g. "seq"): every input dimension declared with that
  /// name takes the size. A name no input declares is an error. How
  /// gopt-explore --shapes sets sequence lengths and batch sizes.
  llvm::StringMap<int64_t> namedDims;
};

/// Parses `name=1x3x224x224` into `options.inputShapes`. Returns false and
/// sets `error` when the text is malformed.
bool parseInputShapeOverride(llvm::StringRef text, ONNXImportOptions &options,
                             std::string &error);

/// Parses `name=N` (N >= 1) into `options.namedDims`. Returns false and
/// sets `error` when the text is malformed.
bool parseNamedDimOverride(llvm::StringRef text, ONNXImportOptions &options,
                           std::string &error);

/// Imports the ONNX model in the file at `path`. External data files are
/// looked up relative to the model's folder and must stay inside it.
/// Diagnostics go to `context`'s diagnostic engine; returns null on error.
OwningOpRef<ModuleOp> importONNXModel(MLIRContext *context,
                                      llvm::StringRef path,
                                      const ONNXImportOptions &options = {});

/// Imports a serialized ModelProto held in memory. `modelDir` is the folder
/// external data is resolved against (empty: external data is an error);
/// `sourceName` names the model in locations.
OwningOpRef<ModuleOp>
importONNXModelFromBuffer(MLIRContext *context, llvm::StringRef bytes,
                          llvm::StringRef modelDir, llvm::StringRef sourceName,
                          const ONNXImportOptions &options = {});

/// While it lives, prints the diagnostics of `context` (an import's) as
/// `model.onnx: node 'conv1': error: message`, notes and warnings too,
/// to `os`: the importer locates every op at its ONNX node's name, which
/// MLIR's default printers show as `model.onnx:0:0`.
class ONNXDiagnosticPrinter : public ScopedDiagnosticHandler {
public:
  explicit ONNXDiagnosticPrinter(MLIRContext *context,
                                 llvm::raw_ostream &os = llvm::errs());
};

/// The dialects an imported module uses.
void registerONNXImportDialects(DialectRegistry &registry);

} // namespace gopt
} // namespace mlir

#endif // GOPT_IMPORT_ONNX_ONNXIMPORTER_H
