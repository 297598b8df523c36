//===- ReportFormat.h - Formatting for the report writers -------*- C++ -*-===//
//
// Internal to lib/Explore: the formatting helpers the Markdown and HTML
// writers share, so that a figure reads the same in both. They only format:
// every number they print is passed in from the report.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_LIB_EXPLORE_REPORTFORMAT_H
#define GOPT_LIB_EXPLORE_REPORTFORMAT_H

#include "GOpt/Explore/Explorer.h"
#include "GOpt/Explore/Report.h"
#include "GOpt/Support/Format.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

namespace mlir {
namespace gopt {
namespace report_detail {

// formatDouble, formatMs and formatBytes: GOpt/Support/Format.h, the one
// way GOpt prints times and sizes.
using gopt::formatBytes;
using gopt::formatDouble;
using gopt::formatMs;

/// A speedup or other ratio of run times: "1.23x", "12.3x", "123x".
inline std::string formatSpeedup(double s) {
  // Three significant digits from 10x on: a noisy interval such as
  // [8.22x, 130x] keeps both bounds within the summary's column.
  return formatDouble(s >= 99.95 ? "%.0fx" : s >= 9.995 ? "%.1fx" : "%.2fx", s);
}

/// A fraction as a percentage: 0.123 -> "12.3%".
inline std::string formatPercent(double fraction) {
  return formatDouble("%.1f%%", fraction * 100.0);
}

/// A synergy factor eta (no unit): "1.034".
inline std::string formatEta(double eta) { return formatDouble("%.3f", eta); }

/// Seconds: "12.3 s", or three decimals below one second.
inline std::string formatSeconds(double seconds) {
  return formatDouble(seconds < 1.0 ? "%.3f s" : "%.1f s", seconds);
}

/// A request count before a compile pays back: one decimal below ten, else
/// the whole requests it takes (rounded up, as the choice's reason says it).
inline std::string formatRequests(double requests) {
  if (requests < 10.0)
    return formatDouble("%.1f", requests);
  return formatDouble("%.0f", std::ceil(requests));
}

/// An Amdahl bound 1/(1-f): "1.72x", or "∞" for a kernel that is all of it.
inline std::string formatBound(double bound) {
  if (!std::isfinite(bound))
    return "∞";
  return formatSpeedup(bound);
}

/// A speedup interval: "[1.80x, 2.20x]".
inline std::string formatSpeedupInterval(const Interval &interval) {
  return "[" + formatSpeedup(interval.low) + ", " +
         formatSpeedup(interval.high) + "]";
}

/// An eta interval: "[0.950, 1.100]".
inline std::string formatEtaInterval(const Interval &interval) {
  return "[" + formatEta(interval.low) + ", " + formatEta(interval.high) + "]";
}

/// Median with its quartiles: "10.000 [9.500–10.500]".
inline std::string formatMedianIQR(const ConfigurationEffect &effect) {
  return formatMs(effect.medianMs) + " [" + formatMs(effect.q1Ms) + "–" +
         formatMs(effect.q3Ms) + "]";
}

/// Total compile time and its split: "6.000 (1.000/2.000/3.000)".
inline std::string formatCompileSplit(const ConfigurationEffect &effect,
                                      const ConfigurationMeasurement &m) {
  return formatMs(effect.compileMs) + " (" + formatMs(m.graphPassesMs) + "/" +
         formatMs(m.loweringMs) + "/" + formatMs(m.codegenMs) + ")";
}

/// Break-even requests, with the payback time when a QPS was given; "—" for
/// the baseline and "never" for a configuration that is not faster.
inline std::string formatBreakEven(const ConfigurationEffect &effect,
                                   bool isBaseline) {
  if (isBaseline)
    return "—";
  if (!effect.breakEvenRequests)
    return "never";
  std::string text = formatRequests(*effect.breakEvenRequests);
  if (effect.paybackSeconds)
    text += " (" + formatSeconds(*effect.paybackSeconds) + ")";
  return text;
}

/// The first line of a message, trimmed and cut to about `limit` bytes.
inline std::string firstLine(llvm::StringRef text, size_t limit = 120) {
  llvm::StringRef line = text.trim().split('\n').first.trim();
  if (line.size() <= limit)
    return line.str();
  return line.take_front(limit).rtrim().str() + "…";
}

/// Why configuration `index` has no kernel timings, as a sentence's tail
/// after its name: "" when profiling was not asked for or not reached, else
/// the first line of the failure.
inline std::string missingKernelsReason(const ExploreReport &report,
                                        size_t index) {
  const std::string &error = report.measurements[index].kernelProfileError;
  if (error.empty())
    return "";
  return ": profiling its kernels failed: " + firstLine(error);
}

/// Escapes text for HTML element content and attribute values.
inline std::string escapeHTML(llvm::StringRef text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    default:
      out += c;
    }
  }
  return out;
}

/// Makes text safe in a Markdown table cell: no pipes, no line breaks.
inline std::string escapeMarkdownCell(llvm::StringRef text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n' || c == '\r')
      out += ' ';
    else
      out += c;
  }
  return out;
}

