//===- DeviceBuffers.cpp - Host code allocates device memory --------------===//
//
// Once every computation is inside a gpu.launch, the buffers host code
// allocates are the kernels' inputs and outputs: they live in device memory.
// Host code only allocates, frees, passes and views them; anything else it
// does to their elements is reported.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Codegen/Common/BufferViews.h"
#include "GOpt/Codegen/Common/LibraryCalls.h"
#include "GOpt/Codegen/GPU/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir {
namespace gopt {
#define GEN_PASS_DEF_GOPTGPUDEVICEBUFFERS
#include "GOpt/Codegen/GPU/Passes.h.inc"
} // namespace gopt
} // namespace mlir

using namespace mlir;
using namespace mlir::gopt;

namespace {

/// Whether the address `pointer` (an extracted buffer pointer) is passed,
/// through address arithmetic, to a GPU library call (`gopt_cuda_*`, e.g.
/// gopt_cuda_sgemm), which takes device pointers.
bool reachesDeviceLibraryCall(Value pointer) {
  SmallVector<Value> worklist{pointer};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (auto call = dyn_cast<func::CallOp>(user)) {
        if (call.getCallee().starts_with("gopt_cuda_"))
          return true;
        continue;
      }
      if (isa<arith::ArithDialect, LLVM::LLVMDialect>(user->getDialect()))
        llvm::append_range(worklist, user->getResults());
    }
  }
  return false;
}

/// Whether the buffer `alloc` makes holds kernel data: a kernel reads or
/// writes it (a use inside a gpu.launch), a GPU library call takes its
/// address, a constant is copied into it, or the function returns it.
/// Other host allocations (the bookkeeping of the deallocation's aliasing
/// checks) stay in host memory.
bool holdsKernelData(memref::AllocOp alloc) {
  SmallVector<Value> worklist{alloc.getResult()};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (user->getParentOfType<gpu::LaunchOp>() || isa<func::ReturnOp>(user))
        return true;
      if (auto pointer = dyn_cast<memref::ExtractAlignedPointerAsIndexOp>(user))
        if (reachesDeviceLibraryCall(pointer.getResult()))
          return true;
      if (auto copy = dyn_cast<memref::CopyOp>(user))
        if (copy->hasAttr(kHostToDeviceAttrName) && copy.getTarget() == v)
          return true;
      if (auto view = dyn_cast<ViewLikeOpInterface>(user))
        if (view.getViewSource() == v)
          worklist.push_back(view.getViewDest());
    }
  }
  return false;
}

struct GOptGPUDeviceBuffersPass
    : gopt::impl::GOptGPUDeviceBuffersBase<GOptGPUDeviceBuffersPass> {
  void runOnOperation() override {
    SmallVector<memref::AllocOp> allocs;
    SmallVector<Operation *> others;
    getOperation().walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<gpu::GPUModuleOp, gpu::LaunchOp>(op))
        return WalkResult::skip();
      if (auto alloc = dyn_cast<memref::AllocOp>(op))
        allocs.push_back(alloc);
      else
        others.push_back(op);
      return WalkResult::advance();
    });
    // Allocations first, so deallocations and accesses see where their
    // buffers live.
    for (memref::AllocOp alloc : allocs)
      if (failed(allocateOnDevice(alloc)))
        return signalPassFailure();
    for (Operation *op : others)
      if (failed(moveToDevice(op)))
        return signalPassFailure();
  }

  LogicalResult allocateOnDevice(memref::AllocOp alloc) {
    if (!holdsKernelData(alloc))
      return success();
    if (!alloc.getSymbolOperands().empty())
      return alloc.emitOpError("gopt-gpu-device-buffers: symbol operands "
                               "are not supported");
    OpBuilder builder(alloc);
    auto device = gpu::AllocOp::create(
        builder, alloc.getLoc(), alloc.getType(), /*asyncToken=*/Type(),
        /*asyncDependencies=*/ValueRange(), alloc.getDynamicSizes(),
        /*symbolOperands=*/ValueRange(), /*hostShared=*/false);
    alloc.replaceAllUsesWith(device.getMemref());
    alloc.erase();
    ++numDeviceAllocs;
    return success();
  }

  /// A deallocation under a condition (ownership the deallocation checks
  /// at run time) becomes a call of the runtime's `gopt_cuda_free`, which
  /// returns the block to the pool at once. As a gpu.dealloc, gpu-async-
  /// region would give each such branch a stream of its own to create,
  /// synchronize and destroy; a host call needs none (the stream is
  /// synchronized before the branch, as before any host op with effects).
  LogicalResult freeConditionally(memref::DeallocOp dealloc) {
    OpBuilder builder(dealloc);
    Location loc = dealloc.getLoc();
    func::FuncOp callee = declareRuntimeFunction(
        builder, dealloc->getParentOfType<ModuleOp>(), kFreeFunction,
        {LLVM::LLVMPointerType::get(builder.getContext())});
    Value address = memref::ExtractAlignedPointerAsIndexOp::create(
        builder, loc, dealloc.getMemref());
    func::CallOp::create(builder, loc, callee,
                         ValueRange{indexToPointer(builder, loc, address)});
    dealloc.erase();
    return success();
  }

  static constexpr llvm::StringLiteral kFreeFunction = "gopt_cuda_free";

  /// Whether `v` views memory host code allocated for itself.
  static bool isHostBuffer(Value v) {
    return isa_and_nonnull<memref::AllocOp, memref::AllocaOp>(
        rootBuffer(v).getDefiningOp());
  }

  LogicalResult moveToDevice(Operation *op) {
    OpBuilder builder(op);
    Location loc = op->getLoc();
    if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
      if (isHostBuffer(dealloc.getMemref()))
        return success();
      if (isa<scf::IfOp>(dealloc->getParentOp()))
        return freeConditionally(dealloc);
      gpu::DeallocOp::create(builder, loc, /*asyncToken=*/Type(),
                             /*asyncDependencies=*/ValueRange(),
                             dealloc.getMemref());
      dealloc.erase();
      return success();
    }
    if (auto copy = dyn_cast<memref::CopyOp>(op)) {
      if (!copy->hasAttr(kHostToDeviceAttrName))
        return copy.emitOpError("gopt-gpu-device-buffers: host code copies "
                                "device buffers element by element; copies "
                                "belong in kernels (gopt-gpu-map-kernels)");
      gpu::MemcpyOp::create(builder, loc, /*asyncToken=*/Type(),
                            /*asyncDependencies=*/ValueRange(),
                            copy.getTarget(), copy.getSource());
      copy.erase();
      return success();
    }
    Value touched;
    if (auto load = dyn_cast<memref::LoadOp>(op))
      touched = load.getMemref();
    else if (auto store = dyn_cast<memref::StoreOp>(op))
      touched = store.getMemref();
    if (touched && isa_and_nonnull<gpu::AllocOp>(rootBuffer(touched).getDefiningOp()))
      return op->emitOpError("gopt-gpu-device-buffers: host code would read "
                             "or write device memory; only kernels may");
    if (isa<linalg::LinalgOp, scf::ParallelOp>(op))
      return op->emitOpError("gopt-gpu-device-buffers: a computation left "
                             "outside any kernel launch");
    return success();
  }
};

} // namespace
