//===- MeasurementWriters.cpp - JSON, CSV, table and trace output ---------===//
//
// The JSON schema is documented in docs/Measurement.md; bump
// kMeasurementSchemaVersion on any incompatible change.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Analysis/PassMeasurement.h"
#include "GOpt/Support/Format.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Threading.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;
using namespace mlir::gopt;

std::optional<MeasurementFormat>
mlir::gopt::parseMeasurementFormat(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<MeasurementFormat>>(name)
      .Case("json", MeasurementFormat::JSON)
      .Case("csv", MeasurementFormat::CSV)
      .Case("table", MeasurementFormat::Table)
      .Case("trace", MeasurementFormat::Trace)
      .Default(std::nullopt);
}

std::string mlir::gopt::getHostCPUModel() {
  auto buffer = llvm::MemoryBuffer::getFileAsStream("/proc/cpuinfo");
  if (buffer) {
    llvm::StringRef text = (*buffer)->getBuffer();
    while (!text.empty()) {
      auto [line, rest] = text.split('\n');
      if (line.starts_with("model name")) {
        auto [key, value] = line.split(':');
        return value.trim().str();
      }
      text = rest;
    }
  }
  return llvm::sys::getHostCPUName().str();
}

unsigned mlir::gopt::getHostCoreCount() {
  return llvm::hardware_concurrency().compute_thread_count();
}

/// How a row is named in tables: the pass argument, or for a pass without
/// one (a nested pipeline's adaptor) its pipeline text.
static std::string label(const PassRecord &row) {
  return row.argument.empty() ? row.pipeline : row.argument;
}

static llvm::json::Value runtimeToJSON(const std::optional<RuntimeFigures> &r) {
  if (!r)
    return nullptr;
  if (!r->ok())
    return llvm::json::Object{{"error", r->error}};
  return llvm::json::Object{{"target", r->target},
                            {"median_ms", r->medianMs},
                            {"q1_ms", r->q1Ms},
                            {"q3_ms", r->q3Ms},
                            {"cv", r->cv},
                            {"repetitions", r->repetitions},
                            {"peak_bytes", r->peakBytes},
                            {"kernels", r->kernels},
                            {"compile_ms", r->compileMs}};
}

/// Whether a runtime probe measured anything in the record.
static bool hasRuntime(const MeasurementRecord &record) {
  return record.baselineRuntime.has_value();
}

static llvm::json::Object rowToJSON(const PassRecord &row) {
  llvm::json::Object object{
      {"index", row.index},
      {"parent", row.parent},
      {"depth", row.depth},
      {"name", row.name},
      {"argument", row.argument},
      {"pipeline", row.pipeline},
      {"op", row.opName},
      {"symbol", row.opSymbol},
      {"path", row.path},
      {"failed", row.failed},
      {"changed", row.changed},
      {"ops_added", row.opsAdded},
      {"ops_removed", row.opsRemoved},
      {"fusion_groups_added", row.fusionGroupsAdded},
      {"fusion_groups_removed", row.fusionGroupsRemoved},
      {"wall_ms", row.wallMs},
      {"cpu_ms", row.cpuMs},
      {"measure_ms", row.measureMs},
      {"stats", row.after.toJSON()},
  };
  if (row.runtime)
    object["runtime"] = runtimeToJSON(row.runtime);
  return object;
}

static void writeJSON(const MeasurementRecord &record, llvm::raw_ostream &os) {
  llvm::json::Array rows;
  for (const PassRecord &row : record.rows)
    rows.push_back(rowToJSON(row));
  const GraphStats &final = record.final();
  llvm::json::Object doc{
      {"schema", "gopt-measure"},
      {"version", kMeasurementSchemaVersion},
      {"tool", llvm::json::Object{{"name", record.toolName},
                                  {"version", record.toolVersion}}},
      {"pipeline", record.pipeline},
      {"input", record.inputFile},
      {"host", llvm::json::Object{{"cpu", getHostCPUModel()},
                                  {"cores", getHostCoreCount()}}},
      {"threading", record.threading},
      {"baseline", record.baseline.toJSON()},
      {"passes", std::move(rows)},
      {"totals",
       llvm::json::Object{
           {"passes", static_cast<int64_t>(record.rows.size())},
           {"wall_ms", record.totalWallMs()},
           {"cpu_ms", record.totalCpuMs()},
           {"ops_before", record.baseline.numOps},
           {"ops_after", final.numOps},
           {"kernels_before", record.baseline.numKernels},
           {"kernels_after", final.numKernels},
           {"peak_memory_bytes_estimate_before",
            record.baseline.peakMemoryBytes},
           {"peak_memory_bytes_estimate_after", final.peakMemoryBytes},
           {"stats", final.toJSON()},
       }},
  };
  if (hasRuntime(record))
    doc["baseline_runtime"] = runtimeToJSON(record.baselineRuntime);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(doc))) << "\n";
}

