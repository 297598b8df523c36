//===- ReportTest.cpp - Markdown and HTML reports of a hand-built run -----===//
//
// The report is built by hand (nothing is measured), so every figure the
// writers print is known: the tests check the structure of both outputs and
// the formatting of known numbers, never a timing.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Explore/Report.h"

#include "llvm/ADT/StringRef.h"
#include "gtest/gtest.h"

#include <string>

using namespace mlir;
using namespace mlir::gopt;

namespace {

constexpr size_t kDefault = 5;
constexpr const char *kUserName = "mine<&>";
constexpr const char *kUserPipeline = "builtin.module(gopt-fold{limit=1<2&x})";

/// Adds a configuration and its measurement; the effect starts invalid.
size_t add(ExploreReport &report, std::string name, ConfigurationKind kind,
           std::string pipeline, ConfigurationStatus status = {}) {
  Configuration config;
  config.name = std::move(name);
  config.kind = kind;
  config.pipeline = std::move(pipeline);
  report.configurations.push_back(config);
  ConfigurationMeasurement m;
  m.status = status;
  report.measurements.push_back(m);
  report.analysis.effects.emplace_back();
  report.analysis.kernels.emplace_back();
  return report.configurations.size() - 1;
}

/// Makes configuration `i` valid with the given figures.
void measure(ExploreReport &report, size_t i, double medianMs, double speedup,
             Interval interval, int64_t peakBytes, bool pareto) {
  ConfigurationEffect &effect = report.analysis.effects[i];
  effect.valid = true;
  effect.medianMs = medianMs;
  effect.baselineMs = medianMs * speedup;
  effect.q1Ms = medianMs * 0.95;
  effect.q3Ms = medianMs * 1.05;
  effect.cv = 0.0123;
  effect.speedup = speedup;
  effect.speedupInterval = interval;
  effect.pareto = pareto;
  effect.utility = speedup * 0.9;
  ConfigurationMeasurement &m = report.measurements[i];
  m.runMs = {medianMs * 0.95, medianMs, medianMs * 1.05};
  m.peakBytes = peakBytes;
  m.staticPeakBytes = peakBytes;
  // Held from the system after each run: up at the first, then steady.
  m.waterLevel = {peakBytes, 2 * peakBytes, 2 * peakBytes};
  m.ops = 100 - static_cast<int64_t>(i) * 10;
  m.kernels = 10 - static_cast<int64_t>(i);
  m.graphPassesMs = 1;
  m.loweringMs = 2;
  m.codegenMs = 3;
  effect.compileMs = m.compileMs();
}

/// A run over a baseline, two single passes, both pairs, the default
/// pipeline, a user pipeline that failed to compile and a tuned configuration
/// with wrong outputs; the default pipeline is chosen.
ExploreReport makeReport() {
  ExploreReport report;
  ExploreSetup &setup = report.setup;
  setup.toolVersion = "0.1.0";
  setup.model = "models/a&b.mlir";
  setup.modelHash = "0123abcd";
  setup.entry = "forward";
  setup.target = "cpu-znver4";
  setup.cpuModel = "AMD EPYC 9654";
  setup.cores = 16;
  setup.mode = "default";
  setup.warmup = 2;
  setup.repetitionsPerRound = 10;
  setup.rounds = 3;
  setup.targetRelativeError = 0.02;
  setup.budgetSeconds = 30;
  setup.elapsedSeconds = 12.34;
  setup.rtol = 1e-5;
  setup.atol = 1e-6;
  setup.sharedPrograms = 1;
  setup.cacheDir = "/tmp/gopt-cache";
  setup.cacheHits = 3;
  setup.cacheMisses = 4;

  size_t base = add(report, "baseline", ConfigurationKind::Baseline, "");
  size_t fold = add(report, "fold", ConfigurationKind::Single,
                    "builtin.module(gopt-fold)");
  size_t fuse = add(report, "fuse", ConfigurationKind::Single,
                    "builtin.module(gopt-fuse)");
  size_t foldFuse = add(report, "fold+fuse", ConfigurationKind::Pair,
                        "builtin.module(gopt-fold,gopt-fuse)");
  size_t fuseFold = add(report, "fuse+fold", ConfigurationKind::Pair,
                        "builtin.module(gopt-fuse,gopt-fold)");
  size_t def = add(report, "default", ConfigurationKind::Default,
                   "builtin.module(gopt-optimize)");
  size_t user = add(report, kUserName, ConfigurationKind::User, kUserPipeline,
                    ConfigurationStatus::CompileFailed);
  size_t tuned = add(report, "tuned-1", ConfigurationKind::Tuned,
                     "builtin.module(gopt-fuse)", ConfigurationStatus::Wrong);
  EXPECT_EQ(def, kDefault);

  measure(report, base, 10, 1, {1, 1}, 3 * 1024 * 1024, false);
  measure(report, fold, 8, 1.25, {1.2, 1.3}, 512, false);
  measure(report, fuse, 5, 2, {1.8, 2.2}, int64_t(2) << 30, false);
  measure(report, foldFuse, 4, 2.5, {2.4, 2.6}, 2048, false);
  measure(report, fuseFold, 4.2, 2.1, {2.0, 2.2}, 2048, false);
  measure(report, def, 4, 2.5, {2.4, 2.6}, 1536, true);
  report.measurements[foldFuse].sameProgramAs = "default";

  // Figures of the chosen configuration with known formatting.
  ConfigurationEffect &chosen = report.analysis.effects[def];
  chosen.memorySaving = 0.25;
  chosen.staticMemorySaving = 0.5;
  chosen.breakEvenRequests = 1.125;
  chosen.paybackSeconds = 0.5;
  ConfigurationMeasurement &defMeasurement = report.measurements[def];
  defMeasurement.graphPassesMs = 1;
  defMeasurement.loweringMs = 2.5;
  defMeasurement.codegenMs = 3.25;
  chosen.compileMs = defMeasurement.compileMs();
  report.analysis.effects[fuse].breakEvenRequests = 1234.4;

  report.measurements[user].error =
      "error: 'gopt.fuse' op <bad> & worse\nsecond line of the diagnostic";
  report.measurements[tuned].error =
      "output 0 differs at [3]: " + std::string(150, 'x') + "TAIL";

  EffectAnalysis &analysis = report.analysis;
  analysis.baseline = base;
  PairEffect independent;
  independent.a = fold;
  independent.b = fuse;
  independent.ab = foldFuse;
  independent.speedupA = 1.25;
  independent.speedupB = 2;
  independent.speedupAB = 2.5;
  independent.eta = 1;
  independent.etaInterval = {0.95, 1.05};
  independent.verdict = SynergyVerdict::Independent;
  PairEffect interference = independent;
  interference.a = fuse;
  interference.b = fold;
  interference.ab = fuseFold;
  interference.speedupA = 2;
  interference.speedupB = 1.25;
  interference.speedupAB = 2.1;
  interference.eta = 0.84;
  interference.etaInterval = {0.8, 0.9};
  interference.verdict = SynergyVerdict::Interference;
  analysis.pairs = {independent, interference};

  // Twelve kernels for the chosen configuration, shares rising with index.
  for (int k = 0; k < 12; ++k) {
    KernelEffect kernel;
    kernel.name = "forward_k" + std::to_string(k) + "_matmul";
    kernel.share = 0.01 * (k + 1);
    kernel.msPerRun = 0.1 * (k + 1);
    kernel.amdahlBound = 1 / (1 - kernel.share);
    if (k == 11)
      kernel.speedupOverBaseline = 3;
    analysis.kernels[def].push_back(kernel);
  }

  analysis.alphaTable = {0, 0.01, 1};
  for (double alpha : analysis.alphaTable) {
    std::vector<double> row;
    for (const ConfigurationEffect &effect : analysis.effects)
      row.push_back(effect.valid ? effect.speedup / (1 + alpha) : 0);
    analysis.utilityTable.push_back(row);
  }
  analysis.criteria.alpha = 0.01;
  analysis.choice.index = def;
  analysis.choice.reason = "default has the highest U(0.01) = 2.250.";
  return report;
}

std::string markdown(const ExploreReport &report) {
  std::string text;
  llvm::raw_string_ostream os(text);
  writeExploreMarkdown(report, os);
  return text;
}

std::string html(const ExploreReport &report) {
  std::string text;
  llvm::raw_string_ostream os(text);
  writeExploreHTML(report, os);
  return text;
}

size_t occurrences(llvm::StringRef text, llvm::StringRef needle) {
  return text.count(needle);
}

/// The text from `heading` to the next line starting with "## " (or the
/// end).
llvm::StringRef section(llvm::StringRef text, llvm::StringRef heading) {
  size_t start = text.find(heading);
  if (start == llvm::StringRef::npos)
    return "";
  llvm::StringRef rest = text.drop_front(start + heading.size());
  return rest.take_front(rest.find("\n## "));
}

/// The lines of `text` that start with "|", header and separator included.
std::vector<std::string> tableLines(llvm::StringRef text) {
  std::vector<std::string> lines;
  while (!text.empty()) {
    auto [line, rest] = text.split('\n');
    if (line.starts_with("|"))
      lines.push_back(line.str());
    text = rest;
  }
  return lines;
}

/// The text between the opening of `<table id="...">` and its end.
llvm::StringRef htmlTable(llvm::StringRef text, llvm::StringRef id) {
  size_t start = text.find("<table id=\"" + id.str() + "\">");
  if (start == llvm::StringRef::npos)
    return "";
  llvm::StringRef rest = text.drop_front(start);
  return rest.take_front(rest.find("</table>"));
}

std::string summary(const ExploreReport &report, size_t width = 100) {
  std::string text;
  llvm::raw_string_ostream os(text);
  writeExploreSummary(report, os, width);
  return text;
}

/// Terminal columns of a line (code points: the summary's η, —, ★ and …
/// are one column each).
size_t columnsOf(llvm::StringRef line) {
  size_t n = 0;
  for (char c : line)
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80)
      ++n;
  return n;
}

