//===- LowerAttentionKernels.cpp - gopt.attention_kernel to a call --------===//
//
// The second half of the attention kernel's library path (docs/Lowering.md,
// "Attention kernels"): on buffers, a `gopt.attention_kernel` becomes one
// call of the runtime's gopt_attention (lib/Runtime/Attention.cpp) with each
// operand's first element and its element strides along the two batch dims,
// the rows and the columns of the view the op reads.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Codegen/Common/LibraryCalls.h"
#include "GOpt/Dialect/GOpt/IR/GOptOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::gopt;

namespace {

/// One operand of gopt_attention: its first element's address and its
/// element strides along [b0, b1, rows, columns] of the view the kernel
/// reads.
struct AttentionOperand {
  Value pointer;
  SmallVector<Value, 4> strides;
};

/// `buffer` read through `perm` (none: as it is) as a view of rank `rank`
/// (right-aligned: dims the buffer lacks, and its dims of size 1, which
/// never advance or broadcast, have stride 0), as gopt_attention takes it
/// (two batch dims; a rank-3 view's first batch dim is a stride-0 dim of
/// size 1).
AttentionOperand attentionOperand(OpBuilder &b, Location loc, Value buffer,
                                  ArrayRef<int64_t> perm, int64_t rank) {
  auto type = cast<MemRefType>(buffer.getType());
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, buffer);
  Value zero = arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(0));
  AttentionOperand operand;
  operand.pointer = firstElementPointer(b, loc, buffer);
  int64_t offset = rank - type.getRank();
  // Dims of the four-dim view gopt_attention reads; a rank-3 view lacks b0.
  for (int64_t i = rank - 4; i < rank; ++i) {
    if (i < offset) {
      operand.strides.push_back(zero);
      continue;
    }
    int64_t dim = perm.empty() ? i - offset : perm[i - offset];
    if (type.getDimSize(dim) == 1) {
      operand.strides.push_back(zero);
      continue;
    }
    operand.strides.push_back(arith::IndexCastOp::create(
        b, loc, b.getI64Type(), meta.getStrides()[dim]));
  }
  return operand;
}

/// A gopt.attention_kernel on buffers → one gopt_attention call.
struct LowerAttentionKernelToCall : OpRewritePattern<AttentionKernelOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AttentionKernelOp op,
                                PatternRewriter &rewriter) const override {
    if (!isa<MemRefType>(op.getInit().getType()) ||
        !isa<MemRefType>(op.getQuery().getType()) ||
        !isa<MemRefType>(op.getKey().getType()) ||
        !isa<MemRefType>(op.getValue().getType()) ||
        (op.getMask() && !isa<MemRefType>(op.getMask().getType())))
      return failure();
    auto module = op->getParentOfType<ModuleOp>();
    if (!module)
      return failure();
    Location loc = op.getLoc();
    Type i64 = rewriter.getI64Type(), f32 = rewriter.getF32Type();
    Type ptr = LLVM::LLVMPointerType::get(rewriter.getContext());
    SmallVector<Type> signature(6, i64);
    signature.push_back(f32);
    for (int i = 0; i < 5; ++i) {
      signature.push_back(ptr);
      signature.append(4, i64);
    }
    func::FuncOp callee = declareRuntimeFunction(
        rewriter, module, kAttentionLibraryCall, signature);

    // The views: Q [B..., Sq, D], Kᵀ [B..., D, Sk], V [B..., Sk, Dv], out
    // [B..., Sq, Dv]; the mask broadcasts to the scores [B..., Sq, Sk].
    ArrayRef<int64_t> out = cast<MemRefType>(op.getInit().getType()).getShape();
    int64_t rank = static_cast<int64_t>(out.size());
    SmallVector<int64_t> q = op.getQueryShape();
    SmallVector<int64_t> kt = op.getKeyTransposedShape();
    SmallVector<int64_t> v = op.getValueShape();
    int64_t b0 = rank == 4 ? out[0] : 1, b1 = out[rank - 3];

    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantOp::create(rewriter, loc,
                                       rewriter.getI64IntegerAttr(value));
    };
    SmallVector<Value> args = {constant(b0),          constant(b1),
                               constant(q[rank - 2]), constant(kt[rank - 1]),
                               constant(q[rank - 1]), constant(v[rank - 1])};
    args.push_back(arith::ConstantOp::create(rewriter, loc, op.getScaleAttr()));
    auto append = [&](const AttentionOperand &operand) {
      args.push_back(operand.pointer);
      args.append(operand.strides.begin(), operand.strides.end());
    };
    append(attentionOperand(rewriter, loc, op.getQuery(), op.getQueryPerm(),
                            rank));
    append(attentionOperand(rewriter, loc, op.getKey(), op.getKeyPerm(), rank));
    append(attentionOperand(rewriter, loc, op.getValue(), op.getValuePerm(),
                            rank));
    if (Value mask = op.getMask()) {
      append(attentionOperand(rewriter, loc, mask, {}, rank));
    } else {
      args.push_back(LLVM::ZeroOp::create(rewriter, loc, ptr));
      args.append(4, constant(0));
    }
    append(attentionOperand(rewriter, loc, op.getInit(), {}, rank));
    func::CallOp::create(rewriter, loc, callee, args);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::gopt::populateLowerAttentionKernelsPatterns(
    RewritePatternSet &patterns) {
  patterns.add<LowerAttentionKernelToCall>(patterns.getContext());
}
