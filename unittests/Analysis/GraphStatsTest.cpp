//===- GraphStatsTest.cpp - Graph statistics on hand-computed graphs ------===//

#include "GOpt/Analysis/GraphStats.h"
#include "../Dialect/TestIR.h"

#include "GOpt/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "gtest/gtest.h"

#include <random>

using namespace mlir;
using namespace mlir::gopt;
using gopt_test::TestIR;

namespace {

// Positions: %c 0, %a 1, %b 2, %d 3, return 4. Live intermediate bytes:
// after %a 16, after %b 32, at %d 48 (then %a and %b die), so the peak is 48.
constexpr const char *kUnfused = R"mlir(
func.func @f(%x: tensor<4xf32>, %w: tensor<4x4xf32>) -> tensor<4xf32> {
  %c = gopt.constant dense<1.0> : tensor<4xf32>
  %a = gopt.exp %x : tensor<4xf32>
  %b = gopt.add %a, %c : tensor<4xf32>
  %d = gopt.mul %a, %b : tensor<4xf32>
  return %d : tensor<4xf32>
}
)mlir";

constexpr const char *kFused = R"mlir(
func.func @f(%x: tensor<4xf32>, %w: tensor<4x4xf32>) -> tensor<4xf32> {
  %c = gopt.constant dense<1.0> : tensor<4xf32>
  %r = gopt.fusion (%x, %c : tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x0: tensor<4xf32>, %c0: tensor<4xf32>):
    %a = gopt.exp %x0 : tensor<4xf32>
    %b = gopt.add %a, %c0 : tensor<4xf32>
    %d = gopt.mul %a, %b : tensor<4xf32>
    gopt.yield %d : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
)mlir";

TEST(GraphStats, CountsAnUnfusedGraph) {
  TestIR ir;
  auto module = ir.parse(kUnfused);
  ASSERT_TRUE(module);
  GraphStats s = GraphStats::compute(*module);
  EXPECT_EQ(s.numOps, 4);
  EXPECT_EQ(s.opHistogram["gopt.constant"], 1);
  EXPECT_EQ(s.opHistogram["gopt.exp"], 1);
  EXPECT_EQ(s.opHistogram.count("func.return"), 0u);
  EXPECT_EQ(s.numValues, 2 + 4);
  EXPECT_EQ(s.numUseEdges, 1 + 2 + 2 + 1);
  EXPECT_EQ(s.numConstants, 1);
  EXPECT_EQ(s.constantBytes, 16);
  EXPECT_EQ(s.intermediateBytes, 48);
  EXPECT_EQ(s.flops, 12);
  EXPECT_EQ(s.bytesMoved, (16 + 16) + (32 + 16) + (32 + 16));
  EXPECT_EQ(s.numKernels, 3);
  EXPECT_EQ(s.numFusionGroups, 0);
  EXPECT_EQ(s.peakMemoryBytes, 48);
}

TEST(GraphStats, FusionKeepsOpsAndCutsKernelsAndMemory) {
  TestIR ir;
  auto module = ir.parse(kFused);
  ASSERT_TRUE(module);
  GraphStats s = GraphStats::compute(*module);
  EXPECT_EQ(s.numOps, 4);
  EXPECT_EQ(s.numFusionGroups, 1);
  EXPECT_EQ(s.numKernels, 1);
  EXPECT_EQ(s.flops, 12);
  EXPECT_EQ(s.bytesMoved, 32 + 16);
  EXPECT_EQ(s.intermediateBytes, 16);
  EXPECT_EQ(s.peakMemoryBytes, 16);
  EXPECT_EQ(s.numValues, 2 + 1 + 1 + 3);
  EXPECT_EQ(s.numUseEdges, 2 + 1 + 2 + 2 + 1 + 1);
}