//===----------------------------------------------------------------------===//
// Markdown
//===----------------------------------------------------------------------===//

TEST(ExploreMarkdownTest, HasEverySection) {
  std::string text = markdown(makeReport());
  EXPECT_TRUE(
      llvm::StringRef(text).starts_with("# gopt-explore: models/a&b.mlir\n"));
  for (const char *heading :
       {"\n## Configurations\n", "\n## Excluded configurations\n",
        "\n## Synergy\n", "\n## Utility U(α)\n", "\n## Amdahl view: default\n",
        "\n## Choice\n"})
    EXPECT_NE(text.find(heading), std::string::npos) << heading;
}

TEST(ExploreMarkdownTest, SetupStatesHowItWasMeasured) {
  std::string text = markdown(makeReport());
  llvm::StringRef setup = section(text, "**Setup:**");
  for (const char *part :
       {"AMD EPYC 9654, 16 cores", "`cpu-znver4`", "`default`",
        "10 repetitions per round × 3 rounds after 2 warmup runs",
        "stop when every relative standard error of the round medians (CV/√rounds) is ≤ 2.0% or after a 30.0 s budget", "rtol 1e-05, atol 1e-06",
        "elapsed 12.3 s",
        "1 configuration shared a program compiled once; compile cache "
        "/tmp/gopt-cache: 3 hits, 4 misses"})
    EXPECT_TRUE(setup.contains(part)) << part;
}

