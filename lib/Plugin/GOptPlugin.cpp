//===- GOptPlugin.cpp - GOpt as a plugin of the stock mlir-opt ------------===//
//
// One shared object that is both a dialect plugin and a pass plugin:
//
//   mlir-opt-22 --load-dialect-plugin=GOptPlugin.so \
//               --load-pass-plugin=GOptPlugin.so \
//               --pass-pipeline='builtin.module(gopt-optimize)' model.mlir
//
// It registers the gopt dialect, GOpt's passes and its pipelines, nothing
// upstream (mlir-opt has those) but the LLVM IR translations that
// gopt-lower-to-nvvm's gpu-module-to-binary needs and mlir-opt does not
// register. The object must be loaded by an mlir-opt that links the same
// shared libMLIR.so GOpt was built with (docs/Embedding.md).
//
//===----------------------------------------------------------------------===//

#include "GOpt/Registration.h"
#include "GOpt/Version.h"

#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"

using namespace mlir;

extern "C" LLVM_ATTRIBUTE_WEAK DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "GOpt", GOPT_VERSION_STRING,
          [](DialectRegistry *registry) {
            gopt::registerGOptDialect(*registry);
            registerAllToLLVMIRTranslations(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "GOpt", GOPT_VERSION_STRING, []() {
            gopt::registerGOptPasses();
            gopt::registerGOptPipelines();
          }};
}
