//===- ConstantEvaluatorTest.cpp - Evaluate gopt ops on constants ---------===//

#include "GOpt/Dialect/GOpt/IR/ConstantEvaluator.h"
#include "TestIR.h"

#include "mlir/IR/Matchers.h"
#include "gtest/gtest.h"
#include <cmath>

using namespace mlir;
using namespace mlir::gopt;
using gopt_test::TestIR;

namespace {

/// Evaluates the first op of type OpTy in `source` with its constant operands.
template <typename OpTy>
LogicalResult evaluateFirst(TestIR &ir, StringRef source, int64_t limit,
                            SmallVectorImpl<Attribute> &results) {
  auto module = ir.parse(source);
  if (!module)
    return failure();
  OpTy op = TestIR::first<OpTy>(*module);
  SmallVector<Attribute> operands;
  for (Value v : op->getOperands()) {
    Attribute attr;
    matchPattern(v, m_Constant(&attr));
    operands.push_back(attr);
  }
  return evaluateConstantOp(op, operands, limit, results);
}

std::vector<float> floats(Attribute attr) {
  std::vector<float> out;
  for (float f : cast<DenseElementsAttr>(attr).getValues<float>())
    out.push_back(f);
  return out;
}

TEST(ConstantEvaluator, BroadcastsBinaryOps) {
  TestIR ir;
  SmallVector<Attribute> results;
  ASSERT_TRUE(succeeded(evaluateFirst<AddOp>(ir, R"mlir(
func.func @f() -> tensor<2x3xf32> {
  %a = gopt.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %b = gopt.constant dense<[10.0, 20.0, 30.0]> : tensor<3xf32>
  %c = gopt.add %a, %b : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
  return %c : tensor<2x3xf32>
})mlir",
                                             1024, results)));
  EXPECT_EQ(floats(results[0]),
            (std::vector<float>{11, 22, 33, 14, 25, 36}));
}

TEST(ConstantEvaluator, LeavesDivisionByZero) {
  TestIR ir;
  SmallVector<Attribute> results;
  EXPECT_TRUE(failed(evaluateFirst<DivOp>(ir, R"mlir(
func.func @f() -> tensor<2xf32> {
  %a = gopt.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = gopt.constant dense<[1.0, 0.0]> : tensor<2xf32>
  %c = gopt.div %a, %b : tensor<2xf32>
  return %c : tensor<2xf32>
})mlir",
                                          1024, results)));
}

TEST(ConstantEvaluator, KeepsNaNAndSignedZero) {
  TestIR ir;
  SmallVector<Attribute> results;
  ASSERT_TRUE(succeeded(evaluateFirst<MaxOp>(ir, R"mlir(
func.func @f() -> tensor<3xf32> {
  %a = gopt.constant dense<[0x7FC00000, -0.0, 1.0]> : tensor<3xf32>
  %b = gopt.constant dense<[1.0, 0.0, 2.0]> : tensor<3xf32>
  %c = gopt.max %a, %b : tensor<3xf32>
  return %c : tensor<3xf32>
})mlir",
                                             1024, results)));
  std::vector<float> v = floats(results[0]);
  EXPECT_TRUE(std::isnan(v[0]));
  EXPECT_EQ(v[1], 0.0f);
  EXPECT_FALSE(std::signbit(v[1]));
  EXPECT_EQ(v[2], 2.0f);
}

TEST(ConstantEvaluator, RespectsTheElementBound) {
  TestIR ir;
  const char *source = R"mlir(
func.func @f() -> tensor<2x2xf32> {
  %a = gopt.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %t = gopt.transpose %a perm = [1, 0] : tensor<2x2xf32> -> tensor<2x2xf32>
  return %t : tensor<2x2xf32>
})mlir";
  SmallVector<Attribute> results;
  EXPECT_TRUE(failed(evaluateFirst<TransposeOp>(ir, source, 3, results)));
  ASSERT_TRUE(succeeded(evaluateFirst<TransposeOp>(ir, source, 4, results)));
  EXPECT_EQ(floats(results[0]), (std::vector<float>{1, 3, 2, 4}));
}

TEST(ConstantEvaluator, SplatsNeedNoBudget) {
  TestIR ir;
  SmallVector<Attribute> results;
  ASSERT_TRUE(succeeded(evaluateFirst<ReduceOp>(ir, R"mlir(
func.func @f() -> tensor<8xf32> {
  %a = gopt.constant dense<2.0> : tensor<8x16xf32>
  %r = gopt.reduce sum %a axes = [1] : tensor<8x16xf32> -> tensor<8xf32>
  return %r : tensor<8xf32>
})mlir",
                                                /*limit=*/0, results)));
  auto dense = cast<DenseElementsAttr>(results[0]);
  EXPECT_TRUE(dense.isSplat());
  EXPECT_EQ(dense.getSplatValue<float>(), 32.0f);
}

TEST(ConstantEvaluator, GathersWithNegativeIndices) {
  TestIR ir;
  SmallVector<Attribute> results;
  ASSERT_TRUE(succeeded(evaluateFirst<GatherOp>(ir, R"mlir(
func.func @f() -> tensor<2xi64> {
  %a = gopt.constant dense<[5, 6, 7]> : tensor<3xi64>
  %i = gopt.constant dense<[-1, 0]> : tensor<2xi64>
  %g = gopt.gather %a[%i] axis = 0 : tensor<3xi64>, tensor<2xi64> -> tensor<2xi64>
  return %g : tensor<2xi64>
})mlir",
                                                1024, results)));
  auto values = cast<DenseElementsAttr>(results[0]).getValues<int64_t>();
  EXPECT_EQ(std::vector<int64_t>(values.begin(), values.end()),
            (std::vector<int64_t>{7, 5}));
}

TEST(ConstantEvaluator, LargeResultsBecomeResources) {
  TestIR ir;
  SmallVector<Attribute> results;
  ASSERT_TRUE(succeeded(evaluateFirst<BroadcastToOp>(ir, R"mlir(
func.func @f() -> tensor<100x2xf32> {
  %a = gopt.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = gopt.broadcast_to %a : tensor<2xf32> -> tensor<100x2xf32>
  return %b : tensor<100x2xf32>
})mlir",
                                                     1024, results)));
  EXPECT_TRUE(isa<DenseResourceElementsAttr>(results[0]));
}

} // namespace
