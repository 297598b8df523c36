//===- HoistLoads.cpp - A kernel's loads issued before its stores ---------===//
//
// A thread that runs several copies of an elementwise body (gopt-gpu-map-
// kernels' elements-per-thread) issues one load, waits for it, computes and
// stores, then the next: LLVM may not move a load above a store to another
// buffer it cannot prove apart. Here, in each launch's body, every load of a
// buffer the launch never writes, and every side-effect-free op, moves up to
// just after the last of its operands' definitions: the loads of all copies
// come first and are in flight together (memory-level parallelism, which a
// memory-bound kernel needs to approach the device's bandwidth).
//
//===----------------------------------------------------------------------===//

#include "GOpt/Codegen/Common/BufferViews.h"
#include "GOpt/Codegen/GPU/Passes.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir {
namespace gopt {
#define GEN_PASS_DEF_GOPTGPUHOISTLOADS
#include "GOpt/Codegen/GPU/Passes.h.inc"
} // namespace gopt
} // namespace mlir

using namespace mlir;
using namespace mlir::gopt;

namespace {

/// The roots of the buffers ops inside `launch` write or free, or none when
/// an op's effects are unknown or a written root is a function argument
/// (another argument could be the same buffer).
std::optional<llvm::SmallPtrSet<Value, 8>> writtenRoots(gpu::LaunchOp launch) {
  llvm::SmallPtrSet<Value, 8> written;
  bool known = true;
  launch.getBody().walk([&](Operation *op) {
    if (op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
      return;
    auto iface = dyn_cast<MemoryEffectOpInterface>(op);
    if (!iface) {
      known &= isMemoryEffectFree(op);
      return;
    }
    SmallVector<MemoryEffects::EffectInstance> effects;
    iface.getEffects(effects);
    for (MemoryEffects::EffectInstance &effect : effects) {
      if (!isa<MemoryEffects::Write, MemoryEffects::Free>(effect.getEffect()))
        continue;
      Value value = effect.getValue();
      if (!value) {
        known = false;
        continue;
      }
      Value root = rootBuffer(value);
      auto arg = dyn_cast<BlockArgument>(root);
      if (arg && !launch->isProperAncestor(arg.getOwner()->getParentOp()) &&
          arg.getOwner()->getParentOp() != launch)
        known = false;
      written.insert(root);
    }
  });
  if (!known)
    return std::nullopt;
  return written;
}

struct GOptGPUHoistLoadsPass
    : gopt::impl::GOptGPUHoistLoadsBase<GOptGPUHoistLoadsPass> {
  void runOnOperation() override {
    getOperation().walk([&](gpu::LaunchOp launch) { hoist(launch); });
  }

  void hoist(gpu::LaunchOp launch) {
    std::optional<llvm::SmallPtrSet<Value, 8>> written = writtenRoots(launch);
    if (!written)
      return;
    Block &body = launch.getBody().front();
    for (Operation &op : llvm::make_early_inc_range(body.without_terminator())) {
      auto load = dyn_cast<memref::LoadOp>(op);
      bool readOnlyLoad =
          load && !written->contains(rootBuffer(load.getMemref()));
      bool pure = op.getNumRegions() == 0 && isMemoryEffectFree(&op);
      if (!readOnlyLoad && !pure)
        continue;
      // Just after the last operand defined in this block (or first).
      Operation *after = nullptr;
      for (Value operand : op.getOperands()) {
        Operation *def = operand.getDefiningOp();
        Operation *local = def ? body.findAncestorOpInBlock(*def) : nullptr;
        if (local && (!after || after->isBeforeInBlock(local)))
          after = local;
      }
      Operation *previous = op.getPrevNode();
      if (after ? after == previous : previous == nullptr)
        continue;
      if (after)
        op.moveAfter(after);
      else
        op.moveBefore(&body.front());
      if (readOnlyLoad)
        ++numHoistedLoads;
    }
  }
};

} // namespace
