//===- StageConstants.cpp - Host globals copied into device buffers -------===//
//
// Bufferized constants are memref.global ops in host memory; kernels on the
// GPU cannot read them. Each function that reads a global gets a device
// copy of it at its top (one per global), which deallocation frees like any
// other buffer.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Codegen/GPU/Passes.h"

#include "llvm/ADT/MapVector.h"

namespace mlir {
namespace gopt {
#define GEN_PASS_DEF_GOPTGPUSTAGECONSTANTS
#include "GOpt/Codegen/GPU/Passes.h.inc"
} // namespace gopt
} // namespace mlir

using namespace mlir;
using namespace mlir::gopt;

namespace {

struct GOptGPUStageConstantsPass
    : gopt::impl::GOptGPUStageConstantsBase<GOptGPUStageConstantsPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (!func.isExternal())
        stageConstants(func);
  }

  void stageConstants(func::FuncOp func) {
    llvm::MapVector<StringAttr, SmallVector<memref::GetGlobalOp>> byGlobal;
    func.walk([&](memref::GetGlobalOp get) {
      if (isHostCode(get))
        byGlobal[get.getNameAttr().getAttr()].push_back(get);
    });
    Block &entry = func.getBody().front();
    OpBuilder builder(func.getContext());
    Operation *lastCopy = nullptr;
    for (auto &[name, gets] : byGlobal) {
      // In the order the globals are first read, after the previous copy
      // (set anew each time: the op it pointed at may be one erased below).
      if (lastCopy)
        builder.setInsertionPointAfter(lastCopy);
      else
        builder.setInsertionPointToStart(&entry);
      memref::GetGlobalOp first = gets.front();
      Location loc = first.getLoc();
      auto type = cast<MemRefType>(first.getType());
      auto host = memref::GetGlobalOp::create(builder, loc, type,
                                              first.getNameAttr());
      auto device = memref::AllocOp::create(
          builder, loc, MemRefType::get(type.getShape(), type.getElementType()));
      auto copy = memref::CopyOp::create(builder, loc, host, device);
      copy->setAttr(kHostToDeviceAttrName, builder.getUnitAttr());
      lastCopy = copy;
      for (memref::GetGlobalOp get : gets) {
        get.replaceAllUsesWith(device.getResult());
        get.erase();
      }
      ++numStagedConstants;
    }
  }
};

} // namespace
