//===- ReportJSON.cpp - gopt-explore's versioned JSON record --------------===//
//
// The schema is documented in docs/Explore.md ("The JSON record"). Keys use
// the names of the formulas (docs/Formulas.md); a figure that does not exist (a
// break-even for a configuration that is not faster, an infinite bound) is
// null, never a non-JSON number.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Explore/Report.h"

#include <cmath>

using namespace mlir;
using namespace mlir::gopt;

namespace {

llvm::json::Value number(double x) {
  if (!std::isfinite(x))
    return nullptr;
  return x;
}

llvm::json::Value number(const std::optional<double> &x) {
  if (!x)
    return nullptr;
  return number(*x);
}

llvm::json::Value interval(const Interval &i) {
  return llvm::json::Array{number(i.low), number(i.high)};
}

llvm::json::Object hostToJSON(const ExploreSetup &s) {
  return llvm::json::Object{{"cpu_model", s.cpuModel},
                            {"cores", s.cores},
                            {"gemm_library", s.gemmLibrary},
                            {"library_threads", s.libraryThreads}};
}

llvm::json::Object setupToJSON(const ExploreSetup &s) {
  return llvm::json::Object{
      {"tool_version", s.toolVersion},
      {"model", s.model},
      {"model_hash", s.modelHash},
      {"entry", s.entry},
      {"target", s.target},
      {"host", hostToJSON(s)},
      {"mode", s.mode},
      {"warmup", s.warmup},
      {"repetitions_per_round", s.repetitionsPerRound},
      {"rounds", s.rounds},
      {"round_milliseconds", number(s.roundMilliseconds)},
      {"target_relative_error", number(s.targetRelativeError)},
      {"budget_seconds", number(s.budgetSeconds)},
      {"recorded_runs", s.recordedRunsDir.empty()
                            ? llvm::json::Value(nullptr)
                            : llvm::json::Value(s.recordedRunsDir)},
      {"interrupted", s.interrupted},
      {"elapsed_seconds", number(s.elapsedSeconds)},
      {"reused_measurements", s.reusedMeasurements.empty()
                                  ? llvm::json::Value(nullptr)
                                  : llvm::json::Value(s.reusedMeasurements)},
      {"measured_at", s.measuredAt > 0 ? llvm::json::Value(s.measuredAt)
                                       : llvm::json::Value(nullptr)},
      {"elapsed_split",
       llvm::json::Object{{"compile_seconds", number(s.compileSeconds)},
                          {"check_seconds", number(s.checkSeconds)},
                          {"measure_seconds", number(s.measureSeconds)},
                          {"profile_seconds", number(s.profileSeconds)},
                          {"analysis_seconds", number(s.analysisSeconds)}}},
      {"rtol", number(s.rtol)},
      {"atol", number(s.atol)},
      {"cache", llvm::json::Object{{"dir", s.cacheDir.empty()
                                               ? llvm::json::Value(nullptr)
                                               : llvm::json::Value(s.cacheDir)},
                                   {"shared_programs", s.sharedPrograms},
                                   {"hits", s.cacheHits},
                                   {"misses", s.cacheMisses}}},
  };
}

llvm::json::Object measurementToJSON(const ConfigurationMeasurement &m) {
  llvm::json::Array runs;
  for (double ms : m.runMs)
    runs.push_back(number(ms));
  llvm::json::Array roundSizes, roundIds;
  for (size_t size : m.roundSizes)
    roundSizes.push_back(static_cast<int64_t>(size));
  for (int64_t id : m.roundIds)
    roundIds.push_back(id);
  llvm::json::Array waterLevel;
  for (int64_t bytes : m.waterLevel)
    waterLevel.push_back(bytes);
  return llvm::json::Object{
      {"run_ms", std::move(runs)},
      {"round_sizes", std::move(roundSizes)},
      {"round_ids", std::move(roundIds)},
      {"peak_bytes", m.peakBytes},
      {"static_peak_bytes", m.staticPeakBytes},
      {"arena_bytes", m.bufferPlan.arenaBytes},
      {"planned_buffers", m.bufferPlan.plannedBuffers},
      {"planned_bytes", m.bufferPlan.plannedBytes},
      {"reserved_at_peak_bytes", m.reservedAtPeakBytes},
      {"largest_free_at_peak_bytes", m.largestFreeAtPeakBytes},
      {"external_fragmentation", number(m.externalFragmentation)},
      {"water_level", std::move(waterLevel)},
      {"load", m.load ? llvm::json::Value(toJSON(*m.load))
                      : llvm::json::Value(nullptr)},
      {"ops", m.ops},
      {"kernels", m.kernels},
      {"from_cache", m.fromCache},
      {"kernel_profile_error", m.kernelProfileError.empty()
                                   ? llvm::json::Value(nullptr)
                                   : llvm::json::Value(m.kernelProfileError)},
      {"compile",
       llvm::json::Object{{"graph_passes_ms", number(m.graphPassesMs)},
                          {"lowering_ms", number(m.loweringMs)},
                          {"codegen_ms", number(m.codegenMs)},
                          {"total_ms", number(m.compileMs())},
                          {"peak_bytes", m.compilePeakBytes}}},
  };
}

llvm::json::Object effectToJSON(const ConfigurationEffect &e) {
  return llvm::json::Object{
      {"valid", e.valid},
      {"median_ms", number(e.medianMs)},
      {"baseline_ms", number(e.baselineMs)},
      {"q1_ms", number(e.q1Ms)},
      {"q3_ms", number(e.q3Ms)},
      {"p90_ms", number(e.p90Ms)},
      {"p99_ms", number(e.p99Ms)},
      {"max_ms", number(e.maxMs)},
      {"cv", number(e.cv)},
      {"speedup", number(e.speedup)},
      {"speedup_interval", interval(e.speedupInterval)},
      {"speedup_interval_method", getIntervalMethodName(e.speedupInterval.method)},
      {"speedup_interval_rounds", e.speedupInterval.rounds},
      {"eta_mem", number(e.memorySaving)},
      {"eta_mem_static", number(e.staticMemorySaving)},
      {"compile_ms", number(e.compileMs)},
      {"break_even_requests", number(e.breakEvenRequests)},
      {"payback_seconds", number(e.paybackSeconds)},
      {"utility", number(e.utility)},
      {"pareto", e.pareto},
  };
}

llvm::json::Array kernelsToJSON(llvm::ArrayRef<KernelEffect> kernels) {
  llvm::json::Array out;
  for (const KernelEffect &k : kernels)
    out.push_back(llvm::json::Object{
        {"name", k.name},
        {"ms_per_run", number(k.msPerRun)},
        {"share", number(k.share)},
        {"amdahl_bound", number(k.amdahlBound)},
        {"speedup_over_baseline", number(k.speedupOverBaseline)},
    });
  return out;
}

} // namespace

