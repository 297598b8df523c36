//===- CompiledGraphTest.cpp - Compile, run and measure through the API ---===//

#include "GOpt/Runner/Runner.h"
#include "RunnerFixture.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::gopt;

namespace {

constexpr const char *kGraph = R"mlir(
func.func @main(%x: tensor<2x3xf32>, %y: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<2xf32>) {
  %a = gopt.add %x, %y : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
  %r = gopt.relu %a : tensor<2x3xf32>
  %s = gopt.reduce sum %r axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
  return %r, %s : tensor<2x3xf32>, tensor<2xf32>
}
)mlir";

HostTensor tensorOf(std::vector<int64_t> shape, std::vector<double> values) {
  HostTensor t(ElementKind::F32, std::move(shape));
  for (auto [i, v] : llvm::enumerate(values))
    t.setFromDouble(i, v);
  return t;
}

TEST_F(RunnerFixture, RunsAGraphWithTwoResults) {
  auto module = parseSourceString<ModuleOp>(kGraph, &context);
  ASSERT_TRUE(module);
  for (const char *pipeline : {"", "gopt-optimize"}) {
    CompileOptions options;
    options.graphPipeline = pipeline;
    options.kernelTimers = true;
    auto graph = CompiledGraph::compile(*module, options);
    ASSERT_TRUE(bool(graph)) << llvm::toString(graph.takeError());
    EXPECT_EQ((*graph)->getEntry(), "main");
    auto out = (*graph)->run({tensorOf({2, 3}, {1, -2, 3, -4, 5, -6}),
                              tensorOf({3}, {1, 1, 1})});
    ASSERT_TRUE(bool(out)) << llvm::toString(out.takeError());
    ASSERT_EQ(out->size(), 2u);
    EXPECT_TRUE(compareTensors((*out)[0], tensorOf({2, 3}, {2, 0, 4, 0, 6, 0}),
                               0, 0)
                    .matches)
        << pipeline;
    EXPECT_TRUE(compareTensors((*out)[1], tensorOf({2}, {6, 6}), 0, 0).matches)
        << pipeline;
  }
}

TEST_F(RunnerFixture, MeasuresRunsMemoryAndKernels) {
  auto module = parseSourceString<ModuleOp>(kGraph, &context);
  ASSERT_TRUE(module);
  CompileOptions options;
  options.kernelTimers = true;
  auto graph = CompiledGraph::compile(*module, options);
  ASSERT_TRUE(bool(graph)) << llvm::toString(graph.takeError());
  runtime::MemoryStats before = runtime::getMemoryStats();
  auto inputs = (*graph)->makeRandomInputs(1);
  MeasureOptions measure;
  measure.warmup = 1;
  measure.repetitions = 4;
  auto report = measureGraph(**graph, inputs, measure);
  ASSERT_TRUE(bool(report)) << llvm::toString(report.takeError());
  EXPECT_EQ(report->latencyMs.size(), 4u);
  EXPECT_EQ(report->numKernels, 3);
  ASSERT_EQ(report->kernels.size(), 3u);
  double shares = 0;
  for (const KernelReport &k : report->kernels) {
    EXPECT_EQ(k.callsPerRun, 1);
    shares += k.share;
  }
  EXPECT_NEAR(shares, 1.0, 1e-9);
  // Unfused: add and relu results (24 bytes each) and the sum (8 bytes).
  EXPECT_GE(report->peakBytes, 24 + 8);
  EXPECT_EQ(report->inputBytes, 24 + 12);
  // Every block the runs allocated was freed.
  EXPECT_EQ(runtime::getMemoryStats().liveBytes, before.liveBytes);
}

TEST_F(RunnerFixture, RejectsInputsThatDoNotMatch) {
  auto module = parseSourceString<ModuleOp>(kGraph, &context);
  ASSERT_TRUE(module);
  auto graph = CompiledGraph::compile(*module, CompileOptions());
  ASSERT_TRUE(bool(graph)) << llvm::toString(graph.takeError());
  auto out = (*graph)->run({tensorOf({3}, {1, 2, 3}), tensorOf({3}, {1, 1, 1})});
  ASSERT_FALSE(bool(out));
  EXPECT_EQ(llvm::toString(out.takeError()),
            "input #0 of @main is tensor<3xf32>, expected tensor<2x3xf32>");
}

