//===- CostInterfaceTest.cpp - Fusion-kind and cost interfaces ------------===//

#include "TestIR.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::gopt;
using gopt_test::TestIR;

namespace {

constexpr const char *kGraph = R"mlir(
func.func @f(%a: tensor<2x8x16xf32>, %b: tensor<16x4xf32>,
             %x: tensor<1x4x10x10xf32>, %w: tensor<6x2x3x3xf32>,
             %bias: tensor<6xf32>) -> (tensor<2x8x4xf32>, tensor<1x6x8x8xf32>, tensor<1x6x4x4xf32>) {
  %m = gopt.matmul %a, %b : tensor<2x8x16xf32>, tensor<16x4xf32> -> tensor<2x8x4xf32>
  %e = gopt.exp %m : tensor<2x8x4xf32>
  %c = gopt.conv2d %x, %w, %bias strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 2 : tensor<1x4x10x10xf32>, tensor<6x2x3x3xf32>, tensor<6xf32> -> tensor<1x6x8x8xf32>
  %p = gopt.pool2d max %c kernel = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] : tensor<1x6x8x8xf32> -> tensor<1x6x4x4xf32>
  %t = gopt.transpose %e perm = [0, 2, 1] : tensor<2x8x4xf32> -> tensor<2x4x8xf32>
  return %e, %c, %p : tensor<2x8x4xf32>, tensor<1x6x8x8xf32>, tensor<1x6x4x4xf32>
}
)mlir";

TEST(CostInterface, ContractionFlopsFromShapes) {
  TestIR ir;
  auto module = ir.parse(kGraph);
  ASSERT_TRUE(module);
  auto matmul = TestIR::first<MatmulOp>(*module);
  auto cost = cast<CostOpInterface>(matmul.getOperation());
  // 2 · (2·8·4 outputs) · K=16
  EXPECT_EQ(cost.getFlops(), 2 * 2 * 8 * 4 * 16);
  EXPECT_EQ(cost.getBytesRead(), (2 * 8 * 16 + 16 * 4) * 4);
  EXPECT_EQ(cost.getBytesWritten(), 2 * 8 * 4 * 4);

  auto conv = cast<CostOpInterface>(TestIR::first<Conv2DOp>(*module).getOperation());
  // outputs 1·6·8·8, each (C/groups=2)·3·3 MACs, plus the bias add.
  int64_t outputs = 6 * 8 * 8;
  EXPECT_EQ(conv.getFlops(), 2 * outputs * 2 * 3 * 3 + outputs);
}

TEST(CostInterface, ElementwiseAndDataMovement) {
  TestIR ir;
  auto module = ir.parse(kGraph);
  ASSERT_TRUE(module);
  auto exp = cast<CostOpInterface>(TestIR::first<ExpOp>(*module).getOperation());
  EXPECT_EQ(exp.getFlops(), 2 * 8 * 4);
  auto transpose =
      cast<CostOpInterface>(TestIR::first<TransposeOp>(*module).getOperation());
  EXPECT_EQ(transpose.getFlops(), 0);
  EXPECT_EQ(transpose.getBytesRead(), transpose.getBytesWritten());
}

TEST(FusionKindInterface, ClassifiesOps) {
  TestIR ir;
  auto module = ir.parse(kGraph);
  ASSERT_TRUE(module);
  auto kind = [](Operation *op) {
    return cast<FusionKindOpInterface>(op).getFusionKind();
  };
  EXPECT_EQ(kind(TestIR::first<MatmulOp>(*module)), FusionKind::Contraction);
  EXPECT_EQ(kind(TestIR::first<ExpOp>(*module)), FusionKind::Elementwise);
  EXPECT_EQ(kind(TestIR::first<TransposeOp>(*module)),
            FusionKind::DataMovement);
  auto pool = cast<FusionKindOpInterface>(
      TestIR::first<Pool2DOp>(*module).getOperation());
  EXPECT_EQ(pool.getFusionKind(), FusionKind::Reduction);
  EXPECT_FALSE(pool.acceptsProducerFusion());
  EXPECT_TRUE(cast<FusionKindOpInterface>(
                  TestIR::first<ExpOp>(*module).getOperation())
                  .acceptsProducerFusion());
}

TEST(CostInterface, FusionSumsItsBody) {
  TestIR ir;
  auto module = ir.parse(R"mlir(
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = gopt.fusion (%x : tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    %s = gopt.sigmoid %a : tensor<4xf32>
    %t = gopt.relu %s : tensor<4xf32>
    gopt.yield %t : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
)mlir");
  ASSERT_TRUE(module);
  auto fusion = TestIR::first<FusionOp>(*module);
  EXPECT_EQ(fusion.getFlops(), 4 * 4 + 4 * 1);
  EXPECT_EQ(fusion.getFusionKind(), FusionKind::Elementwise);
  auto cost = cast<CostOpInterface>(fusion.getOperation());
  EXPECT_EQ(cost.getBytesRead(), 16);
  EXPECT_EQ(cost.getBytesWritten(), 16);
}

TEST(TensorBytes, CountsStoredBytes) {
  MLIRContext context;
  Builder b(&context);
  EXPECT_EQ(getTensorBytes(RankedTensorType::get({3, 5}, b.getF16Type())), 30);
  EXPECT_EQ(getTensorBytes(RankedTensorType::get({8}, b.getI1Type())), 8);
  EXPECT_EQ(getTensorBytes(b.getF32Type()), 0);
  EXPECT_EQ(getNumElements(RankedTensorType::get({2, 3}, b.getF32Type())), 6);
}

} // namespace
