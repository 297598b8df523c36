//===- contraction_vs_blas.cpp - matmul, linear, conv vs OpenBLAS ---------===//
//
// Compiles matmul, linear (+ bias, + an epilogue), a batched matmul and
// conv2d at transformer/CNN shapes with gopt-optimize and gopt-lower-to-llvm
// twice: the library path (contractions=library, the default: gopt_sgemm
// calls, the epilogue fused on our side) and the codegen path
// (contractions=codegen). Times both interleaved with OpenBLAS called
// directly for the same work: cblas_sgemm for matmul and linear (plus the
// bias and epilogue loops), im2col + cblas_sgemm for the convolution.
// The library path's GEMM is whichever gopt_sgemm was built with (oneDNN
// when found, else OpenBLAS: the first line printed names it). OpenBLAS and
// that GEMM run on one thread (openblas_set_num_threads(1),
// runtime::setLibraryThreads(1)); compiled code runs on one thread. Prints ms and GFLOP/s of each and the ratios
// (OpenBLAS time / our time = our throughput / OpenBLAS's) with 95%
// bootstrap intervals. Target of issue 4: >= 0.80 on the library path.
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
  /// OpenBLAS doing the same work on the same inputs.
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

/// linear with a bias; with `relu`, an elementwise epilogue fused into the
/// contraction's kernel (and a loop over the output on the OpenBLAS side).
Case linearCase(int64_t m, int64_t k, int64_t n, bool relu = false) {
  Case c;
  c.name = llvm::formatv("linear+bias{3} {0}x{1} -> {2}", m, k, n,
                         relu ? "+relu" : "")
               .str();
  std::string y = t({m, n});
  c.source = "func.func @main(%x: " + t({m, k}) + ", %w: " + t({k, n}) +
             ", %b: " + t({n}) + ") -> " + y +
             " {\n  %y = gopt.linear %x, %w, %b : " + t({m, k}) + ", " +
             t({k, n}) + ", " + t({n}) + " -> " + y + "\n" +
             (relu ? "  %r = gopt.relu %y : " + y + "\n  return %r : " + y
                   : "  return %y : " + y) +
             "\n}\n";
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
    if (relu)
      for (float &v : *out)
        v = v > 0.0f ? v : 0.0f;
  };
  return c;
}

/// Attention scores: `batch` products [m, k] x [k, n] (one sgemm each).
Case batchedMatmulCase(int64_t batch, int64_t m, int64_t k, int64_t n) {
  Case c;
  c.name = llvm::formatv("bmm {0}x({1}x{2} * {2}x{3})", batch, m, k, n).str();
  std::string a = t({batch, m, k}), b = t({batch, k, n}),
              y = t({batch, m, n});
  c.source = "func.func @main(%a: " + a + ", %b: " + b + ") -> " + y +
             " {\n  %c = gopt.matmul %a, %b : " + a + ", " + b + " -> " + y +
             "\n  return %c : " + y + "\n}\n";
  c.flops = 2.0 * batch * m * n * k;
  auto out = std::make_shared<std::vector<float>>(batch * m * n);
  c.library = [=](llvm::ArrayRef<HostTensor> in) {
    for (int64_t i = 0; i < batch; ++i)
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f,
                  static_cast<const float *>(in[0].getData()) + i * m * k, k,
                  static_cast<const float *>(in[1].getData()) + i * k * n, n,
                  0.0f, out->data() + i * m * n, n);
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

/// Milliseconds of one call of `run`.
static double timeOnce(const std::function<void()> &run) {
  auto start = std::chrono::steady_clock::now();
  run();
  auto end = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::milli>(end - start).count();
}

/// `ms [q1-q3]` of samples, and GFLOP/s at the median.
static void printTimes(const std::vector<double> &samples, double flops) {
  double median = quantile(samples, 0.5);
  llvm::outs() << llvm::format("%9.3f [%.3f-%.3f] %6.1f", median,
                               quantile(samples, 0.25),
                               quantile(samples, 0.75), flops / median / 1e6);
}

/// OpenBLAS time / our time, with its 95% bootstrap interval.
static void printRatio(const std::vector<double> &blas,
                       const std::vector<double> &ours) {
  auto [lo, hi] = bootstrapRatio(blas, ours);
  llvm::outs() << llvm::format("%5.2f (%.2f-%.2f)",
                               quantile(blas, 0.5) / quantile(ours, 0.5), lo,
                               hi);
}

int main(int argc, char **argv) {
  llvm::cl::ParseCommandLineOptions(
      argc, argv, "contractions: library path and codegen vs OpenBLAS\n");
  if (rounds < 3) {
    llvm::errs() << "error: --rounds must be at least 3\n";
    return 1;
  }
  // One thread for OpenBLAS called directly and for the library path's
  // gopt_sgemm calls alike.
  openblas_set_num_threads(1);
  mlir::gopt::runtime::setLibraryThreads(1);
  llvm::outs() << "library path GEMM: " << gopt_sgemm_backend() << "\n";
  auto context = makeContext();
  std::vector<Case> cases = {matmulCase(256, 256, 256),
                             linearCase(128, 768, 3072),
                             linearCase(128, 768, 3072, /*relu=*/true),
                             batchedMatmulCase(8, 128, 64, 128),
                             convCase(64, 28, 64)};
  llvm::outs() << "One thread, " << rounds
               << " interleaved rounds; ms median [IQR], GFLOP/s at the "
                  "median; ratio = OpenBLAS time / ours (95% bootstrap)\n";
  for (Case &c : cases) {
    auto library = compileOrDie(*context, c.source, "gopt-optimize",
                                /*kernelTimers=*/false, "contractions=library");
    auto codegen = compileOrDie(*context, c.source, "gopt-optimize",
                                /*kernelTimers=*/false, "contractions=codegen");
    std::vector<HostTensor> inputs = library->makeRandomInputs(1);
    auto samples =
        interleave({[&] { return timeGraphOnce(*library, inputs); },
                    [&] { return timeGraphOnce(*codegen, inputs); },
                    [&] { return timeOnce([&] { c.library(inputs); }); }},
                   rounds);
    llvm::outs() << c.name << "\n  library path ";
    printTimes(samples[0], c.flops);
    llvm::outs() << "  ratio ";
    printRatio(samples[2], samples[0]);
    llvm::outs() << "\n  codegen path ";
    printTimes(samples[1], c.flops);
    llvm::outs() << "  ratio ";
    printRatio(samples[2], samples[1]);
    llvm::outs() << "\n  OpenBLAS     ";
    printTimes(samples[2], c.flops);
    llvm::outs() << "\n";
  }
  llvm::outs() << "target: library path ratio >= 0.80\n";
  return 0;
}
