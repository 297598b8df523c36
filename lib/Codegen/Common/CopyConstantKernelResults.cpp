//===- CopyConstantKernelResults.cpp - Writable kernel results ------------===//
//
// A kernel that computes a constant returns, once bufferized, the constant's
// global: read-only memory. The caller's bufferization cannot see that (a
// call's results are taken to be fresh buffers) and may let a later kernel
// write into it in place. Returning a copy keeps the caller's assumption
// true (docs/Lowering.md, "Bufferization").
//
//===----------------------------------------------------------------------===//

#include "GOpt/Codegen/Common/Passes.h"
#include "GOpt/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir {
namespace gopt {
#define GEN_PASS_DEF_GOPTCOPYCONSTANTKERNELRESULTS
#include "GOpt/Codegen/Common/Passes.h.inc"
} // namespace gopt
} // namespace mlir

using namespace mlir;

namespace {

/// Whether `value`'s buffer will be a constant's: an arith.constant tensor,
/// or a reshape, slice or cast of one (ops that bufferize to views).
bool isConstantBuffer(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (isa<arith::ConstantOp>(def))
      return true;
    if (!isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp,
             tensor::ExtractSliceOp, tensor::CastOp, tensor::ReshapeOp>(def))
      return false;
    value = def->getOperand(0);
  }
  return false;
}

struct GOptCopyConstantKernelResultsPass
    : gopt::impl::GOptCopyConstantKernelResultsBase<
          GOptCopyConstantKernelResultsPass> {
  void runOnOperation() override {
    func::FuncOp kernel = getOperation();
    if (!kernel->hasAttr(gopt::kKernelAttrName) || kernel.isExternal())
      return;
    kernel.walk([&](func::ReturnOp ret) {
      OpBuilder builder(ret);
      for (OpOperand &operand : ret->getOpOperands()) {
        auto type = dyn_cast<RankedTensorType>(operand.get().getType());
        if (!type || !type.hasStaticShape() || !isConstantBuffer(operand.get()))
          continue;
        Value copy = bufferization::AllocTensorOp::create(
            builder, ret.getLoc(), type, /*dynamicSizes=*/ValueRange(),
            /*copy=*/operand.get());
        operand.set(copy);
        ++numCopied;
      }
    });
  }
};

} // namespace
