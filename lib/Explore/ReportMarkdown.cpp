//===- ReportMarkdown.cpp - gopt-explore's Markdown summary ---------------===//
//
// The summary for terminals and pull requests: how the figures were measured,
// one table row per configuration, the excluded configurations, the synergy
// and utility tables, the Amdahl view of the chosen configuration and the
// choice. Every number is read from the report; nothing is measured or
// derived here.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Explore/Report.h"

#include "ReportFormat.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::gopt;
using namespace mlir::gopt::report_detail;

/// Writes one table row from cells already safe in a table.
static void writeRow(llvm::raw_ostream &os, llvm::ArrayRef<std::string> cells) {
  os << "|";
  for (const std::string &cell : cells)
    os << " " << cell << " |";
  os << "\n";
}

/// Writes a table header and its separator; the columns whose letter in
/// `align` is 'r' (numbers) align right.
static void writeHeader(llvm::raw_ostream &os,
                        llvm::ArrayRef<std::string> cells,
                        llvm::StringRef align) {
  writeRow(os, cells);
  os << "|";
  for (size_t i = 0, e = cells.size(); i < e; ++i)
    os << (i < align.size() && align[i] == 'r' ? "---:|" : "---|");
  os << "\n";
}

/// Title, model and the measurement setup.
static void writeSetup(const ExploreReport &report, llvm::raw_ostream &os) {
  const ExploreSetup &setup = report.setup;
  os << "# gopt-explore: " << escapeMarkdownText(setup.model) << "\n\n";
  os << "Model " << markdownCode(setup.model);
  if (!setup.modelHash.empty())
    os << " (IR hash " << markdownCode(setup.modelHash) << ")";
  if (!setup.entry.empty())
    os << ", entry " << markdownCode("@" + setup.entry);
  if (!setup.toolVersion.empty())
    os << ", gopt-explore " << setup.toolVersion;
  os << ".\n\n";

  os << "**Setup:** " << describeMachine(setup) << ", target "
     << markdownCode(setup.target) << ", mode " << markdownCode(setup.mode)
     << "; " << describeTiming(setup, isTimed(report)) << "; tolerances "
     << llvm::format("rtol %g, atol %g", setup.rtol, setup.atol) << "; elapsed "
     << describeElapsed(setup) << "; "
     << escapeMarkdownText(describeCache(setup)) << ".\n\n";
  if (setup.interrupted)
    os << "**Interrupted** (Ctrl-C): the figures cover only the rounds and "
          "configurations measured before it.\n\n";
  if (!isTimed(report))
    return;

  os << "Run times are medians over every timed repetition with their q1–q3 "
        "spread; S = T_base / T_opt, the geometric mean over the "
        "rounds both were timed in, with its 95% interval (Student-t over "
        "those rounds); U at "
     << llvm::format("α = %g", report.analysis.criteria.alpha);
  if (report.analysis.criteria.qps > 0)
    os << llvm::format(", payback at %g requests/s",
                       report.analysis.criteria.qps);
  if (report.analysis.criteria.memoryLimitBytes > 0)
    os << ", memory limit "
       << formatBytes(report.analysis.criteria.memoryLimitBytes);
  if (report.analysis.criteria.p99BoundMs > 0)
    os << ", p99 bound " << formatMs(report.analysis.criteria.p99BoundMs)
       << " ms";
  os << ".\n\n";
}

/// One row per configuration, in the given order; invalid ones show their
/// status and "excluded" in place of figures.
static void writeConfigurations(const ExploreReport &report,
                                llvm::raw_ostream &os) {
  const EffectAnalysis &analysis = report.analysis;
  os << "## Configurations\n\n";
  if (report.configurations.empty()) {
    os << "No configuration measured.\n\n";
    return;
  }
  std::string utilityHeader =
      llvm::formatv("U(α={0})", formatDouble("%g", analysis.criteria.alpha));
  writeHeader(os,
              {"configuration", "kind", "pipeline", "status",
               "median ms [q1–q3]", "CV", "S [95% CI]", "kernels", "ops",
               "peak memory", "η_mem", "static estimate (η_mem)",
               "compile ms (graph/lowering/codegen)", "break-even requests",
               utilityHeader, "Pareto"},
              "llllrrrrrrrrrrrl");
  std::optional<size_t> chosen = chosenIndex(report);
  for (size_t i = 0, e = report.configurations.size(); i < e; ++i) {
    const Configuration &config = report.configurations[i];
    std::string name = escapeMarkdownText(config.name);
    if (chosen && *chosen == i)
      name = "**" + name + "** (chosen)";
    const ConfigurationMeasurement *m =
        i < report.measurements.size() ? &report.measurements[i] : nullptr;
    if (m && !m->sameProgramAs.empty())
      name += " (same program as " + escapeMarkdownText(m->sameProgramAs) + ")";
    std::vector<std::string> cells = {
        name, getConfigurationKindName(config.kind),
        config.pipeline.empty() ? "—" : markdownCode(config.pipeline)};
    if (!config.loweringOptions.empty())
      cells.back() += ", lowering " + markdownCode(config.loweringOptions);
    if (!isValid(report, i) || !m) {
      cells.push_back(exclusionStatus(report, i));
      cells.push_back("excluded");
      cells.resize(16, "—");
      cells.back() = "";
      writeRow(os, cells);
      continue;
    }
    llvm::append_range(cells, configurationFigureCells(report, i));
    writeRow(os, cells);
  }
  os << "\n";
}