TEST(ExploreMarkdownTest, OneRowPerConfigurationInOrder) {
  ExploreReport report = makeReport();
  std::string text = markdown(report);
  std::vector<std::string> lines =
      tableLines(section(text, "## Configurations"));
  ASSERT_EQ(lines.size(), report.configurations.size() + 2);
  EXPECT_TRUE(llvm::StringRef(lines[1]).starts_with("|---|"));
  for (size_t i = 0; i < report.configurations.size(); ++i) {
    llvm::StringRef row = lines[i + 2];
    // Markdown backslash-escapes '<' outside code.
    std::string name;
    for (char c : report.configurations[i].name)
      name += c == '<' ? std::string("\\<") : std::string(1, c);
    EXPECT_TRUE(row.starts_with("| " + name + " |") ||
                row.starts_with("| " + name + " (same program as ") ||
                row.starts_with("| **" + name + "** (chosen) |"))
        << row.str();
  }
  // The chosen configuration, marked in its row and named in the choice.
  EXPECT_TRUE(llvm::StringRef(lines[kDefault + 2])
                  .starts_with("| **default** (chosen) |"));
  EXPECT_NE(text.find("## Choice\n\nChosen: **default** "
                      "(`builtin.module(gopt-optimize)`).\n\n"
                      "default has the highest U(0.01) = 2.250."),
            std::string::npos);
  EXPECT_NE(lines[3 + 2].find("(same program as default)"), std::string::npos);
}

