//===- PassMeasurement.cpp - Per-pass size and time record ----------------===//
//
// Cost is kept linear and small: each pass execution computes one snapshot
// (statistics plus fingerprint, one walk) after the pass; the snapshot before
// a pass is the previous pass's "after" whenever the same thread ran the
// previous pass on the same op, which is the common case of a sequential
// pipeline, so a pipeline of P passes costs P + 1 walks. Each thread keeps a
// GraphStatsCache, so a walk asks the cost interface only about the ops the
// last pass created or changed.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Analysis/PassMeasurement.h"
#include "GOpt/Support/Timing.h"
#include "GOpt/Version.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Threading.h"

#include <chrono>
#include <ctime>

using namespace mlir;
using namespace mlir::gopt;

namespace {

/// Where a row sits in the record: its sort key, nesting path and depth.
struct RowPosition {
  std::vector<int64_t> key;
  std::string path;
  /// -1 when unknown (a pipeline spawned by no recorded pass).
  int64_t depth = -1;
};

/// A pass execution in flight on one thread.
struct OpenPass {
  Pass *pass;
  PassRecord row;
  uint64_t fingerprintBefore;
  double wallStart, cpuStart;
  /// Passes this pass's nested pipelines ran so far, per op they ran on.
  int64_t nextChildOrdinal = 0;
};

/// A nested pipeline in flight on one thread.
struct OpenPipeline {
  /// The row of the pass that spawned it (depth -1 for the top level).
  RowPosition parent;
  /// Number of passes open on the thread when the pipeline started.
  int64_t passDepthAtPush = 0;
  int64_t nextPassOrdinal = 0;
};

struct ThreadState {
  std::vector<OpenPass> passes;
  std::vector<OpenPipeline> pipelines;
  /// The last snapshot this thread took, reusable as the next "before" while
  /// no pass on an enclosing op finished since (`lastEpochs`).
  Operation *lastOp = nullptr;
  std::vector<int64_t> lastEpochs;
  uint64_t lastFingerprint = 0;
  GraphStats lastStats;
  GraphStatsCache statsCache;
};

/// Total growth of `from` into `to`: per op name, the count `to` has beyond
/// `from`, summed.
int64_t histogramGrowth(const std::map<std::string, int64_t> &from,
                        const std::map<std::string, int64_t> &to) {
  int64_t growth = 0;
  for (const auto &[name, count] : to) {
    auto it = from.find(name);
    growth += std::max<int64_t>(0, count - (it == from.end() ? 0 : it->second));
  }
  return growth;
}

/// Index of `op` among the ops of its block (0 for a top-level op).
int64_t siblingIndex(Operation *op) {
  Block *block = op->getBlock();
  if (!block)
    return 0;
  int64_t i = 0;
  for (Operation &sibling : *block) {
    if (&sibling == op)
      return i;
    ++i;
  }
  return 0;
}

} // namespace

struct PassMeasurementInstrumentation::Impl {
  std::shared_ptr<MeasurementRecord> record;
  std::mutex mutex;
  /// Boxed: a thread holds a reference to its state while others add theirs.
  DenseMap<uint64_t, std::unique_ptr<ThreadState>> threads;
  /// Rows of the passes in flight, which may spawn nested pipelines.
  DenseMap<Pass *, RowPosition> spawning;
  double origin = -1;
  /// epochs[d] counts finished passes at nesting depth d: a snapshot taken at
  /// depth k stays valid while epochs[0..k) are unchanged.
  std::vector<int64_t> epochs;

  std::vector<int64_t> epochsAbove(int64_t depth) {
    std::lock_guard<std::mutex> lock(mutex);
    std::vector<int64_t> above(depth, 0);
    for (int64_t d = 0; d < depth && d < static_cast<int64_t>(epochs.size());
         ++d)
      above[d] = epochs[d];
    return above;
  }

  ThreadState &state() {
    std::lock_guard<std::mutex> lock(mutex);
    std::unique_ptr<ThreadState> &slot = threads[llvm::get_threadid()];
    if (!slot)
      slot = std::make_unique<ThreadState>();
    return *slot;
  }
};

PassMeasurementInstrumentation::PassMeasurementInstrumentation(
    std::shared_ptr<MeasurementRecord> record)
    : impl(std::make_unique<Impl>()) {
  impl->record = std::move(record);
}

PassMeasurementInstrumentation::~PassMeasurementInstrumentation() = default;

