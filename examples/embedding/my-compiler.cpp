//===- my-compiler.cpp - A downstream compiler that embeds GOpt -----------===//
//
// The host has its own dialect set, its own pipeline and its own driver; it
// takes GOpt's dialect and graph passes into that pipeline and GOpt's
// measurement instrumentation onto its pass manager, then prints the module
// and the record (per-pass graph size and time).
//
//   my-compiler [model.mlir] [--record=table|json|csv]
//
// Without an input it compiles a small two-layer MLP of its own.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Analysis/PassMeasurement.h"
#include "GOpt/Pipelines/Pipelines.h"
#include "GOpt/Registration.h"
#include "GOpt/Version.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

static const char *const kDefaultModel = R"mlir(
func.func @main(%x: tensor<8x16xf32>) -> tensor<8x10xf32> {
  %w1 = gopt.constant dense<0.05> : tensor<16x32xf32>
  %b1 = gopt.constant dense<0.01> : tensor<32xf32>
  %w2 = gopt.constant dense<-0.03> : tensor<32x10xf32>
  %b2 = gopt.constant dense<0.5> : tensor<10xf32>
  %h = gopt.linear %x, %w1 : tensor<8x16xf32>, tensor<16x32xf32> -> tensor<8x32xf32>
  %hb = gopt.add %h, %b1 : tensor<8x32xf32>, tensor<32xf32> -> tensor<8x32xf32>
  %a = gopt.relu %hb : tensor<8x32xf32>
  %unused = gopt.exp %a : tensor<8x32xf32>
  %o = gopt.linear %a, %w2 : tensor<8x32xf32>, tensor<32x10xf32> -> tensor<8x10xf32>
  %ob = gopt.add %o, %b2 : tensor<8x10xf32>, tensor<10xf32> -> tensor<8x10xf32>
  %p = gopt.softmax %ob axis = 1 : tensor<8x10xf32>
  return %p : tensor<8x10xf32>
}
)mlir";

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  llvm::cl::opt<std::string> input(llvm::cl::Positional,
                                   llvm::cl::desc("[model.mlir]"),
                                   llvm::cl::init(""));
  llvm::cl::opt<std::string> recordFormat(
      "record", llvm::cl::desc("Format of the record: table, json or csv"),
      llvm::cl::init("table"));
  llvm::cl::ParseCommandLineOptions(argc, argv,
                                    "a compiler that embeds GOpt\n");
  std::optional<gopt::MeasurementFormat> format =
      gopt::parseMeasurementFormat(recordFormat);
  if (!format) {
    llvm::errs() << "error: unknown --record format '" << recordFormat
                 << "'\n";
    return 1;
  }

  // The host's dialects plus GOpt's, and nothing else.
  DialectRegistry registry;
  registry.insert<func::FuncDialect>();
  gopt::registerGOptDialect(registry);
  MLIRContext context(registry);

  llvm::SourceMgr sourceMgr;
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> buffer =
      input.empty() ? llvm::MemoryBuffer::getMemBuffer(kDefaultModel, "mlp")
                    : openInputFile(input, &error);
  if (!buffer) {
    llvm::errs() << "error: " << error << "\n";
    return 1;
  }
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;

  // The host's pipeline: its own passes around GOpt's graph pipeline.
  PassManager pm(&context);
  pm.addPass(createCanonicalizerPass());
  gopt::OptimizePipelineOptions optimize;
  gopt::buildOptimizePipeline(pm, optimize);
  pm.addPass(createSymbolDCEPass());

  gopt::MeasurementOptions measurement;
  measurement.toolName = "my-compiler";
  measurement.toolVersion = "1.0";
  measurement.inputFile = input.empty() ? "<built-in MLP>" : input.getValue();
  std::shared_ptr<gopt::MeasurementRecord> record =
      gopt::attachGOptMeasurement(pm, measurement);

  LogicalResult result = pm.run(*module);
  module->print(llvm::outs());
  llvm::outs() << "\n// embedded GOpt " << GOPT_VERSION_STRING << "\n";
  record->finalize();
  gopt::writeMeasurement(*record, *format, llvm::outs());
  return failed(result) ? 1 : 0;
}
