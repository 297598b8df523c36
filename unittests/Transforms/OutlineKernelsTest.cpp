//===- OutlineKernelsTest.cpp - One function per GraphStats kernel --------===//

#include "../Dialect/TestIR.h"
#include "GOpt/Analysis/GraphStats.h"
#include "GOpt/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::gopt;
using gopt_test::TestIR;

namespace {

/// Number of kernel functions gopt-outline-kernels (after gopt-fuse when
/// `fuse`) makes, and GraphStats' kernel count of the same graph.
std::pair<int64_t, int64_t> outlinedAndCounted(StringRef source, bool fuse) {
  TestIR ir;
  ir.context.loadDialect<arith::ArithDialect>();
  auto module = ir.parse(source);
  EXPECT_TRUE(module);
  PassManager pm(&ir.context);
  if (fuse) {
    pm.addPass(createGOptFuse());
    EXPECT_TRUE(succeeded(pm.run(*module)));
  }
  int64_t counted = GraphStats::compute(*module).numKernels;
  PassManager outline(&ir.context);
  outline.addPass(createGOptOutlineKernels());
  EXPECT_TRUE(succeeded(outline.run(*module)));
  int64_t outlined = 0;
  module->walk([&](func::FuncOp func) {
    if (func->hasAttr("gopt.kernel"))
      ++outlined;
  });
  return {outlined, counted};
}

constexpr llvm::StringLiteral kBlock = R"mlir(
func.func @f(%x: tensor<1x16x32xf32>, %w: tensor<32x32xf32>) -> tensor<1x32x16xf32> {
  %g = gopt.constant dense<1.0> : tensor<32xf32>
  %b = gopt.constant dense<0.0> : tensor<32xf32>
  %n = gopt.layer_norm %x, %g, %b axes = [2] eps = 1.0e-05 : tensor<1x16x32xf32>, tensor<32xf32>, tensor<32xf32>
  %l = gopt.linear %n, %w : tensor<1x16x32xf32>, tensor<32x32xf32> -> tensor<1x16x32xf32>
  %a = gopt.add %l, %x : tensor<1x16x32xf32>
  %e = gopt.gelu %a : tensor<1x16x32xf32>
  %r = gopt.reshape %e : tensor<1x16x32xf32> -> tensor<1x16x2x16xf32>
  %t = gopt.transpose %r perm = [0, 2, 3, 1] : tensor<1x16x2x16xf32> -> tensor<1x2x16x16xf32>
  %s = gopt.softmax %t axis = 3 : tensor<1x2x16x16xf32>
  %o = gopt.reshape %s : tensor<1x2x16x16xf32> -> tensor<1x32x16xf32>
  return %o : tensor<1x32x16xf32>
})mlir";

TEST(OutlineKernels, OneFunctionPerGraphStatsKernelUnfused) {
  auto [outlined, counted] = outlinedAndCounted(kBlock, /*fuse=*/false);
  EXPECT_EQ(outlined, 8);
  EXPECT_EQ(outlined, counted);
}

TEST(OutlineKernels, OneFunctionPerGraphStatsKernelFused) {
  auto [outlined, counted] = outlinedAndCounted(kBlock, /*fuse=*/true);
  EXPECT_LT(outlined, 8);
  EXPECT_EQ(outlined, counted);
}

} // namespace