void PassMeasurementInstrumentation::runBeforePipeline(
    std::optional<OperationName>, const PipelineParentInfo &parentInfo) {
  OpenPipeline pipeline;
  {
    std::lock_guard<std::mutex> lock(impl->mutex);
    auto it = impl->spawning.find(parentInfo.parentPass);
    if (it != impl->spawning.end())
      pipeline.parent = it->second;
  }
  ThreadState &state = impl->state();
  pipeline.passDepthAtPush = static_cast<int64_t>(state.passes.size());
  state.pipelines.push_back(std::move(pipeline));
}

void PassMeasurementInstrumentation::runAfterPipeline(
    std::optional<OperationName>, const PipelineParentInfo &) {
  ThreadState &state = impl->state();
  if (!state.pipelines.empty())
    state.pipelines.pop_back();
}

void PassMeasurementInstrumentation::runBeforePass(Pass *pass, Operation *op) {
  ThreadState &state = impl->state();
  double measureStart = nowMs();
  OpenPass open;
  open.pass = pass;
  PassRecord &row = open.row;
  row.name = pass->getName().str();
  row.argument = pass->getArgument().str();
  {
    llvm::raw_string_ostream os(row.pipeline);
    pass->printAsTextualPipeline(os);
  }
  row.opName = op->getName().getStringRef().str();
  if (auto symbol =
          op->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName()))
    row.opSymbol = symbol.getValue().str();
  row.threadId = llvm::get_threadid();
  std::string here =
      row.opSymbol.empty() ? row.opName : row.opName + "@" + row.opSymbol;

  // Where this execution sits: in the innermost nested pipeline or pass open
  // on this thread, else at the top level.
  bool inPipeline = !state.pipelines.empty() &&
                    state.pipelines.back().passDepthAtPush ==
                        static_cast<int64_t>(state.passes.size());
  if (inPipeline && state.pipelines.back().parent.depth >= 0) {
    OpenPipeline &pipeline = state.pipelines.back();
    row.key = pipeline.parent.key;
    row.key.push_back(siblingIndex(op));
    row.key.push_back(pipeline.nextPassOrdinal++);
    row.path = pipeline.parent.path + "/" + here;
    row.depth = pipeline.parent.depth + 1;
  } else if (!inPipeline && !state.passes.empty()) {
    // A pass that runs another pass directly on this thread.
    OpenPass &parent = state.passes.back();
    row.key = parent.row.key;
    row.key.push_back(siblingIndex(op));
    row.key.push_back(parent.nextChildOrdinal++);
    row.path = parent.row.path + "/" + here;
    row.depth = parent.row.depth + 1;
  } else {
    // The ordinal lives in the record: a tool may run several pass managers
    // into one record (e.g. one per -split-input-file chunk).
    std::lock_guard<std::mutex> lock(impl->record->mutex);
    row.key = {impl->record->nextTopLevelOrdinal++};
    row.path = here;
    row.depth = 0;
  }

  // Snapshot before the pass: reuse this thread's last one when it was taken
  // on the same op right before.
  if (state.lastOp == op && state.lastEpochs == impl->epochsAbove(row.depth)) {
    row.before = state.lastStats;
    open.fingerprintBefore = state.lastFingerprint;
  } else {
    row.before = state.statsCache.compute(op, &open.fingerprintBefore);
  }
  bool topLevel = row.depth == 0;
  bool firstTopLevel = false;
  {
    std::lock_guard<std::mutex> lock(impl->record->mutex);
    if (topLevel && !impl->record->hasBaseline) {
      impl->record->baseline = row.before;
      impl->record->hasBaseline = true;
      firstTopLevel = true;
    }
  }
  if (firstTopLevel && impl->record->runtimeProbe)
    impl->record->baselineRuntime = impl->record->runtimeProbe(op);
  {
    std::lock_guard<std::mutex> lock(impl->mutex);
    impl->spawning[pass] = RowPosition{row.key, row.path, row.depth};
    if (impl->origin < 0)
      impl->origin = measureStart;
  }
  row.measureMs = nowMs() - measureStart;
  state.passes.push_back(std::move(open));
  state.lastOp = nullptr;
  OpenPass &started = state.passes.back();
  started.cpuStart = threadCpuMs();
  started.wallStart = nowMs();
}

