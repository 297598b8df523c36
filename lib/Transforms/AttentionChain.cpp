//===- AttentionChain.cpp - The attention chain of a graph ----------------===//

#include "GOpt/Transforms/AttentionChain.h"
#include "GOpt/Transforms/FusionPlanner.h"

#include "GOpt/Dialect/GOpt/IR/ConstantEvaluator.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <limits>

using namespace mlir;
using namespace mlir::gopt;

SmallVector<Operation *> AttentionChain::ops() {
  SmallVector<Operation *> chain;
  if (queryScaling)
    chain.push_back(queryScaling);
  chain.push_back(scores);
  if (scaling)
    chain.push_back(scaling);
  if (maskAddition)
    chain.push_back(maskAddition);
  chain.push_back(softmax);
  chain.push_back(output);
  return chain;
}

namespace {

/// The static f32 tensor type of `v`, or null.
RankedTensorType staticF32(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type && type.hasStaticShape() && type.getElementType().isF32()
             ? type
             : RankedTensorType();
}

/// Whether `matmul` multiplies f32 operands of one rank, 3 or 4, with the
/// same batch dims (the attention kernel takes no broadcast batch).
bool isBatchedF32Product(MatmulOp matmul) {
  RankedTensorType lhs = staticF32(matmul.getLhs()),
                   rhs = staticF32(matmul.getRhs()),
                   result = staticF32(matmul.getResult());
  if (!lhs || !rhs || !result || lhs.getRank() != rhs.getRank() ||
      lhs.getRank() < 3 || lhs.getRank() > 4)
    return false;
  int64_t batch = lhs.getRank() - 2;
  return lhs.getShape().take_front(batch) == rhs.getShape().take_front(batch);
}

/// The op defining `v` when it is `OpTy`, in `block`, read only there.
template <typename OpTy> OpTy singleUseProducer(Value v, Block *block) {
  auto op = v.getDefiningOp<OpTy>();
  if (!op || op->getBlock() != block || !v.hasOneUse())
    return OpTy();
  return op;
}

/// The value of a one-element f32 constant, if `v` is one (or the input of
/// a gopt.fusion such a constant is).
std::optional<double> scalarConstant(Value v) {
  if (auto arg = dyn_cast<BlockArgument>(v))
    if (auto fusion = dyn_cast<FusionOp>(arg.getOwner()->getParentOp()))
      v = fusion.getInputs()[arg.getArgNumber()];
  DenseElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)) || attr.getNumElements() != 1 ||
      !attr.getElementType().isF32())
    return std::nullopt;
  return (*attr.value_begin<APFloat>()).convertToDouble();
}

/// The operand `op` scales and the factor, when `op` is a gopt.mul or
/// gopt.div by a one-element constant that keeps the other operand's type.
std::optional<std::pair<Value, double>> scalingByConstant(Operation *op) {
  if (auto mul = dyn_cast_or_null<MulOp>(op)) {
    for (unsigned i = 0; i < 2; ++i)
      if (auto c = scalarConstant(mul->getOperand(1 - i));
          c && mul->getOperand(i).getType() == mul.getType())
        return std::make_pair(mul->getOperand(i), *c);
  } else if (auto div = dyn_cast_or_null<DivOp>(op)) {
    if (auto c = scalarConstant(div.getRhs());
        c && *c != 0.0 && div.getLhs().getType() == div.getType())
      return std::make_pair(div.getLhs(), 1.0 / *c);
  }
  return std::nullopt;
}

} // namespace