/// Makes text safe as plain Markdown in a table cell or a line: also
/// backslash-escapes '<', which would otherwise open an HTML tag.
inline std::string escapeMarkdownText(llvm::StringRef text) {
  std::string out;
  for (char c : escapeMarkdownCell(text)) {
    if (c == '<')
      out += '\\';
    out += c;
  }
  return out;
}

/// Text as inline code in Markdown (a longer fence when it holds a backtick).
inline std::string markdownCode(llvm::StringRef text) {
  std::string cell = escapeMarkdownCell(text);
  if (cell.find('`') == std::string::npos)
    return "`" + cell + "`";
  return "`` " + cell + " ``";
}

/// Whether configuration `i` is usable: measured, outputs match.
inline bool isValid(const ExploreReport &report, size_t i) {
  const EffectAnalysis &analysis = report.analysis;
  if (i >= analysis.effects.size() || !analysis.effects[i].valid)
    return false;
  return i >= report.measurements.size() ||
         report.measurements[i].status == ConfigurationStatus::Ok;
}

/// Why configuration `i` is excluded: its status, or "unmeasured" for one
/// whose status is ok but that has no valid measurement.
inline std::string exclusionStatus(const ExploreReport &report, size_t i) {
  if (i < report.measurements.size() &&
      report.measurements[i].status != ConfigurationStatus::Ok)
    return getConfigurationStatusName(report.measurements[i].status);
  return "unmeasured";
}

/// The name of configuration `index`, or "#index" when out of range.
inline std::string configName(const ExploreReport &report, size_t index) {
  if (index < report.configurations.size())
    return report.configurations[index].name;
  return "#" + std::to_string(index);
}

/// The valid configurations, in the report's order.
inline std::vector<size_t> validConfigurations(const ExploreReport &report) {
  std::vector<size_t> valid;
  for (size_t i = 0, e = report.configurations.size(); i < e; ++i)
    if (isValid(report, i) && i < report.measurements.size())
      valid.push_back(i);
  return valid;
}

/// The figures of valid configuration `i` in the configurations table, from
/// its status to its Pareto mark (13 cells, nothing to escape): both
/// writers print the same numbers.
inline std::vector<std::string>
configurationFigureCells(const ExploreReport &report, size_t i) {
  const EffectAnalysis &analysis = report.analysis;
  const ConfigurationEffect &effect = analysis.effects[i];
  const ConfigurationMeasurement &m = report.measurements[i];
  return {getConfigurationStatusName(m.status),
          formatMedianIQR(effect),
          formatPercent(effect.cv),
          formatSpeedup(effect.speedup) + " " +
              formatSpeedupInterval(effect.speedupInterval),
          std::to_string(m.kernels),
          std::to_string(m.ops),
          formatBytes(m.peakBytes),
          formatPercent(effect.memorySaving),
          formatBytes(m.staticPeakBytes) + " (" +
              formatPercent(effect.staticMemorySaving) + ")",
          formatCompileSplit(effect, m),
          formatBreakEven(effect, i == analysis.baseline),
          formatDouble("%.3f", effect.utility),
          effect.pareto ? "★" : ""};
}

/// The memory table's header: where a configuration's peak comes from.
inline std::vector<std::string> memoryHeader() {
  return {"configuration", "peak memory", "held at peak",    "largest free",
          "fragmentation", "water level", "intermediates",   "their bytes",
          "arena",         "reuse",       "static estimate", "peak / estimate"};
}

