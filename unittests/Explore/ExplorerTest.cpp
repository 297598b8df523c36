//===- ExplorerTest.cpp - The exploration driver, on injected measurements ===//
//
// A scripted backend stands in for the JIT: per configuration it says how
// compiling goes, what the outputs are and what each timed run takes, so the
// driver's decisions (what is excluded, shared, measured, when it stops) are
// checked without timing anything.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Explore/Explorer.h"
#include "GOpt/InitAllPasses.h"

#include "gtest/gtest.h"

#include <map>

using namespace mlir;
using namespace mlir::gopt;

namespace {

struct Script {
  /// Run time of every timed run, ms.
  double ms = 10;
  /// Output value (the baseline's is 1).
  float output = 1;
  bool compileFails = false;
  bool runFails = false;
  std::string sameProgramAs;
  int64_t peakBytes = 1000;
  bool profileFails = false;
  int64_t kernels = 4;
};

class ScriptedBackend : public ExploreBackend {
public:
  std::map<std::string, Script> scripts;
  std::vector<std::string> names;
  std::vector<std::string> measuredOrder;
  std::map<std::string, int> warmups;
  std::vector<std::string> profiled;
  /// After this many measure calls every run takes twice as long (the
  /// machine got busy); -1: never.
  int slowAfter = -1;

  const Script &scriptOf(size_t index) {
    static Script defaults;
    auto it = scripts.find(names[index]);
    return it == scripts.end() ? defaults : it->second;
  }
  llvm::Error compile(size_t index, const Configuration &config,
                      ConfigurationMeasurement &m) override {
    if (names.size() <= index)
      names.resize(index + 1);
    names[index] = config.name;
    const Script &s = scriptOf(index);
    if (s.compileFails)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "scripted compile failure");
    m.graphPassesMs = 1;
    m.loweringMs = 2;
    m.codegenMs = 3;
    m.kernels = s.kernels;
    m.ops = 5;
    m.staticPeakBytes = 600;
    m.sameProgramAs = s.sameProgramAs;
    return llvm::Error::success();
  }
  llvm::Expected<std::vector<HostTensor>> runOnce(size_t index) override {
    const Script &s = scriptOf(index);
    if (s.runFails)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "scripted run failure");
    HostTensor t(ElementKind::F32, {1});
    t.setFromDouble(0, s.output);
    std::vector<HostTensor> out;
    out.push_back(std::move(t));
    return out;
  }
  llvm::Error measure(size_t index, int warmup, int repetitions,
                      ConfigurationMeasurement &m) override {
    measuredOrder.push_back(names[index]);
    warmups[names[index]] += warmup;
    const Script &s = scriptOf(index);
    bool slow = slowAfter >= 0 &&
                static_cast<int>(measuredOrder.size()) > slowAfter;
    for (int r = 0; r < repetitions; ++r)
      m.runMs.push_back(slow ? 2 * s.ms : s.ms);
    m.peakBytes = s.peakBytes;
    return llvm::Error::success();
  }
  llvm::Error profileKernels(size_t index, const Configuration &,
                             int, int,
                             ConfigurationMeasurement &m) override {
    profiled.push_back(names[index]);
    if (scriptOf(index).profileFails)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "scripted profile failure\nsecond line");
    m.kernelTimes = {{"main_k0_exp", 1.0, 1.0}};
    return llvm::Error::success();
  }
  std::string getTarget() const override { return "scripted"; }
  std::string getEntry() const override { return "main"; }
};

class ExplorerTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() { gopt::registerAllPasses(); }
  ExploreOptions options() {
    ExploreOptions o;
    o.passes = {"fold", "fuse"};
    o.warmup = 1;
    o.repetitionsPerRound = 3;
    o.roundMilliseconds = 0;
    o.minRounds = 2;
    o.maxRounds = 5;
    o.budgetSeconds = 1000;
    return o;
  }
  const ConfigurationMeasurement &find(const ExploreReport &report,
                                       llvm::StringRef name) {
    for (auto [i, c] : llvm::enumerate(report.configurations))
      if (c.name == name)
        return report.measurements[i];
    ADD_FAILURE() << "no configuration " << name.str();
    return report.measurements.front();
  }
};

} // namespace

