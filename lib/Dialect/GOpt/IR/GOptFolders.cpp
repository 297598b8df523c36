//===- GOptFolders.cpp - ODS folders of gopt ops --------------------------===//
//
// Folders return existing values for algebraic identities that hold for every
// input, NaN, ±Inf and −0 included, and evaluate ops whose operands are all
// splat constants. Dense constant evaluation, which can materialize large
// constants, is the gopt-fold pass's job (bounded by max-folded-elements).
//
//===----------------------------------------------------------------------===//

#include "GOpt/Dialect/GOpt/IR/ConstantEvaluator.h"
#include "GOpt/Dialect/GOpt/IR/GOptOps.h"
#include "GOpt/Dialect/GOpt/IR/ResizeCoordinates.h"

#include <cmath>

using namespace mlir;
using namespace mlir::gopt;

/// Evaluates `op` when every operand is a splat constant.
static OpFoldResult foldSplatOperands(Operation *op,
                                      ArrayRef<Attribute> operands) {
  SmallVector<Attribute> results;
  if (op->getNumResults() != 1 ||
      failed(evaluateConstantOp(op, operands, /*maxElements=*/0, results)))
    return {};
  return results.front();
}

/// True when `attr` is a splat equal to `value`; for a float zero, the sign
/// must match too (x + (−0) is x, x + (+0) is not when x is −0).
static bool isSplatOf(Attribute attr, double value) {
  auto splat = getSplatValue(attr);
  if (!splat || *splat != value)
    return false;
  if (value == 0 && isa<FloatType>(cast<ElementsAttr>(attr).getElementType()))
    return std::signbit(*splat) == std::signbit(value);
  return true;
}

static bool isIntegerTensor(Type type) {
  return isa<IntegerType>(cast<ShapedType>(type).getElementType());
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

//===----------------------------------------------------------------------===//
// Elementwise unary
//===----------------------------------------------------------------------===//

OpFoldResult NegOp::fold(FoldAdaptor adaptor) {
  // neg(neg(x)) = x, bit for bit.
  if (auto inner = getInput().getDefiningOp<NegOp>())
    return inner.getInput();
  return foldSplatOperands(*this, adaptor.getOperands());
}

OpFoldResult AbsOp::fold(FoldAdaptor adaptor) {
  if (auto inner = getInput().getDefiningOp<AbsOp>())
    return inner.getResult();
  return foldSplatOperands(*this, adaptor.getOperands());
}

OpFoldResult ReluOp::fold(FoldAdaptor adaptor) {
  if (auto inner = getInput().getDefiningOp<ReluOp>())
    return inner.getResult();
  return foldSplatOperands(*this, adaptor.getOperands());
}

#define GOPT_SPLAT_FOLDER(OP)                                                  \
  OpFoldResult OP::fold(FoldAdaptor adaptor) {                                 \
    return foldSplatOperands(*this, adaptor.getOperands());                    \
  }
GOPT_SPLAT_FOLDER(ExpOp)
GOPT_SPLAT_FOLDER(LogOp)
GOPT_SPLAT_FOLDER(SqrtOp)
GOPT_SPLAT_FOLDER(RsqrtOp)
GOPT_SPLAT_FOLDER(ReciprocalOp)
GOPT_SPLAT_FOLDER(TanhOp)
GOPT_SPLAT_FOLDER(SigmoidOp)
GOPT_SPLAT_FOLDER(ErfOp)
GOPT_SPLAT_FOLDER(SiluOp)
GOPT_SPLAT_FOLDER(SinOp)
GOPT_SPLAT_FOLDER(CosOp)
GOPT_SPLAT_FOLDER(FloorOp)
GOPT_SPLAT_FOLDER(CeilOp)
GOPT_SPLAT_FOLDER(RoundOp)
GOPT_SPLAT_FOLDER(GeluOp)
GOPT_SPLAT_FOLDER(ClipOp)
GOPT_SPLAT_FOLDER(CompareOp)
#undef GOPT_SPLAT_FOLDER

OpFoldResult CastOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getResult().getType())
    return getInput();
  return foldSplatOperands(*this, adaptor.getOperands());
}

//===----------------------------------------------------------------------===//
// Elementwise binary
//===----------------------------------------------------------------------===//

/// `lhs` when the identity `op(lhs, rhs) = lhs` holds and no broadcast widens
/// the result.
static OpFoldResult lhsIfSameType(Value lhs, Value result) {
  if (lhs.getType() == result.getType())
    return lhs;
  return {};
}

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  // x + (−0) = x for every float x; x + 0 = x for integers.
  if (isSplatOf(adaptor.getRhs(), isIntegerTensor(getType()) ? 0.0 : -0.0))
    if (OpFoldResult r = lhsIfSameType(getLhs(), getResult()))
      return r;
  return foldSplatOperands(*this, adaptor.getOperands());
}

OpFoldResult SubOp::fold(FoldAdaptor adaptor) {
  // x − (+0) = x for every x.
  if (isSplatOf(adaptor.getRhs(), 0.0))
    if (OpFoldResult r = lhsIfSameType(getLhs(), getResult()))
      return r;
  return foldSplatOperands(*this, adaptor.getOperands());
}

