//===- gopt-opt.cpp - GOpt optimizer driver -------------------------------===//
//
// mlir-opt with the gopt dialect, GOpt's passes and pipelines, and every
// upstream dialect and pass.
//
//===----------------------------------------------------------------------===//

#include "GOpt/InitAllDialects.h"
#include "GOpt/InitAllPasses.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::gopt::registerAllDialects(registry);
  mlir::gopt::registerAllPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "GOpt optimizer driver: tensor-graph passes for MLIR\n",
      registry));
}
