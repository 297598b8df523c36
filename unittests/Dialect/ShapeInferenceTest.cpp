//===- ShapeInferenceTest.cpp - Shape rules of gopt ops -------------------===//

#include "GOpt/Dialect/GOpt/IR/ShapeInference.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::gopt;

TEST(ShapeInference, BroadcastsNumpyStyle) {
  auto s = broadcastShapes({4, 1, 3}, {5, 1});
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(*s, (SmallVector<int64_t>{4, 5, 3}));
  EXPECT_EQ(*broadcastShapes({}, {2, 2}), (SmallVector<int64_t>{2, 2}));
  EXPECT_FALSE(broadcastShapes({4, 3}, {2, 3}).has_value());
}

TEST(ShapeInference, NormalizesAxes) {
  EXPECT_EQ(normalizeAxis(-1, 3), 2);
  EXPECT_EQ(normalizeAxis(0, 3), 0);
  EXPECT_FALSE(normalizeAxis(3, 3).has_value());
  EXPECT_FALSE(normalizeAxis(-4, 3).has_value());
}

TEST(ShapeInference, SlicesClampLikePython) {
  auto b = normalizeSlice(10, -3, 100, 1);
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->start, 7);
  EXPECT_EQ(b->size, 3);
  b = normalizeSlice(10, 1, 8, 3); // 1, 4, 7
  EXPECT_EQ(b->size, 3);
  b = normalizeSlice(10, 5, 2, 1);
  EXPECT_EQ(b->size, 0);
  EXPECT_FALSE(normalizeSlice(10, 0, 5, 0).has_value());
}

TEST(ShapeInference, RowMajorStrides) {
  EXPECT_EQ(computeStrides({2, 3, 4}), (SmallVector<int64_t>{12, 4, 1}));
  EXPECT_EQ(shapeToString({2, 3}), "[2, 3]");
}
