//===- FuzzGOptIR.cpp - Fuzz the parser, the verifiers and gopt-optimize --===//
//
// Text that parses and verifies as gopt IR goes through gopt-optimize: every
// pattern, fold and the fusion planner see it. Diagnostics are expected;
// crashes, hangs and IR that fails verification after the pipeline are not
// (the pass manager verifies after each pass and reports failure).
//
//===----------------------------------------------------------------------===//

#include "GOpt/InitAllDialects.h"
#include "GOpt/InitAllPasses.h"
#include "GOpt/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <cstddef>
#include <cstdint>
#include <string>

using namespace mlir;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // Large inputs only slow the search down.
  if (size > 16384)
    return 0;
  static MLIRContext *context = [] {
    DialectRegistry registry;
    gopt::registerAllDialects(registry);
    gopt::registerAllPasses();
    auto *c = new MLIRContext(registry, MLIRContext::Threading::DISABLED);
    c->loadAllAvailableDialects();
    return c;
  }();
  ScopedDiagnosticHandler quiet(context, [](Diagnostic &) { return success(); });
  std::string text(reinterpret_cast<const char *>(data), size);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, context);
  if (!module || failed(verify(*module)))
    return 0;
  PassManager pm(context, ModuleOp::getOperationName());
  std::string error;
  if (failed(gopt::parseGraphPipeline("gopt-optimize", pm, error)))
    __builtin_trap();
  (void)pm.run(*module);
  return 0;
}