/// The memory figures of valid configuration `i`: the measured peak, what
/// the allocator held at that peak, its largest free block there and its
/// external fragmentation, the
/// water level after the runs of its first round (and how many); the
/// intermediates the buffer planner placed, the sum of their sizes (what
/// one allocation each, all alive at once, would hold), the arena they
/// share and the reuse 1 - arena / sum; GraphStats' static estimate and the
/// measured peak's ratio to it.
inline std::vector<std::string> memoryCells(const ExploreReport &report,
                                            size_t i) {
  const ConfigurationMeasurement &m = report.measurements[i];
  const BufferPlan &plan = m.bufferPlan;
  bool planned = plan.planned();
  return {configName(report, i),
          formatBytes(m.peakBytes),
          formatBytes(m.reservedAtPeakBytes),
          formatBytes(m.largestFreeAtPeakBytes),
          formatDouble("%.2f", m.externalFragmentation),
          m.waterLevel.empty() ? "—"
                               : formatBytes(m.waterLevel.back()) + " after " +
                                     std::to_string(m.waterLevel.size()),
          planned ? std::to_string(plan.plannedBuffers) : "—",
          planned ? formatBytes(plan.plannedBytes) : "—",
          planned ? formatBytes(plan.arenaBytes) : "—",
          planned ? formatPercent(plan.reuse()) : "—",
          formatBytes(m.staticPeakBytes),
          m.staticPeakBytes > 0
              ? formatDouble("%.2f", static_cast<double>(m.peakBytes) /
                                         static_cast<double>(m.staticPeakBytes))
              : "—"};
}

/// What the memory table says, for both reports.
inline constexpr llvm::StringLiteral kMemoryTableIntro =
    "Where each configuration's peak comes from. The intermediates are the "
    "entry's buffers the static planner placed (lowering option "
    "plan-buffers): their bytes fall when a configuration leaves fewer "
    "tensors (fusion, dead-code elimination), and the arena they share "
    "lies below that sum by the reuse of memory between buffers whose "
    "lifetimes do not overlap. The measured peak is the arena plus the "
    "results and the buffers the planner could not place (a kernel's "
    "scratch, dynamic shapes); held at peak adds the free blocks the "
    "runtime's allocator kept, largest free is the largest of them, and "
    "fragmentation is 1 - largest free block / free bytes there. The water "
    "level is what the allocator held after "
    "the last of N runs in a row (the first round's warm-up, --steady-runs "
    "and timed runs, from an empty cache): what a long-running process "
    "settles at. The static estimate is GraphStats' liveness peak "
    "of the tensors after the graph passes.";

/// Whether any configuration was load-tested.
inline bool isLoadTested(const ExploreReport &report) {
  for (const ConfigurationMeasurement &m : report.measurements)
    if (m.load)
      return true;
  return false;
}

/// The load-test table's header.
inline std::vector<std::string> loadHeader(const ExploreReport &report) {
  std::string sustained =
      report.analysis.criteria.p99BoundMs > 0
          ? "sustained /s (p99 ≤ " +
                formatMs(report.analysis.criteria.p99BoundMs) + " ms)"
          : "sustained /s";
  return {"configuration", "rate /s",     "p50 ms", "p90 ms", "p99 ms",
          "max ms",        "achieved /s", "busy",   sustained};
}

/// The load-test row of valid configuration `i` (one that was load-tested).
inline std::vector<std::string> loadCells(const ExploreReport &report,
                                          size_t i) {
  const LoadMeasurement &l = *report.measurements[i].load;
  bool stream = l.requests > 0 && l.p50Ms > 0;
  auto cell = [&](double ms) { return stream ? formatMs(ms) : "—"; };
  std::string sustained = "—";
  if (report.analysis.criteria.p99BoundMs > 0)
    sustained =
        l.sustainedQps > 0 ? formatDouble("%.0f", l.sustainedQps) : "none";
  return {configName(report, i),
          l.qps > 0 ? formatDouble("%.0f", l.qps) : "—",
          cell(l.p50Ms),
          cell(l.p90Ms),
          l.p99Ms > 0 ? formatMs(l.p99Ms) : "—",
          cell(l.maxMs),
          stream ? formatDouble("%.0f", l.achievedPerSecond) : "—",
          stream ? formatPercent(l.utilization) : "—",
          sustained};
}

/// What the load-test table says, for both reports.
inline constexpr llvm::StringLiteral kLoadTableIntro =
    "Each distinct program under load (--load-test): an open-loop stream of "
    "requests arriving as a Poisson process at the rate, served first come, "
    "first served; a request's latency runs from its arrival to the end of "
    "its run, so it includes the time it queued. Achieved is requests over "
    "the stream's duration, busy the share of it the workers ran requests. "
    "With --p99-ms, sustained is the highest rate whose p99 stays within the "
    "bound (doubling, then bisection), and the choice applies the bound to "
    "the p99 under load (without --qps, that of the stream at the sustained "
    "rate).";