/// CSV cells never hold commas or quotes in practice (pass names, op names);
/// quote the free-text ones anyway.
static std::string quoted(llvm::StringRef s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"')
      out += '"';
    out += c;
  }
  return out + "\"";
}

static void writeCSV(const MeasurementRecord &record, llvm::raw_ostream &os) {
  // Time columns come last so tools can compare records with `cut`.
  os << "index,parent,depth,pass,op,path,failed,changed,ops,ops_added,"
        "ops_removed,fusion_groups,fusion_groups_added,fusion_groups_removed,"
        "kernels,values,use_edges,constants,constant_bytes,"
        "intermediate_bytes,flops,bytes_moved,peak_memory_bytes_estimate,"
        "pipeline,wall_ms,cpu_ms";
  bool runtime = hasRuntime(record);
  if (runtime)
    os << ",run_ms_median,run_ms_q1,run_ms_q3,run_peak_bytes";
  os << "\n";
  auto runtimeCells = [&](const std::optional<RuntimeFigures> &r) {
    if (!runtime)
      return;
    if (r && r->ok())
      os << llvm::format(",%.6f,%.6f,%.6f,%lld", r->medianMs, r->q1Ms,
                         r->q3Ms, (long long)r->peakBytes);
    else
      os << ",,,,";
  };
  auto stats = [&](const GraphStats &s) {
    os << s.numKernels << "," << s.numValues << "," << s.numUseEdges << ","
       << s.numConstants << "," << s.constantBytes << ","
       << s.intermediateBytes << "," << s.flops << "," << s.bytesMoved << ","
       << s.peakMemoryBytes << ",";
  };
  const GraphStats &b = record.baseline;
  os << "-1,-1,0,(baseline)," << quoted("") << "," << quoted("") << ",0,0,"
     << b.numOps << ",0,0," << b.numFusionGroups << ",0,0,";
  stats(b);
  os << quoted("") << ",0,0";
  runtimeCells(record.baselineRuntime);
  os << "\n";
  for (const PassRecord &r : record.rows) {
    os << r.index << "," << r.parent << "," << r.depth << ","
       << quoted(label(r)) << ","
       << quoted(r.opName) << "," << quoted(r.path) << "," << r.failed << ","
       << r.changed << "," << r.after.numOps << "," << r.opsAdded << ","
       << r.opsRemoved << "," << r.after.numFusionGroups << ","
       << r.fusionGroupsAdded << "," << r.fusionGroupsRemoved << ",";
    stats(r.after);
    os << quoted(r.pipeline) << ","
       << llvm::format("%.4f,%.4f", r.wallMs, r.cpuMs);
    runtimeCells(r.runtime);
    os << "\n";
  }
}

/// The run-time cells of a table row: median [IQR] and measured peak.
static std::string runtimeCells(const std::optional<RuntimeFigures> &r) {
  if (!r)
    return "";
  if (!r->ok())
    return "  (did not run)";
  return llvm::formatv("  {0,9:f4} [{1:f4}-{2:f4}] {3,10}", r->medianMs,
                       r->q1Ms, r->q3Ms, formatBytes(r->peakBytes))
      .str();
}

