//===- contraction_vs_blas.cpp - matmul, linear, conv vs OpenBLAS ---------===//
//
// Compiles matmul, linear (+ bias) and conv2d at transformer/CNN shapes with
// gopt-optimize and gopt-lower-to-llvm (the codegen path), and times them
// interleaved with OpenBLAS doing the same work: cblas_sgemm for matmul and
// linear, im2col + cblas_sgemm for the convolution, single-threaded (the
// compiled code runs on one thread). Prints GFLOP/s of each and the ratio.
// Target of issue 4: >= 80% of the library, or, on the codegen path, the
// ratio stated.
//
//   gopt-bench-contraction-vs-blas [--rounds=9]
//
//===----------------------------------------------------------------------===//

#include "BenchRunner.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"

#include <cblas.h>

using namespace gopt_bench;

static llvm::cl::opt<int> rounds("rounds",
                                 llvm::cl::desc("Interleaved timed rounds"),
                                 llvm::cl::init(9));

extern "C" void openblas_set_num_threads(int);

namespace {

struct Case {
  std::string name;
  std::string source;
  double flops;
  /// The library doing the same work on the same inputs.
  std::function<void(llvm::ArrayRef<HostTensor>)> library;
};

std::string t(std::initializer_list<int64_t> dims) {
  std::string s = "tensor<";
  for (int64_t d : dims)
    s += std::to_string(d) + "x";
  return s + "f32>";
}

Case matmulCase(int64_t m, int64_t k, int64_t n) {
  Case c;
  c.name = llvm::formatv("matmul {0}x{1} * {1}x{2}", m, k, n).str();
  c.source = "func.func @main(%a: " + t({m, k}) + ", %b: " + t({k, n}) +
             ") -> " + t({m, n}) + " {\n  %c = gopt.matmul %a, %b : " +
             t({m, k}) + ", " + t({k, n}) + " -> " + t({m, n}) +
             "\n  return %c : " + t({m, n}) + "\n}\n";
  c.flops = 2.0 * m * n * k;
  auto out = std::make_shared<std::vector<float>>(m * n);
  c.library = [=](llvm::ArrayRef<HostTensor> in) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f,
                static_cast<const float *>(in[0].getData()), k,
                static_cast<const float *>(in[1].getData()), n, 0.0f,
                out->data(), n);
  };
  return c;
}

Case linearCase(int64_t m, int64_t k, int64_t n) {
  Case c;
  c.name = llvm::formatv("linear+bias {0}x{1} -> {2}", m, k, n).str();
  c.source = "func.func @main(%x: " + t({m, k}) + ", %w: " + t({k, n}) +
             ", %b: " + t({n}) + ") -> " + t({m, n}) +
             " {\n  %y = gopt.linear %x, %w, %b : " + t({m, k}) + ", " +
             t({k, n}) + ", " + t({n}) + " -> " + t({m, n}) +
             "\n  return %y : " + t({m, n}) + "\n}\n";
  c.flops = 2.0 * m * n * k;
  auto out = std::make_shared<std::vector<float>>(m * n);
  c.library = [=](llvm::ArrayRef<HostTensor> in) {
    const float *bias = static_cast<const float *>(in[2].getData());
    for (int64_t i = 0; i < m; ++i)
      std::copy(bias, bias + n, out->data() + i * n);
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f,
                static_cast<const float *>(in[0].getData()), k,
                static_cast<const float *>(in[1].getData()), n, 1.0f,
                out->data(), n);
  };
  return c;
}