TEST(ExploreMarkdownTest, FormatsKnownNumbers) {
  ExploreReport report = makeReport();
  std::string text = markdown(report);
  std::vector<std::string> lines =
      tableLines(section(text, "## Configurations"));
  llvm::StringRef baseline = lines[2];
  llvm::StringRef chosen = lines[kDefault + 2];
  for (const char *cell :
       {"| 10.0 [9.50–10.5] |", "| 1.2% |", "| 1.00x [1.00x, 1.00x] |",
        "| 3.0 MiB |", "| — |", "| baseline | — |"})
    EXPECT_TRUE(baseline.contains(cell)) << cell << "\n" << baseline.str();
  for (const char *cell :
       {"| default | `builtin.module(gopt-optimize)` | ok |",
        "| 4.00 [3.80–4.20] |", "| 2.50x [2.40x, 2.60x] |", "| 5 | 50 |",
        "| 1.5 KiB | 25.0% | 1.5 KiB (50.0%) |",
        "| 6.75 (1.00/2.50/3.25) |", "| 1.1 (0.500 s) |", "| 2.250 |",
        "| ★ |"})
    EXPECT_TRUE(chosen.contains(cell)) << cell << "\n" << chosen.str();
  EXPECT_NE(lines[1 + 2].find("| 512 B |"), std::string::npos);
  EXPECT_NE(lines[2 + 2].find("| 2.0 GiB |"), std::string::npos);
  EXPECT_NE(lines[2 + 2].find("| 1235 |"), std::string::npos);
  // Not faster than the baseline: never pays back.
  EXPECT_NE(lines[1 + 2].find("| never |"), std::string::npos);
}

TEST(ExploreMarkdownTest, InvalidConfigurationsAreMarkedAndExcluded) {
  std::string text = markdown(makeReport());
  std::vector<std::string> lines =
      tableLines(section(text, "## Configurations"));
  EXPECT_TRUE(llvm::StringRef(lines[6 + 2])
                  .starts_with("| mine\\<&> | user | "
                               "`builtin.module(gopt-fold{limit=1<2&x})` | "
                               "compile-failed | excluded |"));
  EXPECT_TRUE(llvm::StringRef(lines[7 + 2])
                  .starts_with("| tuned-1 | tuned | "
                               "`builtin.module(gopt-fuse)` | wrong | "
                               "excluded |"));

  llvm::StringRef excluded = section(text, "## Excluded configurations");
  EXPECT_TRUE(excluded.contains(
      "- `mine<&>` (user): **compile-failed** — `error: 'gopt.fuse' op <bad> "
      "& worse` — excluded from the analysis.\n"));
  EXPECT_FALSE(excluded.contains("second line"));
  EXPECT_TRUE(
      excluded.contains("- `tuned-1` (tuned): **wrong** — `output 0 differs"));
  EXPECT_TRUE(excluded.contains("xxx…` — excluded"));
  EXPECT_FALSE(excluded.contains("TAIL"));
  EXPECT_EQ(occurrences(excluded, "excluded from the analysis."), 2u);

  // Not in the tables of the analysis.
  for (const char *heading : {"## Synergy", "## Utility U(α)"}) {
    EXPECT_FALSE(section(text, heading).contains("mine")) << heading;
    EXPECT_FALSE(section(text, heading).contains("tuned-1")) << heading;
  }
}

TEST(ExploreMarkdownTest, SynergyUtilityAndAmdahlTables) {
  ExploreReport report = makeReport();
  std::string text = markdown(report);

  std::vector<std::string> synergy = tableLines(section(text, "## Synergy"));
  ASSERT_EQ(synergy.size(), 2u + 2u);
  EXPECT_EQ(synergy[2],
            "| fold → fuse | 1.25x | 2.00x | 2.50x | 1.000 [0.950, 1.050] | "
            "independent |");
  EXPECT_EQ(synergy[3],
            "| fuse → fold | 2.00x | 1.25x | 2.10x | 0.840 [0.800, 0.900] | "
            "interference |");

  std::vector<std::string> utility =
      tableLines(section(text, "## Utility U(α)"));
  ASSERT_EQ(utility.size(), 6u + 2u);
  EXPECT_EQ(utility[0], "| configuration | α=0 | α=0.01 | α=1 |");
  EXPECT_EQ(utility[2], "| baseline | 1.000 | 0.990 | 0.500 |");
  EXPECT_EQ(utility[5], "| fold+fuse | **2.500** | **2.475** | **1.250** |");

  llvm::StringRef amdahl = section(text, "## Amdahl view: default");
  std::vector<std::string> kernels = tableLines(amdahl);
  ASSERT_EQ(kernels.size(), 10u + 2u);
  // By share, largest first.
  EXPECT_EQ(kernels[2],
            "| `forward_k11_matmul` | 1.20 | 12.0% | 1.14x | 3.00x |");
  EXPECT_EQ(kernels[3], "| `forward_k10_matmul` | 1.10 | 11.0% | 1.12x | — |");
  EXPECT_TRUE(amdahl.contains("\n2 more kernels.\n"));
  EXPECT_FALSE(amdahl.contains("forward_k1_matmul`"));
}