/// One entry per --predict target: the description, and every
/// configuration's predicted time and S (with the measured S and the error
/// where the target is the measured hardware).
static llvm::json::Array predictionsToJSON(const ExploreReport &report) {
  llvm::json::Array predictions;
  for (const TargetPrediction &t : report.predictions) {
    llvm::json::Array configurations;
    for (size_t i = 0; i < t.configurations.size(); ++i) {
      const ConfigurationPrediction &p = t.configurations[i];
      if (!p.predicted)
        continue;
      configurations.push_back(llvm::json::Object{
          {"name", report.configurations[i].name},
          {"predicted_ms", number(p.predictedMs)},
          {"speedup", number(p.speedup)},
          {"compute_bound_share", number(p.computeBoundShare)},
          {"launch_share", number(p.launchShare)},
          {"measured_speedup", number(p.measuredSpeedup)},
          {"speedup_error", number(p.speedupError)},
          {"time_ratio", number(p.timeRatio)},
      });
    }
    auto name = [&](std::optional<size_t> i) {
      return i ? llvm::json::Value(report.configurations[*i].name)
               : llvm::json::Value(nullptr);
    };
    predictions.push_back(llvm::json::Object{
        {"target", toJSON(t.target)},
        {"measured_here", t.measuredHere},
        {"fastest", name(t.fastest)},
        {"measured_fastest", name(t.measuredFastest)},
        {"mean_abs_speedup_error", number(t.meanAbsSpeedupError)},
        {"mean_time_ratio", number(t.meanTimeRatio)},
        {"configurations", std::move(configurations)},
    });
  }
  return predictions;
}

