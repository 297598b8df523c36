//===- ReportSummary.cpp - gopt-explore's terminal summary ----------------===//
//
// What gopt-explore prints on a terminal: the setup in three lines, one row
// per configuration (run time, speedup with its interval, kernels, peak
// memory, compile time, break-even), the pairs whose synergy is not 1
// within the noise, and the choice with its reason, all within a width of
// 100 columns. The full tables (tail latency, every pair, utility at each
// alpha, kernels) are the Markdown, HTML and JSON reports'. Every number is
// read from the report.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Explore/Report.h"

#include "ReportFormat.h"

#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/Unicode.h"

using namespace mlir;
using namespace mlir::gopt;
using namespace mlir::gopt::report_detail;

namespace {

/// Columns `text` takes on a terminal (UTF-8 aware: η, —, ★ take one).
size_t columns(llvm::StringRef text) {
  int width = llvm::sys::unicode::columnWidthUTF8(text);
  return width < 0 ? text.size() : static_cast<size_t>(width);
}

/// `text` cut to `width` columns, "…" marking the cut.
std::string fit(llvm::StringRef text, size_t width) {
  if (columns(text) <= width)
    return text.str();
  std::string out;
  for (size_t i = 0; i < text.size();) {
    unsigned length = llvm::getNumBytesForUTF8(text[i]);
    llvm::StringRef next = text.substr(i, length);
    if (columns(out) + columns(next) + 1 > width)
      break;
    out += next.str();
    i += length;
  }
  return out + "…";
}

std::string padRight(llvm::StringRef text, size_t width) {
  std::string out = fit(text, width);
  size_t used = columns(out);
  return out + std::string(width > used ? width - used : 0, ' ');
}

std::string padLeft(llvm::StringRef text, size_t width) {
  std::string out = fit(text, width);
  size_t used = columns(out);
  return std::string(width > used ? width - used : 0, ' ') + out;
}

/// `text` as lines of at most `width` columns, broken at spaces, each
/// after `indent`; a word longer than a line (a path) is broken inside.
void writeWrapped(llvm::raw_ostream &os, llvm::StringRef text, size_t width,
                  llvm::StringRef indent) {
  size_t room = width > columns(indent) + 1 ? width - columns(indent) : 1;
  llvm::SmallVector<llvm::StringRef> spaced;
  text.split(spaced, ' ', -1, /*KeepEmpty=*/false);
  // A unit stays on the line of its number ("0.016 s", "6.0 MiB").
  llvm::SmallVector<std::string> glued;
  for (llvm::StringRef word : spaced) {
    llvm::StringRef bare = word.rtrim(",.;:)");
    bool unit = llvm::is_contained(
        {"s", "ms", "B", "KiB", "MiB", "GiB", "%"}, bare);
    if (unit && !glued.empty())
      glued.back() += " " + word.str();
    else
      glued.push_back(word.str());
  }
  std::vector<std::string> words;
  for (llvm::StringRef word : glued) {
    while (columns(word) > room) {
      // The longest prefix of whole UTF-8 characters that fits.
      size_t cut = 0, used = 0;
      while (cut < word.size()) {
        unsigned length = llvm::getNumBytesForUTF8(word[cut]);
        if (used + columns(word.substr(cut, length)) > room)
          break;
        used += columns(word.substr(cut, length));
        cut += length;
      }
      words.push_back(word.take_front(cut).str());
      word = word.drop_front(cut);
    }
    if (!word.empty())
      words.push_back(word.str());
  }
  std::string line;
  for (const std::string &word : words) {
    if (!line.empty() &&
        columns(indent) + columns(line) + 1 + columns(word) > width) {
      os << indent << line << "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty())
    os << indent << line << "\n";
}

/// The setup: model, machine and rounds, where the time went.
void writeSetup(const ExploreReport &report, llvm::raw_ostream &os,
                size_t width) {
  const ExploreSetup &setup = report.setup;
  std::string title = "gopt-explore: " + setup.model;
  if (!setup.entry.empty())
    title += ", @" + setup.entry;
  os << fit(title, width) << "\n";
  std::string machine = describeMachine(setup) + ", target " + setup.target;
  if (!setup.gemmLibrary.empty())
    machine += ", " + setup.gemmLibrary + " GEMM on " +
               std::to_string(setup.libraryThreads) +
               (setup.libraryThreads == 1 ? " thread" : " threads");
  writeWrapped(os, machine, width, "");
  std::string timing =
      isTimed(report)
          ? std::to_string(setup.rounds) +
                (setup.rounds == 1 ? " round" : " rounds") + " of at least " +
                std::to_string(setup.repetitionsPerRound) +
                " runs each; elapsed " + describeElapsed(setup)
          : "outputs checked only, nothing timed; elapsed " +
                describeElapsed(setup);
  writeWrapped(os, timing, width, "");
  if (!setup.reusedMeasurements.empty())
    writeWrapped(os,
                 "Runs reused from an identical exploration (" +
                     describeMeasuredAt(setup.measuredAt) +
                     "): " + setup.reusedMeasurements +
                     "; --remeasure times anew.",
                 width, "");
  if (setup.interrupted)
    writeWrapped(os,
                 "Interrupted: the figures cover the rounds and "
                 "configurations measured before it.",
                 width, "");
  os << "\n";
}

/// A configuration's name as the table shows it: shared programs name the
/// configuration whose program they share.
std::string rowName(const ExploreReport &report, size_t i) {
  std::string name = report.configurations[i].name;
  const ConfigurationMeasurement &m = report.measurements[i];
  if (!m.sameProgramAs.empty())
    name += " (=" + m.sameProgramAs + ")";
  return name;
}

/// Column widths of the configuration table: with the spaces between them
/// and the marks (chosen, Pareto) at the end, 100 columns.
constexpr size_t kName = 20, kMs = 8, kSpeedup = 22, kKernels = 7, kPeak = 9,
                 kEtaMem = 6, kCompile = 8, kBreakEven = 10;

/// A row of the configuration table, cut to `width` (the columns are laid
/// out for 100: a narrower terminal loses the rightmost).
std::string tableRow(llvm::ArrayRef<std::string> cells, size_t width) {
  size_t widths[] = {kName, kMs, kSpeedup, kKernels, kPeak,
                     kEtaMem, kCompile, kBreakEven};
  std::string row = padRight(cells[0], kName);
  for (size_t c = 1; c < cells.size() && c < std::size(widths); ++c) {
    row += " ";
    row += c == 2 ? padRight(cells[c], widths[c]) : padLeft(cells[c], widths[c]);
  }
  for (size_t c = std::size(widths); c < cells.size(); ++c)
    row += " " + cells[c];
  // No trailing blanks.
  return fit(llvm::StringRef(row).rtrim(), width);
}

/// One row per configuration; excluded ones say why in place of figures.
void writeConfigurations(const ExploreReport &report, llvm::raw_ostream &os,
                         size_t width) {
  const EffectAnalysis &analysis = report.analysis;
  // With --qps the last column is the payback time, else the request count.
  bool payback = analysis.criteria.qps > 0;
  os << tableRow({"configuration", "ms", "S [95% CI]", "kernels", "peak",
                  "η_mem", "compile", payback ? "payback" : "break-even"},
                 width)
     << "\n";
  std::optional<size_t> chosen = analysis.choice.index;
  bool anyPareto = false;
  for (size_t i = 0; i < report.configurations.size(); ++i) {
    const ConfigurationMeasurement &m = report.measurements[i];
    bool baseline = i == analysis.baseline;
    std::string name = rowName(report, i);
    if (!isValid(report, i)) {
      std::string why = exclusionStatus(report, i);
      if (!m.error.empty())
        why += ": " + firstLine(m.error, width);
      os << fit(padRight(name, kName) + " " + why, width) << "\n";
      continue;
    }
    const ConfigurationEffect &e = analysis.effects[i];
    std::string speedup = formatSpeedup(e.speedup);
    if (!baseline)
      speedup += " " + formatSpeedupInterval(e.speedupInterval);
    std::string marks;
    if (chosen && *chosen == i)
      marks += "*";
    if (e.pareto) {
      marks += "★";
      anyPareto = true;
    }
    std::string breakEven =
        baseline ? "—"
        : !e.breakEvenRequests ? "never"
        : payback && e.paybackSeconds ? formatSeconds(*e.paybackSeconds)
                                      : formatRequests(*e.breakEvenRequests);
    os << tableRow({name, formatMs(e.medianMs), speedup,
                    std::to_string(m.kernels), formatBytes(m.peakBytes),
                    baseline ? "—" : formatPercent(e.memorySaving),
                    formatSeconds(e.compileMs / 1000.0), breakEven, marks},
                   width)
       << "\n";
  }
  std::string legend = "ms: median run time; S = T_base / T_opt, geometric "
                       "mean over the rounds, with its " +
                       formatDouble("%.0f%%", analysis.intervalLevel * 100) +
                       " interval; η_mem: peak memory saved; " +
                       (payback ? "payback: time at " +
                                      formatDouble("%g", analysis.criteria.qps) +
                                      " requests/s until"
                                : std::string("break-even: requests until")) +
                       " the compile time pays back.";
  legend += chosen ? " * chosen." : "";
  legend += anyPareto ? " ★ on the Pareto frontier (S, compile time, peak "
                        "memory)."
                      : "";
  os << "\n";
  writeWrapped(os, legend, width, "");
  os << "\n";
}

/// The pairs whose interval excludes 1, or that none does.
void writePairs(const ExploreReport &report, llvm::raw_ostream &os,
                size_t width) {
  const EffectAnalysis &analysis = report.analysis;
  if (analysis.pairs.empty())
    return;
  std::vector<const PairEffect *> notable;
  for (const PairEffect &pair : analysis.pairs)
    if (pair.verdict != SynergyVerdict::Independent)
      notable.push_back(&pair);
  size_t others = analysis.pairs.size() - notable.size();
  if (notable.empty()) {
    writeWrapped(os,
                 analysis.pairs.size() == 1
                     ? "Synergy: the one ordered pair is independent within "
                       "the noise (its η interval includes 1)."
                     : "Synergy: all " + std::to_string(analysis.pairs.size()) +
                           " ordered pairs are independent within the noise "
                           "(every η interval includes 1).",
                 width, "");
    os << "\n";
    return;
  }
  std::string heading =
      "Synergy η = S_ab / (S_a·S_b) of the pairs whose interval excludes 1";
  heading += others == 1   ? " (the other one is independent within the noise):"
             : others > 1 ? " (the other " + std::to_string(others) +
                                " are independent within the noise):"
                          : ":";
  writeWrapped(os, heading, width, "");
  for (const PairEffect *pair : notable) {
    std::string line =
        "  " +
        padRight(report.configurations[pair->a].name + " → " +
                     report.configurations[pair->b].name,
                 24) +
        " S_a " + formatSpeedup(pair->speedupA) + "  S_b " +
        formatSpeedup(pair->speedupB) + "  S_ab " +
        formatSpeedup(pair->speedupAB) + "  η " + formatEta(pair->eta) + " " +
        formatEtaInterval(pair->etaInterval) + "  " +
        getSynergyVerdictName(pair->verdict);
    os << fit(line, width) << "\n";
  }
  os << "\n";
}

/// Throughput over batch sizes (--batch-sizes), when measured.
void writeBatchSweep(const ExploreReport &report, llvm::raw_ostream &os,
                     size_t width) {
  if (report.batchSweep.empty())
    return;
  writeWrapped(os,
               "Batch sizes (dimension 0 of every input; S against the "
               "baseline at the same size):",
               width, "");
  os << "  " << padLeft("batch", 6) << "  " << padRight("configuration", 20)
     << " " << padLeft("ms", 9) << " " << padLeft("samples/s", 10) << " "
     << padLeft("S", 7) << " " << padLeft("peak", 9) << "\n";
  for (const BatchMeasurement &b : report.batchSweep) {
    std::string line = "  " + padLeft(std::to_string(b.batchSize), 6) + "  " +
                       padRight(b.configuration, 20) + " ";
    if (!b.error.empty())
      line += "failed: " + firstLine(b.error, width);
    else
      line += padLeft(formatMs(b.medianMs), 9) + " " +
              padLeft(formatDouble("%.0f", b.samplesPerSecond), 10) + " " +
              padLeft(formatSpeedup(b.speedup), 7) + " " +
              padLeft(formatBytes(b.peakBytes), 9);
    os << fit(line, width) << "\n";
  }
  for (const std::string &line : describeBatchLimits(report))
    writeWrapped(os, "Within --memory-limit, " + line + ".", width, "");
  os << "\n";
}

/// Each load-tested program: p50 and p99 under load, what it achieved and
/// the rate it sustains within the bound.
void writeLoad(const ExploreReport &report, llvm::raw_ostream &os,
               size_t width) {
  if (!isLoadTested(report))
    return;
  std::vector<std::string> header = loadHeader(report);
  os << fit("Under load (--load-test; latency from arrival, queueing "
            "included):",
            width)
     << "\n";
  os << fit("  " + padRight("configuration", 20) + " " + padLeft("rate/s", 7) +
                " " + padLeft("p50 ms", 9) + " " + padLeft("p99 ms", 9) + " " +
                padLeft("achieved/s", 10) + " " + padLeft("busy", 6) + "  " +
                header.back(),
            width)
     << "\n";
  for (size_t i = 0, e = report.configurations.size(); i < e; ++i) {
    if (!isValid(report, i) || !report.measurements[i].load ||
        !report.measurements[i].sameProgramAs.empty())
      continue;
    std::vector<std::string> c = loadCells(report, i);
    os << fit("  " + padRight(c[0], 20) + " " + padLeft(c[1], 7) + " " +
                  padLeft(c[2], 9) + " " + padLeft(c[4], 9) + " " +
                  padLeft(c[6], 10) + " " + padLeft(c[7], 6) + "  " + c[8],
              width)
       << "\n";
  }
  os << "\n";
}

/// The choice at every shape of --shapes, and the classes.
void writeShapeClasses(const ExploreReport &report, llvm::raw_ostream &os,
                       size_t width) {
  const ShapeClassing &classing = report.shapeClasses;
  if (classing.shapes.empty())
    return;
  os << "Shapes (--shapes; each analyzed with the whole budget):\n";
  for (size_t s = 0; s < classing.shapes.size(); ++s) {
    std::vector<std::string> cells = shapeCells(classing, s);
    std::string line = "  " + padRight(cells[0], 24) + " ";
    if (!classing.shapes[s].error.empty())
      line += cells[1];
    else
      line += "choice " + padRight(cells[1], 16) + " " + padLeft(cells[2], 7) +
              "  class " + cells[4];
    os << fit(line, width) << "\n";
  }
  os << "Classes (one configuration each, within the noise of every member's "
        "choice):\n";
  for (size_t c = 0; c < classing.classes.size(); ++c) {
    std::vector<std::string> cells = shapeClassCells(classing, c);
    writeWrapped(os,
                 cells[0] + ". " + cells[1] + " (" + cells[2] + "), S " +
                     cells[4] + ": " + cells[3],
                 width, "  ");
  }
  writeWrapped(os, "Rule: " + describeShapeRule(classing) + ".", width, "");
  os << "\n";
}

/// What each --predict target's prediction concludes, one wrapped
/// paragraph per target (the table is the Markdown and HTML reports').
void writePredictions(const ExploreReport &report, llvm::raw_ostream &os,
                      size_t width) {
  if (report.predictions.empty())
    return;
  os << "Predicted by the roofline model (--predict; tables in the "
        "Markdown/HTML reports):\n";
  for (const TargetPrediction &t : report.predictions)
    writeWrapped(os, describePredictionOutcome(report, t), width, "  ");
  os << "\n";
}

/// The choice and its reason.
void writeChoice(const ExploreReport &report, llvm::raw_ostream &os,
                 size_t width) {
  const Choice &choice = report.analysis.choice;
  if (choice.index) {
    const Configuration &chosen = report.configurations[*choice.index];
    std::string program =
        chosen.pipeline.empty() ? "no graph pass" : chosen.pipeline;
    if (!chosen.loweringOptions.empty())
      program += ", " + chosen.loweringOptions;
    os << fit("Choice: " + chosen.name + " (" + program + ")", width) << "\n";
  } else
    os << "Choice: none\n";
  writeWrapped(os, choice.reason, width, "  ");
}

/// Verify mode: whether each configuration's outputs match the baseline's.
void writeVerification(const ExploreReport &report, llvm::raw_ostream &os,
                       size_t width) {
  for (size_t i = 0; i < report.configurations.size(); ++i) {
    const ConfigurationMeasurement &m = report.measurements[i];
    std::string outputs =
        m.status == ConfigurationStatus::Ok
            ? (i == 0 ? "reference" : "outputs match")
            : std::string(getConfigurationStatusName(m.status)) +
                  (m.error.empty() ? "" : ": " + firstLine(m.error, width));
    os << fit(padRight(rowName(report, i), kName) + " " +
                  padLeft(std::to_string(m.kernels), 4) + " kernels  " +
                  outputs,
              width)
       << "\n";
  }
}

} // namespace

void mlir::gopt::writeExploreSummary(const ExploreReport &report,
                                     llvm::raw_ostream &os, size_t width) {
  writeSetup(report, os, width);
  if (!isTimed(report)) {
    writeVerification(report, os, width);
    writePredictions(report, os, width);
    return;
  }
  writeConfigurations(report, os, width);
  writePairs(report, os, width);
  writeLoad(report, os, width);
  writeBatchSweep(report, os, width);
  writeShapeClasses(report, os, width);
  writePredictions(report, os, width);
  writeChoice(report, os, width);
}