/// The shapes table of --shapes: each analyzed shape, its choice and S,
/// the configurations within the noise of that choice, and its class.
inline std::vector<std::string> shapeHeader() {
  return {"shape", "choice", "S", "within the noise", "class"};
}
inline std::vector<std::string> shapeCells(const ShapeClassing &classing,
                                           size_t s) {
  const ShapeOutcome &o = classing.shapes[s];
  if (!o.error.empty())
    return {o.shape.label(), "failed: " + firstLine(o.error), "—", "—", "—"};
  std::vector<std::string> names;
  for (const auto &[name, speedup] : o.acceptable)
    names.push_back(name);
  return {o.shape.label(), o.choice.value_or("none"),
          o.choice ? formatSpeedup(o.choiceSpeedup) : "—",
          llvm::join(names, ", "),
          classing.classOf[s] ? std::to_string(*classing.classOf[s] + 1) : "—"};
}

/// The classes table: one configuration per class, its members and its S
/// over them.
inline std::vector<std::string> shapeClassHeader() {
  return {"class", "configuration", "pipeline", "shapes", "S"};
}
inline std::vector<std::string> shapeClassCells(const ShapeClassing &classing,
                                                size_t c) {
  const ShapeClass &shapeClass = classing.classes[c];
  std::vector<std::string> members;
  for (size_t s : shapeClass.members)
    members.push_back(classing.shapes[s].shape.label());
  std::string range = "—";
  if (!shapeClass.speedups.empty()) {
    auto [lo, hi] = std::minmax_element(shapeClass.speedups.begin(),
                                        shapeClass.speedups.end());
    range = *lo == *hi ? formatSpeedup(*lo)
                       : formatSpeedup(*lo) + "–" + formatSpeedup(*hi);
  }
  std::string program =
      shapeClass.pipeline.empty() ? "no graph pass" : shapeClass.pipeline;
  if (!shapeClass.loweringOptions.empty())
    program += ", " + shapeClass.loweringOptions;
  return {std::to_string(c + 1), shapeClass.configuration, program,
          llvm::join(members, "; "), range};
}

/// What the shape-class tables say, for both reports.
inline constexpr llvm::StringLiteral kShapeClassesIntro =
    "The model analyzed at every shape of --shapes, each with the whole "
    "budget. Within the noise are the configurations whose S interval "
    "reaches the S of that shape's choice (and that meet the memory limit "
    "and the p99 bound). A class is a configuration and the shapes where "
    "it is within the noise: the configuration within the noise at the "
    "most shapes not yet in a class makes the next class. The report's "
    "other sections are the first shape's.";

/// What the prediction table says, for both reports.
inline constexpr llvm::StringLiteral kPredictionIntro =
    "Each configuration's run time on other hardware, predicted by a "
    "roofline model from the FLOPs and bytes of its kernels after the graph "
    "passes (GraphStats' cost): a kernel takes max(FLOPs / peak, bytes / "
    "bandwidth) plus the target's fixed cost per kernel, a run the sum of "
    "its kernels plus the fixed cost per run. S is the baseline's prediction "
    "over the configuration's "
    "on the same target. On the hardware the configurations ran on, the "
    "measured S stands beside it, with the error predicted / measured - 1. "
    "The static estimate (Memory table) predicts eta_mem, the same on every "
    "target. docs/Explore.md says where the model is wrong.";

/// One line on a target of --predict: its figures and where they come from.
inline std::string describePredictionTarget(const TargetPrediction &t) {
  const TargetDescription &d = t.target;
  std::string text = d.name + ": " + d.device + " (" + d.kind;
  if (d.threads > 0)
    text += ", " + std::to_string(d.threads) +
            (d.threads == 1 ? " thread" : " threads");
  text += ") - " + formatDouble("%.0f", d.peakGflops) + " GFLOP/s, " +
          formatDouble("%.0f", d.bandwidthGBs) + " GB/s";
  if (d.cacheBytes > 0)
    text += " (" + formatDouble("%.0f", d.cacheBandwidthGBs) +
            " GB/s for kernels within " + formatBytes(d.cacheBytes) + ")";
  text += ", " + formatDouble("%.2g", d.launchOverheadUs) + " us per kernel";
  if (d.runOverheadUs > 0)
    text += " and " + formatDouble("%.2g", d.runOverheadUs) + " us per run";
  if (t.measuredHere)
    text += "; the configurations were measured on it";
  if (!d.source.empty())
    text += ". Source: " + d.source;
  return text;
}

/// The prediction table's header: per target, the predicted time and S,
/// and where the target is the measured hardware the measured S and the
/// error.
inline std::vector<std::string> predictionHeader(const ExploreReport &report) {
  std::vector<std::string> header = {"configuration", "kernels"};
  for (const TargetPrediction &t : report.predictions) {
    header.push_back(t.target.name + " ms");
    header.push_back(t.target.name + " S");
    if (t.measuredHere) {
      header.push_back(t.target.name + " S measured");
      header.push_back("error");
    }
  }
  return header;
}

