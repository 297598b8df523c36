//===- AttentionKernelOp.cpp - gopt.attention_kernel ----------------------===//
//
// The one kernel op code generation makes (docs/Dialect.md, "Kernel ops"):
// its verifier, its memory effects on buffers and its bufferization, which
// keeps it whole (the memref form writes `init`) for the library call.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Dialect/GOpt/IR/GOptOps.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::gopt;

namespace {

/// `shape` read through `perm` (dim i of the view is dim perm[i]).
SmallVector<int64_t> permuted(ArrayRef<int64_t> shape, ArrayRef<int64_t> perm) {
  SmallVector<int64_t> view;
  for (int64_t p : perm)
    view.push_back(shape[p]);
  return view;
}

/// Whether `perm` is a permutation of 0 .. rank-1.
bool isPermutation(ArrayRef<int64_t> perm, int64_t rank) {
  if (static_cast<int64_t>(perm.size()) != rank)
    return false;
  SmallVector<bool> seen(rank, false);
  for (int64_t p : perm) {
    if (p < 0 || p >= rank || seen[p])
      return false;
    seen[p] = true;
  }
  return true;
}

} // namespace

SmallVector<int64_t> AttentionKernelOp::getQueryShape() {
  return permuted(cast<ShapedType>(getQuery().getType()).getShape(),
                  getQueryPerm());
}

SmallVector<int64_t> AttentionKernelOp::getKeyTransposedShape() {
  return permuted(cast<ShapedType>(getKey().getType()).getShape(),
                  getKeyPerm());
}

SmallVector<int64_t> AttentionKernelOp::getValueShape() {
  return permuted(cast<ShapedType>(getValue().getType()).getShape(),
                  getValuePerm());
}

LogicalResult AttentionKernelOp::verify() {
  auto initType = cast<ShapedType>(getInit().getType());
  if (!initType.hasRank() || initType.getRank() < 3 || initType.getRank() > 4)
    return emitOpError("init must be ranked with one or two batch dims "
                       "(rank 3 or 4), got ")
           << initType;
  int64_t rank = initType.getRank();
  struct Operand {
    StringRef name;
    Value value;
    ArrayRef<int64_t> perm;
  };
  Operand operands[] = {{"query", getQuery(), getQueryPerm()},
                        {"key", getKey(), getKeyPerm()},
                        {"value", getValue(), getValuePerm()}};
  SmallVector<SmallVector<int64_t>> views;
  for (const Operand &operand : operands) {
    auto type = cast<ShapedType>(operand.value.getType());
    if (!type.hasStaticShape() || type.getRank() != rank)
      return emitOpError() << operand.name << " must have the static rank-"
                           << rank << " shape of init, got " << type;
    if (!type.getElementType().isF32())
      return emitOpError() << operand.name << " must be f32, got " << type;
    if (!isPermutation(operand.perm, rank))
      return emitOpError() << operand.name
                           << "_perm must be a permutation of the " << rank
                           << " dims";
    views.push_back(permuted(type.getShape(), operand.perm));
  }
  if (!initType.hasStaticShape() || !initType.getElementType().isF32())
    return emitOpError("init must be a static f32 shape, got ") << initType;
  ArrayRef<int64_t> out = initType.getShape();
  ArrayRef<int64_t> q = views[0], kt = views[1], v = views[2];
  int64_t batch = rank - 2;
  int64_t sq = q[batch], d = q[batch + 1], sk = kt[batch + 1];
  for (int64_t i = 0; i < batch; ++i)
    if (q[i] != out[i] || kt[i] != out[i] || v[i] != out[i])
      return emitOpError("query, key, value and init must have the same "
                         "batch dims");
  if (kt[batch] != d)
    return emitOpError("the key's view must be [B..., D, Sk] with the "
                       "query's D = ")
           << d << ", got D = " << kt[batch];
  if (v[batch] != sk)
    return emitOpError("the value's view must be [B..., Sk, Dv] with the "
                       "key's Sk = ")
           << sk << ", got Sk = " << v[batch];
  if (out[batch] != sq || out[batch + 1] != v[batch + 1])
    return emitOpError("init must be [B..., Sq, Dv] = [..., ")
           << sq << ", " << v[batch + 1] << "]";
  if (Value mask = getMask()) {
    auto maskType = cast<ShapedType>(mask.getType());
    if (!maskType.hasStaticShape() || !maskType.getElementType().isF32() ||
        maskType.getRank() > rank)
      return emitOpError("the mask must be a static f32 shape of rank ")
             << rank << " at most, got " << maskType;
    SmallVector<int64_t> scores(out.begin(), out.end());
    scores[batch + 1] = sk;
    ArrayRef<int64_t> m = maskType.getShape();
    int64_t offset = rank - maskType.getRank();
    for (auto [i, size] : llvm::enumerate(m))
      if (size != 1 && size != scores[offset + i])
        return emitOpError("the mask must broadcast to the scores' shape "
                           "[B..., Sq, Sk]; dim ")
               << i << " is " << size;
  }
  bool tensors = isa<RankedTensorType>(getInit().getType());
  if (tensors != (getNumResults() == 1))
    return emitOpError("returns its result on tensors and nothing on "
                       "buffers");
  if (tensors && getResult()[0].getType() != getInit().getType())
    return emitOpError("result must have init's type");
  return success();
}

void AttentionKernelOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  for (OpOperand &operand : getOperation()->getOpOperands()) {
    if (!isa<MemRefType>(operand.get().getType()))
      continue;
    if (&operand == getDpsInitOperand(0))
      effects.emplace_back(MemoryEffects::Write::get(), &operand,
                           SideEffects::DefaultResource::get());
    else
      effects.emplace_back(MemoryEffects::Read::get(), &operand,
                           SideEffects::DefaultResource::get());
  }
}

bool AttentionKernelOp::bufferizesToMemoryRead(
    OpOperand &operand, const bufferization::AnalysisState &) {
  // Every element of init is written, none read.
  return &operand != getDpsInitOperand(0);
}

bool AttentionKernelOp::bufferizesToMemoryWrite(
    OpOperand &operand, const bufferization::AnalysisState &) {
  return &operand == getDpsInitOperand(0);
}

bufferization::AliasingValueList
AttentionKernelOp::getAliasingValues(OpOperand &operand,
                                     const bufferization::AnalysisState &) {
  if (&operand != getDpsInitOperand(0) || getNumResults() == 0)
    return {};
  return {{getResult()[0], bufferization::BufferRelation::Equivalent}};
}

LogicalResult
AttentionKernelOp::bufferize(RewriterBase &rewriter,
                             const bufferization::BufferizationOptions &options,
                             bufferization::BufferizationState &state) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(*this);
  SmallVector<Value> buffers;
  for (OpOperand &operand : getOperation()->getOpOperands()) {
    if (!isa<TensorType>(operand.get().getType())) {
      buffers.push_back(operand.get());
      continue;
    }
    FailureOr<Value> buffer =
        bufferization::getBuffer(rewriter, operand.get(), options, state);
    if (failed(buffer))
      return failure();
    buffers.push_back(*buffer);
  }
  Value mask = getMask() ? buffers[3] : Value();
  Value init = buffers.back();
  AttentionKernelOp::create(rewriter, getLoc(), TypeRange(), buffers[0],
                            buffers[1], buffers[2], mask, init, getScaleAttr(),
                            getQueryPermAttr(), getKeyPermAttr(),
                            getValuePermAttr());
  bufferization::replaceOpWithBufferizedValues(rewriter, *this, init);
  return success();
}