llvm::json::Value mlir::gopt::toJSON(const ExploreReport &report) {
  const EffectAnalysis &analysis = report.analysis;
  bool analyzed = analysis.effects.size() == report.configurations.size();

  llvm::json::Array configurations;
  for (size_t i = 0; i < report.configurations.size(); ++i) {
    const Configuration &c = report.configurations[i];
    const ConfigurationMeasurement &m = report.measurements[i];
    llvm::json::Array passes;
    for (const std::string &p : c.passes)
      passes.push_back(p);
    llvm::json::Object object{
        {"name", c.name},
        {"kind", getConfigurationKindName(c.kind)},
        {"passes", std::move(passes)},
        {"pipeline", c.pipeline},
        {"lowering_options", c.loweringOptions},
        {"status", getConfigurationStatusName(m.status)},
        {"error", m.error.empty() ? llvm::json::Value(nullptr)
                                  : llvm::json::Value(m.error)},
        {"same_program_as", m.sameProgramAs.empty()
                                ? llvm::json::Value(nullptr)
                                : llvm::json::Value(m.sameProgramAs)},
        {"measured", measurementToJSON(m)},
    };
    if (analyzed) {
      object["effect"] = effectToJSON(analysis.effects[i]);
      llvm::ArrayRef<KernelEffect> kernels;
      if (i < analysis.kernels.size())
        kernels = analysis.kernels[i];
      object["kernels"] = kernelsToJSON(kernels);
    }
    configurations.push_back(std::move(object));
  }

  llvm::json::Object root{
      {"schema", "gopt-explore"},
      {"version", kExploreSchemaVersion},
      {"setup", setupToJSON(report.setup)},
      {"configurations", std::move(configurations)},
  };
  if (!report.batchSweep.empty()) {
    llvm::json::Array sweep;
    for (const BatchMeasurement &b : report.batchSweep)
      sweep.push_back(llvm::json::Object{
          {"batch_size", b.batchSize},
          {"configuration", b.configuration},
          {"pipeline", b.pipeline},
          {"error", b.error.empty() ? llvm::json::Value(nullptr)
                                    : llvm::json::Value(b.error)},
          {"median_ms", number(b.medianMs)},
          {"q1_ms", number(b.q1Ms)},
          {"q3_ms", number(b.q3Ms)},
          {"runs", b.runs},
          {"samples_per_second", number(b.samplesPerSecond)},
          {"speedup", number(b.speedup)},
          {"peak_bytes", b.peakBytes},
      });
    root["batch_sweep"] = std::move(sweep);
  }
  if (!report.predictions.empty())
    root["predictions"] = predictionsToJSON(report);
  if (!report.shapeClasses.shapes.empty())
    root["shape_classes"] = toJSON(report.shapeClasses);
  if (!analyzed)
    return root;

  const std::vector<Configuration> &configs = report.configurations;
  llvm::json::Array pairs;
  for (const PairEffect &p : analysis.pairs)
    pairs.push_back(llvm::json::Object{
        {"a", configs[p.a].name},
        {"b", configs[p.b].name},
        {"ab", configs[p.ab].name},
        {"speedup_a", number(p.speedupA)},
        {"speedup_b", number(p.speedupB)},
        {"speedup_ab", number(p.speedupAB)},
        {"eta", number(p.eta)},
        {"eta_interval", interval(p.etaInterval)},
        {"eta_interval_method", getIntervalMethodName(p.etaInterval.method)},
        {"eta_interval_rounds", p.etaInterval.rounds},
        {"verdict", getSynergyVerdictName(p.verdict)},
    });
  root["baseline"] = configs[analysis.baseline].name;
  root["pairs"] = std::move(pairs);

  llvm::json::Array alphas, rows;
  for (double alpha : analysis.alphaTable)
    alphas.push_back(number(alpha));
  for (size_t i = 0; i < configs.size(); ++i) {
    llvm::json::Array values;
    for (const std::vector<double> &row : analysis.utilityTable)
      values.push_back(i < row.size() ? number(row[i]) : nullptr);
    rows.push_back(llvm::json::Object{{"configuration", configs[i].name},
                                      {"utility", std::move(values)}});
  }
  root["utility_table"] =
      llvm::json::Object{{"alphas", std::move(alphas)}, {"rows", std::move(rows)}};

  const ChoiceCriteria &criteria = analysis.criteria;
  root["criteria"] = llvm::json::Object{
      {"alpha", number(criteria.alpha)},
      {"qps", number(criteria.qps)},
      {"memory_limit_bytes", criteria.memoryLimitBytes},
      {"p99_bound_ms", number(criteria.p99BoundMs)},
  };
  llvm::json::Object choice{{"reason", analysis.choice.reason}};
  if (analysis.choice.index) {
    const Configuration &chosen = configs[*analysis.choice.index];
    choice["configuration"] = chosen.name;
    choice["pipeline"] = chosen.pipeline;
    choice["lowering_options"] = chosen.loweringOptions;
  } else {
    choice["configuration"] = nullptr;
    choice["pipeline"] = nullptr;
    choice["lowering_options"] = nullptr;
  }
  root["choice"] = std::move(choice);
  return root;
}