TEST_F(ExplorerTest, ConfigurationsCoverSinglesOrderedPairsAndDefault) {
  ExploreOptions o = options();
  o.userPipelines = {{"mine", "builtin.module(gopt-fuse,gopt-dce)"}};
  auto configs = buildConfigurations(o);
  ASSERT_TRUE(static_cast<bool>(configs)) << llvm::toString(configs.takeError());
  std::vector<std::string> names;
  for (const Configuration &c : *configs)
    names.push_back(c.name);
  EXPECT_EQ(names, (std::vector<std::string>{"baseline", "fold", "fuse",
                                             "fold+fuse", "fuse+fold",
                                             "default", "mine"}));
  EXPECT_EQ((*configs)[0].kind, ConfigurationKind::Baseline);
  EXPECT_EQ((*configs)[0].pipeline, "");
  EXPECT_EQ((*configs)[3].pipeline, "builtin.module(gopt-fold,gopt-fuse)");
  EXPECT_EQ((*configs)[5].pipeline, "builtin.module(gopt-optimize)");
  EXPECT_EQ((*configs)[6].kind, ConfigurationKind::User);
}

TEST_F(ExplorerTest, PassElementsWithOptionsAreAccepted) {
  ExploreOptions o = options();
  o.passes = {"gopt-fuse{max-group-size=8}", "cse"};
  auto configs = buildConfigurations(o);
  ASSERT_TRUE(static_cast<bool>(configs)) << llvm::toString(configs.takeError());
  EXPECT_EQ((*configs)[1].pipeline,
            "builtin.module(gopt-fuse{max-group-size=8})");
}

TEST_F(ExplorerTest, BadPassSetsAreErrors) {
  ExploreOptions o = options();
  o.passes = {};
  auto empty = buildConfigurations(o);
  ASSERT_FALSE(static_cast<bool>(empty));
  EXPECT_NE(llvm::toString(empty.takeError()).find("empty"), std::string::npos);

  o.passes = {"fold", "frobnicate"};
  auto unknown = buildConfigurations(o);
  ASSERT_FALSE(static_cast<bool>(unknown));
  EXPECT_NE(llvm::toString(unknown.takeError()).find("unknown pass 'frobnicate'"),
            std::string::npos);

  o.passes = {"fold", "fold"};
  auto twice = buildConfigurations(o);
  ASSERT_FALSE(static_cast<bool>(twice));
  EXPECT_NE(llvm::toString(twice.takeError()).find("twice"), std::string::npos);

  o.passes = {"fold"};
  o.userPipelines = {{"fold", "builtin.module(gopt-fold)"}};
  auto clash = buildConfigurations(o);
  ASSERT_FALSE(static_cast<bool>(clash));
  consumeError(clash.takeError());
}

TEST_F(ExplorerTest, FailuresAndMiscompilesAreReportedAndExcluded) {
  ScriptedBackend backend;
  backend.scripts["baseline"] = {10};
  backend.scripts["fold"] = {8};
  backend.scripts["fuse"] = {5};
  backend.scripts["fold+fuse"] = {4, /*output=*/2};   // wrong
  backend.scripts["fuse+fold"] = {4, 1, /*compileFails=*/true};
  backend.scripts["default"] = {4, 1, false, /*runFails=*/true};
  auto report = explore(backend, options());
  ASSERT_TRUE(static_cast<bool>(report)) << llvm::toString(report.takeError());

  EXPECT_EQ(find(*report, "fold+fuse").status, ConfigurationStatus::Wrong);
  EXPECT_NE(find(*report, "fold+fuse").error.find("output #0"),
            std::string::npos);
  EXPECT_EQ(find(*report, "fuse+fold").status,
            ConfigurationStatus::CompileFailed);
  EXPECT_EQ(find(*report, "default").status, ConfigurationStatus::RunFailed);
  for (const std::string &name : backend.measuredOrder)
    EXPECT_TRUE(name == "baseline" || name == "fold" || name == "fuse")
        << name << " was timed";

  const EffectAnalysis &a = report->analysis;
  ASSERT_EQ(a.effects.size(), report->configurations.size());
  EXPECT_NEAR(a.effects[1].speedup, 10.0 / 8.0, 1e-12);
  EXPECT_NEAR(a.effects[2].speedup, 2.0, 1e-12);
  EXPECT_FALSE(a.effects[3].valid);
  ASSERT_TRUE(a.choice.index.has_value());
  EXPECT_EQ(report->configurations[*a.choice.index].name, "fuse");
}