TEST_F(RunnerFixture, NamesTheStageThatFailed) {
  auto module = parseSourceString<ModuleOp>(kGraph, &context);
  ASSERT_TRUE(module);
  CompileOptions options;
  options.entry = "missing";
  auto graph = CompiledGraph::compile(*module, options);
  ASSERT_FALSE(bool(graph));
  EXPECT_EQ(llvm::toString(graph.takeError()),
            "no function @missing with a body in the module");
}

/// A broken pass: gives @main one more result than it returns, which the
/// func dialect's verifier rejects and no later pass looks at.
struct BreakReturnTypesPass
    : PassWrapper<BreakReturnTypesPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(BreakReturnTypesPass)
  StringRef getArgument() const final { return "gopt-test-break-return-types"; }
  void runOnOperation() override {
    auto main = getOperation().lookupSymbol<func::FuncOp>("main");
    FunctionType type = main.getFunctionType();
    SmallVector<Type> results(type.getResults());
    results.push_back(results.front());
    main.setFunctionType(
        FunctionType::get(&getContext(), type.getInputs(), results));
  }
};

TEST_F(RunnerFixture, BrokenIRIsAnErrorWithOrWithoutVerifyingEachPass) {
  static bool registered = [] {
    PassRegistration<BreakReturnTypesPass>();
    return true;
  }();
  (void)registered;
  for (bool verifyEachPass : {true, false}) {
    auto module = parseSourceString<ModuleOp>(kGraph, &context);
    ASSERT_TRUE(module);
    // A sound pipeline passes either way.
    auto ms = runGraphPipeline(*module, "gopt-optimize", /*passTiming=*/false,
                               verifyEachPass);
    ASSERT_TRUE(bool(ms)) << llvm::toString(ms.takeError());
    // The broken pass, then one that would run on its result.
    auto broken = runGraphPipeline(
        *module, "builtin.module(gopt-test-break-return-types,gopt-dce)",
        /*passTiming=*/false, verifyEachPass);
    ASSERT_FALSE(bool(broken)) << verifyEachPass;
    std::string error = llvm::toString(broken.takeError());
    EXPECT_NE(error.find("enclosing function (@main) returns 3"),
              std::string::npos)
        << error;
    if (verifyEachPass) {
      // Verified after it, the broken pass fails itself.
      EXPECT_NE(error.find("failed in gopt-test-break-return-types:"),
                std::string::npos)
          << error;
    } else {
      // Verified once, after the pipeline.
      EXPECT_NE(error.find("' failed (its result does not verify; verifying "
                           "after each pass names the pass):"),
                std::string::npos)
          << error;
    }
  }
  // Through a compile too: the graph pipeline's result is verified before
  // the lowering, so the broken graph does not reach it.
  auto module = parseSourceString<ModuleOp>(kGraph, &context);
  ASSERT_TRUE(module);
  CompileOptions options;
  options.graphPipeline = "builtin.module(gopt-test-break-return-types)";
  auto graph = CompiledGraph::compile(*module, options);
  ASSERT_FALSE(bool(graph));
  EXPECT_NE(llvm::toString(graph.takeError()).find("does not verify"),
            std::string::npos);
}

} // namespace