TEST(GraphStats, ContractionFlops) {
  TestIR ir;
  auto module = ir.parse(R"mlir(
func.func @f(%a: tensor<2x8x16xf32>, %b: tensor<16x4xf32>,
             %x: tensor<1x4x10x10xf32>, %w: tensor<6x2x3x3xf32>) -> (tensor<2x8x4xf32>, tensor<1x6x8x8xf32>) {
  %m = gopt.matmul %a, %b : tensor<2x8x16xf32>, tensor<16x4xf32> -> tensor<2x8x4xf32>
  %c = gopt.conv2d %x, %w strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 2 : tensor<1x4x10x10xf32>, tensor<6x2x3x3xf32> -> tensor<1x6x8x8xf32>
  return %m, %c : tensor<2x8x4xf32>, tensor<1x6x8x8xf32>
}
)mlir");
  ASSERT_TRUE(module);
  GraphStats s = GraphStats::compute(*module);
  EXPECT_EQ(s.flops, 2 * (2 * 8 * 4) * 16 + 2 * (6 * 8 * 8) * (2 * 3 * 3));
  EXPECT_EQ(s.numKernels, 2);
  // Both results live to the return: the peak holds both.
  EXPECT_EQ(s.peakMemoryBytes, (2 * 8 * 4 + 6 * 8 * 8) * 4);
}

TEST(GraphStats, KernelCostsAreTheKernelsItCounts) {
  TestIR ir;
  for (const char *text : {kUnfused, kFused}) {
    auto module = ir.parse(text);
    ASSERT_TRUE(module);
    GraphStats s = GraphStats::compute(*module);
    std::vector<KernelCost> kernels = collectKernelCosts(*module);
    ASSERT_EQ(static_cast<int64_t>(kernels.size()), s.numKernels);
    int64_t flops = 0, bytes = 0;
    for (const KernelCost &k : kernels) {
      flops += k.flops;
      bytes += k.bytes;
    }
    EXPECT_EQ(flops, s.flops);
    EXPECT_EQ(bytes, s.bytesMoved);
  }
  // In program order: exp, add, mul.
  auto module = ir.parse(kUnfused);
  std::vector<KernelCost> kernels = collectKernelCosts(*module);
  EXPECT_EQ(kernels[0], (KernelCost{4, 16 + 16}));
  EXPECT_EQ(kernels[1], (KernelCost{4, 32 + 16}));
}

TEST(GraphStats, JSONHasEveryField) {
  TestIR ir;
  auto module = ir.parse(kUnfused);
  ASSERT_TRUE(module);
  llvm::json::Object json = GraphStats::compute(*module).toJSON();
  for (const char *key :
       {"ops", "values", "use_edges", "constants", "constant_bytes",
        "intermediate_bytes", "flops", "bytes_moved", "kernels",
        "fusion_groups", "peak_memory_bytes_estimate", "op_histogram"})
    EXPECT_TRUE(json.get(key)) << key;
  EXPECT_EQ(*json.getInteger("peak_memory_bytes_estimate"), 48);
}

TEST(GraphStats, EqualityComparesEveryField) {
  TestIR ir;
  auto unfused = ir.parse(kUnfused);
  auto fused = ir.parse(kFused);
  ASSERT_TRUE(unfused && fused);
  EXPECT_EQ(GraphStats::compute(*unfused), GraphStats::compute(*unfused));
  EXPECT_NE(GraphStats::compute(*unfused), GraphStats::compute(*fused));
}

// Positions: %a 0 (used inside the scf.if at 2, and at 3), %u 1 (no use: it
// dies at once), the scf.if 2 (a container: its result is no intermediate),
// %d 3, return 4. Live bytes: 16, 32 (%a, %u), 16, 32 (%a, %d), 16.
TEST(GraphStats, LivenessCountsNestedUsesUnusedResultsAndMultiUse) {
  TestIR ir;
  ir.context.loadDialect<scf::SCFDialect>();
  auto module = ir.parse(R"mlir(
func.func @f(%x: tensor<4xf32>, %p: i1) -> tensor<4xf32> {
  %a = gopt.exp %x : tensor<4xf32>
  %u = gopt.neg %x : tensor<4xf32>
  %i = scf.if %p -> tensor<4xf32> {
    %n = gopt.relu %a : tensor<4xf32>
    scf.yield %n : tensor<4xf32>
  } else {
    scf.yield %x : tensor<4xf32>
  }
  %d = gopt.add %a, %i : tensor<4xf32>
  return %d : tensor<4xf32>
}
)mlir");
  ASSERT_TRUE(module);
  GraphStats s = GraphStats::compute(*module);
  // The relu inside the scf.if is an intermediate of the then-block.
  EXPECT_EQ(s.peakMemoryBytes, 32);
  EXPECT_EQ(s.intermediateBytes, 16 * 4);
}