/// The latency tail of every valid configuration: what a service's p99 sees.
static void writeTailLatency(const ExploreReport &report,
                             llvm::raw_ostream &os) {
  const EffectAnalysis &analysis = report.analysis;
  os << "## Tail latency\n\n";
  os << "Percentiles of the single timed runs (the runs of all rounds; "
        "with fewer than 100 runs, p99 lies between the two slowest).\n\n";
  writeHeader(os, {"configuration", "runs", "p50 ms", "p90 ms", "p99 ms",
                   "max ms"},
              "lrrrrr");
  for (size_t i = 0, e = report.configurations.size(); i < e; ++i) {
    if (!isValid(report, i) || i >= report.measurements.size() ||
        i >= analysis.effects.size())
      continue;
    const ConfigurationEffect &effect = analysis.effects[i];
    writeRow(os, {escapeMarkdownText(report.configurations[i].name),
                  std::to_string(report.measurements[i].runMs.size()),
                  formatMs(effect.medianMs), formatMs(effect.p90Ms),
                  formatMs(effect.p99Ms), formatMs(effect.maxMs)});
  }
  os << "\n";
}

/// Where each valid configuration's peak memory comes from.
static void writeMemory(const ExploreReport &report, llvm::raw_ostream &os) {
  os << "## Memory\n\n" << kMemoryTableIntro << "\n\n";
  writeHeader(os, memoryHeader(), "lrrrrrrrrrrr");
  for (size_t i = 0, e = report.configurations.size(); i < e; ++i) {
    if (!isValid(report, i) || i >= report.measurements.size())
      continue;
    std::vector<std::string> cells = memoryCells(report, i);
    cells[0] = escapeMarkdownText(cells[0]);
    writeRow(os, cells);
  }
  os << "\n";
}

/// Each load-tested program under load.
static void writeLoad(const ExploreReport &report, llvm::raw_ostream &os) {
  if (!isLoadTested(report))
    return;
  os << "## Latency under load\n\n" << kLoadTableIntro << "\n\n";
  writeHeader(os, loadHeader(report), "lrrrrrrrr");
  for (size_t i = 0, e = report.configurations.size(); i < e; ++i) {
    if (!isValid(report, i) || !report.measurements[i].load ||
        !report.measurements[i].sameProgramAs.empty())
      continue;
    std::vector<std::string> cells = loadCells(report, i);
    cells[0] = escapeMarkdownText(cells[0]);
    writeRow(os, cells);
  }
  os << "\n";
}

/// The analysis at every shape of --shapes and the classes.
static void writeShapeClasses(const ExploreReport &report,
                              llvm::raw_ostream &os) {
  const ShapeClassing &classing = report.shapeClasses;
  if (classing.shapes.empty())
    return;
  os << "## Shape classes\n\n" << kShapeClassesIntro << "\n\n";
  writeHeader(os, shapeHeader(), "llrll");
  for (size_t s = 0; s < classing.shapes.size(); ++s) {
    std::vector<std::string> cells = shapeCells(classing, s);
    for (std::string &cell : cells)
      cell = escapeMarkdownText(cell);
    writeRow(os, cells);
  }
  os << "\n";
  writeHeader(os, shapeClassHeader(), "lllll");
  for (size_t c = 0; c < classing.classes.size(); ++c) {
    std::vector<std::string> cells = shapeClassCells(classing, c);
    for (std::string &cell : cells)
      cell = escapeMarkdownText(cell);
    writeRow(os, cells);
  }
  os << "\nRule: " << escapeMarkdownText(describeShapeRule(classing))
     << ".\n\n";
}

