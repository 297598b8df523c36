//===- RandomGraphTest.cpp - Tests of the random graph generator ----------===//

#include "GOpt/Testing/RandomGraph.h"
#include "GOpt/Dialect/GOpt/IR/GOptDialect.h"
#include "GOpt/Dialect/GOpt/IR/GOptOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::gopt;

namespace {

struct RandomGraphTest : public ::testing::Test {
  RandomGraphTest() { context.loadDialect<GOptDialect, func::FuncDialect>(); }
  OwningOpRef<ModuleOp> generate(uint64_t seed, int64_t ops = 40) {
    RandomGraphOptions options;
    options.seed = seed;
    options.numOps = ops;
    return generateRandomGraph(context, options);
  }
  static std::string print(ModuleOp module) {
    std::string text;
    llvm::raw_string_ostream os(text);
    module.print(os);
    return text;
  }
  /// Compute ops: gopt ops other than constants.
  static int64_t countComputeOps(ModuleOp module) {
    int64_t n = 0;
    module.walk([&](Operation *op) {
      n += isa<GOptDialect>(op->getDialect()) && !isa<ConstantOp>(op);
    });
    return n;
  }
  MLIRContext context;
};

TEST_F(RandomGraphTest, EverySeedVerifiesWithStaticF32Inputs) {
  for (uint64_t seed = 0; seed <= 200; ++seed) {
    OwningOpRef<ModuleOp> module = generate(seed);
    ASSERT_TRUE(module) << "seed " << seed;
    ASSERT_TRUE(succeeded(verify(*module))) << "seed " << seed;
    auto main = module->lookupSymbol<func::FuncOp>("main");
    ASSERT_TRUE(main) << "seed " << seed;
    EXPECT_TRUE(main.isPublic());
    for (Type t : main.getFunctionType().getInputs()) {
      auto tensor = dyn_cast<RankedTensorType>(t);
      ASSERT_TRUE(tensor && tensor.hasStaticShape()) << "seed " << seed;
      EXPECT_TRUE(tensor.getElementType().isF32()) << "seed " << seed;
    }
    EXPECT_GE(main.getFunctionType().getNumResults(), 1u);
  }
}

TEST_F(RandomGraphTest, SameSeedSameGraphOtherSeedOtherGraph) {
  std::string a = print(*generate(7)), b = print(*generate(7));
  EXPECT_EQ(a, b);
  EXPECT_NE(a, print(*generate(8)));
}

TEST_F(RandomGraphTest, RequestedOpCountIsRoughlyMet) {
  for (int64_t ops : {1, 10, 40, 200}) {
    for (uint64_t seed = 0; seed < 20; ++seed) {
      int64_t n = countComputeOps(*generate(seed, ops));
      // One step adds at most a handful of helper ops (rescale, reshape to
      // NCHW, a positivizing exp∘tanh) on top of its own.
      EXPECT_GE(n, ops) << "seed " << seed << ", ops " << ops;
      EXPECT_LE(n, ops + 12) << "seed " << seed << ", ops " << ops;
    }
  }
}

TEST_F(RandomGraphTest, EveryOpFamilyAppearsOverManySeeds) {
  llvm::StringSet<> seen;
  for (uint64_t seed = 0; seed < 100; ++seed)
    generate(seed)->walk(
        [&](Operation *op) { seen.insert(op->getName().getStringRef()); });
  for (const char *name :
       {"gopt.constant",   "gopt.neg",     "gopt.abs",
        "gopt.relu",       "gopt.exp",     "gopt.log",
        "gopt.sqrt",       "gopt.rsqrt",   "gopt.reciprocal",
        "gopt.tanh",       "gopt.sigmoid", "gopt.erf",
        "gopt.silu",       "gopt.gelu",    "gopt.clip",
        "gopt.cast",       "gopt.add",     "gopt.sub",
        "gopt.mul",        "gopt.div",     "gopt.pow",
        "gopt.max",        "gopt.min",     "gopt.compare",
        "gopt.select",     "gopt.reduce",  "gopt.softmax",
        "gopt.layer_norm", "gopt.matmul",  "gopt.linear",
        "gopt.conv2d",     "gopt.pool2d",  "gopt.global_avg_pool",
        "gopt.transpose",  "gopt.reshape", "gopt.broadcast_to",
        "gopt.concat",     "gopt.slice",   "gopt.pad",
        "gopt.gather"})
    EXPECT_TRUE(seen.contains(name)) << name << " never generated";
}

// layer_norm amplifies the rounding noise of its input by up to
// 1/sqrt(eps); the generator keeps that at 2 or less.
TEST_F(RandomGraphTest, LayerNormsAreWellConditioned) {
  int64_t seen = 0;
  for (uint64_t seed = 0; seed < 40; ++seed) {
    OwningOpRef<ModuleOp> module = generate(seed, 120);
    ASSERT_TRUE(module);
    module->walk([&](LayerNormOp op) {
      ++seen;
      EXPECT_GE(op.getEpsilon().convertToDouble(), 0.25) << "seed " << seed;
    });
  }
  EXPECT_GT(seen, 0);
}

TEST_F(RandomGraphTest, BadOptionsAreAnErrorNotACrash) {
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
    message = d.str();
    return success();
  });
  RandomGraphOptions options;
  options.maxRank = 0;
  EXPECT_FALSE(generateRandomGraph(context, options));
  EXPECT_NE(message.find("out of range"), std::string::npos);
}

} // namespace