std::optional<AttentionChain> mlir::gopt::matchAttentionChain(MatmulOp output) {
  if (!isBatchedF32Product(output))
    return std::nullopt;
  Block *block = output->getBlock();
  AttentionChain chain;
  chain.output = output;
  chain.softmax = singleUseProducer<SoftmaxOp>(output.getLhs(), block);
  if (!chain.softmax)
    return std::nullopt;
  int64_t rank = cast<RankedTensorType>(output.getLhs().getType()).getRank();
  if (normalizeAxis(chain.softmax.getAxis(), rank) != rank - 1)
    return std::nullopt;
  RankedTensorType scoresType = staticF32(chain.softmax.getInput());
  if (!scoresType)
    return std::nullopt;
  Value v = chain.softmax.getInput();

  // + mask: the operand of the scores' type is the chain, the other one the
  // mask, broadcast to it.
  if (auto add = singleUseProducer<AddOp>(v, block)) {
    for (unsigned i = 0; i < 2 && !chain.maskAddition; ++i) {
      Value x = add->getOperand(i), mask = add->getOperand(1 - i);
      Operation *def = x.getDefiningOp();
      RankedTensorType maskType = staticF32(mask);
      if (x.getType() != scoresType || !maskType || maskType.getRank() > rank ||
          !isa_and_nonnull<MatmulOp, MulOp, DivOp>(def))
        continue;
      chain.maskAddition = add;
      chain.mask = mask;
      v = x;
    }
  }
  // × or ÷ a one-element constant.
  if (Operation *def = v.getDefiningOp();
      def && def->getBlock() == block && v.hasOneUse())
    if (auto scaled = scalingByConstant(def)) {
      chain.scaling = def;
      chain.scale = scaled->second;
      v = scaled->first;
    }
  chain.scores = singleUseProducer<MatmulOp>(v, block);
  if (!chain.scores || !isBatchedF32Product(chain.scores))
    return std::nullopt;
  // Q scaled before the product (through the transposes that split its
  // heads), as nn.MultiheadAttention exports it.
  Value query = chain.scores.getLhs();
  while (auto transpose = singleUseProducer<TransposeOp>(query, block))
    query = transpose.getInput();
  if (Operation *def = query.getDefiningOp();
      def && def->getBlock() == block && query.hasOneUse())
    if (auto scaled = scalingByConstant(def)) {
      chain.queryScaling = def;
      chain.unscaledQuery = scaled->first;
      chain.scale *= scaled->second;
    }
  // Same batch dims on both products, Sk shared.
  auto q = cast<RankedTensorType>(chain.scores.getLhs().getType());
  auto vt = cast<RankedTensorType>(output.getRhs().getType());
  if (q.getRank() != rank ||
      q.getShape().take_front(rank - 2) != vt.getShape().take_front(rank - 2))
    return std::nullopt;
  return chain;
}

/// Whether `v` is a constant whose every element is -inf (a f32 splat).
static bool isNegativeInfinitySplat(Value v) {
  DenseElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)) || !attr.isSplat() ||
      !attr.getElementType().isF32())
    return false;
  APFloat value = attr.getSplatValue<APFloat>();
  return value.isInfinity() && value.isNegative();
}

/// The masked fill `select` rewrites as scores + mask, if it is one: its
/// only reader a softmax along the last axis whose only reader is a batched
/// f32 P·V, one branch a -inf splat, the other the scores (of the select's
/// type, computed by Q·Kᵀ or its scaling). Returns the scores and whether
/// the -inf is the true branch.
static std::optional<std::pair<Value, bool>> maskedFill(SelectOp select) {
  Value result = select.getResult();
  auto type = cast<RankedTensorType>(result.getType());
  if (!result.hasOneUse() || !type.getElementType().isF32())
    return std::nullopt;
  auto softmax = dyn_cast<SoftmaxOp>(*result.getUsers().begin());
  if (!softmax || softmax->getBlock() != select->getBlock() ||
      normalizeAxis(softmax.getAxis(), type.getRank()) != type.getRank() - 1 ||
      !softmax.getResult().hasOneUse())
    return std::nullopt;
  auto output = dyn_cast<MatmulOp>(*softmax.getResult().getUsers().begin());
  if (!output || output.getLhs() != softmax.getResult() ||
      !isBatchedF32Product(output))
    return std::nullopt;
  for (bool fillIsTrue : {true, false}) {
    Value fill = fillIsTrue ? select.getOnTrue() : select.getOnFalse();
    Value scores = fillIsTrue ? select.getOnFalse() : select.getOnTrue();
    if (isNegativeInfinitySplat(fill) && scores.getType() == type &&
        isa_and_nonnull<MatmulOp, MulOp, DivOp>(scores.getDefiningOp()))
      return std::make_pair(scores, fillIsTrue);
  }
  return std::nullopt;
}