/// Every configuration predicted on the targets of --predict.
static void writePredictions(const ExploreReport &report,
                             llvm::raw_ostream &os) {
  if (report.predictions.empty())
    return;
  os << "## Prediction for hardware not at hand\n\n"
     << kPredictionIntro << "\n\n";
  for (const TargetPrediction &t : report.predictions)
    os << "- " << escapeMarkdownText(describePredictionTarget(t)) << "\n";
  os << "\n";
  writeHeader(os, predictionHeader(report), predictionAlignment(report));
  for (size_t i = 0, e = report.configurations.size(); i < e; ++i) {
    if (!isPredicted(report, i))
      continue;
    std::vector<std::string> cells = predictionCells(report, i);
    cells[0] = escapeMarkdownText(cells[0]);
    writeRow(os, cells);
  }
  os << "\n";
  for (const TargetPrediction &t : report.predictions)
    os << "- " << escapeMarkdownText(describePredictionOutcome(report, t))
       << "\n";
  os << "\n";
}

/// The invalid configurations with their status and the first line of their
/// error.
static void writeExcluded(const ExploreReport &report, llvm::raw_ostream &os) {
  os << "## Excluded configurations\n\n";
  bool any = false;
  for (size_t i = 0, e = report.configurations.size(); i < e; ++i) {
    if (isValid(report, i))
      continue;
    any = true;
    const Configuration &config = report.configurations[i];
    os << "- " << markdownCode(config.name) << " ("
       << getConfigurationKindName(config.kind) << "): **"
       << exclusionStatus(report, i) << "**";
    if (i < report.measurements.size() && !report.measurements[i].error.empty())
      os << " — " << markdownCode(firstLine(report.measurements[i].error));
    os << " — excluded from the analysis.\n";
  }
  if (!any)
    os << "None: every configuration is valid.\n";
  os << "\n";
}

/// One row per ordered pair a → b.
static void writeSynergy(const ExploreReport &report, llvm::raw_ostream &os) {
  const EffectAnalysis &analysis = report.analysis;
  os << "## Synergy\n\n";
  if (analysis.pairs.empty()) {
    os << "No pair measured.\n\n";
    return;
  }
  os << "η = S_ab / (S_a · S_b) with its 95% interval: synergy "
        "above 1, interference below, and a verdict only when the interval "
        "excludes 1.\n\n";
  writeHeader(os,
              {"pair (a → b)", "S_a", "S_b", "S_ab", "η [95% CI]", "verdict"},
              "lrrrrl");
  for (const PairEffect &pair : analysis.pairs) {
    std::vector<std::string> cells = {escapeMarkdownText(
        configName(report, pair.a) + " → " + configName(report, pair.b))};
    llvm::append_range(cells, pairFigureCells(pair));
    writeRow(os, cells);
  }
  os << "\n";
}

/// U(alpha) for every valid configuration (rows) at each alpha (columns),
/// the highest per column in bold.
static void writeUtility(const ExploreReport &report, llvm::raw_ostream &os) {
  const EffectAnalysis &analysis = report.analysis;
  os << "## Utility U(α)\n\n";
  std::vector<size_t> rows = validConfigurations(report);
  if (analysis.alphaTable.empty() || rows.empty()) {
    os << "No utility table.\n\n";
    return;
  }
  os << "U = S / (1 + α · T_compile / T_run); the highest U at each α in "
        "bold.\n\n";
  writeHeader(os, utilityHeader(analysis),
              "l" + std::string(analysis.alphaTable.size(), 'r'));

  std::vector<std::optional<double>> best =
      bestUtilityPerAlpha(analysis, rows);
  for (size_t i : rows) {
    std::vector<std::string> cells = {
        escapeMarkdownText(report.configurations[i].name)};
    llvm::append_range(
        cells, utilityCells(analysis, i, best, [](const std::string &text) {
          return "**" + text + "**";
        }));
    writeRow(os, cells);
  }
  os << "\n";
}

/// The kernels of the chosen configuration (or the default pipeline) by
/// share, with their Amdahl bound.
static void writeAmdahl(const ExploreReport &report, llvm::raw_ostream &os) {
  std::optional<size_t> subject = amdahlSubject(report);
  if (!subject) {
    os << "## Amdahl view\n\nNo configuration chosen and no default "
          "pipeline with kernel timings.\n\n";
    return;
  }
  const std::vector<KernelEffect> &kernels = report.analysis.kernels[*subject];
  os << "## Amdahl view: " << escapeMarkdownText(configName(report, *subject))
     << "\n\n";
  if (kernels.empty()) {
    os << "No kernel timings for " << markdownCode(configName(report, *subject))
       << escapeMarkdownText(missingKernelsReason(report, *subject))
       << ".\n\n";
    return;
  }
  os << "Kernel times are medians per run; f is the kernel's share of the "
        "kernel times and 1/(1 − f) the most a speedup of that kernel alone "
        "can buy. "
     << escapeMarkdownText(describeKernelCoverage(report, *subject))
     << "\n\n";
  writeHeader(
      os,
      {"kernel", "ms", "share f", "bound 1/(1 − f)", "speedup over baseline"},
      "lrrrr");
  std::vector<size_t> order = kernelsByShare(kernels);
  for (size_t rank = 0; rank < order.size() && rank < kTopKernels; ++rank) {
    const KernelEffect &kernel = kernels[order[rank]];
    std::vector<std::string> cells = {markdownCode(kernel.name)};
    llvm::append_range(cells, kernelFigureCells(kernel));
    writeRow(os, cells);
  }
  if (order.size() > kTopKernels)
    os << "\n" << order.size() - kTopKernels << " more kernels.\n";
  os << "\n";
}