TEST(ExploreMarkdownTest, EmptySectionsSaySo) {
  ExploreReport report = makeReport();
  report.analysis.pairs.clear();
  report.analysis.alphaTable.clear();
  report.analysis.utilityTable.clear();
  report.analysis.kernels[kDefault].clear();
  report.analysis.choice.index.reset();
  std::string text = markdown(report);
  EXPECT_NE(text.find("## Synergy\n\nNo pair measured.\n"), std::string::npos);
  EXPECT_NE(text.find("No utility table."), std::string::npos);
  // No choice: the Amdahl view falls back to the default pipeline.
  EXPECT_NE(text.find("## Amdahl view: default\n\nNo kernel timings for "
                      "`default`."),
            std::string::npos);
  EXPECT_NE(text.find("## Choice\n\nNo configuration chosen."),
            std::string::npos);
  EXPECT_EQ(text.find("(chosen)"), std::string::npos);
}

TEST(ExploreMarkdownTest, AMissingKernelTableSaysWhy) {
  ExploreReport report = makeReport();
  report.analysis.kernels[kDefault].clear();
  report.measurements[kDefault].kernelProfileError =
      "kernel-timer build failed: <bad> *IR*\nnote: more";
  std::string text = markdown(report);
  EXPECT_NE(text.find("No kernel timings for `default`: profiling its kernels "
                      "failed: kernel-timer build failed: \\<bad> *IR*."),
            std::string::npos)
      << text;
  std::string page = html(report);
  EXPECT_NE(page.find("profiling its kernels failed: kernel-timer build "
                      "failed: &lt;bad&gt; *IR*."),
            std::string::npos);
  EXPECT_EQ(page.find("note: more"), std::string::npos);
}

//===----------------------------------------------------------------------===//
// HTML
//===----------------------------------------------------------------------===//

TEST(ExploreHTMLTest, IsSelfContained) {
  std::string text = html(makeReport());
  llvm::StringRef page = text;
  EXPECT_TRUE(page.starts_with("<!DOCTYPE html>\n"));
  EXPECT_TRUE(page.ends_with("</html>\n"));
  EXPECT_TRUE(page.contains("<style>"));
  for (const char *external :
       {"http://", "https://", "<script", "<link", "<img", "url("})
    EXPECT_FALSE(page.contains(external)) << external;
}

TEST(ExploreHTMLTest, HasEverySectionAndSixCharts) {
  std::string text = html(makeReport());
  llvm::StringRef page = text;
  for (const char *heading :
       {"<h1>gopt-explore: models/a&amp;b.mlir</h1>", "<h2>Configurations</h2>",
        "<h2>Excluded configurations</h2>", "<h2>Synergy</h2>",
        "<h2>Utility U(α)</h2>", "<h2>Amdahl view: default</h2>",
        "<h2>Latency distribution</h2>", "<h2>Water level</h2>",
        "<h2>Choice</h2>"})
    EXPECT_TRUE(page.contains(heading)) << heading;
  EXPECT_EQ(occurrences(page, "<svg"), 6u);
  EXPECT_EQ(occurrences(page, "</svg>"), 6u);
  for (const char *id :
       {"pareto-chart", "synergy-chart", "waterfall-chart", "amdahl-chart",
        "latency-cdf-chart", "water-level-chart"})
    EXPECT_TRUE(page.contains("<figure id=\"" + std::string(id) + "\">\n<svg"))
        << id;
  // Every figure states the machine, the repetitions and the spread.
  EXPECT_EQ(occurrences(page, "<figcaption>"), 6u);
  EXPECT_EQ(occurrences(page,
                        "Measured on AMD EPYC 9654, 16 cores (cpu-znver4), 10 "
                        "repetitions per round × 3 rounds after 2 warmup "
                        "runs; spread: "),
            6u);
  // The latency CDF: one curve per distinct program, with the p99 line.
  EXPECT_GE(occurrences(page, "<polyline class=\"cdf\""), 1u);
  EXPECT_TRUE(page.contains(">p99</text>"));
  EXPECT_TRUE(page.contains("run-time CV 1.2%–1.2%."));
  // The water level: one curve per distinct program, its last value in the
  // tooltip.
  EXPECT_TRUE(page.contains("after 3 runs</title></polyline>"));
}

