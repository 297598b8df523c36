//===- gopt-opt.cpp - GOpt optimizer driver -------------------------------===//
//
// mlir-opt with the gopt dialect, GOpt's passes and pipelines, every upstream
// dialect and pass, and --gopt-measure (docs/Measurement.md).
//
//===----------------------------------------------------------------------===//

#include "GOpt/Analysis/MeasurementCLOptions.h"
#include "GOpt/InitAllDialects.h"
#include "GOpt/InitAllPasses.h"
#include "GOpt/Runner/RuntimeProbe.h"
#include "GOpt/Support/CommandLine.h"
#include "GOpt/Version.h"

#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;

/// The plain mlir-opt flow with the measurement session's instrumentation
/// added to every pass manager the driver sets up.
static LogicalResult runMeasured(llvm::StringRef inputFilename,
                                 llvm::StringRef outputFilename,
                                 DialectRegistry &registry) {
  auto session = gopt::MeasurementCLSession::create("gopt-opt", inputFilename);
  if (failed(session))
    return failure();
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  MlirOptMainConfig plain = config;
  gopt::MeasurementCLSession *measurement = session->get();
  auto runtime = gopt::MeasurementCLSession::getRuntimeRequest();
  if (runtime.enabled) {
    gopt::RuntimeProbeOptions probe;
    probe.warmup = runtime.warmup;
    probe.repetitions = runtime.repetitions;
    probe.target = runtime.target == "cuda" ? gopt::Target::CUDA
                                            : gopt::Target::CPU;
    measurement->setRuntimeProbe(gopt::makeRuntimeProbe(probe));
  }
  config.setPassPipelineSetupFn([plain, measurement](PassManager &pm) {
    if (failed(plain.setupPassPipeline(pm)))
      return failure();
    measurement->attach(pm);
    return success();
  });

  std::string error;
  auto input = openInputFile(inputFilename, &error);
  if (!input) {
    llvm::errs() << error << "\n";
    return failure();
  }
  auto output = openOutputFile(outputFilename, &error);
  if (!output) {
    llvm::errs() << error << "\n";
    return failure();
  }
  LogicalResult result =
      MlirOptMain(output->os(), std::move(input), registry, config);
  // The record is written for failing pipelines too: it shows which pass
  // failed.
  if (failed((*session)->write()))
    return failure();
  if (failed(result))
    return failure();
  output->keep();
  return success();
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  // libLLVM.so's backend flags out of --help; then GOpt's, MLIR's and every
  // pass's options come in.
  gopt::hideLibraryOptions();
  DialectRegistry registry;
  gopt::registerAllDialects(registry);
  gopt::registerAllPasses();
  gopt::registerMeasurementCLOptions();
  mlir::gopt::setGOptVersionPrinter("gopt-opt");
  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      argc, argv, "GOpt optimizer driver: tensor-graph passes for MLIR\n",
      registry);
  if (failed(gopt::MeasurementCLSession::checkOptions()))
    return EXIT_FAILURE;
  if (!gopt::MeasurementCLSession::isRequested())
    return asMainReturnCode(
        MlirOptMain(argc, argv, inputFilename, outputFilename, registry));
  return asMainReturnCode(runMeasured(inputFilename, outputFilename, registry));
}
