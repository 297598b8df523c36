//===- FusionPlannerTest.cpp - Fusion group planning ----------------------===//

#include "GOpt/Transforms/FusionPlanner.h"
#include "../Dialect/TestIR.h"

#include "mlir/IR/Verifier.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::gopt;
using gopt_test::TestIR;

namespace {

/// Names of the ops in each planned group of @f's body.
std::vector<std::vector<std::string>> plan(TestIR &ir, StringRef source,
                                           FusionPlannerOptions options = {}) {
  auto module = ir.parse(source);
  EXPECT_TRUE(module);
  auto func = TestIR::first<func::FuncOp>(*module);
  std::vector<std::vector<std::string>> names;
  for (auto &group : planFusionGroups(func.getBody().front(), options)) {
    names.emplace_back();
    for (Operation *op : group)
      names.back().push_back(op->getName().getStringRef().str());
  }
  return names;
}

TEST(FusionPlanner, FusesElementwiseChain) {
  TestIR ir;
  auto groups = plan(ir, R"mlir(
func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
  %a = gopt.exp %x : tensor<8xf32>
  %b = gopt.neg %a : tensor<8xf32>
  %c = gopt.relu %b : tensor<8xf32>
  return %c : tensor<8xf32>
})mlir");
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0],
            (std::vector<std::string>{"gopt.exp", "gopt.neg", "gopt.relu"}));
}

TEST(FusionPlanner, ContractionTakesEpilogueNotPrologue) {
  TestIR ir;
  auto groups = plan(ir, R"mlir(
func.func @f(%x: tensor<4x8xf32>, %w: tensor<8x4xf32>, %b: tensor<4xf32>) -> tensor<4x4xf32> {
  %p = gopt.exp %x : tensor<4x8xf32>
  %m = gopt.matmul %p, %w : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
  %a = gopt.add %m, %b : tensor<4x4xf32>, tensor<4xf32> -> tensor<4x4xf32>
  %r = gopt.relu %a : tensor<4x4xf32>
  return %r : tensor<4x4xf32>
})mlir");
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0], (std::vector<std::string>{"gopt.matmul", "gopt.add",
                                                  "gopt.relu"}));
}

TEST(FusionPlanner, NeverPlacesAGroupBeforeItsInputs) {
  // %d depends on the group {exp} through the transpose and feeds %e: adding
  // %e to the group would need %d before the group's first op — a cycle.
  TestIR ir;
  auto groups = plan(ir, R"mlir(
func.func @f(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %a = gopt.exp %x : tensor<4x4xf32>
  %d = gopt.transpose %a perm = [1, 0] : tensor<4x4xf32> -> tensor<4x4xf32>
  %e = gopt.add %a, %d : tensor<4x4xf32>
  return %e : tensor<4x4xf32>
})mlir");
  EXPECT_TRUE(groups.empty());
}

TEST(FusionPlanner, RespectsMaxGroupSize) {
  TestIR ir;
  FusionPlannerOptions options;
  options.maxGroupSize = 2;
  auto groups = plan(ir, R"mlir(
func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
  %a = gopt.exp %x : tensor<8xf32>
  %b = gopt.neg %a : tensor<8xf32>
  %c = gopt.relu %b : tensor<8xf32>
  %d = gopt.tanh %c : tensor<8xf32>
  return %d : tensor<8xf32>
})mlir",
                     options);
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].size(), 2u);
  EXPECT_EQ(groups[1].size(), 2u);
}

TEST(FusionPlanner, MaterializedGroupExposesMultiUseValues) {
  TestIR ir;
  auto module = ir.parse(R"mlir(
func.func @f(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8x8xf32>) {
  %a = gopt.exp %x : tensor<8xf32>
  %b = gopt.neg %a : tensor<8xf32>
  %t = gopt.reshape %a : tensor<8xf32> -> tensor<8x1xf32>
  %u = gopt.broadcast_to %t : tensor<8x1xf32> -> tensor<8x8xf32>
  return %b, %u : tensor<8xf32>, tensor<8x8xf32>
})mlir");
  ASSERT_TRUE(module);
  auto func = TestIR::first<func::FuncOp>(*module);
  auto groups = planFusionGroups(func.getBody().front(), {});
  ASSERT_EQ(groups.size(), 1u);
  IRRewriter rewriter(&ir.context);
  FusionOp fusion = materializeFusionGroup(groups[0], rewriter);
  // %a feeds the reshape outside the group, %b the return: both exposed.
  EXPECT_EQ(fusion.getNumResults(), 2u);
  EXPECT_EQ(fusion.getInputs().size(), 1u);
  EXPECT_TRUE(succeeded(verify(*module)));
}

} // namespace