void PassMeasurementInstrumentation::finishPass(Pass *pass, Operation *op,
                                                bool failed) {
  Impl &impl = *this->impl;
  double wallEnd = nowMs();
  double cpuEnd = threadCpuMs();
  ThreadState &state = impl.state();
  if (state.passes.empty() || state.passes.back().pass != pass)
    return;
  OpenPass open = std::move(state.passes.back());
  state.passes.pop_back();
  PassRecord &row = open.row;
  row.wallMs = wallEnd - open.wallStart;
  row.cpuMs = cpuEnd - open.cpuStart;
  row.failed = failed;

  double measureStart = nowMs();
  uint64_t fingerprintAfter = 0;
  row.after = state.statsCache.compute(op, &fingerprintAfter);
  row.changed = fingerprintAfter != open.fingerprintBefore;
  row.opsAdded = histogramGrowth(row.before.opHistogram, row.after.opHistogram);
  row.opsRemoved =
      histogramGrowth(row.after.opHistogram, row.before.opHistogram);
  int64_t groups = row.after.numFusionGroups - row.before.numFusionGroups;
  row.fusionGroupsAdded = std::max<int64_t>(0, groups);
  row.fusionGroupsRemoved = std::max<int64_t>(0, -groups);
  {
    std::lock_guard<std::mutex> lock(impl.mutex);
    if (static_cast<int64_t>(impl.epochs.size()) <= row.depth)
      impl.epochs.resize(row.depth + 1, 0);
    ++impl.epochs[row.depth];
  }
  state.lastOp = failed ? nullptr : op;
  state.lastEpochs = impl.epochsAbove(row.depth);
  state.lastFingerprint = fingerprintAfter;
  state.lastStats = row.after;
  if (row.depth == 0 && !failed && impl.record->runtimeProbe)
    row.runtime = impl.record->runtimeProbe(op);
  row.measureMs += nowMs() - measureStart;

  {
    std::lock_guard<std::mutex> lock(impl.mutex);
    impl.spawning.erase(pass);
    row.startMs = open.wallStart - impl.origin;
  }
  std::lock_guard<std::mutex> lock(impl.record->mutex);
  impl.record->rows.push_back(std::move(row));
}

void PassMeasurementInstrumentation::runAfterPass(Pass *pass, Operation *op) {
  finishPass(pass, op, /*failed=*/false);
}

void PassMeasurementInstrumentation::runAfterPassFailed(Pass *pass,
                                                        Operation *op) {
  finishPass(pass, op, /*failed=*/true);
}

//===----------------------------------------------------------------------===//
// Attaching to a pass manager
//===----------------------------------------------------------------------===//

void mlir::gopt::attachGOptMeasurement(
    PassManager &pm, std::shared_ptr<MeasurementRecord> record) {
  if (record->pipeline.empty()) {
    llvm::raw_string_ostream os(record->pipeline);
    pm.printAsTextualPipeline(os);
  }
  record->threading = pm.getContext()->isMultithreadingEnabled();
  pm.addInstrumentation(
      std::make_unique<PassMeasurementInstrumentation>(std::move(record)));
}

std::shared_ptr<MeasurementRecord>
mlir::gopt::attachGOptMeasurement(PassManager &pm,
                                  const MeasurementOptions &options) {
  auto record = std::make_shared<MeasurementRecord>();
  record->toolName = options.toolName;
  record->toolVersion =
      options.toolVersion.empty() ? GOPT_VERSION_STRING : options.toolVersion;
  record->inputFile = options.inputFile;
  record->runtimeProbe = options.runtimeProbe;
  attachGOptMeasurement(pm, record);
  return record;
}

//===----------------------------------------------------------------------===//
// MeasurementRecord
//===----------------------------------------------------------------------===//

void MeasurementRecord::finalize() {
  std::lock_guard<std::mutex> lock(mutex);
  std::stable_sort(rows.begin(), rows.end(),
                   [](const PassRecord &a, const PassRecord &b) {
                     return a.key < b.key;
                   });
  std::map<std::vector<int64_t>, int64_t> indexOfKey;
  for (auto [i, row] : llvm::enumerate(rows)) {
    row.index = static_cast<int64_t>(i);
    indexOfKey[row.key] = row.index;
  }
  for (PassRecord &row : rows) {
    row.parent = -1;
    if (row.key.size() >= 3) {
      std::vector<int64_t> parentKey(row.key.begin(), row.key.end() - 2);
      auto it = indexOfKey.find(parentKey);
      if (it != indexOfKey.end())
        row.parent = it->second;
    }
  }
}

const GraphStats &MeasurementRecord::final() const {
  for (const PassRecord &row : llvm::reverse(rows))
    if (row.depth == 0)
      return row.after;
  return baseline;
}

/// Sum of one time field over the top-level rows (nested rows are inside
/// their adaptor's time already).
static double sumTopLevel(const std::vector<PassRecord> &rows,
                          double PassRecord::*field) {
  double total = 0;
  for (const PassRecord &row : rows)
    if (row.depth == 0)
      total += row.*field;
  return total;
}

double MeasurementRecord::totalWallMs() const {
  return sumTopLevel(rows, &PassRecord::wallMs);
}

double MeasurementRecord::totalCpuMs() const {
  return sumTopLevel(rows, &PassRecord::cpuMs);
}