/// Alignment of the prediction table's columns.
inline std::string predictionAlignment(const ExploreReport &report) {
  return "l" + std::string(predictionHeader(report).size() - 1, 'r');
}

/// Whether configuration `i` has a prediction on some target.
inline bool isPredicted(const ExploreReport &report, size_t i) {
  for (const TargetPrediction &t : report.predictions)
    if (i < t.configurations.size() && t.configurations[i].predicted)
      return true;
  return false;
}

/// The prediction table's row of configuration `i`.
inline std::vector<std::string> predictionCells(const ExploreReport &report,
                                                size_t i) {
  std::vector<std::string> cells = {
      configName(report, i),
      i < report.measurements.size()
          ? std::to_string(report.measurements[i].kernelCosts.size())
          : "—"};
  for (const TargetPrediction &t : report.predictions) {
    const ConfigurationPrediction *p =
        i < t.configurations.size() && t.configurations[i].predicted
            ? &t.configurations[i]
            : nullptr;
    cells.push_back(p ? formatMs(p->predictedMs) : "—");
    cells.push_back(p && p->speedup > 0 ? formatSpeedup(p->speedup) : "—");
    if (t.measuredHere) {
      cells.push_back(
          p && p->measuredSpeedup ? formatSpeedup(*p->measuredSpeedup) : "—");
      cells.push_back(p && p->speedupError
                          ? formatDouble("%+.0f%%", *p->speedupError * 100)
                          : "—");
    }
  }
  return cells;
}

/// What a target's prediction concludes: the configuration predicted
/// fastest, and on the measured hardware the one measured fastest and the
/// mean error of S.
inline std::string describePredictionOutcome(const ExploreReport &report,
                                             const TargetPrediction &t) {
  std::string text = t.target.name + ": ";
  if (!t.fastest)
    return text + "no configuration to predict.";
  const ConfigurationPrediction &fastest = t.configurations[*t.fastest];
  text += "predicted fastest " + configName(report, *t.fastest) + " (S " +
          formatSpeedup(fastest.speedup) + ", " +
          formatPercent(fastest.launchShare) + " of its time fixed cost)";
  if (t.measuredFastest)
    text += "; measured fastest " + configName(report, *t.measuredFastest);
  if (t.meanAbsSpeedupError)
    text += "; mean |error| of S " + formatPercent(*t.meanAbsSpeedupError);
  if (t.meanTimeRatio)
    text += "; predicted times " + formatDouble("%.2f", *t.meanTimeRatio) +
            "x the measured (geometric mean)";
  return text + ".";
}

/// The figures of a pair in the synergy table: S_a, S_b, S_ab, η with its
/// interval, the verdict.
inline std::vector<std::string> pairFigureCells(const PairEffect &pair) {
  return {formatSpeedup(pair.speedupA), formatSpeedup(pair.speedupB),
          formatSpeedup(pair.speedupAB),
          formatEta(pair.eta) + " " + formatEtaInterval(pair.etaInterval),
          getSynergyVerdictName(pair.verdict)};
}

/// The figures of a kernel in the Amdahl table: ms, share f, bound, speedup
/// over the baseline's kernel.
inline std::vector<std::string> kernelFigureCells(const KernelEffect &kernel) {
  return {formatMs(kernel.msPerRun), formatPercent(kernel.share),
          formatBound(kernel.amdahlBound),
          kernel.speedupOverBaseline
              ? formatSpeedup(*kernel.speedupOverBaseline)
              : "—"};
}

/// The figures of a measured row of the batch-size sweep: median [q1–q3],
/// runs, samples/s, S, peak memory.
inline std::vector<std::string> batchFigureCells(const BatchMeasurement &b) {
  return {formatMs(b.medianMs) + " [" + formatMs(b.q1Ms) + "–" +
              formatMs(b.q3Ms) + "]",
          std::to_string(b.runs), formatDouble("%.0f", b.samplesPerSecond),
          formatSpeedup(b.speedup), formatBytes(b.peakBytes)};
}

