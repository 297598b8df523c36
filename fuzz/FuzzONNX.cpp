//===- FuzzONNX.cpp - Fuzz the ONNX importer ------------------------------===//
//
// Any bytes are an imported module that verifies, or an error: a malformed
// protobuf, an unsupported op, inconsistent shapes. External data is not
// read (the model folder is empty).
//
//===----------------------------------------------------------------------===//

#include "GOpt/Import/ONNX/ONNXImporter.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

#include <cstddef>
#include <cstdint>

using namespace mlir;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 65536)
    return 0;
  static MLIRContext *context = [] {
    DialectRegistry registry;
    gopt::registerONNXImportDialects(registry);
    auto *c = new MLIRContext(registry, MLIRContext::Threading::DISABLED);
    c->loadAllAvailableDialects();
    return c;
  }();
  ScopedDiagnosticHandler quiet(context, [](Diagnostic &) { return success(); });
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  OwningOpRef<ModuleOp> module =
      gopt::importONNXModelFromBuffer(context, bytes, "", "fuzz.onnx");
  // What the importer returns must verify.
  if (module && failed(verify(*module)))
    __builtin_trap();
  return 0;
}
