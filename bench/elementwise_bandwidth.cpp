//===- elementwise_bandwidth.cpp - Fused elementwise chains vs STREAM -----===//
//
// Measures this machine's memory bandwidth with a STREAM triad
// (a = b + s·c, 3 arrays of N floats, compiled here at -O3) and compares it,
// interleaved, with compiled gopt graphs that read two N-float arrays and
// write one: the triad itself, and a longer elementwise chain, both after
// gopt-optimize (one fused kernel) and without graph passes (one kernel per
// op, each with its own round trip through memory). Target: the fused chain
// reaches at least 70% of the triad's bandwidth. Also timed, interleaved: a
// square transpose of about N floats (read once, written once), whose
// bandwidth is printed beside the triad's.
//
//   gopt-bench-elementwise-bandwidth [--elements=16777216] [--rounds=15]
//
//===----------------------------------------------------------------------===//

#include "BenchRunner.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"

#include <cmath>
#include <vector>

using namespace gopt_bench;

static llvm::cl::opt<int64_t> elements("elements",
                                       llvm::cl::desc("Floats per array"),
                                       llvm::cl::init(1 << 24));
static llvm::cl::opt<int> rounds("rounds",
                                 llvm::cl::desc("Interleaved timed rounds"),
                                 llvm::cl::init(15));

/// The triad as a graph, and a chain of six elementwise ops over the same
/// two inputs: both read 2·N floats and write N once fused.
static std::string graphs(int64_t n) {
  std::string t = "tensor<" + std::to_string(n) + "xf32>";
  return "func.func @triad(%b: " + t + ", %c: " + t + ") -> " + t +
         " {\n"
         "  %s = gopt.constant dense<3.0> : " + t + "\n"
         "  %m = gopt.mul %c, %s : " + t + "\n"
         "  %a = gopt.add %b, %m : " + t + "\n"
         "  return %a : " + t + "\n}\n"
         "func.func @chain(%b: " + t + ", %c: " + t + ") -> " + t +
         " {\n"
         "  %s = gopt.constant dense<0.5> : " + t + "\n"
         "  %m = gopt.mul %c, %s : " + t + "\n"
         "  %a = gopt.add %b, %m : " + t + "\n"
         "  %r = gopt.relu %a : " + t + "\n"
         "  %d = gopt.sub %r, %c : " + t + "\n"
         "  %e = gopt.mul %d, %d : " + t + "\n"
         "  %f = gopt.max %e, %b : " + t + "\n"
         "  return %f : " + t + "\n}\n";
}

/// A transpose of a `side` x `side` matrix.
static std::string transposeGraph(int64_t side) {
  std::string t =
      "tensor<" + std::to_string(side) + "x" + std::to_string(side) + "xf32>";
  return "func.func @transpose(%x: " + t + ") -> " + t +
         " {\n"
         "  %t = gopt.transpose %x perm = [1, 0] : " +
         t + " -> " + t +
         "\n"
         "  return %t : " +
         t + "\n}\n";
}

/// The graph's function alone, as its own module.
static std::string only(const std::string &all, llvm::StringRef name) {
  llvm::StringRef text(all);
  size_t start = text.find("func.func @" + name.str());
  size_t end = text.find("}\n", start);
  return text.substr(start, end + 2 - start).str();
}