/// With a memory limit and a batch sweep: per configuration swept, the
/// largest batch size whose measured peak fits the limit, and the first
/// that does not ("default: batches up to 8 fit 4.0 MiB; 16 needs 8.0
/// MiB"). Empty without a limit or a sweep.
inline std::vector<std::string> describeBatchLimits(const ExploreReport &report) {
  int64_t limit = report.analysis.criteria.memoryLimitBytes;
  std::vector<std::string> lines;
  if (limit <= 0 || report.batchSweep.empty())
    return lines;
  std::vector<std::string> names;
  for (const BatchMeasurement &b : report.batchSweep)
    if (!llvm::is_contained(names, b.configuration))
      names.push_back(b.configuration);
  for (const std::string &name : names) {
    std::vector<const BatchMeasurement *> rows;
    for (const BatchMeasurement &b : report.batchSweep)
      if (b.configuration == name && b.error.empty())
        rows.push_back(&b);
    llvm::sort(rows, [](const BatchMeasurement *a, const BatchMeasurement *b) {
      return a->batchSize < b->batchSize;
    });
    const BatchMeasurement *fits = nullptr, *exceeds = nullptr;
    for (const BatchMeasurement *b : rows) {
      if (b->peakBytes <= limit)
        fits = b;
      else if (!exceeds)
        exceeds = b;
    }
    std::string line = name + ": ";
    if (!fits)
      line += "no batch size measured fits " + formatBytes(limit);
    else
      line += "batches up to " + std::to_string(fits->batchSize) + " fit " +
              formatBytes(limit) + " (" + formatBytes(fits->peakBytes) + ")";
    if (exceeds)
      line += "; " + std::to_string(exceeds->batchSize) + " needs " +
              formatBytes(exceeds->peakBytes);
    lines.push_back(line);
  }
  return lines;
}

/// Whether the report holds timings (not a verify-mode run).
inline bool isTimed(const ExploreReport &report) {
  return report.analysis.effects.size() == report.configurations.size() &&
         !report.configurations.empty();
}

/// The cells of one row of the verification table (verify mode): name,
/// kind, pipeline, outputs, kernels, ops, static peak, compile split, note.
inline std::vector<std::string> verificationCells(const ExploreReport &report,
                                                  size_t i) {
  const Configuration &c = report.configurations[i];
  const ConfigurationMeasurement &m = report.measurements[i];
  bool compiled = m.status != ConfigurationStatus::CompileFailed &&
                  m.status != ConfigurationStatus::Skipped;
  std::string outputs =
      c.kind == ConfigurationKind::Baseline && m.status == ConfigurationStatus::Ok
          ? "reference"
      : m.status == ConfigurationStatus::Ok ? "match"
                                            : getConfigurationStatusName(m.status);
  std::string note = m.sameProgramAs.empty()
                         ? firstLine(m.error)
                         : "same program as " + m.sameProgramAs;
  return {c.name,
          getConfigurationKindName(c.kind),
          c.pipeline,
          outputs,
          compiled ? std::to_string(m.kernels) : "—",
          compiled ? std::to_string(m.ops) : "—",
          compiled ? formatBytes(m.staticPeakBytes) : "—",
          compiled ? formatMs(m.compileMs()) + " (" + formatMs(m.graphPassesMs) +
                         "/" + formatMs(m.loweringMs) + "/" +
                         formatMs(m.codegenMs) + ")"
                   : "—",
          note};
}

/// Where the run time of configuration `subject` goes: the kernels' sum
/// against the end-to-end median, and the bound of its largest kernel; ""
/// without kernel timings.
inline std::string describeKernelCoverage(const ExploreReport &report,
                                          size_t subject) {
  const EffectAnalysis &analysis = report.analysis;
  if (subject >= analysis.kernels.size() || analysis.kernels[subject].empty() ||
      subject >= analysis.effects.size())
    return "";
  double kernelMs = 0;
  const KernelEffect *largest = nullptr;
  for (const KernelEffect &k : analysis.kernels[subject]) {
    kernelMs += k.msPerRun;
    if (!largest || k.share > largest->share)
      largest = &k;
  }
  double runMs = analysis.effects[subject].medianMs;
  bool gpu = llvm::StringRef(report.setup.target).starts_with("cuda");
  bool cudaGraph =
      subject < report.configurations.size() &&
      runsLoweringPass(report.configurations[subject].loweringOptions,
                       "cuda-graph");
  std::string text = "The kernels take " + formatMs(kernelMs) + " ms";
  if (runMs > 0) {
    double covered = std::min(1.0, kernelMs / runMs);
    text += " of the " + formatMs(runMs) + " ms median run (" +
            formatPercent(covered) + "; kernel times come from " +
            (cudaGraph ? "CUDA events around each launch of the same "
                         "program launched with streams, in runs of their "
                         "own"
             : gpu     ? "CUDA events around each launch, in runs of their own"
                       : "a build with kernel timers") +
            "); the other " + formatPercent(1.0 - covered) +
            (cudaGraph ? " is spent outside kernels: the graph's launch and "
                         "the gaps between its nodes"
             : gpu     ? " is spent outside kernels: launches, host code, "
                         "allocation and synchronization"
                       : " is spent outside kernels: the calls between them, "
                         "buffer allocation and copies");
    // On the GPU, per launch: what a launch costs beyond its kernel.
    int64_t launches = subject < report.measurements.size()
                           ? report.measurements[subject].kernels
                           : 0;
    if (gpu && launches > 0)
      text += " (" +
              formatMs(1e3 * std::max(0.0, runMs - kernelMs) /
                       static_cast<double>(launches)) +
              " µs for each of its " + std::to_string(launches) + " kernels)";
  }
  text += ". The largest kernel, " + largest->name + ", holds f = " +
          formatPercent(largest->share) +
          ": speeding it up alone can make the kernels at most " +
          formatBound(largest->amdahlBound) + " faster.";
  return text;
}