// Ten values live at once, each waiting for a use further on than the next op
// (more than the liveness keeps in its short list). Positions: %a0..%a9 0-9,
// %s1..%s9 10-18. After %a9 160 bytes are live; %s1 adds 16 (176, the peak)
// and frees %a0 and %a1; each later %sK adds 16 and frees %s(K-1) and %aK.
TEST(GraphStats, LivenessHoldsManyValuesLiveAtOnce) {
  std::string source = "func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n";
  for (int i = 0; i < 10; ++i)
    source += "  %a" + std::to_string(i) + " = gopt.exp %x : tensor<4xf32>\n";
  source += "  %s1 = gopt.add %a0, %a1 : tensor<4xf32>\n";
  for (int i = 2; i < 10; ++i)
    source += "  %s" + std::to_string(i) + " = gopt.add %s" +
              std::to_string(i - 1) + ", %a" + std::to_string(i) +
              " : tensor<4xf32>\n";
  source += "  return %s9 : tensor<4xf32>\n}\n";
  TestIR ir;
  auto module = ir.parse(source);
  ASSERT_TRUE(module);
  EXPECT_EQ(GraphStats::compute(*module).peakMemoryBytes, 176);
}

/// The peak by definition, in quadratic time: at each op of the function's
/// body, the bytes of every intermediate defined at or before it and used at
/// or after it (a value without uses lives at its op only).
static int64_t referencePeak(func::FuncOp function) {
  Block &body = function.getBody().front();
  DenseMap<Operation *, int64_t> position;
  for (Operation &op : body)
    position[&op] = static_cast<int64_t>(position.size());
  struct Interval {
    int64_t def, lastUse, bytes;
  };
  std::vector<Interval> intervals;
  for (Operation &op : body) {
    if (op.hasTrait<OpTrait::ConstantLike>())
      continue;
    for (Value result : op.getResults()) {
      int64_t lastUse = position[&op];
      for (Operation *user : result.getUsers())
        lastUse = std::max(lastUse,
                           position[body.findAncestorOpInBlock(*user)]);
      intervals.push_back({position[&op], lastUse,
                           getTensorBytes(result.getType())});
    }
  }
  int64_t peak = 0;
  for (int64_t t = 0, e = static_cast<int64_t>(position.size()); t < e; ++t) {
    int64_t live = 0;
    for (const Interval &interval : intervals)
      if (interval.def <= t && t <= interval.lastUse)
        live += interval.bytes;
    peak = std::max(peak, live);
  }
  return peak;
}