/// The additive mask of a fill: select(condition, -inf, 0), or
/// select(condition, 0, -inf) when the fill is the false branch; placed
/// right after the condition (gopt-fuse puts the addition in the scores'
/// kernel only when its operands exist before the kernel); a constant when
/// the condition is one (gopt-fold has run).
static Value additiveMask(Block &block, RewriterBase &rewriter, Value condition,
                          bool fillIsTrue, Location loc) {
  if (Operation *def = condition.getDefiningOp();
      def && def->getBlock() == &block)
    rewriter.setInsertionPointAfter(def);
  else
    rewriter.setInsertionPointToStart(&block);
  auto scalar = RankedTensorType::get({}, rewriter.getF32Type());
  Value minusInf = ConstantOp::create(
      rewriter, loc,
      DenseElementsAttr::get(scalar, -std::numeric_limits<float>::infinity()));
  Value zero =
      ConstantOp::create(rewriter, loc, DenseElementsAttr::get(scalar, 0.0f));
  auto maskType =
      cast<RankedTensorType>(condition.getType()).clone(rewriter.getF32Type());
  auto mask = SelectOp::create(rewriter, loc, maskType, condition,
                               fillIsTrue ? minusInf : zero,
                               fillIsTrue ? zero : minusInf);
  Attribute conditionAttr;
  if (!matchPattern(condition, m_Constant(&conditionAttr)))
    return mask;
  SmallVector<Attribute> operands = {conditionAttr, nullptr, nullptr}, results;
  for (unsigned i = 1; i < 3; ++i)
    matchPattern(mask->getOperand(i), m_Constant(&operands[i]));
  if (failed(evaluateConstantOp(mask, operands, /*maxElements=*/1 << 24,
                                results)) ||
      results.size() != 1)
    return mask;
  Value constant =
      ConstantOp::create(rewriter, loc, cast<ElementsAttr>(results.front()));
  rewriter.eraseOp(mask);
  rewriter.eraseOp(minusInf.getDefiningOp());
  rewriter.eraseOp(zero.getDefiningOp());
  return constant;
}

bool mlir::gopt::maskAttentionScoresAdditively(Block &block,
                                               RewriterBase &rewriter) {
  SmallVector<SelectOp> selects;
  for (auto select : block.getOps<SelectOp>())
    selects.push_back(select);
  // One mask per condition and branch: a decoder's layers share theirs.
  DenseMap<std::pair<Value, unsigned>, Value> masks;
  bool changed = false;
  for (SelectOp select : selects) {
    std::optional<std::pair<Value, bool>> fill = maskedFill(select);
    if (!fill)
      continue;
    auto [scores, fillIsTrue] = *fill;
    Value &mask = masks[{select.getCondition(), unsigned(fillIsTrue)}];
    if (!mask)
      mask = additiveMask(block, rewriter, select.getCondition(), fillIsTrue,
                          select.getLoc());
    rewriter.setInsertionPoint(select);
    rewriter.replaceOpWithNewOp<AddOp>(select, select.getType(), scores, mask);
    changed = true;
  }
  return changed;
}

