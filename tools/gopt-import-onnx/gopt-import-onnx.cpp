//===- gopt-import-onnx.cpp - ONNX model to gopt IR -----------------------===//
//
//   gopt-import-onnx model.onnx -o model.mlir [--input-shape x=1x3x224x224]
//
// Thin driver over importONNXModel (lib/Import/ONNX); docs/Import.md.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Import/ONNX/ONNXImporter.h"

#include "mlir/IR/AsmState.h"
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
static llvm::cl::list<std::string> inputShapes(
    "input-shape",
    llvm::cl::desc("Static shape of a graph input, NAME=D0xD1x... "
                   "(repeatable; required for inputs with dynamic dims)"),
    llvm::cl::value_desc("name=shape"), llvm::cl::cat(importCategory));
static llvm::cl::opt<std::string>
    functionName("function-name",
                 llvm::cl::desc("Name of the imported function"),
                 llvm::cl::init("main"), llvm::cl::cat(importCategory));

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  // libMLIR.so registers every LLVM option; show only the importer's.
  llvm::cl::HideUnrelatedOptions(importCategory);
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

  DialectRegistry registry;
  gopt::registerONNXImportDialects(registry);
  MLIRContext context(registry);
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
  // Locations carry the model's node names: print them.
  module->print(output->os(), OpPrintingFlags().enableDebugInfo());
  output->keep();
  return 0;
}