/// A random graph of `numOps` unary and binary ops on three tensor sizes, so
/// that freeing the wrong value shows in the bytes: operands are drawn from
/// everything defined so far (arguments, constants, results), so values get
/// no use, one near or far use, or many.
static OwningOpRef<ModuleOp> randomGraph(MLIRContext &context, unsigned seed,
                                         int numOps) {
  std::mt19937 random(seed);
  OpBuilder b(&context);
  Location loc = b.getUnknownLoc();
  SmallVector<Type> types;
  for (int64_t n : {4, 12, 36})
    types.push_back(RankedTensorType::get({n}, b.getF32Type()));
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module->getBody());
  auto function = func::FuncOp::create(b, loc, "f",
                                       b.getFunctionType(types, types));
  Block *body = function.addEntryBlock();
  b.setInsertionPointToEnd(body);
  SmallVector<SmallVector<Value>> values(types.size());
  for (auto [i, type] : llvm::enumerate(types)) {
    values[i].push_back(body->getArgument(i));
    values[i].push_back(ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(cast<ShapedType>(type), b.getF32FloatAttr(1))));
  }
  auto pick = [&](SmallVector<Value> &from) {
    // Favour recent values, as real graphs do, but reach back at times.
    size_t n = from.size();
    size_t back = random() % 4 == 0 ? random() % n : random() % std::min<size_t>(n, 3);
    return from[n - 1 - back];
  };
  for (int i = 0; i < numOps; ++i) {
    size_t t = random() % types.size();
    Value x = pick(values[t]);
    Value result;
    switch (random() % 5) {
    case 0:
      result = ExpOp::create(b, loc, x);
      break;
    case 1:
      result = ReluOp::create(b, loc, x);
      break;
    case 2:
      result = NegOp::create(b, loc, x);
      break;
    case 3:
      result = AddOp::create(b, loc, x, pick(values[t]));
      break;
    default:
      result = MulOp::create(b, loc, x, pick(values[t]));
      break;
    }
    values[t].push_back(result);
  }
  SmallVector<Value> returned;
  for (SmallVector<Value> &of : values)
    returned.push_back(of.back());
  func::ReturnOp::create(b, loc, returned);
  return module;
}

TEST(GraphStats, PeakMatchesTheDefinitionOnRandomGraphs) {
  TestIR ir;
  for (unsigned seed = 1; seed <= 40; ++seed) {
    OwningOpRef<ModuleOp> module = randomGraph(ir.context, seed, 60);
    auto function = TestIR::first<func::FuncOp>(*module);
    EXPECT_EQ(GraphStats::compute(*module).peakMemoryBytes,
              referencePeak(function))
        << "seed " << seed;
    // Fused: values inside a group are no intermediates; the groups' are.
    PassManager pm(&ir.context);
    pm.addPass(createGOptFuse());
    ASSERT_TRUE(succeeded(pm.run(*module)));
    EXPECT_EQ(GraphStats::compute(*module).peakMemoryBytes,
              referencePeak(function))
        << "seed " << seed << ", fused";
  }
}

/// Runs `pass` on `module` and checks that the cache, warmed on the IR before
/// the pass, agrees with a fresh computation after it.
static void expectCacheMatchesFresh(TestIR &ir, ModuleOp module,
                                    std::unique_ptr<Pass> pass,
                                    GraphStatsCache &cache) {
  uint64_t before = 0, cached = 0, fresh = 0;
  cache.compute(module, &before);
  PassManager pm(&ir.context);
  pm.addPass(std::move(pass));
  ASSERT_TRUE(succeeded(pm.run(module)));
  GraphStats afterCached = cache.compute(module, &cached);
  GraphStats afterFresh = GraphStats::compute(module, &fresh);
  EXPECT_EQ(afterCached, afterFresh);
  EXPECT_EQ(cached, fresh);
}

TEST(GraphStatsCache, AgreesWithAFreshWalkAfterEveryPass) {
  TestIR ir;
  auto module = ir.parse(R"mlir(
func.func @f(%x: tensor<4xf32>, %w: tensor<4x4xf32>) -> tensor<4xf32> {
  %c = gopt.constant dense<2.0> : tensor<4xf32>
  %s = gopt.sqrt %c : tensor<4xf32>
  %a = gopt.add %x, %s : tensor<4xf32>
  %m1 = gopt.mul %a, %c : tensor<4xf32>
  %m2 = gopt.mul %a, %c : tensor<4xf32>
  %dead = gopt.exp %m2 : tensor<4xf32>
  %r = gopt.relu %m1 : tensor<4xf32>
  %y = gopt.add %r, %m2 : tensor<4xf32>
  return %y : tensor<4xf32>
}
)mlir");
  ASSERT_TRUE(module);
  GraphStatsCache cache;
  expectCacheMatchesFresh(ir, *module, createGOptFold(), cache);
  expectCacheMatchesFresh(ir, *module, createGOptDCE(), cache);
  expectCacheMatchesFresh(ir, *module, createCSEPass(), cache);
  expectCacheMatchesFresh(ir, *module, createGOptFuse(), cache);
  expectCacheMatchesFresh(ir, *module, createGOptDCE(), cache);
  EXPECT_EQ(cache.compute(*module).numFusionGroups, 1);
}

