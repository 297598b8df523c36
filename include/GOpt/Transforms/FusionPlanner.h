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
  /// Put a transpose read only by a batched matmul into the matmul's group
  /// when a GEMM can read the transpose's input through strides instead
  /// (absorbableTranspose).
  bool absorbTransposes = true;
  /// Put an attention chain (AttentionChain.h: Q·Kᵀ, scaling, mask,
  /// softmax, P·V) and the transposes its products read in place into one
  /// group, when its first product's group holds nothing else.
  bool fuseAttention = true;
  /// Put a chain of views (isViewOp; at least one slice, each read only by
  /// the next) that an elementwise op reads into that op's group, when the
  /// chain's source is computed outside it: inside the kernel the slices are
  /// views of its input instead of copy kernels of their own.
  bool absorbSliceViews = true;
};

/// Whether `op` lowers to a view of its input: a reshape, or a slice whose
/// steps are all 1 (its innermost stride stays the input's, which a GEMM
/// library needs).
bool isViewOp(Operation *op);

/// The view ops of `block` that compute `v`, outermost (nearest `v`) first,
/// each read only by the next (the first only at `v`'s one use); empty
/// unless one of them is a slice. The chain's source is the last op's
/// operand.
SmallVector<Operation *> viewChain(Value v, Block *block);

/// Whether operand `operandNumber` (0: left, 1: right) of `matmul`, given
/// as a transpose by `perm`, can be read in place, as strides of the
/// transpose's input: the input's innermost dim stays among the operand's
/// two matrix dims (a GEMM needs one unit stride), and, for the left
/// operand of a product with one right matrix for every batch, the rows of
/// all batches stay one GEMM (only a 2-D left operand qualifies).
bool readsPermutedInPlace(MatmulOp matmul, unsigned operandNumber,
                          ArrayRef<int64_t> perm);

/// Whether `operand` is a transpose a gopt.matmul reads and nothing else,
/// and the matmul can read it in place (readsPermutedInPlace).
bool isAbsorbableTranspose(OpOperand &operand);

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

/// The inverse: `fusion`'s ops moved back into its block where it was, its
/// results replaced by the values it yielded. Returns those ops, in order.
SmallVector<Operation *> dissolveFusion(FusionOp fusion,
                                        RewriterBase &rewriter);

/// Whether gopt-outline-kernels makes `op` a kernel of its own: a fusion
/// group, or a gopt op that computes something (not a constant).
bool isKernelOp(Operation *op);

} // namespace gopt
} // namespace mlir

#endif // GOPT_TRANSFORMS_FUSIONPLANNER_H
