//===- ReportHTML.cpp - gopt-explore's self-contained HTML page -----------===//
//
// One page with no external resource and no script: an inline style sheet,
// the tables of the Markdown summary, and four inline SVG charts (the Pareto
// scatter, the synergy heat map, the run time / op count waterfall and the
// Amdahl bars), each captioned with the machine, the repetitions and the
// spread. Every number is read from the report; the charts only place it.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Explore/Report.h"

#include "ReportFormat.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::gopt;
using namespace mlir::gopt::report_detail;

//===----------------------------------------------------------------------===//
// Page and tables
//===----------------------------------------------------------------------===//

/// The inline style sheet.
static constexpr const char *kStyle = R"css(
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 96em;
       color: #222; line-height: 1.4; padding: 0 1em; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; }
table { border-collapse: collapse; margin: 0.5em 0; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.5em; vertical-align: top; }
th { background: #f2f2f2; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums;
         white-space: nowrap; }
tr.excluded td { color: #888; background: #fafafa; }
tr.chosen td { background: #fff8dc; }
code { font-size: 0.95em; }
.note { color: #666; font-style: italic; }
figure { margin: 1.5em 0; }
figcaption { font-size: 0.85em; color: #444; max-width: 60em; }
svg { font-family: system-ui, sans-serif; font-size: 11px; }
svg .axis { stroke: #444; stroke-width: 1; }
svg .grid { stroke: #e4e4e4; stroke-width: 1; }
svg .ref { stroke: #999; stroke-dasharray: 4 3; }
svg .title { font-size: 12px; fill: #222; }
svg .pareto { fill: #d95f02; fill-opacity: 0.8; stroke: #a34200; }
svg .dominated { fill: none; stroke: #555; stroke-width: 1.5; }
svg .err { stroke: #555; stroke-width: 1; }
svg .leader { stroke: #999; stroke-width: 0.75; }
svg .bar { fill: #7ba7d1; }
svg .whisker { stroke: #1f3f5f; stroke-width: 1.5; }
svg .ops { fill: none; stroke: #d95f02; stroke-width: 2; }
svg .cdf { fill: none; stroke-width: 2; }
svg .opsdot { fill: #d95f02; }
svg .share { fill: #66a061; }
svg .cell { stroke: #fff; stroke-width: 1; }
svg .empty { fill: none; stroke: #ddd; }
)css";

/// Writes a table row; cells are HTML already (escaped by the caller), and
/// those whose letter in `align` is 'r' (numbers) align right.
static void writeRow(llvm::raw_ostream &os, llvm::ArrayRef<std::string> cells,
                     llvm::StringRef align, llvm::StringRef rowClass = "") {
  os << "<tr";
  if (!rowClass.empty())
    os << " class=\"" << rowClass << "\"";
  os << ">";
  for (size_t i = 0, e = cells.size(); i < e; ++i)
    os << (i < align.size() && align[i] == 'r' ? "<td class=\"num\">" : "<td>")
       << cells[i] << "</td>";
  os << "</tr>\n";
}

/// Opens a table with its header row; header texts are escaped here.
static void openTable(llvm::raw_ostream &os, llvm::StringRef id,
                      llvm::ArrayRef<std::string> header) {
  os << "<table id=\"" << id << "\">\n<thead><tr>";
  for (const std::string &cell : header)
    os << "<th>" << escapeHTML(cell) << "</th>";
  os << "</tr></thead>\n<tbody>\n";
}

static void closeTable(llvm::raw_ostream &os) { os << "</tbody>\n</table>\n"; }

/// Text as escaped inline code.
static std::string code(llvm::StringRef text) {
  return "<code>" + escapeHTML(text) + "</code>";
}

static void writeSetup(const ExploreReport &report, llvm::raw_ostream &os) {
  const ExploreSetup &setup = report.setup;
  const ChoiceCriteria &criteria = report.analysis.criteria;
  os << "<h1>gopt-explore: " << escapeHTML(setup.model) << "</h1>\n<p>Model "
     << code(setup.model);
  if (!setup.modelHash.empty())
    os << " (IR hash " << code(setup.modelHash) << ")";
  if (!setup.entry.empty())
    os << ", entry " << code("@" + setup.entry);
  if (!setup.toolVersion.empty())
    os << ", gopt-explore " << escapeHTML(setup.toolVersion);
  os << ".</p>\n";

  os << "<p id=\"setup\"><strong>Setup:</strong> "
     << escapeHTML(describeMachine(setup)) << ", target " << code(setup.target)
     << ", mode " << code(setup.mode) << "; "
     << escapeHTML(describeTiming(setup, isTimed(report))) << "; tolerances "
     << llvm::format("rtol %g, atol %g", setup.rtol, setup.atol) << "; elapsed "
     << describeElapsed(setup) << "; "
     << escapeHTML(describeCache(setup)) << ".</p>\n";
  if (setup.interrupted)
    os << "<p><strong>Interrupted</strong> (Ctrl-C): the figures cover only "
          "the rounds and configurations measured before it.</p>\n";
  if (!isTimed(report))
    return;

  os << "<p>Run times are medians over every timed repetition with their "
        "q1–q3 spread; S = T_base / T_opt, the geometric mean over the "
        "rounds both were timed in, with its 95% interval (Student-t over "
        "those rounds); "
        "U at "
     << llvm::format("α = %g", criteria.alpha);
  if (criteria.qps > 0)
    os << llvm::format(", payback at %g requests/s", criteria.qps);
  if (criteria.memoryLimitBytes > 0)
    os << ", memory limit " << formatBytes(criteria.memoryLimitBytes);
  if (criteria.p99BoundMs > 0)
    os << ", p99 bound " << formatMs(criteria.p99BoundMs) << " ms";
  os << ".</p>\n";
}

static void writeConfigurations(const ExploreReport &report,
                                llvm::raw_ostream &os) {
  const EffectAnalysis &analysis = report.analysis;
  os << "<h2>Configurations</h2>\n";
  if (report.configurations.empty()) {
    os << "<p class=\"note\">No configuration measured.</p>\n";
    return;
  }
  llvm::StringRef align = "llllrrrrrrrrrrrl";
  openTable(os, "configurations",
            {"configuration", "kind", "pipeline", "status", "median ms [q1–q3]",
             "CV", "S [95% CI]", "kernels", "ops", "peak memory", "η_mem",
             "static estimate (η_mem)", "compile ms (graph/lowering/codegen)",
             "break-even requests",
             "U(α=" + formatDouble("%g", analysis.criteria.alpha) + ")",
             "Pareto"});
  std::optional<size_t> chosen = chosenIndex(report);
  for (size_t i = 0, e = report.configurations.size(); i < e; ++i) {
    const Configuration &config = report.configurations[i];
    const ConfigurationMeasurement *m =
        i < report.measurements.size() ? &report.measurements[i] : nullptr;
    std::string name = escapeHTML(config.name);
    if (chosen && *chosen == i)
      name = "<strong>" + name + "</strong> (chosen)";
    if (m && !m->sameProgramAs.empty())
      name += " <small>(same program as " + escapeHTML(m->sameProgramAs) +
              ")</small>";
    std::vector<std::string> cells = {
        name, getConfigurationKindName(config.kind),
        config.pipeline.empty() ? "—" : code(config.pipeline)};
    if (!config.loweringOptions.empty())
      cells.back() += ", lowering " + code(config.loweringOptions);
    if (!isValid(report, i) || !m) {
      cells.push_back(escapeHTML(exclusionStatus(report, i)));
      os << "<tr class=\"excluded\">";
      for (const std::string &cell : cells)
        os << "<td>" << cell << "</td>";
      os << "<td colspan=\"12\">excluded</td></tr>\n";
      continue;
    }
    llvm::append_range(cells, configurationFigureCells(report, i));
    writeRow(os, cells, align, chosen && *chosen == i ? "chosen" : "");
  }
  closeTable(os);
}

static void writeExcluded(const ExploreReport &report, llvm::raw_ostream &os) {
  os << "<h2>Excluded configurations</h2>\n";
  bool any = false;
  for (size_t i = 0, e = report.configurations.size(); i < e; ++i) {
    if (isValid(report, i))
      continue;
    if (!any)
      os << "<ul id=\"excluded\">\n";
    any = true;
    const Configuration &config = report.configurations[i];
    os << "<li>" << code(config.name) << " ("
       << getConfigurationKindName(config.kind) << "): <strong>"
       << escapeHTML(exclusionStatus(report, i)) << "</strong>";
    if (i < report.measurements.size() && !report.measurements[i].error.empty())
      os << " — " << escapeHTML(firstLine(report.measurements[i].error));
    os << " — excluded from the analysis.</li>\n";
  }
  if (any)
    os << "</ul>\n";
  else
    os << "<p class=\"note\">None: every configuration is valid.</p>\n";
}

/// Where each valid configuration's peak memory comes from.
static void writeMemoryTable(const ExploreReport &report,
                             llvm::raw_ostream &os) {
  os << "<h2>Memory</h2>\n<p>" << escapeHTML(kMemoryTableIntro) << "</p>\n";
  openTable(os, "memory", memoryHeader());
  for (size_t i = 0, e = report.configurations.size(); i < e; ++i) {
    if (!isValid(report, i) || i >= report.measurements.size())
      continue;
    std::vector<std::string> cells = memoryCells(report, i);
    for (std::string &cell : cells)
      cell = escapeHTML(cell);
    writeRow(os, cells, "lrrrrrrrrrrr");
  }
  closeTable(os);
}

/// Each load-tested program under load.
static void writeLoadTable(const ExploreReport &report, llvm::raw_ostream &os) {
  if (!isLoadTested(report))
    return;
  os << "<h2>Latency under load</h2>\n<p>" << escapeHTML(kLoadTableIntro)
     << "</p>\n";
  openTable(os, "load", loadHeader(report));
  for (size_t i = 0, e = report.configurations.size(); i < e; ++i) {
    if (!isValid(report, i) || !report.measurements[i].load ||
        !report.measurements[i].sameProgramAs.empty())
      continue;
    std::vector<std::string> cells = loadCells(report, i);
    for (std::string &cell : cells)
      cell = escapeHTML(cell);
    writeRow(os, cells, "lrrrrrrrr");
  }
  closeTable(os);
}

/// The analysis at every shape of --shapes and the classes.
static void writeShapeClasses(const ExploreReport &report,
                              llvm::raw_ostream &os) {
  const ShapeClassing &classing = report.shapeClasses;
  if (classing.shapes.empty())
    return;
  os << "<h2>Shape classes</h2>\n<p>" << escapeHTML(kShapeClassesIntro)
     << "</p>\n";
  openTable(os, "shapes", shapeHeader());
  for (size_t s = 0; s < classing.shapes.size(); ++s) {
    std::vector<std::string> cells = shapeCells(classing, s);
    for (std::string &cell : cells)
      cell = escapeHTML(cell);
    writeRow(os, cells, "llrll");
  }
  closeTable(os);
  openTable(os, "shape-classes", shapeClassHeader());
  for (size_t c = 0; c < classing.classes.size(); ++c) {
    std::vector<std::string> cells = shapeClassCells(classing, c);
    for (std::string &cell : cells)
      cell = escapeHTML(cell);
    writeRow(os, cells, "lllll");
  }
  closeTable(os);
  os << "<p>Rule: " << escapeHTML(describeShapeRule(classing)) << ".</p>\n";
}

/// Every configuration predicted on the targets of --predict.
static void writePredictionTable(const ExploreReport &report,
                                 llvm::raw_ostream &os) {
  if (report.predictions.empty())
    return;
  os << "<h2>Prediction for hardware not at hand</h2>\n<p>"
     << escapeHTML(kPredictionIntro) << "</p>\n<ul>\n";
  for (const TargetPrediction &t : report.predictions)
    os << "<li>" << escapeHTML(describePredictionTarget(t)) << "</li>\n";
  os << "</ul>\n";
  openTable(os, "prediction", predictionHeader(report));
  std::string alignment = predictionAlignment(report);
  for (size_t i = 0, e = report.configurations.size(); i < e; ++i) {
    if (!isPredicted(report, i))
      continue;
    std::vector<std::string> cells = predictionCells(report, i);
    for (std::string &cell : cells)
      cell = escapeHTML(cell);
    writeRow(os, cells, alignment);
  }
  closeTable(os);
  os << "<ul>\n";
  for (const TargetPrediction &t : report.predictions)
    os << "<li>" << escapeHTML(describePredictionOutcome(report, t))
       << "</li>\n";
  os << "</ul>\n";
}

static void writeSynergyTable(const ExploreReport &report,
                              llvm::raw_ostream &os) {
  const EffectAnalysis &analysis = report.analysis;
  if (analysis.pairs.empty()) {
    os << "<p class=\"note\">No pair measured.</p>\n";
    return;
  }
  os << "<p>η = S_ab / (S_a · S_b) with its 95% interval: synergy "
        "above 1, interference below, and a verdict only when the interval "
        "excludes 1.</p>\n";
  llvm::StringRef align = "lrrrrl";
  openTable(os, "synergy",
            {"pair (a → b)", "S_a", "S_b", "S_ab", "η [95% CI]", "verdict"});
  for (const PairEffect &pair : analysis.pairs) {
    std::vector<std::string> cells = {escapeHTML(
        configName(report, pair.a) + " → " + configName(report, pair.b))};
    llvm::append_range(cells, pairFigureCells(pair));
    writeRow(os, cells, align);
  }
  closeTable(os);
}

static void writeUtilityTable(const ExploreReport &report,
                              llvm::raw_ostream &os) {
  const EffectAnalysis &analysis = report.analysis;
  os << "<h2>Utility U(α)</h2>\n";
  std::vector<size_t> rows = validConfigurations(report);
  if (analysis.alphaTable.empty() || rows.empty()) {
    os << "<p class=\"note\">No utility table.</p>\n";
    return;
  }
  os << "<p>U = S / (1 + α · T_compile / T_run); the highest U at each α in "
        "bold.</p>\n";
  std::string align = "l" + std::string(analysis.alphaTable.size(), 'r');
  openTable(os, "utility", utilityHeader(analysis));
  std::vector<std::optional<double>> best =
      bestUtilityPerAlpha(analysis, rows);
  for (size_t i : rows) {
    std::vector<std::string> cells = {
        escapeHTML(report.configurations[i].name)};
    llvm::append_range(
        cells, utilityCells(analysis, i, best, [](const std::string &text) {
          return "<strong>" + text + "</strong>";
        }));
    writeRow(os, cells, align);
  }
  closeTable(os);
}

static void writeAmdahlTable(const ExploreReport &report, size_t subject,
                             llvm::raw_ostream &os) {
  const std::vector<KernelEffect> &kernels = report.analysis.kernels[subject];
  if (kernels.empty()) {
    os << "<p class=\"note\">No kernel timings for "
       << code(configName(report, subject))
       << escapeHTML(missingKernelsReason(report, subject)) << ".</p>\n";
    return;
  }
  os << "<p>Kernel times are medians per run; f is the kernel's share of the "
        "kernel times and 1/(1 − f) the most a speedup of that kernel alone "
        "can buy. "
     << escapeHTML(describeKernelCoverage(report, subject)) << "</p>\n";
  llvm::StringRef align = "lrrrr";
  openTable(
      os, "amdahl",
      {"kernel", "ms", "share f", "bound 1/(1 − f)", "speedup over baseline"});
  std::vector<size_t> order = kernelsByShare(kernels);
  for (size_t rank = 0; rank < order.size() && rank < kTopKernels; ++rank) {
    const KernelEffect &kernel = kernels[order[rank]];
    std::vector<std::string> cells = {code(kernel.name)};
    llvm::append_range(cells, kernelFigureCells(kernel));
    writeRow(os, cells, align);
  }
  closeTable(os);
  if (order.size() > kTopKernels)
    os << "<p>" << order.size() - kTopKernels << " more kernels.</p>\n";
}

static void writeChoice(const ExploreReport &report, llvm::raw_ostream &os) {
  os << "<h2>Choice</h2>\n<p id=\"choice\">";
  std::optional<size_t> chosen = chosenIndex(report);
  if (chosen) {
    const Configuration &config = report.configurations[*chosen];
    os << "Chosen: <strong>" << escapeHTML(config.name) << "</strong>";
    if (!config.pipeline.empty())
      os << " (" << code(config.pipeline) << ")";
    if (!config.loweringOptions.empty())
      os << ", lowered with " << code(config.loweringOptions);
    os << ".";
  } else {
    os << "No configuration chosen.";
  }
  os << "</p>\n";
  if (!report.analysis.choice.reason.empty())
    os << "<p>" << escapeHTML(report.analysis.choice.reason) << "</p>\n";
}

//===----------------------------------------------------------------------===//
// Charts
//===----------------------------------------------------------------------===//

/// A pixel coordinate.
static std::string px(double value) { return formatDouble("%.1f", value); }

/// A linear map from [lo, hi] onto the pixels [from, to], with round ticks.
struct Scale {
  double lo = 0, hi = 1, step = 1;
  double from = 0, to = 1;

  double operator()(double value) const {
    return from + (value - lo) / (hi - lo) * (to - from);
  }
  std::vector<double> ticks() const {
    std::vector<double> values;
    for (int k = 0; lo + k * step <= hi + step * 1e-9; ++k)
      values.push_back(lo + k * step);
    return values;
  }
};

/// A scale over [lo, hi] widened to multiples of a 1-2-5 step, about
/// `count` ticks.
static Scale niceScale(double lo, double hi, double from, double to,
                       int count = 5) {
  if (!std::isfinite(lo) || !std::isfinite(hi)) {
    lo = 0;
    hi = 1;
  }
  if (hi <= lo)
    hi = lo + (lo == 0 ? 1 : std::fabs(lo) * 0.1);
  double raw = (hi - lo) / count;
  double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double normalized = raw / magnitude;
  double step = (normalized < 1.5   ? 1
                 : normalized < 3.0 ? 2
                 : normalized < 7.0 ? 5
                                    : 10) *
                magnitude;
  Scale scale;
  scale.step = step;
  scale.lo = std::floor(lo / step + 1e-9) * step;
  scale.hi = std::ceil(hi / step - 1e-9) * step;
  if (scale.hi <= scale.lo)
    scale.hi = scale.lo + step;
  scale.from = from;
  scale.to = to;
  return scale;
}

/// A tick label: up to four significant digits, "-0" as "0".
static std::string tickLabel(double value) {
  if (std::fabs(value) < 1e-12)
    value = 0;
  return formatDouble("%.4g", value);
}

/// Opens a figure and its SVG canvas.
static void openSVG(llvm::raw_ostream &os, llvm::StringRef id, double width,
                    double height, llvm::StringRef label) {
  os << "<figure id=\"" << id << "\">\n<svg width=\"" << px(width)
     << "\" height=\"" << px(height) << "\" viewBox=\"0 0 " << px(width) << " "
     << px(height) << "\" role=\"img\" aria-label=\"" << escapeHTML(label)
     << "\">\n";
}

/// Closes the SVG canvas and the figure with its caption.
static void closeSVG(llvm::raw_ostream &os, llvm::StringRef caption) {
  os << "</svg>\n<figcaption>" << caption << "</figcaption>\n</figure>\n";
}

/// A figure with nothing to plot: a note in place of the chart.
static void writeEmptyFigure(llvm::raw_ostream &os, llvm::StringRef id,
                             llvm::StringRef note, llvm::StringRef caption) {
  os << "<figure id=\"" << id << "\">\n<p class=\"note\">" << escapeHTML(note)
     << "</p>\n<figcaption>" << caption << "</figcaption>\n</figure>\n";
}

static void line(llvm::raw_ostream &os, double x1, double y1, double x2,
                 double y2, llvm::StringRef cls) {
  os << "<line class=\"" << cls << "\" x1=\"" << px(x1) << "\" y1=\"" << px(y1)
     << "\" x2=\"" << px(x2) << "\" y2=\"" << px(y2) << "\"/>\n";
}

static void text(llvm::raw_ostream &os, double x, double y,
                 llvm::StringRef content, llvm::StringRef anchor = "start",
                 llvm::StringRef extra = "") {
  os << "<text x=\"" << px(x) << "\" y=\"" << px(y) << "\" text-anchor=\""
     << anchor << "\"";
  if (!extra.empty())
    os << " " << extra;
  os << ">" << escapeHTML(content) << "</text>\n";
}

/// A horizontal axis at pixel row `y` with ticks, grid lines up to `gridTop`
/// and a title.
static void xAxis(llvm::raw_ostream &os, const Scale &x, double y,
                  double gridTop, llvm::StringRef title, bool percent = false) {
  for (double tick : x.ticks()) {
    line(os, x(tick), gridTop, x(tick), y, "grid");
    line(os, x(tick), y, x(tick), y + 4, "axis");
    text(os, x(tick), y + 15,
         percent ? tickLabel(tick * 100) + "%" : tickLabel(tick), "middle");
  }
  line(os, x.from, y, x.to, y, "axis");
  text(os, (x.from + x.to) / 2, y + 32, title, "middle", "class=\"title\"");
}

/// A vertical axis at pixel column `x` with ticks and a rotated title; the
/// grid reaches `gridRight` (equal to `x` for none), labels go on the left or
/// the right.
static void yAxis(llvm::raw_ostream &os, const Scale &y, double x,
                  double gridRight, llvm::StringRef title, bool right) {
  double sign = right ? 1 : -1;
  for (double tick : y.ticks()) {
    if (gridRight != x)
      line(os, x, y(tick), gridRight, y(tick), "grid");
    line(os, x, y(tick), x + 4 * sign, y(tick), "axis");
    text(os, x + 7 * sign, y(tick) + 4, tickLabel(tick),
         right ? "start" : "end");
  }
  line(os, x, y.from, x, y.to, "axis");
  double titleX = x + 48 * sign, titleY = (y.from + y.to) / 2;
  text(os, titleX, titleY, title, "middle",
       "class=\"title\" transform=\"rotate(-90 " + px(titleX) + " " +
           px(titleY) + ")\"");
}

/// The caption's statement of how the figures were measured.
static std::string measuredOn(const ExploreReport &report,
                              llvm::StringRef spread) {
  std::string caption = "Measured on " + describeMachine(report.setup) + " (" +
                        report.setup.target + "), " +
                        describeRepetitions(report.setup) +
                        "; spread: " + spread.str();
  std::string cv = describeCVRange(report);
  if (!cv.empty())
    caption += "; run-time " + cv;
  return escapeHTML(caption + ".");
}

/// Characters of a UTF-8 label (its width in a proportional font is
/// estimated from them).
static size_t columnsOfLabel(llvm::StringRef text) {
  return llvm::count_if(text, [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  });
}

namespace {
/// A marker to label: its centre and radius in SVG pixels, its text, the
/// configuration whose program it is, and whether it is on the frontier.
struct PointLabel {
  double x, y, r;
  std::string text, owner;
  bool frontier;
};

/// A label's box in SVG pixels (x, y: top left).
struct LabelBox {
  double x, y, w, h;
  bool overlaps(const LabelBox &o) const {
    return x < o.x + o.w && o.x < x + w && y < o.y + o.h && o.y < y + h;
  }
};
} // namespace

/// Places one text label per point without overlapping another label or a
/// marker, as a plotting library's label repelling does, greedily in the
/// order given: beside the point on its right (its left when the right is
/// taken or out of the plot), else moved up or down a line at a time, with a
/// leader line back to the point when moved. Sizes are estimated from the
/// characters (11 px font).
static void placeLabels(llvm::raw_ostream &os,
                        llvm::ArrayRef<PointLabel> points, double plotLeft,
                        double plotRight, double plotTop, double plotBottom) {
  const double lineHeight = 13, charWidth = 6.2;
  // The markers are in the way too.
  std::vector<LabelBox> placed;
  for (const PointLabel &p : points)
    placed.push_back({p.x - p.r, p.y - p.r, 2 * p.r, 2 * p.r});
  for (const PointLabel &point : points) {
    double cx = point.x, cy = point.y, r = point.r;
    double w = charWidth * static_cast<double>(columnsOfLabel(point.text));
    bool done = false;
    LabelBox box{};
    bool rightSide = true;
    for (int step = 0; step <= 40 && !done; ++step) {
      // 0, +1, -1, +2, -2, ... lines from the point's row.
      int k = (step + 1) / 2 * (step % 2 ? 1 : -1);
      double top = cy - lineHeight / 2 - 3 + k * lineHeight;
      for (bool right : {true, false}) {
        double left = right ? cx + r + 3 : cx - r - 3 - w;
        LabelBox candidate{left, top, w, lineHeight};
        if (left < plotLeft || left + w > plotRight || top < plotTop - 10 ||
            top + lineHeight > plotBottom)
          continue;
        if (llvm::any_of(placed, [&](const LabelBox &o) {
              return o.overlaps(candidate);
            }))
          continue;
        box = candidate;
        rightSide = right;
        done = true;
        break;
      }
    }
    if (!done) // Nowhere free: beside the point, as before.
      box = {cx + r + 3, cy - lineHeight / 2 - 3, w, lineHeight};
    placed.push_back(box);
    double baseline = box.y + lineHeight - 3;
    if (std::fabs(box.y + lineHeight / 2 + 3 - cy) > 1)
      line(os, cx, cy, rightSide ? box.x - 1 : box.x + w + 1,
           box.y + lineHeight / 2, "leader");
    text(os, box.x, baseline, point.text);
  }
}

/// Figure 1: compile time against speedup, marker area ∝ peak memory, the
/// Pareto frontier filled and dominated points hollow.
static void writeParetoChart(const ExploreReport &report,
                             llvm::raw_ostream &os) {
  const EffectAnalysis &analysis = report.analysis;
  std::vector<size_t> points = validConfigurations(report);
  std::string caption =
      "<strong>Figure 1.</strong> Pareto view: compile time against speedup S "
      "= T_base / T_opt; marker area proportional to measured peak memory; "
      "filled markers are Pareto-optimal (speedup, compile time, peak "
      "memory), hollow ones dominated; the dashed line is the baseline (S = "
      "1). " +
      measuredOn(report, "error bars are the 95% interval of S");
  if (points.empty()) {
    writeEmptyFigure(os, "pareto-chart", "No valid configuration to plot.",
                     caption);
    return;
  }
  double xMax = 0, yMin = 1, yMax = 1;
  int64_t peakMax = 0;
  for (size_t i : points) {
    const ConfigurationEffect &effect = analysis.effects[i];
    xMax = std::max(xMax, effect.compileMs);
    yMin = std::min({yMin, effect.speedup, effect.speedupInterval.low});
    yMax = std::max({yMax, effect.speedup, effect.speedupInterval.high});
    peakMax = std::max(peakMax, report.measurements[i].peakBytes);
  }
  const double width = 720, height = 440;
  const double left = 70, right = 130, top = 20, bottom = 60;
  // A margin around the points so that none sits on an axis.
  double yPad = 0.05 * (yMax - yMin);
  Scale x = niceScale(0, xMax * 1.05, left, width - right);
  Scale y = niceScale(yMin - yPad, yMax + yPad, height - bottom, top);
  openSVG(os, "pareto-chart", width, height,
          "Pareto scatter of compile time against speedup");
  xAxis(os, x, height - bottom, top, "compile time (ms)");
  yAxis(os, y, left, width - right, "speedup S (T_base / T_opt)", false);
  if (y.lo <= 1 && 1 <= y.hi)
    line(os, x.from, y(1), x.to, y(1), "ref");
  const double rMin = 2.5, rMax = 16;
  // Configurations that share a program sit on one point: one label names
  // them all.
  std::vector<PointLabel> labels;
  for (size_t i : points) {
    const ConfigurationEffect &effect = analysis.effects[i];
    const ConfigurationMeasurement &m = report.measurements[i];
    double cx = x(effect.compileMs), cy = y(effect.speedup);
    double r = peakMax > 0 ? rMax * std::sqrt(static_cast<double>(m.peakBytes) /
                                              static_cast<double>(peakMax))
                           : rMin;
    r = std::max(r, rMin);
    double lo = y(effect.speedupInterval.low);
    double hi = y(effect.speedupInterval.high);
    line(os, cx, lo, cx, hi, "err");
    line(os, cx - 4, lo, cx + 4, lo, "err");
    line(os, cx - 4, hi, cx + 4, hi, "err");
    os << "<circle class=\"" << (effect.pareto ? "pareto" : "dominated")
       << "\" cx=\"" << px(cx) << "\" cy=\"" << px(cy) << "\" r=\"" << px(r)
       << "\"><title>"
       << escapeHTML(report.configurations[i].name + ": S " +
                     formatSpeedup(effect.speedup) + " " +
                     formatSpeedupInterval(effect.speedupInterval) +
                     ", compile " + formatMs(effect.compileMs) + " ms, peak " +
                     formatBytes(m.peakBytes))
       << "</title></circle>\n";
    // A shared program joins its owner's label.
    const std::string &name = report.configurations[i].name;
    auto owner = llvm::find_if(labels, [&](const PointLabel &l) {
      return l.owner == m.sameProgramAs;
    });
    if (!m.sameProgramAs.empty() && owner != labels.end()) {
      owner->text += " = " + name;
      continue;
    }
    labels.push_back({cx, cy, r, name, name, effect.pareto});
  }
  // The frontier's labels first, then by speedup (higher on the chart):
  // the interesting points keep their place beside the marker.
  std::stable_sort(labels.begin(), labels.end(),
                   [](const PointLabel &a, const PointLabel &b) {
                     if (a.frontier != b.frontier)
                       return a.frontier;
                     return a.y < b.y;
                   });
  placeLabels(os, labels, 0, width, top, height - bottom + 20);
  closeSVG(os, caption);
}

/// A diverging colour around eta = 1: blue below, red above, white at 1;
/// `t` in [0, 1] is the strength.
static std::string divergingColor(double eta, double t) {
  // Endpoints: #2166ac (interference) and #b2182b (synergy).
  double r = eta < 1 ? 0x21 : 0xb2, g = eta < 1 ? 0x66 : 0x18,
         b = eta < 1 ? 0xac : 0x2b;
  auto mixed = [&](double end) {
    return static_cast<int>(std::lround(255 + (end - 255) * t));
  };
  std::string color;
  llvm::raw_string_ostream cs(color);
  cs << llvm::format("#%02x%02x%02x", mixed(r), mixed(g), mixed(b));
  return color;
}

/// Figure 3: eta of every ordered pair, first pass a by row, second pass b
/// by column.
static void writeSynergyChart(const ExploreReport &report,
                              llvm::raw_ostream &os) {
  const EffectAnalysis &analysis = report.analysis;
  std::string caption =
      "<strong>Figure 3.</strong> Synergy matrix: η = S_ab / (S_a · S_b) for "
      "pass a (row) then pass b (column); red is synergy (η &gt; 1), blue "
      "interference (η &lt; 1), grey when the interval contains 1 "
      "(independent); the diagonal is empty. " +
      measuredOn(report, "η is called only when its 95% interval "
                         "excludes 1");
  if (analysis.pairs.empty()) {
    writeEmptyFigure(os, "synergy-chart", "No pair measured.", caption);
    return;
  }
  // The passes: every a and b, in the configurations' order.
  std::vector<size_t> passes;
  for (const PairEffect &pair : analysis.pairs)
    for (size_t index : {pair.a, pair.b})
      if (std::find(passes.begin(), passes.end(), index) == passes.end())
        passes.push_back(index);
  std::sort(passes.begin(), passes.end());
  auto position = [&](size_t index) {
    return std::find(passes.begin(), passes.end(), index) - passes.begin();
  };
  double scale = std::log(1.05);
  for (const PairEffect &pair : analysis.pairs)
    if (pair.verdict != SynergyVerdict::Independent && pair.eta > 0 &&
        std::isfinite(pair.eta))
      scale = std::max(scale, std::fabs(std::log(pair.eta)));

  const double cell = 60, left = 150, top = 120;
  const double n = static_cast<double>(passes.size());
  const double width = std::max(left + n * cell + 20, 320.0);
  const double height = top + n * cell + 80;
  openSVG(os, "synergy-chart", width, height, "Synergy matrix heat map");
  text(os, left - 8, top - 8, "a ↓  b →", "end", "class=\"title\"");
  for (size_t k = 0; k < passes.size(); ++k) {
    std::string name = configName(report, passes[k]);
    text(os, left - 8, top + k * cell + cell / 2 + 4, name, "end");
    double cx = left + k * cell + cell / 2, cy = top - 8;
    text(os, cx, cy, name, "start",
         "transform=\"rotate(-45 " + px(cx) + " " + px(cy) + ")\"");
  }
  for (size_t row = 0; row < passes.size(); ++row)
    for (size_t col = 0; col < passes.size(); ++col)
      os << "<rect class=\"empty\" x=\"" << px(left + col * cell) << "\" y=\""
         << px(top + row * cell) << "\" width=\"" << px(cell) << "\" height=\""
         << px(cell) << "\"/>\n";
  for (const PairEffect &pair : analysis.pairs) {
    double row = static_cast<double>(position(pair.a));
    double col = static_cast<double>(position(pair.b));
    if (row == col)
      continue;
    std::string fill = "#d0d0d0";
    double t = 0;
    if (pair.verdict != SynergyVerdict::Independent && pair.eta > 0 &&
        std::isfinite(pair.eta)) {
      t = std::min(1.0, 0.25 + 0.75 * std::fabs(std::log(pair.eta)) / scale);
      fill = divergingColor(pair.eta, t);
    }
    double x0 = left + col * cell, y0 = top + row * cell;
    os << "<rect class=\"cell\" x=\"" << px(x0) << "\" y=\"" << px(y0)
       << "\" width=\"" << px(cell) << "\" height=\"" << px(cell)
       << "\" fill=\"" << fill << "\"><title>"
       << escapeHTML(configName(report, pair.a) + " → " +
                     configName(report, pair.b) + ": η " + formatEta(pair.eta) +
                     " " + formatEtaInterval(pair.etaInterval) + ", " +
                     getSynergyVerdictName(pair.verdict))
       << "</title></rect>\n";
    text(os, x0 + cell / 2, y0 + cell / 2 + 4, formatEta(pair.eta), "middle",
         t > 0.6 ? "fill=\"#fff\"" : "");
  }
  // Legend, one swatch a line.
  double ly = top + n * cell + 30;
  struct Swatch {
    const char *color, *label;
  } swatches[] = {{"#2166ac", "interference (η < 1)"},
                  {"#d0d0d0", "independent (interval contains 1)"},
                  {"#b2182b", "synergy (η > 1)"}};
  for (const Swatch &swatch : swatches) {
    os << "<rect x=\"10\" y=\"" << px(ly - 10)
       << "\" width=\"12\" height=\"12\" fill=\"" << swatch.color << "\"/>\n";
    text(os, 26, ly, swatch.label);
    ly += 16;
  }
  closeSVG(os, caption);
}

/// Figure 2: per configuration in the given order, the median run time as a
/// bar with its q1–q3 whisker, and the op count after the graph passes as a
/// line on the right axis.
static void writeWaterfallChart(const ExploreReport &report,
                                llvm::raw_ostream &os) {
  const EffectAnalysis &analysis = report.analysis;
  std::vector<size_t> bars = validConfigurations(report);
  std::string caption =
      "<strong>Figure 2.</strong> Run time and op count per configuration, "
      "in the order explored: bars are the median run time (left axis), the "
      "line the ops in the entry function after the graph passes (right "
      "axis)";
  size_t excluded = report.configurations.size() - bars.size();
  if (excluded)
    caption += "; " + std::to_string(excluded) +
               " excluded configuration(s) not shown";
  caption += ". " + measuredOn(report, "whiskers are the q1–q3 range of the "
                                       "run time");
  if (bars.empty()) {
    writeEmptyFigure(os, "waterfall-chart", "No valid configuration to plot.",
                     caption);
    return;
  }
  double msMax = 0;
  int64_t opsMax = 0;
  for (size_t i : bars) {
    const ConfigurationEffect &effect = analysis.effects[i];
    msMax = std::max({msMax, effect.medianMs, effect.q3Ms});
    opsMax = std::max(opsMax, report.measurements[i].ops);
  }
  const double left = 80, right = 80, top = 50, bottom = 120, slot = 56;
  const double width =
      std::max(480.0, left + right + slot * static_cast<double>(bars.size()));
  const double height = 460;
  Scale y = niceScale(0, msMax, height - bottom, top);
  Scale ops = niceScale(0, static_cast<double>(opsMax), height - bottom, top);
  double plotLeft = left, plotRight = width - right;
  double step = (plotRight - plotLeft) / static_cast<double>(bars.size());
  openSVG(os, "waterfall-chart", width, height,
          "Median run time and op count per configuration");
  yAxis(os, y, plotLeft, plotRight, "median run time (ms)", false);
  yAxis(os, ops, plotRight, plotRight, "ops after graph passes", true);
  line(os, plotLeft, height - bottom, plotRight, height - bottom, "axis");
  text(os, (plotLeft + plotRight) / 2, height - 8,
       "configuration (order explored)", "middle", "class=\"title\"");
  std::string polyline;
  for (size_t k = 0; k < bars.size(); ++k) {
    size_t i = bars[k];
    const ConfigurationEffect &effect = analysis.effects[i];
    double cx = plotLeft + step * (k + 0.5);
    double barWidth = std::min(36.0, step * 0.6);
    double y0 = y(0), y1 = y(effect.medianMs);
    os << "<rect class=\"bar\" x=\"" << px(cx - barWidth / 2) << "\" y=\""
       << px(y1) << "\" width=\"" << px(barWidth) << "\" height=\""
       << px(y0 - y1) << "\"><title>"
       << escapeHTML(report.configurations[i].name + ": " +
                     formatMedianIQR(effect) + " ms, " +
                     std::to_string(report.measurements[i].ops) + " ops")
       << "</title></rect>\n";
    line(os, cx, y(effect.q1Ms), cx, y(effect.q3Ms), "whisker");
    line(os, cx - 5, y(effect.q1Ms), cx + 5, y(effect.q1Ms), "whisker");
    line(os, cx - 5, y(effect.q3Ms), cx + 5, y(effect.q3Ms), "whisker");
    double oy = ops(static_cast<double>(report.measurements[i].ops));
    polyline += (polyline.empty() ? "" : " ") + px(cx) + "," + px(oy);
    os << "<circle class=\"opsdot\" cx=\"" << px(cx) << "\" cy=\"" << px(oy)
       << "\" r=\"3\"/>\n";
    double ly = height - bottom + 12;
    text(os, cx, ly, report.configurations[i].name, "end",
         "transform=\"rotate(-45 " + px(cx) + " " + px(ly) + ")\"");
  }
  os << "<polyline class=\"ops\" points=\"" << polyline << "\"/>\n";
  // Legend, above the plot.
  os << "<rect class=\"bar\" x=\"" << px(plotLeft) << "\" y=\"8\" "
     << "width=\"12\" height=\"12\"/>\n";
  text(os, plotLeft + 16, 18, "median run time (ms), q1–q3 whisker");
  line(os, plotLeft, 32, plotLeft + 12, 32, "ops");
  text(os, plotLeft + 16, 36, "ops after graph passes");
  closeSVG(os, caption);
}

/// Figure 5: the latency CDF of each distinct program (configurations that
/// compiled to the same program share one curve): the fraction of timed
/// runs at or under each run time, so the tail is read at the top.
/// The configurations a chart with one curve per distinct program draws,
/// among the valid ones `has` accepts: the baseline, the chosen one, then
/// the fastest others. All of them, in that order (the caller shows the
/// first kMaxCurves).
static std::vector<size_t>
curvesInOrder(const ExploreReport &report,
              llvm::function_ref<bool(const ConfigurationMeasurement &)> has) {
  const EffectAnalysis &analysis = report.analysis;
  std::optional<size_t> chosen = chosenIndex(report);
  std::vector<size_t> order;
  for (size_t i : validConfigurations(report))
    if (report.measurements[i].sameProgramAs.empty() &&
        has(report.measurements[i]))
      order.push_back(i);
  llvm::stable_sort(order, [&](size_t a, size_t b) {
    auto rank = [&](size_t i) {
      return i == analysis.baseline ? 0 : chosen && i == *chosen ? 1 : 2;
    };
    if (rank(a) != rank(b))
      return rank(a) < rank(b);
    return analysis.effects[a].medianMs < analysis.effects[b].medianMs;
  });
  return order;
}

/// At most this many curves in a chart, one colour each.
constexpr size_t kMaxCurves = 8;
static const char *const kCurvePalette[kMaxCurves] = {
    "#1b9e77", "#d95f02", "#7570b3", "#e7298a",
    "#66a61e", "#e6ab02", "#a6761d", "#666666"};

/// The legend entry of curve `k` at the right of a chart.
static void writeCurveLegend(llvm::raw_ostream &os, size_t k, double x,
                             double top, llvm::StringRef label) {
  double ly = top + 14 + 18 * static_cast<double>(k);
  os << "<line class=\"cdf\" style=\"stroke:" << kCurvePalette[k] << "\" x1=\""
     << px(x + 16) << "\" y1=\"" << px(ly - 4) << "\" x2=\"" << px(x + 36)
     << "\" y2=\"" << px(ly - 4) << "\"/>\n";
  text(os, x + 42, ly, label);
}

static void writeLatencyCDFChart(const ExploreReport &report,
                                 llvm::raw_ostream &os) {
  const EffectAnalysis &analysis = report.analysis;
  // The baseline, the chosen configuration, then the fastest others: at
  // most 8 curves, one per distinct program.
  std::vector<size_t> order =
      curvesInOrder(report, [](const ConfigurationMeasurement &m) {
        return !m.runMs.empty();
      });
  size_t shown = std::min(order.size(), kMaxCurves);
  std::vector<size_t> curves(order.begin(), order.begin() + shown);
  std::string caption =
      "<strong>Figure 5.</strong> Latency distribution: for each distinct "
      "compiled program, the fraction of timed runs that took at most a "
      "given time (the p99 is where a curve crosses 0.99); the x axis ends "
      "at the largest p99, so slower outliers leave the plot";
  if (order.size() > shown)
    caption += "; " + std::to_string(order.size() - shown) +
               " more program(s) not shown";
  caption += ". " + measuredOn(report, "every timed run is a point");
  if (curves.empty()) {
    writeEmptyFigure(os, "latency-cdf-chart", "No valid configuration to plot.",
                     caption);
    return;
  }
  double lo = 1e300, hi = 0;
  for (size_t i : curves) {
    const std::vector<double> &runs = report.measurements[i].runMs;
    lo = std::min(lo, *std::min_element(runs.begin(), runs.end()));
    hi = std::max(hi, analysis.effects[i].p99Ms);
  }
  if (!(hi > lo))
    hi = lo + 1e-6;
  const double left = 80, right = 220, top = 30, bottom = 70;
  const double width = 760, height = 380;
  Scale x = niceScale(lo, hi, left, width - right);
  Scale y = niceScale(0, 1, height - bottom, top);
  openSVG(os, "latency-cdf-chart", width, height,
          "Latency distribution of each distinct program");
  xAxis(os, x, height - bottom, top, "run time (ms)");
  yAxis(os, y, left, width - right, "fraction of runs", false);
  line(os, x.from, y(0.99), x.to, y(0.99), "ref");
  text(os, x.to - 2, y(0.99) - 4, "p99", "end");
  for (size_t k = 0; k < curves.size(); ++k) {
    size_t i = curves[k];
    std::vector<double> runs = report.measurements[i].runMs;
    llvm::sort(runs);
    std::string points;
    double n = static_cast<double>(runs.size());
    for (size_t r = 0; r < runs.size(); ++r) {
      double value = std::min(runs[r], x.hi);
      points += (points.empty() ? "" : " ") + px(x(value)) + "," +
                px(y((static_cast<double>(r) + 1) / n));
      if (runs[r] > x.hi)
        break;
    }
    os << "<polyline class=\"cdf\" style=\"stroke:" << kCurvePalette[k]
       << "\" points=\"" << points << "\"><title>"
       << escapeHTML(configName(report, i) + ": p50 " +
                     formatMs(analysis.effects[i].medianMs) + ", p99 " +
                     formatMs(analysis.effects[i].p99Ms) + " ms")
       << "</title></polyline>\n";
    writeCurveLegend(os, k, width - right, top, configName(report, i));
  }
  closeSVG(os, caption);
}

/// Figure 6: the bytes the allocator held after each run of a
/// configuration's first round, one curve per distinct program: where a
/// long-running process settles.
static void writeWaterLevelChart(const ExploreReport &report,
                                 llvm::raw_ostream &os) {
  std::vector<size_t> order =
      curvesInOrder(report, [](const ConfigurationMeasurement &m) {
        return !m.waterLevel.empty();
      });
  size_t shown = std::min(order.size(), kMaxCurves);
  std::vector<size_t> curves(order.begin(), order.begin() + shown);
  std::string caption =
      "<strong>Figure 6.</strong> Water level: the bytes the runtime's "
      "allocator held from the system (live and cached free blocks) after "
      "each run of a configuration's first round, run after run from an "
      "empty cache (warm-up, --steady-runs, timed runs), one curve per "
      "distinct program; the last point is what a long-running process "
      "settles at";
  if (order.size() > shown)
    caption += "; " + std::to_string(order.size() - shown) +
               " more program(s) not shown";
  caption += ". " + measuredOn(report, "one point per run");
  if (curves.empty()) {
    writeEmptyFigure(os, "water-level-chart", "No water level measured.",
                     caption);
    return;
  }
  size_t runs = 0;
  int64_t most = 0;
  for (size_t i : curves) {
    const std::vector<int64_t> &level = report.measurements[i].waterLevel;
    runs = std::max(runs, level.size());
    most = std::max(most, *std::max_element(level.begin(), level.end()));
  }
  const double kib = 1024;
  const double left = 80, right = 220, top = 30, bottom = 70;
  const double width = 760, height = 380;
  Scale x = niceScale(1, std::max<double>(2, runs), left, width - right);
  Scale y = niceScale(0, std::max(1.0, most / kib), height - bottom, top);
  openSVG(os, "water-level-chart", width, height,
          "Bytes held by the allocator after each run");
  xAxis(os, x, height - bottom, top, "run");
  yAxis(os, y, left, width - right, "held from the system (KiB)", false);
  for (size_t k = 0; k < curves.size(); ++k) {
    size_t i = curves[k];
    const std::vector<int64_t> &level = report.measurements[i].waterLevel;
    std::string points;
    for (size_t r = 0; r < level.size(); ++r)
      points += (points.empty() ? "" : " ") +
                px(x(static_cast<double>(r + 1))) + "," +
                px(y(static_cast<double>(level[r]) / kib));
    os << "<polyline class=\"cdf\" style=\"stroke:" << kCurvePalette[k]
       << "\" points=\"" << points << "\"><title>"
       << escapeHTML(configName(report, i) + ": " + formatBytes(level.back()) +
                     " after " + std::to_string(level.size()) + " runs")
       << "</title></polyline>\n";
    writeCurveLegend(os, k, width - right, top, configName(report, i));
  }
  closeSVG(os, caption);
}

/// Figure 4: the share f of each kernel of the chosen configuration (or the
/// default pipeline), with its Amdahl bound.
static void writeAmdahlChart(const ExploreReport &report,
                             std::optional<size_t> subject,
                             llvm::raw_ostream &os) {
  std::string who = subject ? configName(report, *subject) : "";
  std::string caption =
      "<strong>Figure 4.</strong> Amdahl view" +
      (subject ? " of " + escapeHTML(who) : std::string()) +
      ": each bar is a kernel's share f of the kernel times, the label its "
      "bound 1/(1 − f) on what speeding up that kernel alone can buy. " +
      measuredOn(report, "kernel times are medians per run");
  if (!subject || report.analysis.kernels[*subject].empty()) {
    writeEmptyFigure(os, "amdahl-chart",
                     subject ? "No kernel timings for " + who +
                                   missingKernelsReason(report, *subject) + "."
                             : "No configuration chosen and no default "
                               "pipeline: no kernels to plot.",
                     caption);
    return;
  }
  const std::vector<KernelEffect> &kernels = report.analysis.kernels[*subject];
  std::vector<size_t> order = kernelsByShare(kernels);
  size_t shown = std::min(order.size(), kTopKernels);
  const double left = 230, right = 190, top = 10, rowHeight = 24;
  const double width = 760;
  const double height =
      top + rowHeight * shown + 50 + (order.size() > shown ? 16 : 0);
  Scale x = niceScale(0, 1, left, width - right, 4);
  double axisY = top + rowHeight * shown + 4;
  openSVG(os, "amdahl-chart", width, height, "Amdahl bars per kernel");
  xAxis(os, x, axisY, top, "share f of the kernel times", true);
  for (size_t rank = 0; rank < shown; ++rank) {
    const KernelEffect &kernel = kernels[order[rank]];
    double y0 = top + rank * rowHeight + 4;
    double share = std::clamp(kernel.share, 0.0, 1.0);
    std::string label = firstLine(kernel.name, 34);
    text(os, left - 6, y0 + 12, label, "end");
    os << "<rect class=\"share\" x=\"" << px(left) << "\" y=\"" << px(y0)
       << "\" width=\"" << px(x(share) - left) << "\" height=\""
       << px(rowHeight - 8) << "\"><title>"
       << escapeHTML(kernel.name + ": " + formatMs(kernel.msPerRun) + " ms")
       << "</title></rect>\n";
    text(os, x(share) + 6, y0 + 12,
         "f " + formatPercent(kernel.share) + ", bound " +
             formatBound(kernel.amdahlBound) + ", " +
             formatMs(kernel.msPerRun) + " ms");
  }
  if (order.size() > shown)
    text(os, left, height - 4,
         std::to_string(order.size() - shown) + " more kernels not shown.");
  closeSVG(os, caption);
}

/// Verify mode: what compiled and whether its outputs match the baseline's.
static void writeVerification(const ExploreReport &report,
                              llvm::raw_ostream &os) {
  os << "<h2>Verification</h2>\n<p>"
     << llvm::format("Outputs compared with the baseline's on seeded random "
                     "inputs (rtol %g, atol %g); nothing was timed.",
                     report.setup.rtol, report.setup.atol)
     << "</p>\n";
  if (report.configurations.empty()) {
    os << "<p class=\"note\">No configuration measured.</p>\n";
    return;
  }
  os << "<table id=\"verification\">\n<thead><tr>";
  for (const char *head :
       {"configuration", "kind", "pipeline", "outputs", "kernels", "ops",
        "static peak", "compile ms (graph/lowering/codegen)", "note"})
    os << "<th>" << head << "</th>";
  os << "</tr></thead>\n<tbody>\n";
  for (size_t i = 0; i < report.configurations.size(); ++i) {
    os << "<tr>";
    for (const std::string &cell : verificationCells(report, i))
      os << "<td>" << escapeHTML(cell) << "</td>";
    os << "</tr>\n";
  }
  os << "</tbody>\n</table>\n";
}

/// Throughput over batch sizes: one row per batch size and configuration.
static void writeBatchSweep(const ExploreReport &report,
                            llvm::raw_ostream &os) {
  if (report.batchSweep.empty())
    return;
  os << "<h2>Batch-size sweep</h2>\n<p>Dimension 0 of every input set to "
        "each batch size; samples/s = batch size / median run time; S "
        "against the baseline at the same size.</p>\n"
        "<table id=\"batch-sweep\">\n<thead><tr>";
  for (const char *head : {"batch", "configuration", "median ms [q1–q3]",
                           "runs", "samples/s", "S", "peak memory"})
    os << "<th>" << head << "</th>";
  os << "</tr></thead>\n<tbody>\n";
  for (const BatchMeasurement &b : report.batchSweep) {
    os << "<tr><td>" << b.batchSize << "</td><td>"
       << escapeHTML(b.configuration) << "</td>";
    if (!b.error.empty()) {
      os << "<td colspan=\"5\">failed: " << escapeHTML(firstLine(b.error))
         << "</td></tr>\n";
      continue;
    }
    for (const std::string &cell : batchFigureCells(b))
      os << "<td>" << cell << "</td>";
    os << "</tr>\n";
  }
  os << "</tbody>\n</table>\n";
}

void mlir::gopt::writeExploreHTML(const ExploreReport &report,
                                  llvm::raw_ostream &os) {
  os << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">"
        "\n<title>gopt-explore: "
     << escapeHTML(report.setup.model) << "</title>\n<style>" << kStyle
     << "</style>\n</head>\n<body>\n";
  if (!isTimed(report)) {
    writeSetup(report, os);
    writeVerification(report, os);
    writePredictionTable(report, os);
    os << "</body>\n</html>\n";
    return;
  }
  writeSetup(report, os);
  writeConfigurations(report, os);
  writeParetoChart(report, os);
  writeWaterfallChart(report, os);
  writeMemoryTable(report, os);
  writeLoadTable(report, os);
  writePredictionTable(report, os);
  writeExcluded(report, os);

  os << "<h2>Synergy</h2>\n";
  writeSynergyTable(report, os);
  writeSynergyChart(report, os);

  writeUtilityTable(report, os);

  std::optional<size_t> subject = amdahlSubject(report);
  os << "<h2>Amdahl view"
     << (subject ? ": " + escapeHTML(configName(report, *subject)) : "")
     << "</h2>\n";
  if (subject)
    writeAmdahlTable(report, *subject, os);
  writeAmdahlChart(report, subject, os);
  os << "<h2>Latency distribution</h2>\n";
  writeLatencyCDFChart(report, os);
  os << "<h2>Water level</h2>\n";
  writeWaterLevelChart(report, os);
  writeBatchSweep(report, os);
  writeShapeClasses(report, os);

  writeChoice(report, os);
  os << "</body>\n</html>\n";
}