/// NCHW 3x3 convolution, stride 1, padding 1.
Case convCase(int64_t c_in, int64_t hw, int64_t c_out) {
  Case c;
  c.name = llvm::formatv("conv3x3 {0}x{1}x{1} -> {2}", c_in, hw, c_out).str();
  std::string x = t({1, c_in, hw, hw}), w = t({c_out, c_in, 3, 3}),
              y = t({1, c_out, hw, hw});
  c.source = "func.func @main(%x: " + x + ", %w: " + w + ") -> " + y +
             " {\n  %y = gopt.conv2d %x, %w strides = [1, 1] padding = [1, "
             "1, 1, 1] dilations = [1, 1] groups = 1 : " +
             x + ", " + w + " -> " + y + "\n  return %y : " + y + "\n}\n";
  int64_t k = c_in * 9, p = hw * hw;
  c.flops = 2.0 * c_out * p * k;
  auto cols = std::make_shared<std::vector<float>>(k * p);
  auto out = std::make_shared<std::vector<float>>(c_out * p);
  c.library = [=](llvm::ArrayRef<HostTensor> in) {
    const float *src = static_cast<const float *>(in[0].getData());
    float *col = cols->data();
    for (int64_t ci = 0; ci < c_in; ++ci)
      for (int64_t ky = 0; ky < 3; ++ky)
        for (int64_t kx = 0; kx < 3; ++kx) {
          float *row = col + ((ci * 3 + ky) * 3 + kx) * p;
          for (int64_t oy = 0; oy < hw; ++oy) {
            int64_t iy = oy + ky - 1;
            for (int64_t ox = 0; ox < hw; ++ox) {
              int64_t ix = ox + kx - 1;
              row[oy * hw + ox] = iy < 0 || iy >= hw || ix < 0 || ix >= hw
                                      ? 0.0f
                                      : src[(ci * hw + iy) * hw + ix];
            }
          }
        }
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, c_out, p, k, 1.0f,
                static_cast<const float *>(in[1].getData()), k, col, p, 0.0f,
                out->data(), p);
  };
  return c;
}

} // namespace

int main(int argc, char **argv) {
  llvm::cl::ParseCommandLineOptions(argc, argv,
                                    "contractions: codegen vs OpenBLAS\n");
  if (rounds < 3) {
    llvm::errs() << "error: --rounds must be at least 3\n";
    return 1;
  }
  openblas_set_num_threads(1);
  auto context = makeContext();
  std::vector<Case> cases = {matmulCase(256, 256, 256),
                             linearCase(128, 768, 3072),
                             convCase(64, 28, 64)};
  llvm::outs() << "Single thread, " << rounds
               << " interleaved rounds, median [IQR] ms; GFLOP/s at the "
                  "median\n";
  llvm::outs() << llvm::format("  %-28s %24s %8s %24s %8s %7s\n", "", "gopt ms",
                               "GFLOP/s", "OpenBLAS ms", "GFLOP/s", "ratio");
  for (Case &c : cases) {
    auto graph = compileOrDie(*context, c.source, "gopt-optimize");
    std::vector<HostTensor> inputs = graph->makeRandomInputs(1);
    auto samples = interleave(
        {[&] { return timeGraphOnce(*graph, inputs); },
         [&] {
           auto start = std::chrono::steady_clock::now();
           c.library(inputs);
           auto end = std::chrono::steady_clock::now();
           return std::chrono::duration<double, std::milli>(end - start)
               .count();
         }},
        rounds);
    double ours = quantile(samples[0], 0.5), lib = quantile(samples[1], 0.5);
    auto [lo, hi] = bootstrapRatio(samples[1], samples[0]);
    llvm::outs() << llvm::format(
        "  %-28s %8.3f [%6.3f-%6.3f] %8.2f %8.3f [%6.3f-%6.3f] %8.2f %6.2f "
        "(95%% %.2f-%.2f)\n",
        c.name.c_str(), ours, quantile(samples[0], 0.25),
        quantile(samples[0], 0.75), c.flops / ours / 1e6, lib,
        quantile(samples[1], 0.25), quantile(samples[1], 0.75),
        c.flops / lib / 1e6, lib / ours, lo, hi);
  }
  llvm::outs() << "ratio: OpenBLAS time / gopt time (1.00 = as fast as the "
                  "library; target >= 0.80)\n";
  return 0;
}