TEST(ExploreHTMLTest, OneRowPerConfigurationAndExcludedMarked) {
  ExploreReport report = makeReport();
  std::string text = html(report);
  llvm::StringRef table = htmlTable(text, "configurations");
  ASSERT_FALSE(table.empty());
  EXPECT_EQ(occurrences(table, "<tr"), report.configurations.size() + 1);
  EXPECT_EQ(occurrences(table, "<tr class=\"excluded\">"), 2u);
  EXPECT_EQ(occurrences(table,
                        "<tr class=\"chosen\"><td><strong>default</strong> "
                        "(chosen)</td>"),
            1u);
  EXPECT_TRUE(table.contains(
      "<td>compile-failed</td><td colspan=\"12\">excluded</td></tr>"));
  EXPECT_TRUE(
      table.contains("<td>wrong</td><td colspan=\"12\">excluded</td></tr>"));
  EXPECT_TRUE(llvm::StringRef(text).contains(
      "<p id=\"choice\">Chosen: <strong>default</strong> "
      "(<code>builtin.module(gopt-optimize)</code>).</p>"));
  // Excluded configurations are not plotted or tabled in the analysis.
  EXPECT_FALSE(htmlTable(text, "utility").contains("mine"));
  size_t charts = text.find("<figure id=\"pareto-chart\">");
  ASSERT_NE(charts, std::string::npos);
  llvm::StringRef pareto = llvm::StringRef(text).drop_front(charts);
  pareto = pareto.take_front(pareto.find("</figure>"));
  EXPECT_FALSE(pareto.contains("mine"));
  EXPECT_FALSE(pareto.contains("tuned-1"));
  // Pareto points filled, dominated ones hollow.
  EXPECT_EQ(occurrences(pareto, "<circle class=\"pareto\""), 1u);
  EXPECT_EQ(occurrences(pareto, "<circle class=\"dominated\""), 5u);
}

TEST(ExploreHTMLTest, EscapesNamesAndPipelines) {
  std::string text = html(makeReport());
  llvm::StringRef page = text;
  EXPECT_FALSE(page.contains(kUserName));
  EXPECT_FALSE(page.contains(kUserPipeline));
  EXPECT_FALSE(page.contains("<bad>"));
  EXPECT_TRUE(page.contains("<td>mine&lt;&amp;&gt;</td>"));
  EXPECT_TRUE(page.contains(
      "<code>builtin.module(gopt-fold{limit=1&lt;2&amp;x})</code>"));
  EXPECT_TRUE(page.contains("&lt;bad&gt; &amp; worse"));
}

TEST(ExploreHTMLTest, FormatsKnownNumbers) {
  std::string text = html(makeReport());
  llvm::StringRef table = htmlTable(text, "configurations");
  for (const char *cell :
       {"<td class=\"num\">10.0 [9.50–10.5]</td>",
        "<td class=\"num\">2.50x [2.40x, 2.60x]</td>",
        "<td class=\"num\">3.0 MiB</td>", "<td class=\"num\">512 B</td>",
        "<td class=\"num\">2.0 GiB</td>",
        "<td class=\"num\">1.5 KiB</td><td class=\"num\">25.0%</td>",
        "<td class=\"num\">6.75 (1.00/2.50/3.25)</td>",
        "<td class=\"num\">1.1 (0.500 s)</td>"})
    EXPECT_TRUE(table.contains(cell)) << cell;
  llvm::StringRef synergy = htmlTable(text, "synergy");
  EXPECT_TRUE(synergy.contains("<td>fuse → fold</td><td class=\"num\">2.00x"
                               "</td><td class=\"num\">1.25x</td><td "
                               "class=\"num\">2.10x</td><td class=\"num\">"
                               "0.840 [0.800, 0.900]</td><td>interference"
                               "</td>"));
  // The heat map: an interference cell in blue, an independent one grey,
  // each with its eta.
  size_t start = text.find("<figure id=\"synergy-chart\">");
  ASSERT_NE(start, std::string::npos);
  llvm::StringRef heat = llvm::StringRef(text).drop_front(start);
  heat = heat.take_front(heat.find("</figure>"));
  EXPECT_EQ(occurrences(heat, "<rect class=\"cell\""), 2u);
  EXPECT_TRUE(heat.contains("fill=\"#d0d0d0\"><title>fold → fuse: η 1.000"));
  EXPECT_TRUE(heat.contains(">0.840</text>"));
  EXPECT_TRUE(heat.contains(">1.000</text>"));
  // Amdahl bars: ten kernels, the rest counted.
  start = text.find("<figure id=\"amdahl-chart\">");
  ASSERT_NE(start, std::string::npos);
  llvm::StringRef amdahl = llvm::StringRef(text).drop_front(start);
  amdahl = amdahl.take_front(amdahl.find("</figure>"));
  EXPECT_EQ(occurrences(amdahl, "<rect class=\"share\""), 10u);
  EXPECT_TRUE(amdahl.contains(">f 12.0%, bound 1.14x, 1.20 ms</text>"));
  EXPECT_TRUE(amdahl.contains("2 more kernels not shown."));
}

