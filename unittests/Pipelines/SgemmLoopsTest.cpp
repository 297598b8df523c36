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

/// The only linalg.generic of `source` (a function of one), parsed into
/// `module`.
linalg::GenericOp parseGeneric(MLIRContext &context, StringRef source,
                               OwningOpRef<ModuleOp> &module) {
  DialectRegistry registry;
  gopt::registerAllDialects(registry);
  context.appendDialectRegistry(registry);
  context.loadAllAvailableDialects();
  module = parseSourceString<ModuleOp>(source, &context);
  if (!module)
    return nullptr;
  linalg::GenericOp found;
  module->walk([&](linalg::GenericOp op) { found = op; });
  return found;
}

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

TEST(SgemmLoops, BatchedMatmul) {
  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  auto op = parseGeneric(
      context, batchedMatmul("(b, m, n)", "tensor<4x16x32xf32>", kPlainBody),
      module);
  ASSERT_TRUE(op);
  std::optional<gopt::SgemmLoops> loops = gopt::matchSgemmContraction(op);
  ASSERT_TRUE(loops);
  EXPECT_EQ(loops->batch, SmallVector<unsigned>({0}));
  EXPECT_EQ(loops->m, 1u);
  EXPECT_EQ(loops->n, 2u);
  EXPECT_EQ(loops->k, 3u);
  EXPECT_FLOAT_EQ(loops->alpha, 1.0f);
}

TEST(SgemmLoops, ConstantFactorsAreAlpha) {
  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  // An operand scaled by 0.125 and the product by 2.
  auto op = parseGeneric(
      context, batchedMatmul("(b, m, n)", "tensor<4x16x32xf32>", R"mlir(
    %f = arith.constant 0.125 : f32
    %two = arith.constant 2.0 : f32
    %ps = arith.mulf %p, %f : f32
    %m = arith.mulf %ps, %q : f32
    %m2 = arith.mulf %two, %m : f32
    %s = arith.addf %m2, %acc : f32
    linalg.yield %s : f32)mlir"),
      module);
  ASSERT_TRUE(op);
  std::optional<gopt::SgemmLoops> loops = gopt::matchSgemmContraction(op);
  ASSERT_TRUE(loops);
  EXPECT_FLOAT_EQ(loops->alpha, 0.25f);
}

TEST(SgemmLoops, AResultWrittenTransposedKeepsItsRoles) {
  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  // C[m, b, n]: the heads merged back after P·V.
  auto op = parseGeneric(
      context, batchedMatmul("(m, b, n)", "tensor<16x4x32xf32>", kPlainBody),
      module);
  ASSERT_TRUE(op);
  std::optional<gopt::SgemmLoops> loops = gopt::matchSgemmContraction(op);
  ASSERT_TRUE(loops);
  EXPECT_EQ(loops->batch, SmallVector<unsigned>({0}));
  EXPECT_EQ(loops->m, 1u);
  EXPECT_EQ(loops->n, 2u);
}

TEST(SgemmLoops, NoGemm) {
  MLIRContext context;
  // n not innermost in the result: no GEMM library writes that.
  {
    OwningOpRef<ModuleOp> module;
    auto op = parseGeneric(
        context, batchedMatmul("(b, n, m)", "tensor<4x32x16xf32>", kPlainBody),
        module);
    ASSERT_TRUE(op);
    EXPECT_FALSE(gopt::matchSgemmContraction(op));
  }
  // A factor that is not a constant.
  {
    OwningOpRef<ModuleOp> module;
    auto op = parseGeneric(
        context, batchedMatmul("(b, m, n)", "tensor<4x16x32xf32>", R"mlir(
    %pp = arith.mulf %p, %p : f32
    %m = arith.mulf %pp, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32)mlir"),
        module);
    ASSERT_TRUE(op);
    EXPECT_FALSE(gopt::matchSgemmContraction(op));
  }
  // An op off the multiply-accumulate path.
  {
    OwningOpRef<ModuleOp> module;
    auto op = parseGeneric(
        context, batchedMatmul("(b, m, n)", "tensor<4x16x32xf32>", R"mlir(
    %e = math.exp %p : f32
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32)mlir"),
        module);
    ASSERT_TRUE(op);
    EXPECT_FALSE(gopt::matchSgemmContraction(op));
  }
}

} // namespace
