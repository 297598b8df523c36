//===- DiffTestTest.cpp - Tests of the differential tester's pieces -------===//

#include "GOpt/Testing/DiffTest.h"
#include "GOpt/Dialect/GOpt/IR/GOptDialect.h"
#include "GOpt/Testing/EvaluatorReference.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringSet.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::gopt;

namespace {

TEST(DiffTest, SeventeenConfigurationsReferenceFirstOptimizeLast) {
  std::vector<DiffConfiguration> configs = getDiffConfigurations();
  ASSERT_EQ(configs.size(), 17u);
  EXPECT_EQ(configs.front().name, "reference");
  EXPECT_TRUE(configs.front().pipeline.empty());
  EXPECT_EQ(configs.back().pipeline, "builtin.module(gopt-optimize)");
  llvm::StringSet<> pipelines;
  for (const DiffConfiguration &c : configs)
    EXPECT_TRUE(pipelines.insert(c.pipeline).second) << c.pipeline;
  // Subsets keep gopt-optimize's order.
  bool found = false;
  for (const DiffConfiguration &c : configs)
    if (c.name == "fold+dce+cse+fuse") {
      found = true;
      EXPECT_EQ(c.pipeline, "builtin.module(gopt-fold,gopt-dce,cse,gopt-fuse)");
    }
  EXPECT_TRUE(found);
}

TEST(DiffTest, SeedRanges) {
  auto one = parseSeedRange("7");
  ASSERT_TRUE(bool(one));
  EXPECT_EQ(*one, std::make_pair(uint64_t(7), uint64_t(7)));
  auto range = parseSeedRange("0-99");
  ASSERT_TRUE(bool(range));
  EXPECT_EQ(*range, std::make_pair(uint64_t(0), uint64_t(99)));
  for (const char *bad : {"", "x", "5-2", "1-", "-3", "1-2-3", "1..4"}) {
    auto parsed = parseSeedRange(bad);
    EXPECT_FALSE(bool(parsed)) << bad;
    if (!parsed)
      llvm::consumeError(parsed.takeError());
  }
}

/// The evaluator computes a gopt.fusion through the ops it groups, so an
/// optimized (fused) graph is checked without lowering it.
TEST(EvaluatorReference, ComputesFusionGroupsThroughTheirBodies) {
  MLIRContext context;
  context.loadDialect<GOptDialect, func::FuncDialect>();
  const char *fused = R"mlir(
    func.func @main(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
      %r = gopt.fusion (%x, %y : tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32> {
      ^bb0(%a: tensor<3xf32>, %b: tensor<3xf32>):
        %s = gopt.sub %a, %b : tensor<3xf32>
        %t = gopt.relu %s : tensor<3xf32>
        gopt.yield %t : tensor<3xf32>
      }
      return %r : tensor<3xf32>
    })mlir";
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(fused, &context);
  ASSERT_TRUE(module);
  HostTensor x(ElementKind::F32, {3}), y(ElementKind::F32, {3});
  const double xs[] = {1.0, 2.0, -4.0}, ys[] = {0.5, 3.0, -5.0};
  for (int i = 0; i < 3; ++i) {
    x.setFromDouble(i, xs[i]);
    y.setFromDouble(i, ys[i]);
  }
  std::vector<HostTensor> inputs;
  inputs.push_back(std::move(x));
  inputs.push_back(std::move(y));
  auto outputs = evaluateWithConstantEvaluator(*module, "main", inputs);
  ASSERT_TRUE(bool(outputs)) << llvm::toString(outputs.takeError());
  ASSERT_EQ(outputs->size(), 1u);
  EXPECT_EQ((*outputs)[0].getAsDouble(0), 0.5);
  EXPECT_EQ((*outputs)[0].getAsDouble(1), 0.0);
  EXPECT_EQ((*outputs)[0].getAsDouble(2), 1.0);
}

TEST(EvaluatorReference, NamesWhatItCannotCompute) {
  MLIRContext context;
  context.loadDialect<GOptDialect, func::FuncDialect>();
  const char *call = R"mlir(
    func.func private @f(tensor<3xf32>) -> tensor<3xf32>
    func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
      %r = func.call @f(%x) : (tensor<3xf32>) -> tensor<3xf32>
      return %r : tensor<3xf32>
    })mlir";
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(call, &context);
  ASSERT_TRUE(module);
  std::vector<HostTensor> inputs;
  inputs.emplace_back(ElementKind::F32, std::vector<int64_t>{3});
  auto outputs = evaluateWithConstantEvaluator(*module, "main", inputs);
  ASSERT_FALSE(bool(outputs));
  EXPECT_EQ(llvm::toString(outputs.takeError()),
            "'func.call' is not a gopt op the evaluator computes");
}

} // namespace