int main(int argc, char **argv) {
  llvm::cl::ParseCommandLineOptions(argc, argv,
                                    "fused elementwise bandwidth vs STREAM\n");
  int64_t n = elements;
  if (n < 1024 || rounds < 3) {
    llvm::errs() << "error: --elements must be at least 1024 and --rounds "
                    "at least 3\n";
    return 1;
  }
  // One thread, as the report says: the library calls and the generated
  // parallel loops share the runtime's pool, which defaults to every core.
  mlir::gopt::runtime::setLibraryThreads(1);
  auto context = makeContext();
  std::string all = graphs(n);
  auto triadFused = compileOrDie(*context, only(all, "triad"), "gopt-optimize");
  auto chainFused = compileOrDie(*context, only(all, "chain"), "gopt-optimize");
  auto chainPlain = compileOrDie(*context, only(all, "chain"), "");
  std::vector<HostTensor> inputs = triadFused->makeRandomInputs(1);
  // The largest square of at most N floats whose side 8 divides (the
  // transpose's tiles stay full).
  int64_t side =
      static_cast<int64_t>(std::sqrt(static_cast<double>(n))) / 8 * 8;
  auto transpose = compileOrDie(*context, transposeGraph(side), "");
  std::vector<HostTensor> matrix = transpose->makeRandomInputs(1);

  std::vector<float> a(n, 0), b(n, 1), c(n, 2);
  float s = 3.0f;
  auto stream = [&] {
    auto start = std::chrono::steady_clock::now();
    float *pa = a.data();
    const float *pb = b.data(), *pc = c.data();
    for (int64_t i = 0; i < n; ++i)
      pa[i] = pb[i] + s * pc[i];
    auto end = std::chrono::steady_clock::now();
    return std::chrono::duration<double, std::milli>(end - start).count();
  };
  auto samples =
      interleave({stream, [&] { return timeGraphOnce(*triadFused, inputs); },
                  [&] { return timeGraphOnce(*chainFused, inputs); },
                  [&] { return timeGraphOnce(*chainPlain, inputs); },
                  [&] { return timeGraphOnce(*transpose, matrix); }},
                 rounds);

  double bytes = 3.0 * 4.0 * static_cast<double>(n);
  auto gbps = [&](double ms) { return bytes / (ms * 1e-3) / 1e9; };
  const char *names[] = {"STREAM triad (C++ -O3)", "gopt triad, fused",
                         "gopt 6-op chain, fused", "gopt 6-op chain, unfused"};
  llvm::outs() << "Single-thread bandwidth, " << n << " floats per array, "
               << rounds << " interleaved rounds (median [IQR])\n";
  llvm::outs() << llvm::format("  %-28s %22s %12s %9s %8s\n", "", "ms",
                               "GB/s (3N·4)", "vs triad", "kernels");
  double triadMs = quantile(samples[0], 0.5);
  int64_t kernels[] = {0, (int64_t)triadFused->getKernels().size(),
                       (int64_t)chainFused->getKernels().size(),
                       (int64_t)chainPlain->getKernels().size()};
  for (int i = 0; i < 4; ++i) {
    double ms = quantile(samples[i], 0.5);
    llvm::outs() << llvm::format(
        "  %-28s %8.3f [%.3f-%.3f] %12.2f %8.2fx %8lld\n", names[i], ms,
        quantile(samples[i], 0.25), quantile(samples[i], 0.75), gbps(ms),
        triadMs / ms, (long long)kernels[i]);
  }
  double transposeMs = quantile(samples[4], 0.5);
  double transposeBytes = 2.0 * 4.0 * static_cast<double>(side * side);
  double transposeGbps = transposeBytes / (transposeMs * 1e-3) / 1e9;
  llvm::outs() << llvm::format(
      "  %-28s %8.3f [%.3f-%.3f] %12.2f %8.2fx %8lld\n",
      ("gopt transpose " + std::to_string(side) + "²").c_str(), transposeMs,
      quantile(samples[4], 0.25), quantile(samples[4], 0.75), transposeGbps,
      transposeGbps / gbps(triadMs), (long long)transpose->getKernels().size());
  llvm::outs() << "  (the transpose moves 2·" << side << "²·4 bytes; its "
               << "\"vs triad\" is the ratio of the two bandwidths)\n";
  auto [lo, hi] = bootstrapRatio(samples[0], samples[2]);
  double ratio = triadMs / quantile(samples[2], 0.5);
  llvm::outs() << llvm::format(
      "fused chain bandwidth / triad bandwidth: %.2f (95%% bootstrap "
      "%.2f-%.2f; target >= 0.70): %s\n",
      ratio, lo, hi, ratio >= 0.70 ? "met" : "NOT met");
  return 0;
}
