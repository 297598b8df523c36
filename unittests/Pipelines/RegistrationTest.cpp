//===- RegistrationTest.cpp - Registering GOpt alone ----------------------===//
//
// An embedding compiler registers GOpt's dialect, passes and pipelines
// without any upstream pass (include/GOpt/Registration.h). Nothing in this
// binary registers upstream passes, so their absence is checked too.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Registration.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "gtest/gtest.h"

using namespace mlir;

namespace {

TEST(Registration, RegistersGOptsPassesAndPipelinesAndNoUpstreamPass) {
  gopt::registerGOptPasses();
  gopt::registerGOptPipelines();
  for (const char *pass :
       {"gopt-fold", "gopt-dce", "gopt-fuse", "gopt-outline-kernels",
        "convert-gopt-to-linalg", "gopt-fuse-kernel-loops",
        "gopt-lower-library-contractions", "gopt-no-inline-kernels"})
    EXPECT_NE(PassInfo::lookup(pass), nullptr) << pass;
  for (const char *pipeline : {"gopt-optimize", "gopt-lower-to-llvm"})
    EXPECT_NE(PassPipelineInfo::lookup(pipeline), nullptr) << pipeline;
  for (const char *upstream :
       {"canonicalize", "cse", "affine-loop-fusion", "convert-func-to-llvm"})
    EXPECT_EQ(PassInfo::lookup(upstream), nullptr) << upstream;
}

TEST(Registration, TheGOptDialectAloneRunsTheGraphPipeline) {
  gopt::registerGOptPipelines();
  DialectRegistry registry;
  gopt::registerGOptDialect(registry);
  registry.insert<func::FuncDialect>();
  MLIRContext context(registry);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"mlir(
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
      %one = gopt.constant dense<1.0> : tensor<4xf32>
      %two = gopt.add %one, %one : tensor<4xf32>
      %y = gopt.mul %x, %two : tensor<4xf32>
      %z = gopt.relu %y : tensor<4xf32>
      return %z : tensor<4xf32>
    })mlir",
                                                             &context);
  ASSERT_TRUE(module);
  PassManager pm(&context);
  std::string error;
  llvm::raw_string_ostream os(error);
  ASSERT_TRUE(succeeded(parsePassPipeline("gopt-optimize", pm, os))) << error;
  ASSERT_TRUE(succeeded(pm.run(*module)));
  // Folded (1 + 1) and fused (mul, relu): one fusion remains.
  int64_t fusions = 0, adds = 0;
  module->walk([&](Operation *op) {
    fusions += op->getName().getStringRef() == "gopt.fusion";
    adds += op->getName().getStringRef() == "gopt.add";
  });
  EXPECT_EQ(fusions, 1);
  EXPECT_EQ(adds, 0);
}

} // namespace