TEST_F(ExplorerTest, RoundsInterleaveAndStopWhenSettled) {
  ScriptedBackend backend;
  ExploreOptions o = options();
  o.pairs = false;
  o.defaultPipeline = false;
  auto report = explore(backend, o);
  ASSERT_TRUE(static_cast<bool>(report)) << llvm::toString(report.takeError());
  // Constant run times have CV 0: settled after the minimum rounds.
  EXPECT_EQ(report->setup.rounds, 2);
  EXPECT_EQ(backend.measuredOrder,
            (std::vector<std::string>{"baseline", "fold", "fuse", "fold",
                                      "fuse", "baseline"}));
  // Warm-up runs only before a configuration's first round.
  EXPECT_EQ(backend.warmups["fold"], 1);
  EXPECT_EQ(find(*report, "fold").runMs.size(), 6u);
  // Each round's runs are recorded as one block for the bootstrap.
  EXPECT_EQ(find(*report, "fold").roundSizes, (std::vector<size_t>{3, 3}));
  EXPECT_EQ(find(*report, "baseline").roundSizes,
            (std::vector<size_t>{3, 3}));
}

TEST_F(ExplorerTest, SharedProgramsTakeTheFiguresOfTheOneTheyShare) {
  ScriptedBackend backend;
  backend.scripts["baseline"] = {10};
  backend.scripts["fold"] = {10, 1, false, false, "baseline"};
  ExploreOptions o = options();
  o.pairs = false;
  auto report = explore(backend, o);
  ASSERT_TRUE(static_cast<bool>(report)) << llvm::toString(report.takeError());
  for (const std::string &name : backend.measuredOrder)
    EXPECT_NE(name, "fold");
  const ConfigurationMeasurement &fold = find(*report, "fold");
  EXPECT_EQ(fold.sameProgramAs, "baseline");
  EXPECT_EQ(fold.runMs, find(*report, "baseline").runMs);
  EXPECT_EQ(report->setup.sharedPrograms, 1);
}

TEST_F(ExplorerTest, VerifyModeTimesNothing) {
  ScriptedBackend backend;
  backend.scripts["fuse"] = {10, /*output=*/3};
  ExploreOptions o = options();
  o.mode = ExploreMode::Verify;
  auto report = explore(backend, o);
  ASSERT_TRUE(static_cast<bool>(report)) << llvm::toString(report.takeError());
  EXPECT_TRUE(backend.measuredOrder.empty());
  EXPECT_TRUE(report->analysis.effects.empty());
  EXPECT_EQ(find(*report, "fuse").status, ConfigurationStatus::Wrong);
  EXPECT_EQ(find(*report, "fold").status, ConfigurationStatus::Ok);
}

TEST_F(ExplorerTest, ABaselineThatFailsStopsTheRun) {
  ScriptedBackend backend;
  backend.scripts["baseline"] = {10, 1, /*compileFails=*/true};
  auto report = explore(backend, options());
  ASSERT_FALSE(static_cast<bool>(report));
  std::string message = llvm::toString(report.takeError());
  EXPECT_NE(message.find("baseline"), std::string::npos);
  EXPECT_NE(message.find("scripted compile failure"), std::string::npos);
}

// A baseline that fails because the user interrupted (Ctrl-C also reaches
// the forked check run) is reported as the interrupt, not as a failure.
TEST_F(ExplorerTest, AnInterruptBeforeTheBaselineIsNotAFailure) {
  ScriptedBackend backend;
  backend.scripts["baseline"] = {10, 1, /*compileFails=*/false,
                                 /*runFails=*/true};
  std::atomic<bool> interrupted{true};
  ExploreOptions o = options();
  o.interrupted = &interrupted;
  auto report = explore(backend, o);
  ASSERT_FALSE(static_cast<bool>(report));
  EXPECT_EQ(llvm::toString(report.takeError()),
            kInterruptedBeforeBaseline.str());
}

TEST_F(ExplorerTest, AutotuneProposesOrdersSubsetsAndOptions) {
  ScriptedBackend backend;
  ExploreOptions o = options();
  o.passes = {"fold", "dce", "cse", "fuse"};
  o.pairs = false;
  o.mode = ExploreMode::Autotune;
  auto report = explore(backend, o);
  ASSERT_TRUE(static_cast<bool>(report)) << llvm::toString(report.takeError());
  int tuned = 0, pruned = 0;
  for (auto [i, c] : llvm::enumerate(report->configurations)) {
    if (c.kind != ConfigurationKind::Tuned)
      continue;
    ++tuned;
    if (report->measurements[i].status == ConfigurationStatus::Skipped)
      ++pruned;
  }
  // 4! orders, 4 subsets of three, 2 fusion-group sizes.
  EXPECT_EQ(tuned, 24 + 4 + 2);
  // Every scripted configuration looks the same statically and compiles in
  // the same time, so all proposals are dominated by what was measured.
  EXPECT_EQ(pruned, tuned);
}