/// The chosen configuration, when the analysis chose a valid one.
inline std::optional<size_t> chosenIndex(const ExploreReport &report) {
  const auto &index = report.analysis.choice.index;
  if (index && *index < report.configurations.size())
    return index;
  return std::nullopt;
}

/// The configuration the Amdahl view shows: the chosen one, or else the
/// default pipeline, when it has kernel figures.
inline std::optional<size_t> amdahlSubject(const ExploreReport &report) {
  std::optional<size_t> subject = chosenIndex(report);
  if (!subject) {
    for (size_t i = 0, e = report.configurations.size(); i < e; ++i) {
      if (report.configurations[i].kind == ConfigurationKind::Default) {
        subject = i;
        break;
      }
    }
  }
  if (subject && *subject < report.analysis.kernels.size())
    return subject;
  return std::nullopt;
}

/// Kernel indices by descending share (ties keep their order).
inline std::vector<size_t>
kernelsByShare(const std::vector<KernelEffect> &kernels) {
  std::vector<size_t> order(kernels.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return kernels[a].share > kernels[b].share;
  });
  return order;
}

/// How many kernels the Amdahl views list before "N more".
constexpr size_t kTopKernels = 10;

/// U of configuration `config` at alphaTable[alpha]; utilityTable holds one
/// row per alpha with one entry per configuration.
inline std::optional<double> utilityAt(const EffectAnalysis &analysis,
                                       size_t alpha, size_t config) {
  if (alpha >= analysis.utilityTable.size() ||
      config >= analysis.utilityTable[alpha].size())
    return std::nullopt;
  return analysis.utilityTable[alpha][config];
}

/// The highest utility at each α of the table over `rows`, for emphasis.
inline std::vector<std::optional<double>>
bestUtilityPerAlpha(const EffectAnalysis &analysis,
                    const std::vector<size_t> &rows) {
  std::vector<std::optional<double>> best(analysis.alphaTable.size());
  for (size_t a = 0, e = analysis.alphaTable.size(); a < e; ++a)
    for (size_t i : rows)
      if (std::optional<double> u = utilityAt(analysis, a, i))
        if (!best[a] || *u > *best[a])
          best[a] = u;
  return best;
}

/// The utility table's header: "configuration", then "α=<alpha>" per α.
inline std::vector<std::string> utilityHeader(const EffectAnalysis &analysis) {
  std::vector<std::string> header = {"configuration"};
  for (double alpha : analysis.alphaTable)
    header.push_back("α=" + formatDouble("%g", alpha));
  return header;
}

/// Configuration `i`'s U at each α ("—" where there is none); the highest
/// at an α (`best`) goes through `emphasize`.
inline std::vector<std::string>
utilityCells(const EffectAnalysis &analysis, size_t i,
             const std::vector<std::optional<double>> &best,
             llvm::function_ref<std::string(const std::string &)> emphasize) {
  std::vector<std::string> cells;
  for (size_t a = 0, e = analysis.alphaTable.size(); a < e; ++a) {
    std::optional<double> u = utilityAt(analysis, a, i);
    if (!u) {
      cells.push_back("—");
      continue;
    }
    std::string text = formatDouble("%.3f", *u);
    cells.push_back(best[a] && *u == *best[a] ? emphasize(text) : text);
  }
  return cells;
}

/// "Intel Xeon ..., 16 cores".
inline std::string describeMachine(const ExploreSetup &setup) {
  std::string text = setup.cpuModel.empty() ? "unknown CPU" : setup.cpuModel;
  return text + ", " + std::to_string(setup.cores) + " cores";
}

