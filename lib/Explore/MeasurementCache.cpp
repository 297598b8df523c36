//===- MeasurementCache.cpp - Reusing an exploration's measurements -------===//
//
// The record is JSON (llvm::json): the setup of the rounds, then per
// configuration its name, kind, passes, pipeline and every field of its
// ConfigurationMeasurement. Nothing derived is stored: the analysis is
// recomputed from the runs.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Explore/MeasurementCache.h"
#include "GOpt/Support/Error.h"
#include "GOpt/Support/Files.h"
#include "GOpt/Support/Timing.h"
#include "GOpt/Version.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <ctime>

using namespace mlir;
using namespace mlir::gopt;

static constexpr llvm::StringLiteral kSchema = "gopt-explore-measurements";

std::string mlir::gopt::computeMeasurementKey(llvm::StringRef modelHash,
                                              llvm::StringRef target,
                                              const ExploreOptions &options,
                                              llvm::StringRef context) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "measurements v" << kMeasurementRecordVersion << "|model "
     << modelHash << "|target " << target << "|mode "
     << getExploreModeName(options.mode) << "|passes "
     << llvm::join(options.passes, ",") << "|pairs " << options.pairs
     << "|default " << options.defaultPipeline << "|pipelines";
  for (const auto &[label, pipeline] : options.userPipelines)
    os << " " << label << "=" << pipeline;
  os << "|entry " << options.entry << "|lowering " << options.loweringOptions
     << "|profile " << options.profileKernels << "|warmup " << options.warmup
     << "|steady " << options.steadyRuns << "|reps "
     << options.repetitionsPerRound
     << llvm::formatv("|round-ms {0}|rounds {1}-{2}|error {3}|budget {4}",
                      options.roundMilliseconds, options.minRounds,
                      options.maxRounds, options.targetRelativeError,
                      options.budgetSeconds)
     << llvm::formatv("|rtol {0}|atol {1}|seed {2}", options.rtol, options.atol,
                      options.seed)
     << "|" << context;
  // Under load, the rate and the bound shape what is measured.
  if (options.loadTest)
    os << llvm::formatv("|load {0} requests {1} workers {2} p99 {3}",
                        options.analysis.criteria.qps, options.loadRequests,
                        options.loadWorkers,
                        options.analysis.criteria.p99BoundMs);
  return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(text)),
                     /*LowerCase=*/true);
}

std::string mlir::gopt::measurementRecordPath(llvm::StringRef dir,
                                              llvm::StringRef key) {
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, key + ".measurements.json");
  return std::string(path);
}

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

static llvm::json::Array toArray(llvm::ArrayRef<double> values) {
  llvm::json::Array array;
  for (double v : values)
    array.push_back(v);
  return array;
}

static llvm::json::Object measurementToJSON(const ConfigurationMeasurement &m) {
  llvm::json::Array sizes, ids, kernels;
  for (size_t s : m.roundSizes)
    sizes.push_back(static_cast<int64_t>(s));
  for (int64_t id : m.roundIds)
    ids.push_back(id);
  for (const KernelTiming &k : m.kernelTimes)
    kernels.push_back(llvm::json::Object{
        {"name", k.name}, {"ms_per_run", k.msPerRun}, {"share", k.share}});
  // [flops, bytes] per kernel: a model has hundreds of kernels.
  llvm::json::Array costs;
  for (const KernelCost &k : m.kernelCosts)
    costs.push_back(llvm::json::Array{k.flops, k.bytes});
  llvm::json::Array level;
  for (int64_t bytes : m.waterLevel)
    level.push_back(bytes);
  return llvm::json::Object{
      {"status", getConfigurationStatusName(m.status)},
      {"error", m.error},
      {"run_ms", toArray(m.runMs)},
      {"round_sizes", std::move(sizes)},
      {"round_ids", std::move(ids)},
      {"peak_bytes", m.peakBytes},
      {"static_peak_bytes", m.staticPeakBytes},
      {"kernel_costs", std::move(costs)},
      {"arena_bytes", m.bufferPlan.arenaBytes},
      {"planned_buffers", m.bufferPlan.plannedBuffers},
      {"planned_bytes", m.bufferPlan.plannedBytes},
      {"reserved_at_peak_bytes", m.reservedAtPeakBytes},
      {"largest_free_at_peak_bytes", m.largestFreeAtPeakBytes},
      {"external_fragmentation", m.externalFragmentation},
      {"water_level", std::move(level)},
      {"load", m.load ? llvm::json::Value(toJSON(*m.load))
                      : llvm::json::Value(nullptr)},
      {"ops", m.ops},
      {"kernels", m.kernels},
      {"graph_passes_ms", m.graphPassesMs},
      {"lowering_ms", m.loweringMs},
      {"codegen_ms", m.codegenMs},
      {"compile_peak_bytes", m.compilePeakBytes},
      {"from_cache", m.fromCache},
      {"kernel_times", std::move(kernels)},
      {"kernel_profile_error", m.kernelProfileError},
      {"same_program_as", m.sameProgramAs},
  };
}