TEST(ExploreHTMLTest, EmptyChartsRenderANote) {
  ExploreReport report = makeReport();
  report.analysis.pairs.clear();
  report.analysis.kernels[kDefault].clear();
  std::string text = html(report);
  llvm::StringRef page = text;
  // Pareto, waterfall, latency CDF and water level still have data.
  EXPECT_EQ(occurrences(page, "<svg"), 4u);
  EXPECT_TRUE(page.contains("<p class=\"note\">No pair measured.</p>"));
  EXPECT_TRUE(page.contains("<figure id=\"synergy-chart\">\n<p class=\"note\">"
                            "No pair measured.</p>"));
  EXPECT_TRUE(page.contains("<figure id=\"amdahl-chart\">\n<p class=\"note\">"
                            "No kernel timings for default.</p>"));

  ExploreReport nothing;
  nothing.setup.model = "empty.mlir";
  text = html(nothing);
  page = text;
  EXPECT_EQ(occurrences(page, "<svg"), 0u);
  EXPECT_EQ(occurrences(page, "<figure"), 0u);
  EXPECT_TRUE(page.contains("No configuration measured."));
  EXPECT_TRUE(page.ends_with("</html>\n"));
  EXPECT_NE(markdown(nothing).find("No configuration measured."),
            std::string::npos);
}

} // namespace

//===----------------------------------------------------------------------===//
// Terminal summary
//===----------------------------------------------------------------------===//

TEST(ExploreSummaryTest, EveryLineFitsTheWidth) {
  // Long names, a long pipeline, a 150-character error and a long reason.
  ExploreReport report = makeReport();
  report.setup.model = "/a/very/long/path/" + std::string(120, 'm') + ".onnx";
  report.analysis.choice.reason = std::string(40, 'w') + " " +
                                  std::string(300, 'r') + " and " +
                                  std::string(50, 'z');
  for (size_t width : {100, 80}) {
    llvm::StringRef text = summary(report, width);
    while (!text.empty()) {
      auto [line, rest] = text.split('\n');
      EXPECT_LE(columnsOf(line), width) << "'" << line.str() << "'";
      text = rest;
    }
  }
}

TEST(ExploreSummaryTest, RowsPairsAndChoice) {
  std::string text = summary(makeReport());
  // Setup: model and entry, machine, rounds and where the time went.
  EXPECT_NE(text.find("gopt-explore: models/a&b.mlir, @forward"),
            std::string::npos);
  EXPECT_NE(text.find("AMD EPYC 9654, 16 cores, target cpu-znver4"),
            std::string::npos);
  EXPECT_NE(text.find("3 rounds of at least 10 runs each; elapsed 12.3 s"),
            std::string::npos);
  // One row per configuration, in order; the shared program named; the
  // chosen one marked; excluded ones with their status and first line.
  size_t baseline = text.find("\nbaseline ");
  size_t fold = text.find("\nfold ");
  size_t shared = text.find("\nfold+fuse (=default) ");
  size_t chosen = text.find("\ndefault ");
  EXPECT_LT(baseline, fold);
  EXPECT_LT(fold, shared);
  EXPECT_LT(shared, chosen);
  EXPECT_NE(chosen, std::string::npos);
  llvm::StringRef chosenRow =
      llvm::StringRef(text).drop_front(chosen + 1).split('\n').first;
  EXPECT_TRUE(chosenRow.contains("2.50x [2.40x, 2.60x]")) << chosenRow.str();
  EXPECT_TRUE(chosenRow.contains(" *")) << chosenRow.str();
  EXPECT_NE(text.find("compile-failed: error: 'gopt.fuse' op <bad> & worse"),
            std::string::npos);
  EXPECT_EQ(text.find("second line of the diagnostic"), std::string::npos);
  EXPECT_NE(text.find("\ntuned-1 "), std::string::npos);
  // Only the pair whose interval excludes 1, with how many are not shown.
  EXPECT_NE(text.find("(the other one is independent"),
            std::string::npos);
  EXPECT_NE(text.find("fuse → fold"), std::string::npos);
  EXPECT_NE(text.find("η 0.840 [0.800, 0.900]  interference"),
            std::string::npos);
  EXPECT_EQ(text.find("fold → fuse"), std::string::npos);
  // The choice and its reason.
  EXPECT_NE(text.find("Choice: default (builtin.module(gopt-optimize))\n"
                      "  default has the highest U(0.01) = 2.250."),
            std::string::npos);
}