/// "10 repetitions per round (more to fill 20 ms) × 3 rounds after 2 warmup
/// runs".
inline std::string describeRepetitions(const ExploreSetup &setup) {
  std::string text = std::to_string(setup.repetitionsPerRound) +
                     " repetitions per round";
  if (setup.roundMilliseconds > 0) {
    char fill[64];
    std::snprintf(fill, sizeof(fill), " (more to fill %g ms)",
                  setup.roundMilliseconds);
    text += fill;
  }
  return text + " × " + std::to_string(setup.rounds) + " rounds after " +
         std::to_string(setup.warmup) + " warmup runs";
}

/// "stop when every relative standard error of the round medians
/// (CV/√rounds) is ≤ 0.5% or after a 30.0 s budget".
inline std::string describeStopRule(const ExploreSetup &setup) {
  if (!setup.recordedRunsDir.empty())
    return "runs recorded on the device by scripts/gpu-explore.sh (" +
           setup.recordedRunsDir + "), every recorded round used";
  return "stop when every relative standard error of the round medians "
         "(CV/√rounds) is ≤ " +
         formatPercent(setup.targetRelativeError) + " or after a " +
         formatSeconds(setup.budgetSeconds) + " budget";
}

/// What was timed: repetitions and stop rule, or that nothing was.
inline std::string describeTiming(const ExploreSetup &setup, bool timed) {
  if (!timed)
    return "outputs checked only, nothing timed";
  return describeRepetitions(setup) + ", " + describeStopRule(setup);
}

/// "31.3 s: compiling 20.1 s, checking 1.2 s, timing 9.5 s, statistics
/// 0.012 s" (profiling kernels when it took any time).
inline std::string describeElapsed(const ExploreSetup &setup) {
  if (!setup.reusedMeasurements.empty())
    return formatSeconds(setup.elapsedSeconds) +
           " (statistics only: the runs were reused)";
  std::string text = formatSeconds(setup.elapsedSeconds) + ": compiling " +
                     formatSeconds(setup.compileSeconds) + ", checking " +
                     formatSeconds(setup.checkSeconds) + ", timing " +
                     formatSeconds(setup.measureSeconds);
  if (setup.profileSeconds > 0)
    text += ", profiling kernels " + formatSeconds(setup.profileSeconds);
  text += ", statistics " + formatSeconds(setup.analysisSeconds);
  return text;
}

/// "timed 2026-12-04 22:30 UTC" for a reused record's time stamp.
inline std::string describeMeasuredAt(int64_t secondsSinceEpoch) {
  if (secondsSinceEpoch <= 0)
    return "timed earlier";
  std::time_t t = static_cast<std::time_t>(secondsSinceEpoch);
  std::tm utc{};
  gmtime_r(&t, &utc);
  char text[64];
  std::strftime(text, sizeof(text), "timed %Y-%m-%d %H:%M UTC", &utc);
  return text;
}

/// "3 configurations shared a program compiled once; compile cache
/// <dir>: 4 hits, 1 miss" (or "compile cache off"); for reused runs, where
/// they came from.
inline std::string describeCache(const ExploreSetup &setup) {
  if (!setup.reusedMeasurements.empty())
    return "nothing compiled or timed: the runs of an identical exploration "
           "(same model, machine, build and settings) were reused from " +
           setup.reusedMeasurements + ", " +
           describeMeasuredAt(setup.measuredAt) +
           ", and analyzed with this run's criteria (--remeasure times anew)";
  std::string text = std::to_string(setup.sharedPrograms) +
                     (setup.sharedPrograms == 1 ? " configuration" : " configurations") +
                     " shared a program compiled once; ";
  if (setup.cacheDir.empty())
    return text + "compile cache off";
  return text + "compile cache " + setup.cacheDir + ": " +
         std::to_string(setup.cacheHits) +
         (setup.cacheHits == 1 ? " hit, " : " hits, ") +
         std::to_string(setup.cacheMisses) +
         (setup.cacheMisses == 1 ? " miss" : " misses");
}

/// The range of CV over the valid configurations: "CV 0.5%–3.2%", or "" when
/// none is valid.
inline std::string describeCVRange(const ExploreReport &report) {
  std::optional<double> low, high;
  for (size_t i = 0, e = report.analysis.effects.size(); i < e; ++i) {
    if (!isValid(report, i))
      continue;
    double cv = report.analysis.effects[i].cv;
    low = low ? std::min(*low, cv) : cv;
    high = high ? std::max(*high, cv) : cv;
  }
  if (!low)
    return "";
  return "CV " + formatPercent(*low) + "–" + formatPercent(*high);
}

} // namespace report_detail
} // namespace gopt
} // namespace mlir

#endif // GOPT_LIB_EXPLORE_REPORTFORMAT_H