/// The object cache: a second compile of the same program loads the machine
/// code the first stored, with the first compile's times and the same
/// results; a different program (other pipeline) is not confused with it.
TEST_F(RunnerFixture, ObjectCacheLoadsWhatACompileStored) {
  auto module = parseSourceString<ModuleOp>(kGraph, &context);
  ASSERT_TRUE(module);
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("gopt-object-cache", dir));
  CompileOptions options;
  options.kernelTimers = true;
  options.objectCacheDir = dir.str().str();

  auto cold = CompiledGraph::compile(*module, options);
  ASSERT_TRUE(bool(cold)) << llvm::toString(cold.takeError());
  EXPECT_FALSE((*cold)->getCompileTimes().fromCache);
  auto warm = CompiledGraph::compile(*module, options);
  ASSERT_TRUE(bool(warm)) << llvm::toString(warm.takeError());
  EXPECT_TRUE((*warm)->getCompileTimes().fromCache);
  EXPECT_EQ((*warm)->getCompileTimes().codegenMs,
            (*cold)->getCompileTimes().codegenMs);
  // What the hit took (hashing, reading, linking), not what it saved; the
  // cold compile's wall is its total.
  const CompileTimes &hit = (*warm)->getCompileTimes();
  EXPECT_GT(hit.loadMs, 0);
  EXPECT_EQ(hit.wallMs(), hit.importMs + hit.graphPassesMs + hit.loadMs);
  EXPECT_EQ((*cold)->getCompileTimes().wallMs(),
            (*cold)->getCompileTimes().totalMs());
  EXPECT_EQ((*warm)->getKernels().size(), (*cold)->getKernels().size());

  std::vector<HostTensor> inputs = (*cold)->makeRandomInputs(7);
  auto coldOut = (*cold)->run(inputs);
  auto warmOut = (*warm)->run(inputs);
  ASSERT_TRUE(bool(coldOut) && bool(warmOut));
  for (size_t i = 0; i < coldOut->size(); ++i)
    EXPECT_TRUE(compareTensors((*warmOut)[i], (*coldOut)[i], 0, 0).matches);

  options.graphPipeline = "gopt-fuse";
  auto other = CompiledGraph::compile(*module, options);
  ASSERT_TRUE(bool(other)) << llvm::toString(other.takeError());
  EXPECT_FALSE((*other)->getCompileTimes().fromCache);
  llvm::sys::fs::remove_directories(dir);
}

/// A chain of `n` unfused elementwise ops: n kernels.
static std::string chainGraph(int n) {
  std::string text =
      "func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {\n";
  std::string last = "%x";
  for (int i = 0; i < n; ++i) {
    std::string next = "%v" + std::to_string(i);
    const char *op = i % 3 == 0   ? "gopt.tanh"
                     : i % 3 == 1 ? "gopt.neg"
                                  : "gopt.exp";
    text += "  " + next + " = " + op + " " + last + " : tensor<4x8xf32>\n";
    last = next;
  }
  return text + "  return " + last + " : tensor<4x8xf32>\n}\n";
}

/// The CPU code compiled in partitions on several threads computes what it
/// computes in one piece, and the cache stores and links every partition.
TEST_F(RunnerFixture, PartitionedCodegenMatchesOnePiece) {
  auto module = parseSourceString<ModuleOp>(chainGraph(24), &context);
  ASSERT_TRUE(module);
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("gopt-partitions", dir));
  // The chain's 24 kernels are of three kinds: kept apart, so the module
  // has enough functions to split.
  CompileOptions one;
  one.codegenThreads = 1;
  one.loweringOptions = "dedup-kernels=false";
  auto whole = CompiledGraph::compile(*module, one);
  ASSERT_TRUE(bool(whole)) << llvm::toString(whole.takeError());
  EXPECT_EQ((*whole)->getObjectCount(), 1u);

  CompileOptions three;
  three.codegenThreads = 3;
  three.loweringOptions = one.loweringOptions;
  three.objectCacheDir = dir.str().str();
  auto split = CompiledGraph::compile(*module, three);
  ASSERT_TRUE(bool(split)) << llvm::toString(split.takeError());
  // A small module: one part per thread.
  size_t parts = (*split)->getObjectCount();
  EXPECT_EQ(parts, 3u);
  auto cached = CompiledGraph::compile(*module, three);
  ASSERT_TRUE(bool(cached)) << llvm::toString(cached.takeError());
  EXPECT_TRUE((*cached)->getCompileTimes().fromCache);
  EXPECT_EQ((*cached)->getObjectCount(), parts);

  std::vector<HostTensor> inputs = (*whole)->makeRandomInputs(3);
  auto expected = (*whole)->run(inputs);
  ASSERT_TRUE(bool(expected)) << llvm::toString(expected.takeError());
  for (auto *graph : {&*split, &*cached}) {
    auto out = (*graph)->run(inputs);
    ASSERT_TRUE(bool(out)) << llvm::toString(out.takeError());
    EXPECT_TRUE(compareTensors((*out)[0], (*expected)[0], 0, 0).matches);
  }
  llvm::sys::fs::remove_directories(dir);
}