/// The chosen configuration and the analysis' reason.
static void writeChoice(const ExploreReport &report, llvm::raw_ostream &os) {
  os << "## Choice\n\n";
  std::optional<size_t> chosen = chosenIndex(report);
  if (chosen) {
    const Configuration &config = report.configurations[*chosen];
    os << "Chosen: **" << escapeMarkdownText(config.name) << "**";
    if (!config.pipeline.empty())
      os << " (" << markdownCode(config.pipeline) << ")";
    if (!config.loweringOptions.empty())
      os << ", lowered with " << markdownCode(config.loweringOptions);
    os << ".\n\n";
  } else {
    os << "No configuration chosen.\n\n";
  }
  if (!report.analysis.choice.reason.empty())
    os << escapeMarkdownText(report.analysis.choice.reason) << "\n";
}

/// Verify mode: what compiled and whether its outputs match the baseline's.
static void writeVerification(const ExploreReport &report,
                              llvm::raw_ostream &os) {
  os << "## Verification\n\n"
     << llvm::format("Outputs compared with the baseline's on seeded random "
                     "inputs (rtol %g, atol %g); nothing was timed.\n\n",
                     report.setup.rtol, report.setup.atol);
  if (report.configurations.empty()) {
    os << "No configuration measured.\n\n";
    return;
  }
  writeHeader(os,
              {"configuration", "kind", "pipeline", "outputs", "kernels",
               "ops", "static peak", "compile ms (graph/lowering/codegen)",
               "note"},
              "____rrrr_");
  for (size_t i = 0; i < report.configurations.size(); ++i) {
    std::vector<std::string> cells = verificationCells(report, i);
    cells[0] = escapeMarkdownCell(cells[0]);
    cells[2] = cells[2].empty() ? "—" : markdownCode(cells[2]);
    cells[8] = escapeMarkdownCell(cells[8]);
    writeRow(os, cells);
  }
  os << "\n";
}

/// Throughput over batch sizes: one row per batch size and configuration.
static void writeBatchSweep(const ExploreReport &report,
                            llvm::raw_ostream &os) {
  if (report.batchSweep.empty())
    return;
  os << "## Batch-size sweep\n\n"
        "Dimension 0 of every input set to each batch size; samples/s = batch "
        "size / median run time; S against the baseline at the same size.\n\n";
  writeHeader(os,
              {"batch", "configuration", "median ms [q1–q3]", "runs",
               "samples/s", "S", "peak memory"},
              "r_rrrrr");
  for (const BatchMeasurement &b : report.batchSweep) {
    if (!b.error.empty()) {
      writeRow(os, {std::to_string(b.batchSize),
                    escapeMarkdownCell(b.configuration),
                    "failed: " + escapeMarkdownCell(firstLine(b.error)), "—",
                    "—", "—", "—"});
      continue;
    }
    std::vector<std::string> cells = {std::to_string(b.batchSize),
                                      escapeMarkdownCell(b.configuration)};
    llvm::append_range(cells, batchFigureCells(b));
    writeRow(os, cells);
  }
  os << "\n";
  for (const std::string &line : describeBatchLimits(report))
    os << "Within the memory limit, " << escapeMarkdownText(line) << ".\n\n";
}

void mlir::gopt::writeExploreMarkdown(const ExploreReport &report,
                                      llvm::raw_ostream &os) {
  if (!isTimed(report)) {
    writeSetup(report, os);
    writeVerification(report, os);
    writePredictions(report, os);
    return;
  }
  writeSetup(report, os);
  writeConfigurations(report, os);
  writeTailLatency(report, os);
  writeLoad(report, os);
  writeMemory(report, os);
  writePredictions(report, os);
  writeExcluded(report, os);
  writeSynergy(report, os);
  writeUtility(report, os);
  writeAmdahl(report, os);
  writeBatchSweep(report, os);
  writeShapeClasses(report, os);
  writeChoice(report, os);
}
