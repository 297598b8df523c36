//===- ApproximateMath.cpp - Vectorizable polynomials for math ops --------===//
//
// A vectorized kernel that calls erf keeps none of its vector width: libm
// has no vector erf, so convert-math-to-libm unrolls it into one call per
// lane (and LLVM does the same to llvm.exp without a vector library). The
// upstream polynomial approximations compute the same functions with FMAs
// and bit casts on whole vectors.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/IR/Builders.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/StringSet.h"

#include <limits>

namespace mlir {
namespace gopt {
#define GEN_PASS_DEF_GOPTAPPROXIMATEMATH
#include "GOpt/Codegen/CPU/Passes.h.inc"
} // namespace gopt
} // namespace mlir

using namespace mlir;

namespace {

/// The default set: the functions the gopt lowering produces (gelu's erf
/// and tanh, softmax's exp, log-softmax's log) and their neighbours.
constexpr llvm::StringLiteral kDefaultOps[] = {"erf",   "tanh",  "exp",
                                               "expm1", "log",   "log1p",
                                               "log2"};

/// An f32 constant shaped like `type` (a scalar or a splat vector).
Value f32Constant(OpBuilder &b, Location loc, Type type, float value) {
  auto attr = b.getF32FloatAttr(value);
  if (auto vector = dyn_cast<VectorType>(type))
    return arith::ConstantOp::create(
        b, loc, vector, DenseElementsAttr::get(vector, attr.getValue()));
  return arith::ConstantOp::create(b, loc, attr);
}

bool isF32Like(Type type) {
  return getElementTypeOrSelf(type).isF32();
}

/// The polynomials treat their inputs as normal numbers: log of a subnormal
/// input comes out as log(FLT_MIN) (-87.34 for every input down to 1.4e-45,
/// whose log is -103.28), and exp of an input below -87.34, whose result is
/// subnormal, comes out as 0. Both are brought into the normal range first:
///   log(x) = log(x * 2^23) - 23 ln 2            for 0 < x < 2^-126
///            (the product is exact: a subnormal times 2^23 is normal);
///   exp(x) = exp(x / 2)^2                        for x < -87
///            (x / 2 is exact; exp(x / 2) is normal, and the square rounds
///            once, into the subnormal result).
/// Everything else keeps its one polynomial: both are selects around it.
void extendToSubnormals(Operation *root, bool logs, bool exps) {
  SmallVector<math::LogOp> logOps;
  SmallVector<math::ExpOp> expOps;
  root->walk([&](Operation *op) {
    if (auto log = dyn_cast<math::LogOp>(op);
        log && logs && isF32Like(log.getType()))
      logOps.push_back(log);
    if (auto exp = dyn_cast<math::ExpOp>(op);
        exp && exps && isF32Like(exp.getType()))
      expOps.push_back(exp);
  });
  for (math::LogOp log : logOps) {
    OpBuilder b(log);
    Location loc = log.getLoc();
    Type type = log.getType();
    Value x = log.getOperand();
    Value tiny = arith::CmpFOp::create(
        b, loc, arith::CmpFPredicate::OLT, x,
        f32Constant(b, loc, type, std::numeric_limits<float>::min()));
    Value scaled = arith::MulFOp::create(b, loc, x,
                                         f32Constant(b, loc, type, 0x1p23f));
    Value input = arith::SelectOp::create(b, loc, tiny, scaled, x);
    Value l = math::LogOp::create(b, loc, input, log.getFastmathAttr());
    Value shifted = arith::SubFOp::create(
        b, loc, l, f32Constant(b, loc, type, 23.0f * 0.693147180559945f));
    Value result = arith::SelectOp::create(b, loc, tiny, shifted, l);
    log.replaceAllUsesWith(result);
    log.erase();
  }
  for (math::ExpOp exp : expOps) {
    OpBuilder b(exp);
    Location loc = exp.getLoc();
    Type type = exp.getType();
    Value x = exp.getOperand();
    Value low = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x,
                                      f32Constant(b, loc, type, -87.0f));
    Value half = arith::MulFOp::create(b, loc, x,
                                       f32Constant(b, loc, type, 0.5f));
    Value input = arith::SelectOp::create(b, loc, low, half, x);
    Value e = math::ExpOp::create(b, loc, input, exp.getFastmathAttr());
    Value squared = arith::MulFOp::create(b, loc, e, e);
    Value result = arith::SelectOp::create(b, loc, low, squared, e);
    exp.replaceAllUsesWith(result);
    exp.erase();
  }
}

struct GOptApproximateMathPass
    : gopt::impl::GOptApproximateMathBase<GOptApproximateMathPass> {
  using Base::Base;

  /// The functions to approximate, and their patterns frozen once per
  /// pass, not once per kernel.
  llvm::StringSet<> selected;
  FrozenRewritePatternSet frozenPatterns;

  LogicalResult initialize(MLIRContext *context) override {
    if (ops.empty())
      for (llvm::StringLiteral op : kDefaultOps)
        selected.insert(op);
    else
      for (const std::string &op : ops)
        selected.insert(op);
    RewritePatternSet patterns(context);
    populateMathPolynomialApproximationPatterns(
        patterns, [&](StringRef name) {
          // Upstream asks with the full op name ("math.exp").
          name.consume_front("math.");
          return selected.contains(name);
        });
    // erf and tanh have patterns of their own upstream, outside the
    // predicate-driven set.
    if (selected.contains("erf"))
      populatePolynomialApproximateErfPattern(patterns);
    if (selected.contains("tanh"))
      populatePolynomialApproximateTanhPattern(patterns);
    frozenPatterns = std::move(patterns);
    return success();
  }

  void runOnOperation() override {
    if (selected.contains("log") || selected.contains("exp")) {
      // Only the selected of the two; a walk, not a pattern, so the log and
      // exp it creates are not rewritten again.
      extendToSubnormals(getOperation(), selected.contains("log"),
                         selected.contains("exp"));
    }
    if (failed(applyPatternsGreedily(getOperation(), frozenPatterns)))
      signalPassFailure();
  }
};

} // namespace
