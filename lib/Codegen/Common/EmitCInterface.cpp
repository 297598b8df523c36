//===- EmitCInterface.cpp - Mark public functions for the C interface -----===//

#include "GOpt/Codegen/Common/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir {
namespace gopt {
#define GEN_PASS_DEF_GOPTEMITCINTERFACE
#include "GOpt/Codegen/Common/Passes.h.inc"
} // namespace gopt
} // namespace mlir

using namespace mlir;

namespace {

/// Adds `llvm.emit_c_interface` to every public function with a body.
struct GOptEmitCInterfacePass
    : gopt::impl::GOptEmitCInterfaceBase<GOptEmitCInterfacePass> {
  void runOnOperation() override {
    UnitAttr unit = UnitAttr::get(&getContext());
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (func.isPublic() && !func.isExternal())
        func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(), unit);
  }
};

} // namespace
