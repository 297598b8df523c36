//===- DiffTestTest.cpp - Tests of the differential tester's pieces -------===//

#include "GOpt/Testing/DiffTest.h"

#include "llvm/ADT/StringSet.h"

#include <gtest/gtest.h>

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

} // namespace
