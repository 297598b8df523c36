//===- ConvolutionEpilogue.cpp - Epilogues a convolution applies ----------===//
//
// Reads an elementwise payload as a chain of oneDNN post-op steps. The
// payloads are what convert-gopt-to-linalg writes for gopt's elementwise
// ops after upstream's elementwise fusion (splat constants inlined):
//
//   bias, batch norm   x + b[c], x * s[c]            → AddChannel, MulChannel
//   scale, shift       x * k, x + k, x / k, -x       → Linear
//   ReLU               select(x > 0, x, 0)           → Clip(0, inf)
//   clip, ReLU6        min(max(x, lo), hi)           → Clip(lo, hi)
//   sigmoid            1 / (1 + exp(-x))             → Logistic
//   SiLU               x / (1 + exp(-x)), x·σ(x)     → Swish(1)
//   hardswish          x · clip(a·x + b, 0, hi)      → HardSwish(hi)
//                        with a/hi = 1/6, b/hi = 1/2 (ONNX's HardSwish,
//                        x · relu6(x + 3) / 6)
//   tanh               tanh(x)                       → Tanh
//
// Adjacent linear steps, adjacent clips whose ranges overlap, and a scale
// after a hardswish are merged into one step.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Codegen/Common/ConvolutionEpilogue.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::gopt;
using runtime::PostOpKind;

namespace {

using Chain = SmallVector<EpilogueStep>;

/// The f32 constant `v` is, or none.
std::optional<float> constantValue(Value v) {
  FloatAttr attr;
  if (!matchPattern(v, m_Constant(&attr)) || !attr.getType().isF32())
    return std::nullopt;
  return static_cast<float>(attr.getValueAsDouble());
}

bool isConstant(Value v, float expected) {
  std::optional<float> c = constantValue(v);
  return c && *c == expected;
}

/// Appends `step` to `chain`, merged into its last step where one step
/// computes both.
void append(Chain &chain, EpilogueStep step) {
  if (!chain.empty()) {
    EpilogueStep &last = chain.back();
    if (last.kind == PostOpKind::Linear && step.kind == PostOpKind::Linear) {
      // a2·(a1·x + b1) + b2
      last.beta = step.alpha * last.beta + step.beta;
      last.alpha = step.alpha * last.alpha;
      return;
    }
    if (last.kind == PostOpKind::HardSwish && step.kind == PostOpKind::Linear &&
        step.beta == 0.0f) {
      last.alpha *= step.alpha;
      return;
    }
    if (last.kind == PostOpKind::Clip && step.kind == PostOpKind::Clip) {
      float lo = std::max(last.alpha, step.alpha);
      float hi = std::min(last.beta, step.beta);
      if (lo <= hi) {
        last.alpha = lo;
        last.beta = hi;
        return;
      }
    }
  }
  chain.push_back(step);
}

bool nearly(float a, float b) {
  return std::fabs(a - b) <= 1e-6f * std::max(1.0f, std::fabs(b));
}

/// Reads a payload as chains of steps.
class EpilogueReader {
public:
  EpilogueReader(linalg::GenericOp op, BlockArgument start)
      : op(op), body(op.getBody()), start(start) {}

  /// The steps that compute `v` from `base` (`start`, or a value computed
  /// from it); none when `v` is computed otherwise.
  std::optional<Chain> chainOf(Value v, Value base) {
    if (v == base)
      return Chain();
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != body || def->getNumResults() != 1)
      return std::nullopt;
    // Unary steps.
    if (auto neg = dyn_cast<arith::NegFOp>(def))
      return then(neg.getOperand(), base, {PostOpKind::Linear, -1.0f, 0.0f});
    if (auto tanh = dyn_cast<math::TanhOp>(def))
      return then(tanh.getOperand(), base, {PostOpKind::Tanh});
    if (auto select = dyn_cast<arith::SelectOp>(def))
      return relu(select, base);
    if (isa<arith::MaximumFOp, arith::MaxNumFOp, arith::MinimumFOp,
            arith::MinNumFOp>(def)) {
      bool max = isa<arith::MaximumFOp, arith::MaxNumFOp>(def);
      float inf = std::numeric_limits<float>::infinity();
      return withConstant(def, base, [&](float c, bool) -> EpilogueStep {
        return {PostOpKind::Clip, max ? c : -inf, max ? inf : c};
      });
    }
    if (isa<arith::AddFOp>(def)) {
      if (auto chain = withOperand(def, base, PostOpKind::AddChannel))
        return chain;
      return withConstant(def, base, [](float c, bool) -> EpilogueStep {
        return {PostOpKind::Linear, 1.0f, c};
      });
    }
    if (isa<arith::SubFOp>(def))
      return withConstant(def, base, [](float c, bool constantFirst) {
        return constantFirst ? EpilogueStep{PostOpKind::Linear, -1.0f, c}
                             : EpilogueStep{PostOpKind::Linear, 1.0f, -c};
      });
    if (isa<arith::MulFOp>(def)) {
      if (auto chain = withOperand(def, base, PostOpKind::MulChannel))
        return chain;
      if (auto chain = withConstant(def, base, [](float c, bool) {
            return EpilogueStep{PostOpKind::Linear, c, 0.0f};
          }))
        return chain;
      return gated(def->getOperand(0), def->getOperand(1), base);
    }
    if (auto div = dyn_cast<arith::DivFOp>(def)) {
      Value lhs = div.getLhs(), rhs = div.getRhs();
      if (std::optional<float> c = constantValue(rhs))
        if (*c != 0.0f)
          return then(lhs, base, {PostOpKind::Linear, 1.0f / *c, 0.0f});
      // 1 / (1 + exp(-u)) and u / (1 + exp(-u)).
      Value u = sigmoidDenominatorOf(rhs);
      if (!u)
        return std::nullopt;
      if (isConstant(lhs, 1.0f))
        return then(u, base, {PostOpKind::Logistic});
      if (lhs == u)
        return then(u, base, {PostOpKind::Swish, 1.0f, 0.0f});
    }
    return std::nullopt;
  }