static void writeTable(const MeasurementRecord &record,
                       llvm::raw_ostream &os) {
  bool runtime = hasRuntime(record);
  os << "===-------------------------------------------------------------===\n"
     << "  gopt-measure: graph after every pass (" << record.rows.size()
     << " pass executions)\n"
     << "===-------------------------------------------------------------===\n";
  os << llvm::format("%4s  %-36s %10s %7s %7s %8s %11s %8s", "#", "pass",
                     "time ms", "ops", "Δops", "kernels", "est. peak",
                     "changed");
  if (runtime)
    os << "   run ms [IQR]             meas. peak";
  os << "\n";
  auto line = [&](llvm::StringRef index, llvm::StringRef label, double ms,
                  bool hasTime, const GraphStats &s, int64_t delta,
                  llvm::StringRef changed,
                  const std::optional<RuntimeFigures> &figures) {
    std::string time = hasTime ? llvm::formatv("{0:f3}", ms).str() : "-";
    std::string d = delta > 0 ? "+" + std::to_string(delta)
                              : std::to_string(delta);
    os << llvm::format("%4s  %-36s %10s %7lld %7s %8lld %11s %8s",
                       index.str().c_str(), label.str().c_str(), time.c_str(),
                       (long long)s.numOps, d.c_str(),
                       (long long)s.numKernels,
                       formatBytes(s.peakMemoryBytes).c_str(),
                       changed.str().c_str());
    os << runtimeCells(figures) << "\n";
  };
  line("", "(baseline)", 0, false, record.baseline, 0, "",
       record.baselineRuntime);
  for (const PassRecord &r : record.rows) {
    std::string text(2 * r.depth, ' ');
    std::string name = label(r);
    if (name.size() > 22)
      name = name.substr(0, 19) + "...";
    text += name;
    if (r.depth > 0 || r.opName != "builtin.module")
      text += " on " + (r.opSymbol.empty() ? r.opName : "@" + r.opSymbol);
    if (text.size() > 36)
      text = text.substr(0, 33) + "...";
    line(std::to_string(r.index), text, r.wallMs, true, r.after,
         r.after.numOps - r.before.numOps,
         r.failed ? "FAILED" : (r.changed ? "yes" : "no"), r.runtime);
  }
  const GraphStats &final = record.final();
  os << llvm::format("      %-36s %10.3f %7lld %7s %8lld %11s\n", "total",
                     record.totalWallMs(), (long long)final.numOps, "",
                     (long long)final.numKernels,
                     formatBytes(final.peakMemoryBytes).c_str());
  if (!runtime)
    return;
  // Errors are listed once, below the table.
  auto note = [&](llvm::StringRef what, const std::optional<RuntimeFigures> &r) {
    if (r && !r->ok())
      os << "  " << what << ": did not run: " << r->error << "\n";
  };
  note("(baseline)", record.baselineRuntime);
  for (const PassRecord &r : record.rows)
    note("#" + std::to_string(r.index), r.runtime);
  int reps = record.baselineRuntime->repetitions;
  os << "  run ms: median [IQR] of " << reps
     << " timed runs of the compiled graph after each top-level pass; "
        "meas. peak: bytes it held at once\n";
}

static void writeTrace(const MeasurementRecord &record,
                       llvm::raw_ostream &os) {
  llvm::json::Array events;
  events.push_back(llvm::json::Object{
      {"name", "process_name"},
      {"ph", "M"},
      {"pid", 1},
      {"args", llvm::json::Object{{"name", record.toolName + " passes"}}}});
  for (const PassRecord &r : record.rows) {
    double ts = r.startMs * 1000.0;
    events.push_back(llvm::json::Object{
        {"name", label(r)},
        {"cat", "pass"},
        {"ph", "X"},
        {"pid", 1},
        {"tid", static_cast<int64_t>(r.threadId)},
        {"ts", ts},
        {"dur", r.wallMs * 1000.0},
        {"args", llvm::json::Object{{"op", r.path},
                                    {"changed", r.changed},
                                    {"failed", r.failed},
                                    {"ops", r.after.numOps},
                                    {"kernels", r.after.numKernels}}}});
    if (r.depth != 0)
      continue;
    double end = ts + r.wallMs * 1000.0;
    events.push_back(llvm::json::Object{
        {"name", "ops"},
        {"ph", "C"},
        {"pid", 1},
        {"ts", end},
        {"args", llvm::json::Object{{"ops", r.after.numOps},
                                    {"kernels", r.after.numKernels}}}});
    events.push_back(llvm::json::Object{
        {"name", "estimated peak memory (bytes)"},
        {"ph", "C"},
        {"pid", 1},
        {"ts", end},
        {"args",
         llvm::json::Object{{"bytes", r.after.peakMemoryBytes}}}});
    if (r.runtime && r.runtime->ok())
      events.push_back(llvm::json::Object{
          {"name", "measured run time (ms)"},
          {"ph", "C"},
          {"pid", 1},
          {"ts", end},
          {"args", llvm::json::Object{{"median_ms", r.runtime->medianMs}}}});
  }
  llvm::json::Object doc{{"traceEvents", std::move(events)},
                         {"displayTimeUnit", "ms"},
                         {"otherData",
                          llvm::json::Object{
                              {"schema", "gopt-measure-trace"},
                              {"version", kMeasurementSchemaVersion},
                              {"pipeline", record.pipeline},
                              {"input", record.inputFile}}}};
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(doc))) << "\n";
}

void mlir::gopt::writeMeasurement(const MeasurementRecord &record,
                                  MeasurementFormat format,
                                  llvm::raw_ostream &os) {
  switch (format) {
  case MeasurementFormat::JSON:
    return writeJSON(record, os);
  case MeasurementFormat::CSV:
    return writeCSV(record, os);
  case MeasurementFormat::Table:
    return writeTable(record, os);
  case MeasurementFormat::Trace:
    return writeTrace(record, os);
  }
}
