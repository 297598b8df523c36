//===- ApproximateMathAccuracyTest.cpp - How close the polynomials are ----===//
//
// gopt-lower-to-llvm computes exp, log, tanh and erf with polynomial
// approximations (gopt-approximate-math, on by default). This test compiles
// a graph of those ops, runs it on every 65537th float bit pattern (all
// signs and binades, subnormals included) and on the special values, and
// compares each result with the function computed in double precision:
//   - finite results within the stated bound, in units in the last place of
//     the correctly rounded result (ulp of subnormals included);
//   - the special values exactly: ±0, ±inf, NaN, log of a negative, exp of
//     the overflow and underflow ranges, tanh and erf saturating to ±1.
// docs/Lowering.md states the same bounds.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Runner/Runner.h"
#include "RunnerFixture.h"

#include "mlir/Parser/Parser.h"
#include "llvm/Support/FormatVariadic.h"
#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

using namespace mlir;
using namespace mlir::gopt;

namespace {

float fromBits(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}

/// The inputs: a stride through all bit patterns, then the special values.
std::vector<float> sampleInputs() {
  std::vector<float> x;
  for (uint64_t bits = 0; bits <= 0xFFFFFFFFull; bits += 65537)
    x.push_back(fromBits(static_cast<uint32_t>(bits)));
  const float inf = std::numeric_limits<float>::infinity();
  const float specials[] = {0.0f,
                            -0.0f,
                            inf,
                            -inf,
                            std::numeric_limits<float>::quiet_NaN(),
                            std::numeric_limits<float>::denorm_min(),
                            -std::numeric_limits<float>::denorm_min(),
                            fromBits(0x007FFFFF), // largest subnormal
                            std::numeric_limits<float>::min(),
                            std::numeric_limits<float>::max(),
                            -std::numeric_limits<float>::max(),
                            1.0f,
                            -1.0f,
                            88.72f,
                            88.73f,
                            -87.33f,
                            -95.0f,
                            -103.0f,
                            -103.97f,
                            -104.0f,
                            -150.0f,
                            1e-30f,
                            9.0f,
                            -9.0f,
                            4.0f,
                            -4.0f};
  x.insert(x.end(), std::begin(specials), std::end(specials));
  return x;
}

/// Distance from `actual` to `exact` in ulps of the float nearest `exact`.
double ulpError(float actual, double exact) {
  float rounded = static_cast<float>(exact);
  float magnitude = std::fabs(rounded);
  float ulp = std::nextafter(magnitude, std::numeric_limits<float>::infinity()) -
              magnitude;
  if (!std::isfinite(ulp)) // the largest float: its lower spacing
    ulp = magnitude - std::nextafter(magnitude, 0.0f);
  return std::fabs(static_cast<double>(actual) - exact) / ulp;
}

struct Function {
  const char *op;
  std::function<double(double)> exact;
  /// Largest error, in ulps, over the finite results.
  double maxUlps;
};

struct ApproximateMathAccuracyTest : RunnerFixture {

  /// The outputs of `op` over `inputs`, compiled with `loweringOptions`.
  std::vector<float> run(llvm::StringRef op, const std::vector<float> &inputs,
                         llvm::StringRef loweringOptions = "") {
    std::string text = llvm::formatv(R"mlir(
      func.func @main(%x: tensor<{0}xf32>) -> tensor<{0}xf32> {
        %y = gopt.{1} %x : tensor<{0}xf32>
        return %y : tensor<{0}xf32>
      })mlir",
                                     inputs.size(), op);
    auto module = parseSourceString<ModuleOp>(text, &context);
    EXPECT_TRUE(module);
    CompileOptions options;
    options.loweringOptions = loweringOptions.str();
    auto graph = CompiledGraph::compile(*module, options);
    EXPECT_TRUE(bool(graph)) << llvm::toString(graph.takeError());
    HostTensor x(ElementKind::F32, {static_cast<int64_t>(inputs.size())});
    std::memcpy(x.getData(), inputs.data(), inputs.size() * sizeof(float));
    std::vector<HostTensor> inputTensors;
    inputTensors.push_back(std::move(x));
    auto outputs = (*graph)->run(inputTensors);
    EXPECT_TRUE(bool(outputs)) << llvm::toString(outputs.takeError());
    std::vector<float> y(inputs.size());
    std::memcpy(y.data(), (*outputs)[0].getData(), y.size() * sizeof(float));
    return y;
  }

  /// Checks every result against the exact function.
  void expectAccurate(const Function &f) {
    std::vector<float> x = sampleInputs();
    std::vector<float> y = run(f.op, x);
    double worst = 0;
    float worstInput = 0;
    int mismatches = 0;
    for (size_t i = 0; i < x.size(); ++i) {
      double exact = f.exact(static_cast<double>(x[i]));
      float rounded = static_cast<float>(exact);
      bool ok;
      if (std::isnan(rounded)) {
        ok = std::isnan(y[i]);
      } else if (std::isinf(rounded)) {
        ok = y[i] == rounded;
      } else {
        double error = ulpError(y[i], exact);
        if (error > worst) {
          worst = error;
          worstInput = x[i];
        }
        ok = error <= f.maxUlps;
      }
      if (!ok && ++mismatches <= 5)
        ADD_FAILURE() << "gopt." << f.op << "(" << llvm::formatv("{0:e9}", x[i]).str()
                      << ") = " << llvm::formatv("{0:e9}", y[i]).str()
                      << ", exact " << llvm::formatv("{0:e9}", exact).str()
                      << " (" << ulpError(y[i], exact) << " ulp)";
    }
    EXPECT_EQ(mismatches, 0) << "gopt." << f.op;
    // Printed so the bound stated in docs/Lowering.md can be checked.
    std::printf("gopt.%s: %zu inputs, largest error %.2f ulp at %.9g\n",
                f.op, x.size(), worst, worstInput);
  }

};

TEST_F(ApproximateMathAccuracyTest, Exp) {
  expectAccurate({"exp", [](double x) { return std::exp(x); }, 5});
}

TEST_F(ApproximateMathAccuracyTest, Log) {
  expectAccurate({"log", [](double x) { return std::log(x); }, 3});
}

TEST_F(ApproximateMathAccuracyTest, Tanh) {
  expectAccurate({"tanh", [](double x) { return std::tanh(x); }, 4});
}

TEST_F(ApproximateMathAccuracyTest, Erf) {
  expectAccurate({"erf", [](double x) { return std::erf(x); }, 3});
}

} // namespace