  /// The operand whose block argument `v` is, when it is read per channel:
  /// a vector of the output's innermost size (maybe with dims of size 1).
  OpOperand *channelOperand(Value v) {
    auto arg = dyn_cast<BlockArgument>(v);
    if (!arg || arg.getOwner() != body || arg == start ||
        arg.getArgNumber() >= op.getNumDpsInputs())
      return nullptr;
    OpOperand *operand = op.getDpsInputOperand(arg.getArgNumber());
    auto type = dyn_cast<ShapedType>(operand->get().getType());
    auto outType = cast<ShapedType>(op.getDpsInitOperand(0)->get().getType());
    if (!type || !type.hasStaticShape())
      return nullptr;
    AffineMap map = op.getMatchingIndexingMap(operand);
    // Every dim of the operand but the channel one has size 1.
    unsigned channel = outType.getRank() - 1;
    int64_t elements = 1;
    for (auto [size, expr] : llvm::zip(type.getShape(), map.getResults())) {
      elements *= size;
      if (size == 1)
        continue;
      auto dim = dyn_cast<AffineDimExpr>(expr);
      if (!dim || dim.getPosition() != channel)
        return nullptr;
    }
    if (elements != outType.getShape()[channel])
      return nullptr;
    return operand;
  }

private:
  /// The chain of `from`, then `step`.
  std::optional<Chain> then(Value from, Value base, EpilogueStep step) {
    std::optional<Chain> chain = chainOf(from, base);
    if (chain)
      append(*chain, step);
    return chain;
  }

  /// A binary op with one f32 constant operand: the chain of the other,
  /// then `stepFor(constant, constantIsTheFirstOperand)`.
  template <typename StepFor>
  std::optional<Chain> withConstant(Operation *def, Value base,
                                    StepFor stepFor) {
    for (unsigned i = 0; i < 2; ++i)
      if (std::optional<float> c = constantValue(def->getOperand(i)))
        return then(def->getOperand(1 - i), base, stepFor(*c, i == 0));
    return std::nullopt;
  }

  /// A binary op with one operand read per channel: the chain of the
  /// other, then the step `kind` with that operand.
  std::optional<Chain> withOperand(Operation *def, Value base,
                                   PostOpKind kind) {
    for (unsigned i = 0; i < 2; ++i) {
      if (OpOperand *operand = channelOperand(def->getOperand(i))) {
        EpilogueStep step{kind};
        step.operand = operand;
        return then(def->getOperand(1 - i), base, step);
      }
    }
    return std::nullopt;
  }

  /// ReLU as convert-gopt-to-linalg writes it: select(u > 0, u, 0).
  std::optional<Chain> relu(arith::SelectOp select, Value base) {
    auto cmp = select.getCondition().getDefiningOp<arith::CmpFOp>();
    Value u = select.getTrueValue();
    if (!cmp || cmp.getLhs() != u || !isConstant(cmp.getRhs(), 0.0f) ||
        !isConstant(select.getFalseValue(), 0.0f) ||
        (cmp.getPredicate() != arith::CmpFPredicate::UGT &&
         cmp.getPredicate() != arith::CmpFPredicate::OGT))
      return std::nullopt;
    return then(
        u, base,
        {PostOpKind::Clip, 0.0f, std::numeric_limits<float>::infinity()});
  }

