//===- GraphStats.h - Size, cost and memory statistics of a graph -*- C++ -*-===//
//
// What a graph looks like at one point of a pipeline: op histogram, values,
// use edges, constants, intermediate tensor bytes, estimated FLOPs and bytes
// moved (from the cost interface), kernel count and a static peak-memory
// estimate from liveness. docs/Analysis.md defines every field. Computed in
// one walk, linear in ops + operands; GraphStatsCache recomputes it cheaply
// after small changes.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_ANALYSIS_GRAPHSTATS_H
#define GOPT_ANALYSIS_GRAPHSTATS_H

#include "GOpt/Support/Roofline.h"

#include "mlir/IR/Operation.h"
#include "llvm/Support/JSON.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace mlir {
namespace gopt {

struct GraphStats {
  /// Graph ops by name (terminators, gopt.fusion wrappers and containers such
  /// as builtin.module and func.func are not graph ops; ops inside a
  /// gopt.fusion are).
  std::map<std::string, int64_t> opHistogram;
  /// Number of graph ops.
  int64_t numOps = 0;
  /// Results of graph ops and fusion ops, plus function arguments.
  int64_t numValues = 0;
  /// Operands of graph ops, fusion ops and terminators.
  int64_t numUseEdges = 0;
  /// Constant-like graph ops and the bytes they hold.
  int64_t numConstants = 0;
  int64_t constantBytes = 0;
  /// Bytes of the tensors kernels write to memory: results of non-constant
  /// ops outside fusion bodies (values inside a fusion stay in registers).
  int64_t intermediateBytes = 0;
  /// Sum of the cost interface over kernels.
  int64_t flops = 0;
  int64_t bytesMoved = 0;
  /// gopt.fusion ops plus unfused non-constant ops that have a cost.
  int64_t numKernels = 0;
  int64_t numFusionGroups = 0;
  /// Largest sum of live intermediate-tensor bytes over program order (a
  /// value lives from its defining op to its last use); the maximum over
  /// functions.
  int64_t peakMemoryBytes = 0;

  /// Statistics of everything nested under `root` (not `root` itself). With
  /// `fingerprint`, also hashes the IR in the same walk (op identities, names,
  /// attributes, operands and result types): equal before and after a pass
  /// exactly when the pass left the IR as it was, up to hash collisions.
  static GraphStats compute(Operation *root, uint64_t *fingerprint = nullptr);

  /// The statistics as a JSON object (keys as in docs/Analysis.md).
  llvm::json::Object toJSON() const;

  bool operator==(const GraphStats &other) const;
  bool operator!=(const GraphStats &other) const { return !(*this == other); }
};

/// The cost of every kernel nested under `root`, in program order: the
/// kernels GraphStats counts (gopt.fusion ops and unfused non-constant ops
/// with a cost), so their FLOPs and bytes sum to its `flops` and
/// `bytesMoved`. What the roofline model (GOpt/Support/Roofline.h) predicts
/// a run time from.
std::vector<KernelCost> collectKernelCosts(Operation *root);

/// Computes GraphStats again and again, as the per-pass measurement does
/// after every pass, keeping what a walk learns for the next: the cost
/// interface's answer per op signature (name, attributes, properties, operand
/// and result types — all a cost may depend on), per-name traits and per-type
/// byte sizes, and the memory of its tables. The result equals
/// `GraphStats::compute` on the same IR. Not thread-safe: one per thread.
class GraphStatsCache {
public:
  GraphStatsCache();
  ~GraphStatsCache();
  GraphStatsCache(GraphStatsCache &&);
  GraphStatsCache &operator=(GraphStatsCache &&);

  /// As `GraphStats::compute`.
  GraphStats compute(Operation *root, uint64_t *fingerprint = nullptr);

  /// Kernels whose cost the last `compute` found memoized / asked the cost
  /// interface for.
  int64_t lastHits() const;
  int64_t lastMisses() const;

  struct Impl;

private:
  std::unique_ptr<Impl> impl;
};

} // namespace gopt
} // namespace mlir

#endif // GOPT_ANALYSIS_GRAPHSTATS_H
