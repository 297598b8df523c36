//===- AttentionChain.h - The attention chain of a graph --------*- C++ -*-===//
//
// Scaled dot-product attention as exporters write it, five gopt ops:
//
//   %q = gopt.div %x, %c                 Q ÷ scale      (or mul; optional,
//                                                        through transposes)
//   %s = gopt.matmul %q, %kt            Q·Kᵀ          [B..., Sq, Sk]
//   %t = gopt.mul %s, %c                × scale        (or div; optional)
//   %u = gopt.add %t, %mask             + mask         (optional; a masked
//                                        fill with -inf becomes one first)
//   %p = gopt.softmax %u axis = -1
//   %o = gopt.matmul %p, %v             P·V           [B..., Sq, Dv]
//
// gopt-fuse puts the chain into one kernel (`attention`); the CPU's library
// path computes that kernel in one call (gopt-form-attention-kernels), and
// other paths split it back into the kernels it was
// (gopt-split-attention-kernels).
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_TRANSFORMS_ATTENTIONCHAIN_H
#define GOPT_TRANSFORMS_ATTENTIONCHAIN_H

#include "GOpt/Dialect/GOpt/IR/GOptOps.h"

#include <optional>

namespace mlir {
class RewriterBase;
namespace gopt {

struct AttentionChain {
  /// The scaling of Q by a one-element constant (gopt.mul or gopt.div),
  /// under the transposes Q·Kᵀ reads Q through, or null.
  Operation *queryScaling = nullptr;
  /// The operand queryScaling scales (null without it).
  Value unscaledQuery;
  /// Q·Kᵀ; its operands are Q and Kᵀ.
  MatmulOp scores;
  /// The scaling by a one-element constant (gopt.mul or gopt.div), or null.
  Operation *scaling = nullptr;
  /// The addition of the mask, or null.
  AddOp maskAddition;
  SoftmaxOp softmax;
  /// P·V; its right operand is V.
  MatmulOp output;
  /// What the scores are multiplied by (both scalings; 1 without).
  double scale = 1.0;
  /// The additive mask (null without one), broadcast to [B..., Sq, Sk].
  Value mask;

  Value query() { return scores.getLhs(); }
  Value keyTransposed() { return scores.getRhs(); }
  Value value() { return output.getRhs(); }
  /// The chain's ops, in program order: the query's scaling, scores,
  /// scaling, mask addition, softmax, output (the absent ones left out).
  SmallVector<Operation *> ops();
};

/// The attention chain `output` ends, when it is one: f32 operands of rank
/// 3 or 4 with the same batch dims (no broadcast), the softmax along the
/// last axis, each intermediate read by the next op alone, the scalings by
/// one-element constants, the mask an f32 operand the addition broadcasts
/// to the scores' shape, all in `output`'s block.
std::optional<AttentionChain> matchAttentionChain(MatmulOp output);

/// Rewrites the masked fills of attention scores in `block` as additive
/// masks, the form matchAttentionChain takes: `select(c, -inf, s)` (a
/// masked_fill of the scores `s` with -inf, as causal decoders mask the
/// future; or `select(c, s, -inf)`) read by a softmax along the last axis
/// whose probabilities P·V reads becomes `s + select(c, -inf, 0)`, the
/// mask evaluated when `c` is a constant. The same softmax for finite
/// scores (an infinite or NaN score at a masked position would give NaN).
/// Returns whether it rewrote any.
bool maskAttentionScoresAdditively(Block &block, RewriterBase &rewriter);

/// Whether `fusion` holds exactly one attention chain and the transposes
/// its matmuls read (what gopt-fuse's `attention` makes).
bool isAttentionFusion(FusionOp fusion);

/// Replaces the attention fusion `fusion` by the kernels the chain is
/// without it, as GEMMs take them: Q·Kᵀ with the scaling of Q, the
/// transposes it reads and the scaling of the scores (both its alpha); the
/// mask addition and the softmax; P·V with the transposes it reads and the
/// transpose of its result when that alone reads it (a group of one op is
/// that op, unfused).
void splitAttentionFusion(FusionOp fusion, RewriterBase &rewriter);

} // namespace gopt
} // namespace mlir

#endif // GOPT_TRANSFORMS_ATTENTIONCHAIN_H