  /// u when `v` is 1 + exp(-u), else null.
  Value sigmoidDenominatorOf(Value v) {
    auto add = v.getDefiningOp<arith::AddFOp>();
    if (!add)
      return nullptr;
    for (unsigned i = 0; i < 2; ++i) {
      if (!isConstant(add->getOperand(i), 1.0f))
        continue;
      auto exp = add->getOperand(1 - i).getDefiningOp<math::ExpOp>();
      auto neg = exp ? exp.getOperand().getDefiningOp<arith::NegFOp>()
                     : arith::NegFOp();
      if (neg)
        return neg.getOperand();
    }
    return nullptr;
  }

  /// u · g(u), both computed from `base`: SiLU when g is the sigmoid,
  /// hardswish when g is clip(a·u + b, 0, hi) with a/hi = 1/6, b/hi = 1/2.
  std::optional<Chain> gated(Value lhs, Value rhs, Value base) {
    for (auto [u, gate] : {std::pair(lhs, rhs), std::pair(rhs, lhs)}) {
      std::optional<Chain> g = chainOf(gate, u);
      if (!g)
        continue;
      if (g->size() == 1 && g->front().kind == PostOpKind::Logistic)
        return then(u, base, {PostOpKind::Swish, 1.0f, 0.0f});
      if (g->size() == 2 && (*g)[0].kind == PostOpKind::Linear &&
          (*g)[1].kind == PostOpKind::Clip && (*g)[1].alpha == 0.0f &&
          (*g)[1].beta > 0.0f && std::isfinite((*g)[1].beta)) {
        float hi = (*g)[1].beta;
        if (nearly((*g)[0].alpha / hi, 1.0f / 6.0f) &&
            nearly((*g)[0].beta / hi, 0.5f))
          return then(u, base, {PostOpKind::HardSwish, hi, 0.0f});
      }
    }
    return std::nullopt;
  }

  linalg::GenericOp op;
  Block *body;
  BlockArgument start;
};

} // namespace

std::optional<SmallVector<EpilogueStep>>
mlir::gopt::matchConvolutionEpilogue(linalg::GenericOp op,
                                     OpOperand *convolutionResult) {
  auto outType = dyn_cast<ShapedType>(
      op.getNumDpsInits() == 1 ? op.getDpsInitOperand(0)->get().getType()
                               : Type());
  if (!outType || outType.getRank() != 4)
    return std::nullopt;
  return matchChannelEpilogue(op, convolutionResult);
}

std::optional<SmallVector<EpilogueStep>>
mlir::gopt::matchChannelEpilogue(linalg::GenericOp op,
                                 OpOperand *convolutionResult) {
  if (op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 0 ||
      op->getNumRegions() != 1 || convolutionResult->getOwner() != op)
    return std::nullopt;
  OpOperand *init = op.getDpsInitOperand(0);
  auto outType = dyn_cast<ShapedType>(init->get().getType());
  if (!outType || outType.getRank() < 1 || !outType.hasStaticShape() ||
      !op.getMatchingIndexingMap(init).isIdentity() ||
      !op.getMatchingIndexingMap(convolutionResult).isIdentity() ||
      cast<ShapedType>(convolutionResult->get().getType()).getShape() !=
          outType.getShape())
    return std::nullopt;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<ShapedType>(operand.get().getType());
    if (!type || !type.getElementType().isF32())
      return std::nullopt;
  }
  // The init is read only when it is the convolution's result.
  if (init != convolutionResult && op.payloadUsesValueFromOperand(init))
    return std::nullopt;
  Block *body = op.getBody();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  BlockArgument start = op.getMatchingBlockArgument(convolutionResult);
  EpilogueReader reader(op, start);
  std::optional<Chain> chain = reader.chainOf(yield.getOperand(0), start);
  // Every other operand the payload reads is a binary step's.
  if (!chain || chain->empty())
    return std::nullopt;
  return chain;
}

std::optional<int32_t>
mlir::gopt::getGemmEpilogueCode(ArrayRef<EpilogueStep> steps) {
  if (steps.empty() || steps[0].kind != PostOpKind::AddChannel)
    return std::nullopt;
  if (steps.size() == 1)
    return 1;
  if (steps.size() == 2 && steps[1].kind == PostOpKind::Clip &&
      steps[1].alpha == 0.0f && std::isinf(steps[1].beta) && steps[1].beta > 0)
    return 2;
  return std::nullopt;
}

bool mlir::gopt::isWorthApplyingInConvolution(ArrayRef<EpilogueStep> steps) {
  return llvm::none_of(steps, [](const EpilogueStep &step) {
    return step.kind == PostOpKind::Logistic ||
           step.kind == PostOpKind::Swish || step.kind == PostOpKind::Tanh;
  });
}
