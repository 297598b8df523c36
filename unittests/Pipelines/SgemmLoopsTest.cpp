//===- SgemmLoopsTest.cpp - Which contractions a GEMM library computes ----===//
//
// gopt::matchSgemmContraction (GOpt/Codegen/Common/LibraryContractions.h):
// the loop roles and alpha of a contraction generic, what the library
// calls of both targets are built from.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Codegen/Common/LibraryContractions.h"
#include "GOpt/InitAllDialects.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

using namespace mlir;

namespace {

/// Parses a function of one linalg.generic and matches it.
class SgemmLoops : public ::testing::Test {
protected:
  /// The loop roles of the only linalg.generic of `source`.
  std::optional<gopt::SgemmLoops> match(const std::string &source) {
    DialectRegistry registry;
    gopt::registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    module = parseSourceString<ModuleOp>(source, &context);
    linalg::GenericOp found;
    if (module)
      module->walk([&](linalg::GenericOp op) { found = op; });
    EXPECT_TRUE(found) << source;
    return found ? gopt::matchSgemmContraction(found) : std::nullopt;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

/// C[b, m, n] += A[b, m, k] · B[b, k, n], the body given.
std::string batchedMatmul(StringRef outputMap, StringRef outputType,
                          StringRef body) {
  return (R"mlir(
#a = affine_map<(b, m, n, k) -> (b, m, k)>
#b = affine_map<(b, m, n, k) -> (b, k, n)>
#c = affine_map<(b, m, n, k) -> )mlir" +
          outputMap + R"mlir(>
func.func @f(%x: tensor<4x16x8xf32>, %y: tensor<4x8x32xf32>, %init: )mlir" +
          outputType + R"mlir() -> )mlir" + outputType + R"mlir( {
  %r = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %y : tensor<4x16x8xf32>, tensor<4x8x32xf32>) outs(%init : )mlir" +
          outputType + R"mlir() {
  ^bb0(%p: f32, %q: f32, %acc: f32):
)mlir" + body +
          R"mlir(
  } -> )mlir" +
          outputType + R"mlir(
  return %r : )mlir" +
          outputType + R"mlir(
})mlir")
      .str();
}

constexpr const char *kPlainBody = R"mlir(
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32)mlir";

TEST_F(SgemmLoops, BatchedMatmul) {
  std::optional<gopt::SgemmLoops> loops =
      match(batchedMatmul("(b, m, n)", "tensor<4x16x32xf32>", kPlainBody));
  ASSERT_TRUE(loops);
  EXPECT_EQ(loops->batch, SmallVector<unsigned>({0}));
  EXPECT_EQ(loops->m, 1u);
  EXPECT_EQ(loops->n, 2u);
  EXPECT_EQ(loops->k, 3u);
  EXPECT_FLOAT_EQ(loops->alpha, 1.0f);
}

TEST_F(SgemmLoops, ConstantFactorsAreAlpha) {
  // An operand scaled by 0.125 and the product by 2.
  std::optional<gopt::SgemmLoops> loops =
      match(batchedMatmul("(b, m, n)", "tensor<4x16x32xf32>", R"mlir(
    %f = arith.constant 0.125 : f32
    %two = arith.constant 2.0 : f32
    %ps = arith.mulf %p, %f : f32
    %m = arith.mulf %ps, %q : f32
    %m2 = arith.mulf %two, %m : f32
    %s = arith.addf %m2, %acc : f32
    linalg.yield %s : f32)mlir"));
  ASSERT_TRUE(loops);
  EXPECT_FLOAT_EQ(loops->alpha, 0.25f);
}

TEST_F(SgemmLoops, AResultWrittenTransposedKeepsItsRoles) {
  // C[m, b, n]: the heads merged back after P·V.
  std::optional<gopt::SgemmLoops> loops =
      match(batchedMatmul("(m, b, n)", "tensor<16x4x32xf32>", kPlainBody));
  ASSERT_TRUE(loops);
  EXPECT_EQ(loops->batch, SmallVector<unsigned>({0}));
  EXPECT_EQ(loops->m, 1u);
  EXPECT_EQ(loops->n, 2u);
}

TEST_F(SgemmLoops, NInnermostInTheResult) {
  // C[b, n, m]: no GEMM library writes that.
  EXPECT_FALSE(
      match(batchedMatmul("(b, n, m)", "tensor<4x32x16xf32>", kPlainBody)));
}

TEST_F(SgemmLoops, OnlyConstantFactors) {
  EXPECT_FALSE(match(batchedMatmul("(b, m, n)", "tensor<4x16x32xf32>", R"mlir(
    %pp = arith.mulf %p, %p : f32
    %m = arith.mulf %pp, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32)mlir")));
}

TEST_F(SgemmLoops, NothingOffTheMultiplyAccumulate) {
  EXPECT_FALSE(match(batchedMatmul("(b, m, n)", "tensor<4x16x32xf32>", R"mlir(
    %e = math.exp %p : f32
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32)mlir")));
}

} // namespace
