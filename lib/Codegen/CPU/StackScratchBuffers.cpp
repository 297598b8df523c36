//===- StackScratchBuffers.cpp - Kernels' small scratch on the stack ------===//
//
// gopt-stack-scratch-buffers (include/GOpt/Codegen/CPU/Passes.td): a
// kernel's small temporaries, allocated and freed inside its loops, become
// stack buffers allocated once per call. Only buffers that provably stay
// in the function move: their uses, through views, are loads, stores,
// copies and frees.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace gopt {
#define GEN_PASS_DEF_GOPTSTACKSCRATCHBUFFERS
#include "GOpt/Codegen/CPU/Passes.h.inc"
} // namespace gopt
} // namespace mlir

using namespace mlir;

namespace {

/// Whether every use of `buffer` (and of the views of it) reads, writes,
/// copies or frees it: nothing keeps it beyond the function.
bool staysInFunction(Value buffer,
                     llvm::SmallVectorImpl<memref::DeallocOp> &deallocs) {
  for (OpOperand &use : buffer.getUses()) {
    Operation *user = use.getOwner();
    if (auto dealloc = dyn_cast<memref::DeallocOp>(user)) {
      deallocs.push_back(dealloc);
      continue;
    }
    if (isa<memref::LoadOp, vector::LoadOp, vector::TransferReadOp,
            vector::MaskedLoadOp, memref::CopyOp>(user))
      continue;
    // Stores write into the buffer; storing the buffer itself would not
    // type-check (its elements are scalars or vectors).
    if (isa<memref::StoreOp, vector::StoreOp, vector::TransferWriteOp,
            vector::MaskedStoreOp>(user))
      continue;
    if (isa<memref::SubViewOp, memref::CastOp, memref::ExpandShapeOp,
            memref::CollapseShapeOp, memref::ReinterpretCastOp>(user)) {
      if (user->getNumResults() != 1 ||
          !staysInFunction(user->getResult(0), deallocs))
        return false;
      continue;
    }
    return false;
  }
  return true;
}

struct GOptStackScratchBuffersPass
    : gopt::impl::GOptStackScratchBuffersBase<GOptStackScratchBuffersPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    // The entry (public) allocates what it returns and what its kernels
    // write: the buffer planner's, not this pass's.
    if (func.isPublic() || func.isExternal())
      return;
    llvm::SmallVector<memref::AllocOp> allocs;
    func.walk([&](memref::AllocOp alloc) { allocs.push_back(alloc); });
    int64_t used = 0;
    Block &entry = func.getBody().front();
    for (memref::AllocOp alloc : allocs) {
      MemRefType type = alloc.getType();
      if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
          !alloc.getDynamicSizes().empty() ||
          !alloc.getSymbolOperands().empty())
        continue;
      unsigned bits = type.getElementTypeBitWidth();
      int64_t bytes = type.getNumElements() * ((bits + 7) / 8);
      if (bytes > maxBytes || used + bytes > maxFunctionBytes)
        continue;
      llvm::SmallVector<memref::DeallocOp> deallocs;
      if (!staysInFunction(alloc.getResult(), deallocs))
        continue;
      OpBuilder builder(&entry, entry.begin());
      auto alloca = memref::AllocaOp::create(builder, alloc.getLoc(), type,
                                             alloc.getAlignmentAttr());
      for (memref::DeallocOp dealloc : deallocs)
        dealloc.erase();
      alloc.replaceAllUsesWith(alloca.getResult());
      alloc.erase();
      used += bytes;
      ++numPromoted;
    }
  }
};

} // namespace
