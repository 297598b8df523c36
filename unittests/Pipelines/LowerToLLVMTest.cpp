//===- LowerToLLVMTest.cpp - The CPU pipeline through its C++ API ---------===//
//
// What a runtime does: register the dialects and extensions the pipeline
// needs (gopt::registerAllDialects), build gopt-lower-to-llvm with
// buildLowerToLLVMPipeline and run it on a module.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Codegen/Common/Passes.h"
#include "GOpt/InitAllDialects.h"
#include "GOpt/Pipelines/Pipelines.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "gtest/gtest.h"

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kGraph = R"mlir(
func.func @graph(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %b = gopt.constant dense<0.5> : tensor<8xf32>
  %l = gopt.linear %x, %w, %b : tensor<4x8xf32>, tensor<8x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  %r = gopt.relu %l : tensor<4x8xf32>
  %s = gopt.softmax %r axis = 1 : tensor<4x8xf32>
  return %s : tensor<4x8xf32>
})mlir";

/// Parses kGraph and runs the pipeline with `options` on it.
OwningOpRef<ModuleOp> lower(MLIRContext &context,
                            const gopt::LowerToLLVMOptions &options,
                            LogicalResult &result) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(kGraph, &context);
  EXPECT_TRUE(module);
  PassManager pm(&context);
  pm.enableVerifier(true);
  gopt::buildLowerToLLVMPipeline(pm, options);
  result = pm.run(*module);
  return module;
}

struct LowerToLLVMTest : ::testing::Test {
  LowerToLLVMTest() {
    DialectRegistry registry;
    gopt::registerAllDialects(registry);
    context.appendDialectRegistry(registry);
  }
  MLIRContext context;
};

TEST_F(LowerToLLVMTest, OnlyLLVMOpsRemain) {
  gopt::LowerToLLVMOptions options;
  LogicalResult result = failure();
  auto module = lower(context, options, result);
  ASSERT_TRUE(succeeded(result));
  int64_t foreign = 0;
  module->walk([&](Operation *op) {
    if (op != module->getOperation() &&
        !isa<LLVM::LLVMDialect>(op->getDialect()))
      ++foreign;
  });
  EXPECT_EQ(foreign, 0);
}

TEST_F(LowerToLLVMTest, PublicFunctionHasCInterfaceAndKernelsHaveIds) {
  gopt::LowerToLLVMOptions options;
  LogicalResult result = failure();
  auto module = lower(context, options, result);
  ASSERT_TRUE(succeeded(result));
  EXPECT_TRUE(module->lookupSymbol<LLVM::LLVMFuncOp>("_mlir_ciface_graph"));
  EXPECT_TRUE(module->lookupSymbol<LLVM::LLVMFuncOp>(
      "_mlir_memref_to_llvm_aligned_alloc"));
  // Unfused: linear, relu and softmax are kernels 0, 1 and 2.
  std::vector<int64_t> ids;
  module->walk([&](LLVM::LLVMFuncOp func) {
    if (auto id = func->getAttrOfType<IntegerAttr>("gopt.kernel"))
      ids.push_back(id.getInt());
  });
  EXPECT_EQ(ids, (std::vector<int64_t>{0, 1, 2}));
  EXPECT_FALSE(module->lookupSymbol("gopt_kernel_begin"));
}

TEST_F(LowerToLLVMTest, TimersAndPlainAllocation) {
  gopt::LowerToLLVMOptions options;
  options.kernelTimers = true;
  options.useGenericAllocFunctions = false;
  options.vectorize = false;
  LogicalResult result = failure();
  auto module = lower(context, options, result);
  ASSERT_TRUE(succeeded(result));
  EXPECT_TRUE(module->lookupSymbol<LLVM::LLVMFuncOp>("gopt_kernel_begin"));
  EXPECT_TRUE(module->lookupSymbol<LLVM::LLVMFuncOp>("gopt_kernel_end"));
  EXPECT_TRUE(module->lookupSymbol<LLVM::LLVMFuncOp>("aligned_alloc"));
  EXPECT_FALSE(module->lookupSymbol("_mlir_memref_to_llvm_aligned_alloc"));
  int64_t begins = 0;
  module->walk([&](LLVM::CallOp call) {
    if (call.getCallee() == "gopt_kernel_begin")
      ++begins;
  });
  EXPECT_EQ(begins, 3);
}

/// The entry function's buffer plan, as gopt-plan-buffers recorded it.
gopt::BufferPlan readPlan(ModuleOp module) {
  auto entry = module.lookupSymbol<LLVM::LLVMFuncOp>("graph");
  EXPECT_TRUE(entry);
  return entry ? gopt::getRecordedBufferPlan(entry) : gopt::BufferPlan();
}

TEST_F(LowerToLLVMTest, IntermediatesShareAnArena) {
  // linear's and relu's 4x8 f32 results (128 bytes each) are both alive
  // while relu runs: the arena holds both; softmax's is the result.
  gopt::LowerToLLVMOptions options;
  LogicalResult result = failure();
  auto module = lower(context, options, result);
  ASSERT_TRUE(succeeded(result));
  gopt::BufferPlan plan = readPlan(*module);
  EXPECT_EQ(plan.plannedBuffers, 2);
  EXPECT_EQ(plan.plannedBytes, 256);
  EXPECT_EQ(plan.arenaBytes, 256);
  EXPECT_EQ(plan.mostLiveBytes, 256);

  gopt::LowerToLLVMOptions unplanned;
  unplanned.planBuffers = false;
  auto plain = lower(context, unplanned, result);
  ASSERT_TRUE(succeeded(result));
  gopt::BufferPlan none = readPlan(*plain);
  EXPECT_EQ(none.plannedBuffers, 0);
  EXPECT_EQ(none.arenaBytes, 0);
}

} // namespace