TEST(ExploreSummaryTest, AWideIntervalIsShownWhole) {
  // Two noisy runs on a busy machine: the interval spans two orders of
  // magnitude and still fits its column, both bounds readable.
  ExploreReport report = makeReport();
  for (size_t i = 0; i < report.configurations.size(); ++i)
    if (report.configurations[i].name == "default") {
      report.analysis.effects[i].speedup = 43.66;
      report.analysis.effects[i].speedupInterval.low = 8.22;
      report.analysis.effects[i].speedupInterval.high = 130.26;
    }
  std::string text = summary(report);
  size_t row = text.find("\ndefault ");
  ASSERT_NE(row, std::string::npos);
  llvm::StringRef line =
      llvm::StringRef(text).drop_front(row + 1).split('\n').first;
  EXPECT_TRUE(line.contains("43.7x [8.22x, 130x]")) << line.str();
  EXPECT_FALSE(line.contains("…")) << line.str();
}

TEST(ExploreSummaryTest, AllPairsIndependentIsSaid) {
  ExploreReport report = makeReport();
  report.analysis.pairs.pop_back();
  std::string text = summary(report);
  EXPECT_NE(text.find("Synergy: the one ordered pair is independent within "
                      "the noise"),
            std::string::npos);
}

TEST(ExploreHTMLTest, ParetoLabelsDoNotOverlap) {
  // Twelve configurations on nearly one point (as passes that change
  // nothing measurable are), two sharing a program: every label is placed
  // where no other label is (boxes estimated as the writer estimates them:
  // 6.2 px a character, 13 px a line), and the shared one joins its owner's.
  ExploreReport report;
  size_t base = add(report, "baseline", ConfigurationKind::Baseline, "");
  measure(report, base, 10, 1, {1, 1}, 1024, false);
  for (int k = 0; k < 12; ++k) {
    size_t i = add(report, "configuration-" + std::to_string(k),
                   ConfigurationKind::Single, "builtin.module(gopt-fold)");
    measure(report, i, 5, 2 + 0.001 * k, {1.9, 2.1}, 1024, k == 0);
    report.analysis.effects[i].compileMs = 100 + k;
  }
  report.measurements.back().sameProgramAs = "configuration-10";
  report.analysis.baseline = base;
  std::string text = html(report);
  size_t start = text.find("<svg");
  llvm::StringRef chart =
      llvm::StringRef(text).slice(start, text.find("</svg>", start));
  struct Box {
    double x, y, w, h;
    std::string label;
  };
  std::vector<Box> boxes;
  while (true) {
    size_t at = chart.find("<text x=\"");
    if (at == llvm::StringRef::npos)
      break;
    chart = chart.drop_front(at);
    double x = 0, y = 0;
    llvm::StringRef rest = chart.drop_front(9);
    rest.take_until([](char c) { return c == '"'; }).getAsDouble(x);
    rest = rest.drop_front(rest.find("y=\"") + 3);
    rest.take_until([](char c) { return c == '"'; }).getAsDouble(y);
    llvm::StringRef content =
        chart.drop_front(chart.find('>') + 1).take_until(
            [](char c) { return c == '<'; });
    chart = chart.drop_front(1);
    if (!content.starts_with("configuration-") && content != "baseline")
      continue; // axis ticks and titles
    boxes.push_back({x, y - 10, 6.2 * columnsOf(content), 13, content.str()});
  }
  ASSERT_EQ(boxes.size(), 12u); // 13 configurations, two on one label
  bool joined = llvm::any_of(boxes, [](const Box &b) {
    return b.label == "configuration-10 = configuration-11";
  });
  EXPECT_TRUE(joined);
  for (size_t a = 0; a < boxes.size(); ++a)
    for (size_t b = a + 1; b < boxes.size(); ++b) {
      bool overlap = boxes[a].x < boxes[b].x + boxes[b].w &&
                     boxes[b].x < boxes[a].x + boxes[a].w &&
                     boxes[a].y < boxes[b].y + boxes[b].h &&
                     boxes[b].y < boxes[a].y + boxes[a].h;
      EXPECT_FALSE(overlap) << boxes[a].label << " and " << boxes[b].label;
    }
}

TEST(ExploreSummaryTest, AUnitStaysWithItsNumber) {
  // The reason's line is full after "5": the unit moves with it.
  ExploreReport report = makeReport();
  report.analysis.choice.reason = std::string(96, 'a') + " 5 ms more.";
  std::string text = summary(report);
  EXPECT_NE(text.find("\n  5 ms more."), std::string::npos) << text;
  EXPECT_EQ(text.find("\n  ms more."), std::string::npos);
}
