//===- FusionPlanner.h - Choose and build fusion groups ---------*- C++ -*-===//
//
// The graph utility behind gopt-fuse, usable on its own: plan the groups of
// one block, then turn each into a gopt.fusion op.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_TRANSFORMS_FUSIONPLANNER_H
#define GOPT_TRANSFORMS_FUSIONPLANNER_H

#include "GOpt/Dialect/GOpt/IR/GOptOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace gopt {

struct FusionPlannerOptions {
  /// Largest number of ops in one group.
  int64_t maxGroupSize = 64;
  /// Fuse elementwise consumers into contraction groups.
  bool fuseContractionEpilogues = true;
  /// Fuse elementwise prologues and epilogues into reductions.
  bool fuseReductions = true;
};

/// Groups of two or more ops of `block`, each in program order, groups
/// ordered by their first op. Linear in the number of ops and operands. Every
/// input a group takes from outside is defined before the group's first op.
std::vector<SmallVector<Operation *>>
planFusionGroups(Block &block, const FusionPlannerOptions &options);

/// Replaces `group` (ops of one block, in program order, as planned) by one
/// gopt.fusion op placed at the first op; values used outside the group become
/// its results.
FusionOp materializeFusionGroup(ArrayRef<Operation *> group,
                                RewriterBase &rewriter);

} // namespace gopt
} // namespace mlir

#endif // GOPT_TRANSFORMS_FUSIONPLANNER_H
