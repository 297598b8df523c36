//===- RooflineTest.cpp - The roofline model and target descriptions ------===//

#include "GOpt/Support/Roofline.h"

#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

using namespace mlir::gopt;

namespace {

/// 100 GFLOP/s, 10 GB/s, 1 us per kernel: the ridge point is 10 FLOP/byte.
TargetDescription makeToyTarget() {
  TargetDescription t;
  t.name = "toy";
  t.kind = "cpu";
  t.device = "toy CPU";
  t.peakGflops = 100;
  t.bandwidthGBs = 10;
  t.launchOverheadUs = 1;
  t.threads = 1;
  return t;
}

TEST(RooflineTest, AKernelTakesTheSlowerOfItsTwoRoofsPlusTheLaunch) {
  TargetDescription t = makeToyTarget();
  // 1e6 bytes at 10 GB/s: 0.1 ms; 1e6 FLOPs at 100 GFLOP/s: 0.01 ms.
  KernelCost memoryBound{1000000, 1000000};
  EXPECT_NEAR(predictKernelMs(memoryBound, t), 0.1 + 0.001, 1e-12);
  EXPECT_FALSE(isComputeBound(memoryBound, t));
  // 1e8 FLOPs: 1 ms, beyond the 0.1 ms of its bytes.
  KernelCost computeBound{100000000, 1000000};
  EXPECT_NEAR(predictKernelMs(computeBound, t), 1.0 + 0.001, 1e-12);
  EXPECT_TRUE(isComputeBound(computeBound, t));
  EXPECT_NEAR(predictProgramMs({memoryBound, computeBound}, t), 0.101 + 1.001,
              1e-12);
  // An empty program costs nothing; an empty kernel its launch.
  EXPECT_EQ(predictProgramMs({}, t), 0);
  EXPECT_NEAR(predictKernelMs({0, 0}, t), 0.001, 1e-15);
}

TEST(RooflineTest, KernelsThatFitTheCacheRunAtItsBandwidth) {
  TargetDescription t = makeToyTarget();
  t.cacheBytes = 1000;
  t.cacheBandwidthGBs = 100;
  // 1000 bytes fit: 1e-5 ms at 100 GB/s; 1001 do not: 1.001e-4 ms.
  EXPECT_NEAR(predictKernelMs({0, 1000}, t), 1e-5 + 0.001, 1e-15);
  EXPECT_NEAR(predictKernelMs({0, 1001}, t), 1.001e-4 + 0.001, 1e-15);
}

TEST(RooflineTest, ARunAddsItsFixedCostOnce) {
  TargetDescription t = makeToyTarget();
  t.runOverheadUs = 5;
  EXPECT_NEAR(predictProgramMs({{0, 1000000}, {0, 1000000}}, t),
              0.005 + 2 * 0.101, 1e-12);
  EXPECT_NEAR(predictProgramMs({}, t), 0.005, 1e-15);
}

TEST(RooflineTest, DescriptionsRoundTripThroughJSON) {
  TargetDescription t = makeToyTarget();
  t.runOverheadUs = 2.5;
  t.cacheBytes = 4096;
  t.cacheBandwidthGBs = 50;
  t.source = "made up";
  auto back = parseTargetDescription(llvm::json::Value(toJSON(t)));
  ASSERT_TRUE(static_cast<bool>(back)) << llvm::toString(back.takeError());
  EXPECT_EQ(back->name, "toy");
  EXPECT_EQ(back->kind, "cpu");
  EXPECT_EQ(back->device, "toy CPU");
  EXPECT_EQ(back->peakGflops, 100);
  EXPECT_EQ(back->bandwidthGBs, 10);
  EXPECT_EQ(back->cacheBytes, 4096);
  EXPECT_EQ(back->cacheBandwidthGBs, 50);
  EXPECT_EQ(back->launchOverheadUs, 1);
  EXPECT_EQ(back->runOverheadUs, 2.5);
  EXPECT_EQ(back->threads, 1);
  EXPECT_EQ(back->source, "made up");
}

TEST(RooflineTest, BadDescriptionsNameTheField) {
  auto errorOf = [](llvm::json::Object object) {
    auto target = parseTargetDescription(llvm::json::Value(std::move(object)));
    EXPECT_FALSE(static_cast<bool>(target));
    return target ? std::string() : llvm::toString(target.takeError());
  };
  llvm::json::Object good = toJSON(makeToyTarget());
  llvm::json::Object noPeak = good;
  noPeak.erase("peak_gflops");
  EXPECT_NE(errorOf(noPeak).find("\"peak_gflops\" must be a positive number"),
            std::string::npos);
  llvm::json::Object badKind = good;
  badKind["kind"] = "tpu";
  EXPECT_NE(errorOf(badKind).find("\"kind\" must be \"cpu\" or \"gpu\""),
            std::string::npos);
  llvm::json::Object halfCache = good;
  halfCache["cache_bytes"] = 1024;
  EXPECT_NE(errorOf(halfCache).find("\"cache_bandwidth_gbs\""),
            std::string::npos);
  EXPECT_FALSE(static_cast<bool>(
      parseTargetDescription(llvm::json::Value(llvm::json::Array{}))));
}

TEST(RooflineTest, BuiltinTargetsAreTheDatasheetFigures) {
  for (const std::string &name : getBuiltinTargetNames()) {
    std::optional<TargetDescription> t = getBuiltinTarget(name);
    ASSERT_TRUE(t.has_value()) << name;
    EXPECT_EQ(t->name, name);
    EXPECT_EQ(t->kind, "gpu");
    EXPECT_FALSE(t->source.empty());
    // What the builtin says survives its own parser.
    EXPECT_TRUE(static_cast<bool>(
        parseTargetDescription(llvm::json::Value(toJSON(*t)))));
  }
  EXPECT_EQ(getBuiltinTarget("h100")->bandwidthGBs, 3350);
  EXPECT_EQ(getBuiltinTarget("h200")->bandwidthGBs, 4800);
  EXPECT_FALSE(getBuiltinTarget("host").has_value());
}

} // namespace
