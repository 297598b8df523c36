//===- GOptOutlineKernels.cpp - One function per kernel -------------------===//
//
// Every gopt.fusion and every unfused non-constant gopt op is a kernel (the
// same count GraphStats reports). Outlining each into its own function keeps
// the kernel boundary through lowering (one kernel = one function = one loop
// nest on CPU, one launch on GPU) and gives a runtime a place to time it.
//
//===----------------------------------------------------------------------===//

#include "GOpt/Dialect/GOpt/IR/GOptOps.h"
#include "GOpt/Transforms/FusionPlanner.h"
#include "GOpt/Transforms/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace gopt {
#define GEN_PASS_DEF_GOPTOUTLINEKERNELS
#include "GOpt/Transforms/Passes.h.inc"
} // namespace gopt
} // namespace mlir

using namespace mlir;
using namespace mlir::gopt;

bool mlir::gopt::isKernelOp(Operation *op) {
  if (isa<FusionOp>(op))
    return true;
  auto kind = dyn_cast<FusionKindOpInterface>(op);
  return kind && kind.getFusionKind() != FusionKind::Constant;
}

/// A splat constant the kernel can hold itself (one scalar, folds into its
/// loops).
static bool isSplatConstant(Value v) {
  Operation *def = v.getDefiningOp();
  if (!def || !def->hasTrait<OpTrait::ConstantLike>() ||
      def->getNumOperands() != 0 || def->getNumResults() != 1)
    return false;
  auto value = def->getAttrOfType<DenseElementsAttr>("value");
  return value && value.isSplat();
}

/// `linear_add_relu` for a fusion, the op name for a single op.
static std::string describeKernel(Operation *op) {
  SmallVector<StringRef> names;
  auto shortName = [](Operation *o) {
    return o->getName().getStringRef().split('.').second;
  };
  if (auto fusion = dyn_cast<FusionOp>(op)) {
    for (Operation &inner : fusion.getBodyBlock().without_terminator())
      if (isKernelOp(&inner))
        names.push_back(shortName(&inner));
  } else {
    names.push_back(shortName(op));
  }
  if (names.size() > 4) {
    names.resize(4);
    names.push_back("etc");
  }
  return llvm::join(names, "_");
}

/// Whether `v` is a constant: made by a constant op, or an argument of its
/// function marked `gopt.weight`.
static bool isConstantValue(Value v) {
  if (Operation *def = v.getDefiningOp())
    return def->hasTrait<OpTrait::ConstantLike>();
  auto arg = dyn_cast<BlockArgument>(v);
  auto func = arg ? dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp())
                  : func::FuncOp();
  return func && arg.getOwner()->isEntryBlock() &&
         func.getArgAttr(arg.getArgNumber(), kWeightArgAttrName);
}

/// Declares `void name(i64)` in `module` if it is not there yet.
static void declareTimer(ModuleOp module, StringRef name) {
  if (module.lookupSymbol(name))
    return;
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto type = b.getFunctionType({b.getI64Type()}, {});
  auto decl = func::FuncOp::create(b, module.getLoc(), name, type);
  decl.setPrivate();
}

namespace {

/// Outlines kernels function by function, numbering them in program order.
struct GOptOutlineKernelsPass
    : gopt::impl::GOptOutlineKernelsBase<GOptOutlineKernelsPass> {
  using GOptOutlineKernelsBase::GOptOutlineKernelsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> functions;
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal() && !func->hasAttr(kKernelAttrName))
        functions.push_back(func);
    int64_t next = 0;
    // Ids continue after kernels outlined by an earlier run.
    module.walk([&](func::FuncOp func) {
      if (auto id = func->getAttrOfType<IntegerAttr>(kKernelAttrName))
        next = std::max(next, id.getInt() + 1);
    });
    if (timers) {
      declareTimer(module, kKernelBeginTimer);
      declareTimer(module, kKernelEndTimer);
    }
    for (func::FuncOp func : functions) {
      SmallVector<Operation *> kernels;
      func.walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (!isKernelOp(op))
          return WalkResult::advance();
        kernels.push_back(op);
        return WalkResult::skip();
      });
      // Kernel functions follow their parent, in program order.
      Operation *insertAfter = func;
      for (Operation *op : kernels)
        insertAfter = outline(op, func, insertAfter, next++, symbols);
    }
  }

  /// Moves `op` into a new function `@<parent>_k<id>_<ops>`, placed after
  /// `insertAfter`, calls it, and returns the new function.
  Operation *outline(Operation *op, func::FuncOp parent, Operation *insertAfter,
                     int64_t id, SymbolTable &symbols) {
    Location loc = op->getLoc();
    // Arguments: every distinct non-splat value the op reads.
    SmallVector<Value> arguments;
    SmallVector<Value> splats;
    for (Value v : op->getOperands()) {
      if (isSplatConstant(v)) {
        if (!llvm::is_contained(splats, v))
          splats.push_back(v);
      } else if (!llvm::is_contained(arguments, v)) {
        arguments.push_back(v);
      }
    }
    // Created detached; the symbol table inserts it (renaming on a clash).
    OpBuilder b(&getContext());
    auto type = b.getFunctionType(ValueRange(arguments).getTypes(),
                                  op->getResultTypes());
    std::string name =
        (parent.getSymName() + "_k" + Twine(id) + "_" + describeKernel(op))
            .str();
    auto kernel = func::FuncOp::create(b, loc, name, type);
    kernel.setPrivate();
    kernel->setAttr(kKernelAttrName, b.getI64IntegerAttr(id));
    // Arguments that hold constants (or weights the caller was handed as
    // constant arguments) are marked, so code generation may keep what it
    // derives from them.
    for (auto [i, v] : llvm::enumerate(arguments))
      if (isConstantValue(v))
        kernel.setArgAttr(i, kWeightArgAttrName, b.getUnitAttr());
    symbols.insert(kernel, std::next(Block::iterator(insertAfter)));

    Block *body = kernel.addEntryBlock();
    OpBuilder kb = OpBuilder::atBlockBegin(body);
    IRMapping mapping;
    for (auto [v, arg] : llvm::zip_equal(arguments, body->getArguments()))
      mapping.map(v, arg);
    for (Value v : splats)
      mapping.map(v, kb.clone(*v.getDefiningOp())->getResult(0));
    SmallVector<Value> results;
    if (auto fusion = dyn_cast<FusionOp>(op)) {
      Block &groupBody = fusion.getBodyBlock();
      for (auto [input, blockArg] :
           llvm::zip_equal(fusion.getInputs(), groupBody.getArguments()))
        mapping.map(blockArg, mapping.lookup(input));
      for (Operation &inner : groupBody.without_terminator())
        kb.clone(inner, mapping);
      for (Value v : fusion.getYield()->getOperands())
        results.push_back(mapping.lookupOrDefault(v));
    } else {
      Operation *copy = kb.clone(*op, mapping);
      results.append(copy->result_begin(), copy->result_end());
    }
    func::ReturnOp::create(kb, loc, results);

    OpBuilder cb(op);
    Value idValue;
    if (timers) {
      idValue = arith::ConstantOp::create(cb, loc, cb.getI64IntegerAttr(id));
      func::CallOp::create(cb, loc, kKernelBeginTimer, TypeRange{}, idValue);
    }
    auto call = func::CallOp::create(cb, loc, kernel, arguments);
    if (timers)
      func::CallOp::create(cb, loc, kKernelEndTimer, TypeRange{}, idValue);
    op->replaceAllUsesWith(call.getResults());
    op->erase();
    ++numKernels;
    return kernel;
  }
};

} // namespace