/// Kernels that are the same function are compiled once: the kernel list
/// keeps one entry per kernel, in program order, each of the chain's later
/// kernels naming the first of its kind as its code, and the results are
/// those of the code compiled kernel by kernel.
TEST_F(RunnerFixture, RepeatedKernelsAreCompiledOnce) {
  auto module = parseSourceString<ModuleOp>(chainGraph(7), &context);
  ASSERT_TRUE(module);
  auto shared = CompiledGraph::compile(*module, CompileOptions());
  ASSERT_TRUE(bool(shared)) << llvm::toString(shared.takeError());
  CompileOptions apart;
  apart.loweringOptions = "dedup-kernels=false";
  auto separate = CompiledGraph::compile(*module, apart);
  ASSERT_TRUE(bool(separate)) << llvm::toString(separate.takeError());

  const std::vector<KernelInfo> &kernels = (*shared)->getKernels();
  ASSERT_EQ(kernels.size(), 7u);
  for (auto [i, kernel] : llvm::enumerate(kernels)) {
    EXPECT_EQ(kernel.id, static_cast<int64_t>(i));
    // tanh, neg, exp, tanh, ...: kernels 3-6 run the code of kernel i % 3.
    EXPECT_EQ(kernel.sameCodeAs, i < 3 ? -1 : static_cast<int64_t>(i % 3))
        << kernel.name;
  }
  EXPECT_EQ(kernels[4].name, "main_k4_neg");
  for (const KernelInfo &kernel : (*separate)->getKernels())
    EXPECT_EQ(kernel.sameCodeAs, -1) << kernel.name;

  std::vector<HostTensor> inputs = (*shared)->makeRandomInputs(5);
  auto expected = (*separate)->run(inputs);
  ASSERT_TRUE(bool(expected)) << llvm::toString(expected.takeError());
  auto out = (*shared)->run(inputs);
  ASSERT_TRUE(bool(out)) << llvm::toString(out.takeError());
  EXPECT_TRUE(compareTensors((*out)[0], (*expected)[0], 0, 0).matches);
}

/// `x[2, 16] · W[16, 32] + b[32]` with W's values `scale · (i % 7 - 3)`
/// (2 KiB, handed to the code as an argument) and b's `i` (128 bytes, kept
/// in the code).
std::string linearGraph(double scale) {
  std::string w;
  for (int i = 0; i < 16 * 32; ++i)
    w += (i ? ", " : "") + std::to_string(scale * (i % 7 - 3));
  std::string b;
  for (int i = 0; i < 32; ++i)
    b += (i ? ", " : "") + std::to_string(i) + ".0";
  return "func.func @main(%x: tensor<2x16xf32>) -> tensor<2x32xf32> {\n"
         "  %w = gopt.constant dense<[" + w + "]> : tensor<512xf32>\n"
         "  %w2 = gopt.reshape %w : tensor<512xf32> -> tensor<16x32xf32>\n"
         "  %b = gopt.constant dense<[" + b + "]> : tensor<32xf32>\n"
         "  %y = gopt.linear %x, %w2, %b : tensor<2x16xf32>, "
         "tensor<16x32xf32>, tensor<32xf32> -> tensor<2x32xf32>\n"
         "  return %y : tensor<2x32xf32>\n}\n";
}