llvm::json::Value mlir::gopt::toManifestJSON(const ExploreReport &report) {
  const EffectAnalysis &analysis = report.analysis;
  llvm::json::Object manifest{
      {"schema", "gopt-explore-manifest"},
      {"version", kExploreSchemaVersion},
      {"tool_version", report.setup.toolVersion},
      {"model", report.setup.model},
      {"model_hash", report.setup.modelHash},
      {"entry", report.setup.entry},
      {"target", report.setup.target},
      {"host", hostToJSON(report.setup)},
      {"criteria",
       llvm::json::Object{
           {"alpha", number(analysis.criteria.alpha)},
           {"qps", number(analysis.criteria.qps)},
           {"memory_limit_bytes", analysis.criteria.memoryLimitBytes},
           {"p99_bound_ms", number(analysis.criteria.p99BoundMs)}}},
      {"reason", analysis.choice.reason},
  };
  // With --shapes: one configuration per class of shapes, and the rule
  // that maps a shape to its class; the top-level choice is the first
  // shape's.
  if (!report.shapeClasses.shapes.empty())
    manifest["shape_classes"] = toJSON(report.shapeClasses);
  if (!analysis.choice.index ||
      *analysis.choice.index >= analysis.effects.size()) {
    manifest["configuration"] = nullptr;
    manifest["pipeline"] = nullptr;
    manifest["lowering_options"] = nullptr;
    return manifest;
  }
  size_t i = *analysis.choice.index;
  const Configuration &c = report.configurations[i];
  const ConfigurationMeasurement &m = report.measurements[i];
  const ConfigurationEffect &e = analysis.effects[i];
  const ConfigurationEffect &base = analysis.effects[analysis.baseline];
  manifest["configuration"] = c.name;
  manifest["pipeline"] = c.pipeline;
  manifest["lowering_options"] = c.loweringOptions;
  manifest["measured"] = llvm::json::Object{
      {"median_ms", number(e.medianMs)},
      {"baseline_median_ms", number(base.medianMs)},
      {"speedup", number(e.speedup)},
      {"speedup_interval", interval(e.speedupInterval)},
      {"speedup_interval_method", getIntervalMethodName(e.speedupInterval.method)},
      {"cv", number(e.cv)},
      {"peak_bytes", m.peakBytes},
      {"eta_mem", number(e.memorySaving)},
      {"compile_ms", number(e.compileMs)},
      {"break_even_requests", number(e.breakEvenRequests)},
      {"utility", number(e.utility)},
      {"kernels", m.kernels},
      {"repetitions", static_cast<int64_t>(m.runMs.size())},
  };
  return manifest;
}