llvm::Error mlir::gopt::storeMeasurements(llvm::StringRef path,
                                          const ExploreReport &report) {
  const ExploreSetup &s = report.setup;
  llvm::json::Array configurations;
  for (size_t i = 0; i < report.configurations.size(); ++i) {
    const Configuration &c = report.configurations[i];
    llvm::json::Array passes;
    for (const std::string &p : c.passes)
      passes.push_back(p);
    configurations.push_back(llvm::json::Object{
        {"name", c.name},
        {"kind", getConfigurationKindName(c.kind)},
        {"passes", std::move(passes)},
        {"pipeline", c.pipeline},
        {"lowering_options", c.loweringOptions},
        {"measured", measurementToJSON(report.measurements[i])}});
  }
  llvm::json::Object record{
      {"schema", kSchema},
      {"version", kMeasurementRecordVersion},
      {"measured_at", static_cast<int64_t>(std::time(nullptr))},
      {"setup",
       llvm::json::Object{
           {"entry", s.entry},
           {"target", s.target},
           {"mode", s.mode},
           {"warmup", s.warmup},
           {"repetitions_per_round", s.repetitionsPerRound},
           {"round_milliseconds", s.roundMilliseconds},
           {"rounds", s.rounds},
           {"target_relative_error", s.targetRelativeError},
           {"budget_seconds", s.budgetSeconds},
           {"rtol", s.rtol},
           {"atol", s.atol},
           {"elapsed_seconds", s.elapsedSeconds},
           {"compile_seconds", s.compileSeconds},
           {"check_seconds", s.checkSeconds},
           {"measure_seconds", s.measureSeconds},
           {"profile_seconds", s.profileSeconds},
           {"analysis_seconds", s.analysisSeconds},
           {"shared_programs", s.sharedPrograms},
       }},
      {"configurations", std::move(configurations)},
  };
  llvm::SmallString<256> temporary;
  int fd = -1;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(
          path + ".tmp-%%%%%%", fd, temporary))
    return makeError("cannot store the measurements in " + path + ": " +
                     ec.message());
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << llvm::formatv("{0:2}", llvm::json::Value(std::move(record))) << "\n";
    os.flush();
    if (os.has_error()) {
      os.clear_error();
      llvm::sys::fs::remove(temporary);
      return makeError("cannot store the measurements in " + path +
                       ": write failed");
    }
  }
  if (std::error_code ec = llvm::sys::fs::rename(temporary, path)) {
    llvm::sys::fs::remove(temporary);
    return makeError("cannot store the measurements in " + path + ": " +
                     ec.message());
  }
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

namespace {

/// Reads fields of one JSON object, remembering the first one missing or of
/// the wrong type.
struct FieldReader {
  const llvm::json::Object &object;
  std::string &problem;
  std::string where;

  void fail(llvm::StringRef field) {
    if (problem.empty())
      problem = where + ": missing or bad '" + field.str() + "'";
  }
  std::string string(llvm::StringRef field) {
    if (auto v = object.getString(field))
      return v->str();
    fail(field);
    return "";
  }
  int64_t integer(llvm::StringRef field) {
    if (auto v = object.getInteger(field))
      return *v;
    fail(field);
    return 0;
  }
  double number(llvm::StringRef field) {
    if (auto v = object.getNumber(field))
      return *v;
    fail(field);
    return 0;
  }
  bool boolean(llvm::StringRef field) {
    if (auto v = object.getBoolean(field))
      return *v;
    fail(field);
    return false;
  }
  const llvm::json::Array &array(llvm::StringRef field) {
    static const llvm::json::Array empty;
    if (const llvm::json::Array *a = object.getArray(field))
      return *a;
    fail(field);
    return empty;
  }
};

std::optional<ConfigurationKind> parseKind(llvm::StringRef name) {
  for (ConfigurationKind k :
       {ConfigurationKind::Baseline, ConfigurationKind::Single,
        ConfigurationKind::Pair, ConfigurationKind::Default,
        ConfigurationKind::User, ConfigurationKind::Tuned})
    if (name == getConfigurationKindName(k))
      return k;
  return std::nullopt;
}

std::optional<ConfigurationStatus> parseStatus(llvm::StringRef name) {
  for (ConfigurationStatus s :
       {ConfigurationStatus::Ok, ConfigurationStatus::CompileFailed,
        ConfigurationStatus::RunFailed, ConfigurationStatus::Wrong,
        ConfigurationStatus::Skipped})
    if (name == getConfigurationStatusName(s))
      return s;
  return std::nullopt;
}

} // namespace