/// Large constants are passed to the compiled code, not compiled into it:
/// the same graph with other weights loads the same machine code from the
/// object cache and still computes with its own weights.
TEST_F(RunnerFixture, WeightsAreArgumentsOfTheCodeNotPartOfIt) {
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("gopt-weights", dir));
  HostTensor x(ElementKind::F32, {2, 16});
  for (int64_t i = 0; i < x.getNumElements(); ++i)
    x.setFromDouble(i, 0.125 * static_cast<double>(i % 5) - 0.25);

  for (double scale : {1.0, -0.5}) {
    auto module = parseSourceString<ModuleOp>(linearGraph(scale), &context);
    ASSERT_TRUE(module);
    CompileOptions options;
    options.objectCacheDir = dir.str().str();
    auto graph = CompiledGraph::compile(*module, options);
    ASSERT_TRUE(bool(graph)) << llvm::toString(graph.takeError());
    EXPECT_EQ((*graph)->getWeightBytes(), 16u * 32u * 4u) << "scale " << scale;
    // Only the first compile generates code; the second graph differs in its
    // weights alone.
    EXPECT_EQ((*graph)->getCompileTimes().fromCache, scale != 1.0);
    EXPECT_EQ((*graph)->getFunctionType().getNumInputs(), 1u);

    auto out = (*graph)->run(llvm::ArrayRef<HostTensor>(x));
    ASSERT_TRUE(bool(out)) << llvm::toString(out.takeError());
    for (int64_t i = 0; i < 2; ++i)
      for (int64_t j = 0; j < 32; ++j) {
        double expected = static_cast<double>(j);
        for (int64_t p = 0; p < 16; ++p)
          expected += x.getAsDouble(i * 16 + p) * scale *
                      static_cast<double>((p * 32 + j) % 7 - 3);
        EXPECT_NEAR((*out)[0].getAsDouble(i * 32 + j), expected, 1e-4)
            << "scale " << scale << " at " << i << "," << j;
      }
  }
  llvm::sys::fs::remove_directories(dir);
}

/// checkRunsWithoutTrapping runs the entry in a child: a trap there is an
/// error naming the signal, and this process goes on.
TEST_F(RunnerFixture, TrapsAreReportedNotSuffered) {
  auto module = parseSourceString<ModuleOp>(R"mlir(
func.func @main(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32> {
  %d = gopt.div %x, %y : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  return %d : tensor<4xi32>
}
)mlir",
                                            &context);
  ASSERT_TRUE(module);
  auto graph = CompiledGraph::compile(*module, CompileOptions());
  ASSERT_TRUE(bool(graph)) << llvm::toString(graph.takeError());
  HostTensor x(ElementKind::I32, {4}), ones(ElementKind::I32, {4}),
      zeros(ElementKind::I32, {4});
  for (int i = 0; i < 4; ++i) {
    x.setFromDouble(i, 8);
    ones.setFromDouble(i, 1);
    zeros.setFromDouble(i, 0);
  }
  std::vector<HostTensor> fine;
  fine.push_back(std::move(x));
  fine.push_back(std::move(ones));
  EXPECT_FALSE(bool((*graph)->checkRunsWithoutTrapping(fine)));
  fine[1] = std::move(zeros);
  llvm::Error trapped = (*graph)->checkRunsWithoutTrapping(fine);
  ASSERT_TRUE(bool(trapped));
  EXPECT_NE(llvm::toString(std::move(trapped)).find("signal"),
            std::string::npos);
}

/// A run that does not end in time is killed and reported, not waited for.
TEST_F(RunnerFixture, ARunPastTheTimeLimitIsReported) {
  auto module = parseSourceString<ModuleOp>(R"mlir(
func.func @main(%x: tensor<2048x2048xf32>) -> tensor<2048x2048xf32> {
  %e = gopt.exp %x : tensor<2048x2048xf32>
  %t = gopt.tanh %e : tensor<2048x2048xf32>
  return %t : tensor<2048x2048xf32>
}
)mlir",
                                            &context);
  ASSERT_TRUE(module);
  auto graph = CompiledGraph::compile(*module, CompileOptions());
  ASSERT_TRUE(bool(graph)) << llvm::toString(graph.takeError());
  std::vector<HostTensor> inputs = (*graph)->makeRandomInputs(0);
  // Two passes over 16 MiB cannot end within a microsecond.
  llvm::Error late = (*graph)->checkRunsWithoutTrapping(inputs, 1e-6);
  ASSERT_TRUE(bool(late));
  EXPECT_NE(llvm::toString(std::move(late)).find("did not finish within"),
            std::string::npos);
  // With time enough, the same run passes.
  EXPECT_FALSE(bool((*graph)->checkRunsWithoutTrapping(inputs)));
}
