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

#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/StringSet.h"

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

struct GOptApproximateMathPass
    : gopt::impl::GOptApproximateMathBase<GOptApproximateMathPass> {
  using Base::Base;

  void runOnOperation() override {
    llvm::StringSet<> selected;
    if (ops.empty())
      for (llvm::StringLiteral op : kDefaultOps)
        selected.insert(op);
    else
      for (const std::string &op : ops)
        selected.insert(op);
    RewritePatternSet patterns(&getContext());
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
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