llvm::Expected<std::optional<ExploreReport>>
mlir::gopt::loadMeasurements(llvm::StringRef path) {
  if (!llvm::sys::fs::exists(path))
    return std::nullopt;
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return makeError("cannot read the stored measurements " + path + ": " +
                     buffer.getError().message());
  auto parsed = llvm::json::parse((*buffer)->getBuffer());
  if (!parsed)
    return makeError("the stored measurements " + path + " are not JSON (" +
                     llvm::toString(parsed.takeError()) +
                     "); --remeasure replaces them");
  const llvm::json::Object *root = parsed->getAsObject();
  if (!root || root->getString("schema") != kSchema ||
      root->getInteger("version") != kMeasurementRecordVersion)
    return makeError("the stored measurements " + path +
                     " are not a gopt-explore-measurements record of version " +
                     std::to_string(kMeasurementRecordVersion) +
                     "; --remeasure replaces them");
  std::string problem;
  ExploreReport report;
  const llvm::json::Object *setup = root->getObject("setup");
  if (!setup)
    return makeError("the stored measurements " + path +
                     " have no setup; --remeasure replaces them");
  FieldReader s{*setup, problem, "setup"};
  ExploreSetup &out = report.setup;
  out.entry = s.string("entry");
  out.target = s.string("target");
  out.mode = s.string("mode");
  out.warmup = static_cast<int>(s.integer("warmup"));
  out.repetitionsPerRound = static_cast<int>(s.integer("repetitions_per_round"));
  out.roundMilliseconds = s.number("round_milliseconds");
  out.rounds = static_cast<int>(s.integer("rounds"));
  out.targetRelativeError = s.number("target_relative_error");
  out.budgetSeconds = s.number("budget_seconds");
  out.rtol = s.number("rtol");
  out.atol = s.number("atol");
  out.elapsedSeconds = s.number("elapsed_seconds");
  out.compileSeconds = s.number("compile_seconds");
  out.checkSeconds = s.number("check_seconds");
  out.measureSeconds = s.number("measure_seconds");
  out.profileSeconds = s.number("profile_seconds");
  out.analysisSeconds = s.number("analysis_seconds");
  out.sharedPrograms = static_cast<int>(s.integer("shared_programs"));
  if (auto at = root->getInteger("measured_at"))
    out.measuredAt = *at;

  const llvm::json::Array *configs = root->getArray("configurations");
  if (!configs)
    problem = "no configurations";
  for (size_t i = 0; configs && i < configs->size() && problem.empty(); ++i) {
    const llvm::json::Object *c = (*configs)[i].getAsObject();
    const llvm::json::Object *m = c ? c->getObject("measured") : nullptr;
    if (!c || !m) {
      problem = "configuration " + std::to_string(i) + " is not an object";
      break;
    }
    FieldReader cr{*c, problem, "configuration " + std::to_string(i)};
    Configuration config;
    config.name = cr.string("name");
    std::optional<ConfigurationKind> kind = parseKind(cr.string("kind"));
    if (!kind)
      cr.fail("kind");
    config.kind = kind.value_or(ConfigurationKind::Baseline);
    for (const llvm::json::Value &p : cr.array("passes"))
      if (auto name = p.getAsString())
        config.passes.push_back(name->str());
    config.pipeline = cr.string("pipeline");
    config.loweringOptions = cr.string("lowering_options");

    FieldReader mr{*m, problem, config.name};
    ConfigurationMeasurement measured;
    std::optional<ConfigurationStatus> status = parseStatus(mr.string("status"));
    if (!status)
      mr.fail("status");
    measured.status = status.value_or(ConfigurationStatus::Skipped);
    measured.error = mr.string("error");
    for (const llvm::json::Value &v : mr.array("run_ms"))
      measured.runMs.push_back(v.getAsNumber().value_or(0));
    for (const llvm::json::Value &v : mr.array("round_sizes"))
      measured.roundSizes.push_back(
          static_cast<size_t>(v.getAsInteger().value_or(0)));
    for (const llvm::json::Value &v : mr.array("round_ids"))
      measured.roundIds.push_back(v.getAsInteger().value_or(0));
    measured.peakBytes = mr.integer("peak_bytes");
    measured.staticPeakBytes = mr.integer("static_peak_bytes");
    for (const llvm::json::Value &v : mr.array("kernel_costs")) {
      const llvm::json::Array *pair = v.getAsArray();
      if (!pair || pair->size() != 2 || !(*pair)[0].getAsInteger() ||
          !(*pair)[1].getAsInteger()) {
        mr.fail("kernel_costs");
        break;
      }
      measured.kernelCosts.push_back(
          {*(*pair)[0].getAsInteger(), *(*pair)[1].getAsInteger()});
    }
    measured.bufferPlan = {mr.integer("arena_bytes"),
                           mr.integer("planned_buffers"),
                           mr.integer("planned_bytes")};
    measured.reservedAtPeakBytes = mr.integer("reserved_at_peak_bytes");
    measured.largestFreeAtPeakBytes = mr.integer("largest_free_at_peak_bytes");
    measured.externalFragmentation = mr.number("external_fragmentation");
    for (const llvm::json::Value &v : mr.array("water_level"))
      measured.waterLevel.push_back(v.getAsInteger().value_or(0));
    if (const llvm::json::Value *load = m->get("load");
        load && load->kind() != llvm::json::Value::Null) {
      auto parsed = parseLoadMeasurement(*load);
      if (!parsed) {
        llvm::consumeError(parsed.takeError());
        mr.fail("load");
      } else {
        measured.load = *parsed;
      }
    }
    measured.ops = mr.integer("ops");
    measured.kernels = mr.integer("kernels");
    measured.graphPassesMs = mr.number("graph_passes_ms");
    measured.loweringMs = mr.number("lowering_ms");
    measured.codegenMs = mr.number("codegen_ms");
    measured.compilePeakBytes = mr.integer("compile_peak_bytes");
    measured.fromCache = mr.boolean("from_cache");
    for (const llvm::json::Value &v : mr.array("kernel_times")) {
      const llvm::json::Object *k = v.getAsObject();
      if (!k) {
        mr.fail("kernel_times");
        break;
      }
      FieldReader kr{*k, problem, config.name + " kernel"};
      measured.kernelTimes.push_back(
          {kr.string("name"), kr.number("ms_per_run"), kr.number("share")});
    }
    measured.kernelProfileError = mr.string("kernel_profile_error");
    measured.sameProgramAs = mr.string("same_program_as");
    size_t inRounds = 0;
    for (size_t n : measured.roundSizes)
      inRounds += n;
    if (problem.empty() && !measured.roundSizes.empty() &&
        inRounds != measured.runMs.size())
      problem = config.name + ": its rounds do not add up to its runs";
    report.configurations.push_back(std::move(config));
    report.measurements.push_back(std::move(measured));
  }
  if (!problem.empty())
    return makeError("the stored measurements " + path + " are damaged (" +
                     problem + "); --remeasure replaces them");
  // Used now: the compile cache's trimming removes the least recently used.
  touchFile(path);
  return std::optional<ExploreReport>(std::move(report));
}

llvm::Expected<ExploreReport>
mlir::gopt::analyzeStoredMeasurements(ExploreReport stored,
                                      llvm::StringRef path,
                                      const AnalysisOptions &options) {
  double start = nowMs();
  EffectAnalysisResult result =
      analyzeEffects(stored.configurations, stored.measurements, options);
  if (!result.error.empty())
    return makeError("the stored measurements " + path +
                     " cannot be analyzed (" + result.error +
                     "); --remeasure times anew");
  stored.analysis = std::move(result.analysis);
  ExploreSetup &setup = stored.setup;
  setup.reusedMeasurements = path.str();
  setup.toolVersion = GOPT_VERSION_STRING;
  setup.compileSeconds = setup.checkSeconds = setup.measureSeconds =
      setup.profileSeconds = 0;
  setup.analysisSeconds = (nowMs() - start) / 1000.0;
  setup.elapsedSeconds = setup.analysisSeconds;
  return std::move(stored);
}
