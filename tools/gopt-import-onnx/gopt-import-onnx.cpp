//===- gopt-import-onnx.cpp - ONNX model to gopt IR -----------------------===//
//
//   gopt-import-onnx model.onnx -o model.mlir [--input-shape x=1x3x224x224]
//
// Thin driver over importONNXModel (lib/Import/ONNX); docs/Import.md.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Import/ONNX/ONNXImporter.h"
#include "GOpt/Version.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;

static llvm::cl::OptionCategory importCategory("gopt-import-onnx options");

static llvm::cl::opt<std::string> inputFilename(llvm::cl::Positional,
                                                llvm::cl::desc("<model.onnx>"),
                                                llvm::cl::Required,
                                                llvm::cl::cat(importCategory));
static llvm::cl::opt<std::string>
    outputFilename("o", llvm::cl::desc("Output .mlir file (default: stdout)"),
                   llvm::cl::value_desc("filename"), llvm::cl::init("-"),
                   llvm::cl::cat(importCategory));
static llvm::cl::opt<bool> emitBytecode(
    "emit-bytecode",
    llvm::cl::desc("Write MLIR bytecode instead of text: weights as raw "
                   "bytes (half the size of text's hex), read back without "
                   "a parse by every GOpt tool"),
    llvm::cl::init(false), llvm::cl::cat(importCategory));
static llvm::cl::list<std::string> inputShapes(
    "input-shape",
    llvm::cl::desc("Static shape of a graph input, NAME=D0xD1x... "
                   "(repeatable; required for inputs with dynamic dims)"),
    llvm::cl::value_desc("name=shape"), llvm::cl::cat(importCategory));
static llvm::cl::list<std::string> namedDims(
    "dim",
    llvm::cl::desc("Size of a named dynamic dimension, NAME=N: every input "
                   "dimension the model names NAME (ONNX dim_param) takes it "
                   "(repeatable; how a gopt-explore --shapes class is "
                   "imported)"),
    llvm::cl::value_desc("name=size"), llvm::cl::cat(importCategory));
static llvm::cl::opt<std::string>
    functionName("function-name",
                 llvm::cl::desc("Name of the imported function"),
                 llvm::cl::init("main"), llvm::cl::cat(importCategory));

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  // libMLIR.so registers every LLVM option; show only the importer's.
  llvm::cl::HideUnrelatedOptions(importCategory);
  mlir::gopt::setGOptVersionPrinter("gopt-import-onnx");
  llvm::cl::ParseCommandLineOptions(
      argc, argv, "GOpt ONNX importer: an ONNX model as gopt IR\n");

  gopt::ONNXImportOptions options;
  options.functionName = functionName;
  for (const std::string &text : inputShapes) {
    std::string error;
    if (!gopt::parseInputShapeOverride(text, options, error)) {
      llvm::errs() << "error: --input-shape: " << error << "\n";
      return 1;
    }
  }
  for (const std::string &text : namedDims) {
    std::string error;
    if (!gopt::parseNamedDimOverride(text, options, error)) {
      llvm::errs() << "error: --dim: " << error << "\n";
      return 1;
    }
  }

  DialectRegistry registry;
  gopt::registerONNXImportDialects(registry);
  MLIRContext context(registry);
  // `model.onnx: node 'conv1': error: ...`, warnings included.
  gopt::ONNXDiagnosticPrinter diagnostics(&context);
  OwningOpRef<ModuleOp> module =
      gopt::importONNXModel(&context, inputFilename, options);
  if (!module)
    return 1;

  std::string error;
  auto output = openOutputFile(outputFilename, &error);
  if (!output) {
    llvm::errs() << "error: " << error << "\n";
    return 1;
  }
  if (emitBytecode) {
    // Weights as raw bytes, not hex text: half the size, and readers load
    // them without parsing (locations are always kept).
    if (failed(writeBytecodeToFile(*module, output->os()))) {
      llvm::errs() << "error: cannot write MLIR bytecode\n";
      return 1;
    }
  } else {
    // Locations carry the model's node names: print them.
    module->print(output->os(), OpPrintingFlags().enableDebugInfo());
  }
  output->keep();
  return 0;
}