TEST_F(ExplorerTest, AFailedKernelProfileIsANoteNotAVerdict) {
  ScriptedBackend backend;
  backend.scripts["baseline"] = {10};
  backend.scripts["baseline"].profileFails = true;
  // fold compiles to the baseline's program: it shares the failure too.
  backend.scripts["fold"] = {10, 1, false, false, "baseline"};
  backend.scripts["fuse"] = {5};
  backend.scripts["default"] = {4};
  ExploreOptions o = options();
  o.pairs = false;
  auto report = explore(backend, o);
  ASSERT_TRUE(static_cast<bool>(report)) << llvm::toString(report.takeError());
  // The baseline first, then the choice and the default pipeline.
  ASSERT_FALSE(backend.profiled.empty());
  EXPECT_EQ(backend.profiled.front(), "baseline");
  EXPECT_NE(llvm::find(backend.profiled, "default"), backend.profiled.end());
  const ConfigurationMeasurement &baseline = find(*report, "baseline");
  EXPECT_EQ(baseline.status, ConfigurationStatus::Ok);
  EXPECT_TRUE(baseline.kernelTimes.empty());
  EXPECT_EQ(baseline.kernelProfileError,
            "scripted profile failure\nsecond line");
  EXPECT_EQ(find(*report, "fold").kernelProfileError,
            baseline.kernelProfileError);
  const ConfigurationMeasurement &chosen = find(*report, "default");
  EXPECT_EQ(chosen.kernelTimes.size(), 1u);
  EXPECT_TRUE(chosen.kernelProfileError.empty());
}

TEST_F(ExplorerTest, AutotuneTimesTheBaselineAgainBesideItsProposals) {
  ScriptedBackend backend;
  backend.scripts["baseline"] = {10};
  backend.scripts["fold"] = {8};
  backend.scripts["fuse"] = {8};
  backend.scripts["default"] = {8};
  // Fewer kernels than anything measured: not pruned, so it is timed.
  Script proposal{5};
  proposal.kernels = 3;
  backend.scripts["tuned:default{max-group-size=4}"] = proposal;
  ExploreOptions o = options();
  o.pairs = false;
  o.mode = ExploreMode::Autotune;
  // The main rounds: 4 configurations x 2 rounds; then the machine slows.
  backend.slowAfter = 8;
  auto report = explore(backend, o);
  ASSERT_TRUE(static_cast<bool>(report)) << llvm::toString(report.takeError());
  const ConfigurationMeasurement &baseline = find(*report, "baseline");
  const ConfigurationMeasurement &tuned =
      find(*report, "tuned:default{max-group-size=4}");
  ASSERT_EQ(tuned.status, ConfigurationStatus::Ok);
  // The proposal's rounds come after the main two, and the baseline was in
  // every one of them (the slowdown unsettles the baseline's round medians,
  // so they run to --max-rounds).
  EXPECT_EQ(find(*report, "fold").roundIds, (std::vector<int64_t>{0, 1}));
  ASSERT_FALSE(tuned.roundIds.empty());
  EXPECT_EQ(tuned.roundIds.front(), 2);
  std::vector<int64_t> expected = {0, 1};
  expected.insert(expected.end(), tuned.roundIds.begin(),
                  tuned.roundIds.end());
  EXPECT_EQ(baseline.roundIds, expected);
  // Each S compares runs of the same rounds: 20 / 10 for the proposal (both
  // slowed), 10 / 8 for fold; the baseline's pooled median (15) would give
  // neither.
  const EffectAnalysis &a = report->analysis;
  size_t tunedIndex = report->configurations.size() - 2;
  ASSERT_EQ(report->configurations[tunedIndex].name,
            "tuned:default{max-group-size=4}");
  EXPECT_DOUBLE_EQ(a.effects[tunedIndex].baselineMs, 20);
  EXPECT_DOUBLE_EQ(a.effects[tunedIndex].speedup, 2);
  EXPECT_DOUBLE_EQ(a.effects[1].speedup, 10.0 / 8.0);
  EXPECT_DOUBLE_EQ(a.effects[tunedIndex].speedupInterval.low, 2);
  EXPECT_DOUBLE_EQ(a.effects[tunedIndex].speedupInterval.high, 2);
}
