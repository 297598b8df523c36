//===- AttentionChainTest.cpp - The attention chain API -------------------===//

#include "GOpt/Transforms/AttentionChain.h"
#include "../Dialect/TestIR.h"
#include "GOpt/Transforms/FusionPlanner.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Verifier.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::gopt;
using gopt_test::TestIR;

namespace {

/// Q scaled before its head transpose, Q·Kᵀ scaled again, a mask, the
/// softmax along the keys, P·V.
constexpr const char *kChain = R"mlir(
func.func @f(%q: tensor<16x4x8xf32>, %k: tensor<4x8x16xf32>, %v: tensor<4x16x8xf32>,
             %m: tensor<16xf32>) -> tensor<4x16x8xf32> {
  %c = gopt.constant dense<8.0> : tensor<f32>
  %h = gopt.constant dense<0.5> : tensor<1xf32>
  %qs = gopt.div %q, %c : tensor<16x4x8xf32>, tensor<f32> -> tensor<16x4x8xf32>
  %qh = gopt.transpose %qs perm = [1, 0, 2] : tensor<16x4x8xf32> -> tensor<4x16x8xf32>
  %s = gopt.matmul %qh, %k : tensor<4x16x8xf32>, tensor<4x8x16xf32> -> tensor<4x16x16xf32>
  %t = gopt.mul %h, %s : tensor<1xf32>, tensor<4x16x16xf32> -> tensor<4x16x16xf32>
  %u = gopt.add %t, %m : tensor<4x16x16xf32>, tensor<16xf32> -> tensor<4x16x16xf32>
  %p = gopt.softmax %u axis = -1 : tensor<4x16x16xf32>
  %o = gopt.matmul %p, %v : tensor<4x16x16xf32>, tensor<4x16x8xf32> -> tensor<4x16x8xf32>
  return %o : tensor<4x16x8xf32>
})mlir";

/// The last gopt.matmul of @f.
MatmulOp lastMatmul(ModuleOp module) {
  MatmulOp last;
  module.walk([&](MatmulOp matmul) { last = matmul; });
  return last;
}

TEST(AttentionChain, MatchesEveryPartAndComposesTheScales) {
  TestIR ir;
  auto module = ir.parse(kChain);
  ASSERT_TRUE(module);
  std::optional<AttentionChain> chain =
      matchAttentionChain(lastMatmul(*module));
  ASSERT_TRUE(chain);
  EXPECT_TRUE(isa<DivOp>(chain->queryScaling));
  EXPECT_TRUE(isa<MulOp>(chain->scaling));
  EXPECT_TRUE(chain->maskAddition);
  EXPECT_DOUBLE_EQ(chain->scale, 0.5 / 8.0);
  EXPECT_EQ(cast<BlockArgument>(chain->mask).getArgNumber(), 3u);
  EXPECT_EQ(chain->ops().size(), 6u);
  EXPECT_TRUE(chain->query().getDefiningOp<TransposeOp>());
}

TEST(AttentionChain, AnIntermediateReadTwiceIsNoChain) {
  TestIR ir;
  auto module = ir.parse(R"mlir(
func.func @f(%q: tensor<4x16x8xf32>, %k: tensor<4x8x16xf32>, %v: tensor<4x16x8xf32>)
    -> (tensor<4x16x8xf32>, tensor<4x16x16xf32>) {
  %s = gopt.matmul %q, %k : tensor<4x16x8xf32>, tensor<4x8x16xf32> -> tensor<4x16x16xf32>
  %p = gopt.softmax %s axis = 2 : tensor<4x16x16xf32>
  %o = gopt.matmul %p, %v : tensor<4x16x16xf32>, tensor<4x16x8xf32> -> tensor<4x16x8xf32>
  return %o, %p : tensor<4x16x8xf32>, tensor<4x16x16xf32>
})mlir");
  ASSERT_TRUE(module);
  EXPECT_FALSE(matchAttentionChain(lastMatmul(*module)));
}

TEST(AttentionChain, PlannedFusedAndSplitBack) {
  TestIR ir;
  auto module = ir.parse(kChain);
  ASSERT_TRUE(module);
  auto func = TestIR::first<func::FuncOp>(*module);
  Block &block = func.getBody().front();
  IRRewriter rewriter(module->getContext());
  std::vector<SmallVector<Operation *>> groups =
      planFusionGroups(block, FusionPlannerOptions());
  // One group: Q's scaling, its transpose, the five ops of the chain.
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].size(), 7u);
  FusionOp fusion = materializeFusionGroup(groups[0], rewriter);
  EXPECT_TRUE(isAttentionFusion(fusion));
  ASSERT_TRUE(succeeded(verify(*module)));

  splitAttentionFusion(fusion, rewriter);
  ASSERT_TRUE(succeeded(verify(*module)));
  // The kernels GEMMs take: Q's scaling, its transpose, Q·Kᵀ and the
  // scaling (both scalings its GEMM's alpha); the mask and the softmax;
  // P·V unfused.
  SmallVector<FusionOp> fusions(block.getOps<FusionOp>());
  ASSERT_EQ(fusions.size(), 2u);
  for (FusionOp f : fusions)
    EXPECT_FALSE(isAttentionFusion(f));
  auto opsOf = [](FusionOp f) {
    SmallVector<StringRef> names;
    for (Operation &op : f.getBodyBlock().without_terminator())
      names.push_back(op.getName().getStringRef());
    return names;
  };
  EXPECT_EQ(opsOf(fusions[0]),
            SmallVector<StringRef>(
                {"gopt.div", "gopt.transpose", "gopt.matmul", "gopt.mul"}));
  EXPECT_EQ(opsOf(fusions[1]),
            SmallVector<StringRef>({"gopt.add", "gopt.softmax"}));
  EXPECT_EQ(llvm::range_size(block.getOps<MatmulOp>()), 1u);
  EXPECT_EQ(llvm::range_size(block.getOps<DivOp>()), 0u);
}

TEST(AttentionChain, TheOptionAndTheGroupSizeAreHonoured) {
  TestIR ir;
  auto module = ir.parse(kChain);
  ASSERT_TRUE(module);
  Block &block = TestIR::first<func::FuncOp>(*module).getBody().front();
  FusionPlannerOptions off;
  off.fuseAttention = false;
  for (auto &group : planFusionGroups(block, off))
    EXPECT_LT(group.size(), 7u);
  FusionPlannerOptions small;
  small.maxGroupSize = 6;
  for (auto &group : planFusionGroups(block, small))
    EXPECT_LE(group.size(), 6u);
}

} // namespace