TEST(GraphStatsCache, AsksTheCostInterfaceOncePerSignature) {
  TestIR ir;
  auto module = ir.parse(R"mlir(
func.func @f(%x: tensor<4xf32>, %y: tensor<8xf32>) -> (tensor<4xf32>, tensor<8xf32>) {
  %a = gopt.exp %x : tensor<4xf32>
  %b = gopt.exp %a : tensor<4xf32>
  %c = gopt.exp %b : tensor<4xf32>
  %d = gopt.exp %y : tensor<8xf32>
  return %c, %d : tensor<4xf32>, tensor<8xf32>
}
)mlir");
  ASSERT_TRUE(module);
  GraphStatsCache cache;
  GraphStats first = cache.compute(*module);
  // Two signatures: exp on 4 and exp on 8 elements.
  EXPECT_EQ(cache.lastMisses(), 2);
  EXPECT_EQ(cache.lastHits(), 2);
  EXPECT_EQ(first.flops, 4 + 4 + 4 + 8);
  GraphStats second = cache.compute(*module);
  EXPECT_EQ(cache.lastMisses(), 0);
  EXPECT_EQ(cache.lastHits(), 4);
  EXPECT_EQ(first, second);
}

TEST(GraphStatsCache, FingerprintSeesAnAttributeChangedInPlace) {
  TestIR ir;
  auto module = ir.parse(R"mlir(
func.func @f(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %t = gopt.transpose %x perm = [1, 0] : tensor<4x4xf32> -> tensor<4x4xf32>
  return %t : tensor<4x4xf32>
}
)mlir");
  ASSERT_TRUE(module);
  GraphStatsCache cache;
  uint64_t before = 0, after = 0;
  cache.compute(*module, &before);
  auto transpose = TestIR::first<TransposeOp>(*module);
  transpose->setAttr("gopt.tag", UnitAttr::get(&ir.context));
  cache.compute(*module, &after);
  EXPECT_NE(before, after);
}

TEST(GraphStatsCache, FingerprintSeesSwappedOperandsAndMovedOps) {
  TestIR ir;
  auto module = ir.parse(R"mlir(
func.func @f(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %a = gopt.sub %x, %y : tensor<4xf32>
  %b = gopt.exp %x : tensor<4xf32>
  %c = gopt.neg %y : tensor<4xf32>
  %d = gopt.add %b, %c : tensor<4xf32>
  %e = gopt.add %a, %d : tensor<4xf32>
  return %e : tensor<4xf32>
}
)mlir");
  ASSERT_TRUE(module);
  GraphStatsCache cache;
  uint64_t original = 0, swapped = 0, moved = 0, restored = 0;
  GraphStats before = cache.compute(*module, &original);
  auto sub = TestIR::first<SubOp>(*module);
  Value lhs = sub.getOperand(0), rhs = sub.getOperand(1);
  sub->setOperands({rhs, lhs});
  cache.compute(*module, &swapped);
  EXPECT_NE(original, swapped);
  sub->setOperands({lhs, rhs});
  // Two independent ops trading places: same graph, another program order.
  auto exp = TestIR::first<ExpOp>(*module);
  auto neg = TestIR::first<NegOp>(*module);
  neg->moveBefore(exp);
  GraphStats after = cache.compute(*module, &moved);
  EXPECT_NE(original, moved);
  EXPECT_EQ(before, after);
  exp->moveBefore(neg);
  cache.compute(*module, &restored);
  EXPECT_EQ(original, restored);
}

} // namespace