/// The transposes of `matmul`'s operands that `members` holds.
static SmallVector<Operation *>
transposesRead(MatmulOp matmul,
               const llvm::SmallPtrSetImpl<Operation *> &members) {
  SmallVector<Operation *> transposes;
  for (Value operand : matmul->getOperands())
    if (auto transpose = operand.getDefiningOp<TransposeOp>();
        transpose && members.contains(transpose))
      transposes.push_back(transpose);
  return transposes;
}

bool mlir::gopt::isAttentionFusion(FusionOp fusion) {
  Block &body = fusion.getBodyBlock();
  auto yield = cast<YieldOp>(body.getTerminator());
  if (yield.getNumOperands() != 1)
    return false;
  auto output = yield.getOperand(0).getDefiningOp<MatmulOp>();
  std::optional<AttentionChain> chain =
      output ? matchAttentionChain(output) : std::nullopt;
  if (!chain)
    return false;
  llvm::SmallPtrSet<Operation *, 16> members;
  for (Operation &op : body.without_terminator())
    members.insert(&op);
  size_t expected = chain->ops().size() +
                    transposesRead(chain->scores, members).size() +
                    transposesRead(chain->output, members).size();
  return members.size() == expected;
}

void mlir::gopt::splitAttentionFusion(FusionOp fusion, RewriterBase &rewriter) {
  // The body back where the fusion was; its transposes are those the two
  // products read in place.
  auto output = cast<YieldOp>(fusion.getBodyBlock().getTerminator())
                    .getOperand(0)
                    .getDefiningOp<MatmulOp>();
  llvm::SmallPtrSet<Operation *, 4> transposes;
  for (Operation *op : dissolveFusion(fusion, rewriter))
    if (isa<TransposeOp>(op))
      transposes.insert(op);

  std::optional<AttentionChain> chain = matchAttentionChain(output);
  assert(chain && "an attention fusion's body is an attention chain");

  // The kernels gopt-fuse makes without `attention`: each product with the
  // transposes it reads, placed just before it (their inputs come from
  // before the fusion), and the scores' epilogue. Where the GEMMs can take
  // ops as parameters, the kernels differ: the scaling of Q joins Q·Kᵀ
  // (alpha, like the scaling of the scores: gopt-fold-scaling-into-
  // contractions), the mask addition joins the softmax (which reads the
  // scores' rows anyway), so that Q·Kᵀ's kernel is the GEMM alone, and a
  // transpose that alone reads P·V joins P·V (the heads merged back: the
  // GEMM writes through strides, gopt-fold-permutations-into-contractions).
  auto withTransposes = [&](MatmulOp matmul, ArrayRef<Operation *> before,
                            ArrayRef<Operation *> after) {
    SmallVector<Operation *> group(before.begin(), before.end());
    for (Value operand : matmul->getOperands())
      if (Operation *def = operand.getDefiningOp();
          def && transposes.contains(def)) {
        rewriter.moveOpBefore(def, matmul);
        group.push_back(def);
      }
    group.push_back(matmul);
    group.append(after.begin(), after.end());
    return group;
  };
  SmallVector<Operation *> prologue, epilogue, merge;
  if (chain->queryScaling)
    prologue.push_back(chain->queryScaling);
  if (chain->scaling)
    epilogue.push_back(chain->scaling);
  Value attention = chain->output.getResult();
  if (attention.hasOneUse())
    if (auto transpose = dyn_cast<TransposeOp>(*attention.getUsers().begin());
        transpose && transpose->getBlock() == chain->output->getBlock())
      merge.push_back(transpose);
  SmallVector<Operation *> scores =
      withTransposes(chain->scores, prologue, epilogue);
  SmallVector<Operation *> outputs = withTransposes(chain->output, {}, merge);
  SmallVector<Operation *> probabilities;
  if (chain->maskAddition)
    probabilities = {chain->maskAddition, chain->softmax};
  for (ArrayRef<Operation *> group :
       {ArrayRef(scores), ArrayRef(probabilities), ArrayRef(outputs)})
    if (group.size() > 1)
      materializeFusionGroup(group, rewriter);
}
