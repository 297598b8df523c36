//===- StreamLibraryCalls.cpp - Library GEMMs on the launches' stream -----===//
//
// After gpu-to-llvm, an entry function's host code around a cuBLAS call is
//
//   mgpuStreamSynchronize(%s); mgpuStreamDestroy(%s)     gpu-async-region's
//   gopt_cuda_sgemm(args)                                wait, the call, and
//   %t = mgpuStreamCreate()                               a new stream
//
// and the runtime waits for the GEMM inside the call: two host waits per
// GEMM. This pass makes it
//
//   gopt_cuda_sgemm_async(%s, args)     (the GEMM on %s, not waited for)
//
// with %t replaced by %s: the stream orders the GEMM between the launches
// on the device. See the pass's description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Codegen/GPU/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir {
namespace gopt {
#define GEN_PASS_DEF_GOPTGPUSTREAMLIBRARYCALLS
#include "GOpt/Codegen/GPU/Passes.h.inc"
} // namespace gopt
} // namespace mlir

using namespace mlir;

/// The function `op` calls when it is a direct llvm.call; empty otherwise.
static StringRef callee(Operation *op) {
  auto call = dyn_cast_or_null<LLVM::CallOp>(op);
  return call && call.getCallee() ? *call.getCallee() : StringRef();
}

/// The nearest op before (`forward` false) or after `op` in its block that
/// is not free of memory effects, or null.
static Operation *effectfulNeighbour(Operation *op, bool forward) {
  for (Operation *next = forward ? op->getNextNode() : op->getPrevNode(); next;
       next = forward ? next->getNextNode() : next->getPrevNode())
    if (!isMemoryEffectFree(next))
      return next;
  return nullptr;
}

/// The stream `op` synchronizes when it is `mgpuStreamSynchronize(%s)`
/// followed, through side-effect-free ops, by `mgpuStreamDestroy(%s)`
/// (gpu-to-llvm's lowering of a blocking gpu.wait); the destroy in
/// `destroy`. Null otherwise.
static Value waitedStream(Operation *op, Operation *&destroy) {
  if (callee(op) != "mgpuStreamSynchronize" || op->getNumOperands() != 1)
    return nullptr;
  destroy = effectfulNeighbour(op, /*forward=*/true);
  if (callee(destroy) != "mgpuStreamDestroy" ||
      destroy->getOperand(0) != op->getOperand(0))
    return nullptr;
  return op->getOperand(0);
}

/// The declaration of `name` in `module`: `type` with a leading stream
/// pointer; created when missing.
static LLVM::LLVMFuncOp declareAsync(ModuleOp module, StringRef name,
                                     LLVM::LLVMFunctionType type) {
  if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return existing;
  SmallVector<Type> params = {LLVM::LLVMPointerType::get(module.getContext())};
  llvm::append_range(params, type.getParams());
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  return LLVM::LLVMFuncOp::create(
      b, module.getLoc(), name,
      LLVM::LLVMFunctionType::get(type.getReturnType(), params));
}

namespace {

struct GOptGPUStreamLibraryCallsPass
    : gopt::impl::GOptGPUStreamLibraryCallsBase<GOptGPUStreamLibraryCallsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<LLVM::CallOp> calls;
    for (auto function : module.getOps<LLVM::LLVMFuncOp>())
      function.walk([&](LLVM::CallOp call) {
        StringRef name = callee(call);
        if (name == "gopt_cuda_sgemm" || name == "gopt_cuda_sgemm_epilogue")
          calls.push_back(call);
      });

    // The call right after the wait: on the waited stream, the wait after.
    for (LLVM::CallOp call : calls) {
      // The effectful op before the call, then the one before that, must
      // be the wait's destroy and synchronize.
      Operation *destroy = effectfulNeighbour(call, /*forward=*/false);
      Operation *sync =
          destroy ? effectfulNeighbour(destroy, /*forward=*/false) : nullptr;
      Value stream = sync ? waitedStream(sync, destroy) : Value();
      auto declared =
          module.lookupSymbol<LLVM::LLVMFuncOp>(call.getCalleeAttr());
      if (!stream || !declared)
        continue;
      LLVM::LLVMFuncOp async =
          declareAsync(module, (declared.getName() + "_async").str(),
                       declared.getFunctionType());
      OpBuilder b(call);
      SmallVector<Value> args = {stream};
      llvm::append_range(args, call.getArgOperands());
      auto asyncCall = LLVM::CallOp::create(b, call.getLoc(), async, args);
      sync->moveAfter(asyncCall);
      destroy->moveAfter(sync);
      call.erase();
      ++numAsyncCalls;
    }

    // A wait followed by a new stream: the same stream goes on.
    SmallVector<Operation *> syncs;
    for (auto function : module.getOps<LLVM::LLVMFuncOp>())
      function.walk([&](LLVM::CallOp call) {
        if (callee(call) == "mgpuStreamSynchronize")
          syncs.push_back(call);
      });
    for (Operation *sync : syncs) {
      Operation *destroy = nullptr;
      Value stream = waitedStream(sync, destroy);
      Operation *create =
          stream ? effectfulNeighbour(destroy, /*forward=*/true) : nullptr;
      if (callee(create) != "mgpuStreamCreate" ||
          create->getNumOperands() != 0 || create->getNumResults() != 1)
        continue;
      create->getResult(0).replaceAllUsesWith(stream);
      create->erase();
      destroy->erase();
      sync->erase();
      ++numWaitsRemoved;
    }
  }
};

} // namespace
