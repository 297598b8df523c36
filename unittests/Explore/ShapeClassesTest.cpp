//===- ShapeClassesTest.cpp - One configuration per class of shapes -------===//

#include "GOpt/Explore/ShapeClasses.h"
#include "GOpt/Explore/Report.h"

#include <gtest/gtest.h>

using namespace mlir::gopt;

namespace {

std::string errorOf(llvm::ArrayRef<std::string> specs) {
  auto grid = parseShapeGrid(specs, 8);
  if (grid)
    return "";
  return llvm::toString(grid.takeError());
}

TEST(ShapeClassesTest, TheGridIsTheCrossProductOfEachDimensionsSizes) {
  auto grid = parseShapeGrid({"batch=8,1,8", "seq=64..512"});
  ASSERT_TRUE(static_cast<bool>(grid)) << llvm::toString(grid.takeError());
  // Sizes ascending without repeats; powers of two over the range; the
  // first dimension outermost.
  std::vector<std::string> labels;
  for (const ShapePoint &p : *grid)
    labels.push_back(p.label());
  EXPECT_EQ(labels, (std::vector<std::string>{
                        "batch=1,seq=64", "batch=1,seq=128", "batch=1,seq=256",
                        "batch=1,seq=512", "batch=8,seq=64", "batch=8,seq=128",
                        "batch=8,seq=256", "batch=8,seq=512"}));
  // A range whose end is no power of two ends at it.
  auto odd = parseShapeGrid({"seq=3..20"});
  ASSERT_TRUE(static_cast<bool>(odd));
  EXPECT_EQ(odd->back().label(), "seq=20");
  EXPECT_EQ(odd->size(), 4u); // 3, 6, 12, 20
}

TEST(ShapeClassesTest, BadGridsSayWhy) {
  EXPECT_NE(errorOf({"batch"}).find("must be NAME=V1,V2,... or NAME=A..B"),
            std::string::npos);
  EXPECT_NE(errorOf({"batch=0,2"}).find("'0' is not a size of at least 1"),
            std::string::npos);
  EXPECT_NE(errorOf({"seq=64..8"}).find("a range is A..B with 1 <= A <= B"),
            std::string::npos);
  EXPECT_NE(errorOf({"batch=1", "batch=2"})
                .find("--shapes names dimension 'batch' twice"),
            std::string::npos);
  EXPECT_NE(errorOf({"batch=1,2,3", "seq=1,2,3"})
                .find("more than 8 shapes to analyze"),
            std::string::npos);
}

ShapeOutcome outcome(int64_t batch, std::string choice,
                     std::vector<std::pair<std::string, double>> acceptable) {
  ShapeOutcome o;
  o.shape.dims = {{"batch", batch}};
  o.choice = choice;
  o.choiceSpeedup = acceptable.front().second;
  o.acceptable = std::move(acceptable);
  return o;
}

ShapeClassing makeClassing() {
  ShapeClassing c;
  c.dimNames = {"batch"};
  // Small batches: fuse or default within the noise; large ones: fold only
  // or default; one shape failed.
  c.shapes.push_back(outcome(1, "fuse", {{"fuse", 2.0}, {"default", 1.9}}));
  c.shapes.push_back(outcome(2, "fuse", {{"fuse", 2.1}, {"default", 2.0}}));
  c.shapes.push_back(outcome(16, "fold", {{"fold", 1.5}}));
  c.shapes.push_back(outcome(32, "default", {{"default", 1.4}, {"fold", 1.4}}));
  ShapeOutcome failed;
  failed.shape.dims = {{"batch", 64}};
  failed.error = "cannot import at batch=64";
  c.shapes.push_back(failed);
  return c;
}

TEST(ShapeClassesTest, TheConfigurationServingTheMostShapesMakesAClass) {
  ShapeClassing c = makeClassing();
  classifyShapes(c, [](llvm::StringRef name) {
    return std::make_pair("builtin.module(" + name.str() + ")", std::string());
  });
  // default serves 1, 2 and 32 (three shapes): the first class; fold then
  // serves 16.
  ASSERT_EQ(c.classes.size(), 2u);
  EXPECT_EQ(c.classes[0].configuration, "default");
  EXPECT_EQ(c.classes[0].pipeline, "builtin.module(default)");
  EXPECT_EQ(c.classes[0].members, (std::vector<size_t>{0, 1, 3}));
  EXPECT_EQ(c.classes[0].speedups, (std::vector<double>{1.9, 2.0, 1.4}));
  EXPECT_EQ(c.classes[1].configuration, "fold");
  EXPECT_EQ(c.classes[1].members, (std::vector<size_t>{2}));
  EXPECT_EQ(c.classOf[0], 0u);
  EXPECT_EQ(c.classOf[2], 1u);
  EXPECT_FALSE(c.classOf[4].has_value());

  // The rule: the nearest analyzed shape in log2.
  ShapePoint p;
  p.dims = {{"batch", 12}};
  EXPECT_EQ(classForShape(c, p), 1u); // nearest 16
  p.dims = {{"batch", 4}};
  EXPECT_EQ(classForShape(c, p), 0u); // nearest 2
  p.dims = {{"batch", 1000}};
  EXPECT_EQ(classForShape(c, p), 0u); // nearest 32 (64 failed)
  p.dims = {{"seq", 4}};
  EXPECT_FALSE(classForShape(c, p).has_value());

  llvm::json::Object json = toJSON(c);
  EXPECT_EQ(json.getArray("classes")->size(), 2u);
  EXPECT_EQ(json.getArray("shapes")->size(), 5u);
  EXPECT_TRUE(json.getString("rule")->contains("nearest analyzed shape"));
}

TEST(ShapeClassesTest, AShapesAcceptableConfigurationsAreWithinTheNoise) {
  ExploreReport report;
  for (const char *name : {"baseline", "fold", "fuse", "slow"}) {
    Configuration c;
    c.name = name;
    report.configurations.push_back(c);
    report.measurements.emplace_back();
  }
  auto effect = [](double s, double lo, double hi) {
    ConfigurationEffect e;
    e.valid = true;
    e.speedup = s;
    e.speedupInterval = {lo, hi};
    return e;
  };
  report.analysis.effects = {effect(1, 1, 1), effect(1.9, 1.7, 2.2),
                             effect(2.0, 1.9, 2.1), effect(1.2, 1.1, 1.3)};
  report.analysis.choice.index = 2;
  ShapePoint shape;
  shape.dims = {{"batch", 1}};
  ShapeOutcome o = summarizeShape(shape, report);
  EXPECT_EQ(o.choice, "fuse");
  ASSERT_EQ(o.acceptable.size(), 2u);
  EXPECT_EQ(o.acceptable[0].first, "fold");
  EXPECT_EQ(o.acceptable[1].first, "fuse");
  // Nothing chosen: the reason is the error.
  report.analysis.choice.index.reset();
  report.analysis.choice.reason = "nothing fits";
  EXPECT_EQ(summarizeShape(shape, report).error, "nothing fits");
}

} // namespace
