//===- GOptMergeSiblingLinears.cpp - One GEMM for linears of one input ----===//
//
// An attention layer exported as three linears of one input (Q, K and V)
// is three GEMMs; with their weights joined along N it is one, of three
// times the width, and each projection a slice of its result:
//
//   %q = gopt.linear %x, %wq, %bq        %qkv = gopt.linear %x, %w, %b
//   %k = gopt.linear %x, %wk, %bk   →    %q = gopt.slice %qkv [.., 0:N]
//   %v = gopt.linear %x, %wv, %bv        %k = gopt.slice %qkv [.., N:2N] …
//
// The joined weight and bias are constants, computed here by the constant
// evaluator gopt-fold uses (gopt.concat of the constants).
//
//===----------------------------------------------------------------------===//

#include "GOpt/Dialect/GOpt/IR/ConstantEvaluator.h"
#include "GOpt/Dialect/GOpt/IR/GOptOps.h"
#include "GOpt/Transforms/Passes.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/MapVector.h"

#include <limits>
#include <tuple>

namespace mlir {
namespace gopt {
#define GEN_PASS_DEF_GOPTMERGESIBLINGLINEARS
#include "GOpt/Transforms/Passes.h.inc"
} // namespace gopt
} // namespace mlir

using namespace mlir;
using namespace mlir::gopt;

/// The value of `v` when a gopt.constant defines it.
static ElementsAttr constantValue(Value v) {
  ElementsAttr value;
  return v && matchPattern(v, m_Constant(&value)) ? value : ElementsAttr();
}

/// Whether `linear` can join others: outside any fusion, an f32 input, a
/// constant static 2-D f32 weight and, if any, a constant 1-D bias of N.
static bool isMergeable(LinearOp linear) {
  if (linear->getParentOfType<FusionOp>() || linear.getTransposeInput())
    return false;
  auto weight = dyn_cast<RankedTensorType>(linear.getWeight().getType());
  auto input = dyn_cast<RankedTensorType>(linear.getInput().getType());
  if (!weight || !input || weight.getRank() != 2 || !weight.hasStaticShape() ||
      !weight.getElementType().isF32() || !input.getElementType().isF32() ||
      !constantValue(linear.getWeight()))
    return false;
  if (!linear.getBias())
    return true;
  auto bias = dyn_cast<RankedTensorType>(linear.getBias().getType());
  int64_t n = weight.getDimSize(linear.getTransposeWeight() ? 0 : 1);
  return bias && bias.getRank() == 1 && bias.getDimSize(0) == n &&
         bias.getElementType().isF32() && constantValue(linear.getBias());
}

/// What linears must share to be one GEMM: the input (and so K), the
/// weight's layout (transposed or not), whether there is a bias (0 or 1:
/// DenseMapInfo takes no bool).
using SiblingKey = std::tuple<Value, unsigned, unsigned>;

/// The constant `values` joined along `axis` (gopt.concat evaluated), or
/// null when the evaluator cannot (a resource without its blob).
static Value joinConstants(RewriterBase &rewriter, Location loc,
                           ArrayRef<Value> values, int64_t axis) {
  auto concat = ConcatOp::create(rewriter, loc, values, axis);
  SmallVector<Attribute> operands;
  for (Value v : values)
    operands.push_back(constantValue(v));
  SmallVector<Attribute> results;
  LogicalResult evaluated = evaluateConstantOp(
      concat, operands, std::numeric_limits<int64_t>::max(), results);
  rewriter.eraseOp(concat);
  auto value = succeeded(evaluated) && results.size() == 1
                   ? dyn_cast<ElementsAttr>(results.front())
                   : ElementsAttr();
  if (!value)
    return nullptr;
  return ConstantOp::create(rewriter, loc, value);
}

/// Replaces `group` (mergeable linears with one SiblingKey, in program
/// order) by one linear at the first and a slice of its result for each.
static LogicalResult mergeGroup(ArrayRef<LinearOp> group,
                                RewriterBase &rewriter) {
  LinearOp first = group.front();
  bool transposeWeight = first.getTransposeWeight();
  int64_t nAxis = transposeWeight ? 0 : 1;
  SmallVector<Value> weights, biases;
  for (LinearOp linear : group) {
    weights.push_back(linear.getWeight());
    if (linear.getBias())
      biases.push_back(linear.getBias());
  }
  rewriter.setInsertionPoint(first);
  Location loc = rewriter.getFusedLoc(llvm::to_vector(
      llvm::map_range(group, [](LinearOp op) { return op.getLoc(); })));
  Value weight = joinConstants(rewriter, loc, weights, nAxis);
  Value bias =
      biases.empty() ? Value() : joinConstants(rewriter, loc, biases, 0);
  if (!weight || (!biases.empty() && !bias))
    return failure();
  auto merged = LinearOp::create(rewriter, loc, first.getInput(), weight, bias,
                                 /*transpose_input=*/false, transposeWeight);

  auto type = cast<RankedTensorType>(merged.getType());
  int64_t rank = type.getRank(), offset = 0;
  for (LinearOp linear : group) {
    auto sliceType = cast<RankedTensorType>(linear.getType());
    int64_t n = sliceType.getDimSize(rank - 1);
    SmallVector<int64_t> starts(rank, 0), ends(type.getShape()), steps(rank, 1);
    starts.back() = offset;
    ends.back() = offset + n;
    offset += n;
    auto slice = SliceOp::create(rewriter, linear.getLoc(), sliceType, merged,
                                 starts, ends, steps);
    rewriter.replaceOp(linear, slice.getResult());
  }
  return success();
}

namespace {

struct GOptMergeSiblingLinearsPass
    : gopt::impl::GOptMergeSiblingLinearsBase<GOptMergeSiblingLinearsPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<Block *> blocks;
    getOperation()->walk([&](Block *block) { blocks.push_back(block); });
    for (Block *block : blocks) {
      llvm::MapVector<SiblingKey, SmallVector<LinearOp>> groups;
      for (auto linear : block->getOps<LinearOp>()) {
        if (!isMergeable(linear))
          continue;
        SiblingKey key{linear.getInput(), linear.getTransposeWeight(),
                       linear.getBias() ? 1u : 0u};
        groups[key].push_back(linear);
      }
      for (auto &[key, group] : groups)
        if (group.size() > 1 && succeeded(mergeGroup(group, rewriter)))
          numMerged += group.size() - 1;
    }
  }
};

} // namespace