OpFoldResult MulOp::fold(FoldAdaptor adaptor) {
  if (isSplatOf(adaptor.getRhs(), 1.0))
    if (OpFoldResult r = lhsIfSameType(getLhs(), getResult()))
      return r;
  // x · 0 = 0 only for integers: for floats NaN·0 and Inf·0 are NaN, and
  // −x·0 is −0.
  if (isIntegerTensor(getType()) && isSplatOf(adaptor.getRhs(), 0.0))
    return DenseElementsAttr::get(
        getType(), IntegerAttr::get(getType().getElementType(), 0));
  return foldSplatOperands(*this, adaptor.getOperands());
}

OpFoldResult DivOp::fold(FoldAdaptor adaptor) {
  if (isSplatOf(adaptor.getRhs(), 1.0))
    if (OpFoldResult r = lhsIfSameType(getLhs(), getResult()))
      return r;
  return foldSplatOperands(*this, adaptor.getOperands());
}

OpFoldResult PowOp::fold(FoldAdaptor adaptor) {
  if (isSplatOf(adaptor.getRhs(), 1.0))
    if (OpFoldResult r = lhsIfSameType(getLhs(), getResult()))
      return r;
  return foldSplatOperands(*this, adaptor.getOperands());
}

OpFoldResult MaxOp::fold(FoldAdaptor adaptor) {
  if (getLhs() == getRhs())
    if (OpFoldResult r = lhsIfSameType(getLhs(), getResult()))
      return r;
  return foldSplatOperands(*this, adaptor.getOperands());
}

OpFoldResult MinOp::fold(FoldAdaptor adaptor) {
  if (getLhs() == getRhs())
    if (OpFoldResult r = lhsIfSameType(getLhs(), getResult()))
      return r;
  return foldSplatOperands(*this, adaptor.getOperands());
}

OpFoldResult SelectOp::fold(FoldAdaptor adaptor) {
  Value chosen;
  if (getOnTrue() == getOnFalse())
    chosen = getOnTrue();
  else if (isSplatOf(adaptor.getCondition(), 1.0))
    chosen = getOnTrue();
  else if (isSplatOf(adaptor.getCondition(), 0.0))
    chosen = getOnFalse();
  if (chosen && chosen.getType() == getType())
    return chosen;
  return foldSplatOperands(*this, adaptor.getOperands());
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

OpFoldResult ReduceOp::fold(FoldAdaptor adaptor) {
  // Reducing only unit dimensions while keeping them changes nothing.
  if (getType() == getInput().getType())
    return getInput();
  return foldSplatOperands(*this, adaptor.getOperands());
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

OpFoldResult TransposeOp::fold(FoldAdaptor adaptor) {
  ArrayRef<int64_t> perm = getPerm();
  auto isIdentity = [](ArrayRef<int64_t> p) {
    for (auto [i, v] : llvm::enumerate(p))
      if (static_cast<int64_t>(i) != v)
        return false;
    return true;
  };
  if (isIdentity(perm))
    return getInput();
  // transpose(transpose(x, p1), p2) = transpose(x, p1[p2[i]]).
  if (auto inner = getInput().getDefiningOp<TransposeOp>()) {
    SmallVector<int64_t> composed;
    for (int64_t p : perm)
      composed.push_back(inner.getPerm()[p]);
    if (isIdentity(composed))
      return inner.getInput();
    getInputMutable().assign(inner.getInput());
    setPerm(composed);
    return getResult();
  }
  return foldSplatOperands(*this, adaptor.getOperands());
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  if (auto inner = getInput().getDefiningOp<ReshapeOp>()) {
    if (inner.getInput().getType() == getType())
      return inner.getInput();
    getInputMutable().assign(inner.getInput());
    return getResult();
  }
  return foldSplatOperands(*this, adaptor.getOperands());
}

OpFoldResult BroadcastToOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  if (auto inner = getInput().getDefiningOp<BroadcastToOp>()) {
    getInputMutable().assign(inner.getInput());
    return getResult();
  }
  return foldSplatOperands(*this, adaptor.getOperands());
}

OpFoldResult ConcatOp::fold(FoldAdaptor adaptor) {
  if (getInputs().size() == 1 && getInputs().front().getType() == getType())
    return getInputs().front();
  return {};
}

OpFoldResult SliceOp::fold(FoldAdaptor adaptor) {
  // Same shape means start 0 and step 1 (or a size-1 dimension) everywhere.
  if (getInput().getType() == getType())
    return getInput();
  return foldSplatOperands(*this, adaptor.getOperands());
}

OpFoldResult PadOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return {};
}

OpFoldResult ResizeOp::fold(FoldAdaptor adaptor) {
  // Every dim the identity: the input, bit for bit.
  if (getResizedDims(*this).empty())
    return getInput();
  return foldSplatOperands(*this, adaptor.getOperands());
}

OpFoldResult ShapeOp::fold(FoldAdaptor) {
  ArrayRef<int64_t> shape = getInput().getType().getShape();
  return DenseElementsAttr::get(getType(), shape);
}
